"""The score sheet as an SVG table (for pages and exports): a row per player, a column per
category and the total, the leaders' totals in bold."""

from __future__ import annotations

from html import escape

from referee import svg
from referee.engine import totals
from referee.games.scorepad.model import State

ROW, FIRST, COL = 28, 120, 90  # pixels: row height, least name column, category column


def picture(game, state: State) -> str:
    cats = state.spec.categories
    table = state.table()
    tot = totals(state.ledger, state.players)
    pick = min if state.spec.lowest_wins else max
    lead = pick(tot.values()) if tot else 0
    first = max(FIRST, 16 + round(svg.name_width(state.players, 14)))  # a long name: cut
    width = first + COL * (len(cats) + 1)
    height = ROW * (len(state.players) + 2)
    of = f" of {state.spec.rounds}" if state.spec.rounds else ""
    title = escape(f"{state.spec.game or 'score sheet'}, round {state.round}{of}"
                   + (" (over)" if state.over else ""))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="14">',
           f'<rect width="{width}" height="{height}" fill="#fbf8f1"/>',
           f'<text x="8" y="{ROW - 9}" font-weight="bold">{title}</text>']
    heads = ["player", *cats, "total"]
    for row, cells in enumerate([heads, *([p, *(table[p][c] for c in cats), tot[p]]
                                         for p in state.players)], start=1):
        y = ROW * (row + 1) - 9
        out.append(f'<line x1="0" x2="{width}" y1="{ROW * row}" y2="{ROW * row}" '
                   'stroke="#999"/>')
        for k, cell in enumerate(cells):
            x = 8 if k == 0 else first + COL * k - 8
            anchor = "start" if k == 0 else "end"
            bold = ' font-weight="bold"' if row == 1 or (
                k == len(cells) - 1 and row > 1 and cell == lead) else ""
            shown, tip = svg.short(cell)
            out.append(f'<text x="{x}" y="{y}" text-anchor="{anchor}"{bold}>{tip}{shown}</text>')
    out.append("</svg>")
    return "\n".join(out)
