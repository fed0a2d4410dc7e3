"""Coda's rows as SVG: each player's tiles left to right, revealed tiles with their number,
hidden tiles as backs only (their colour, which the table sees), positions under them.

The referee knows no hidden tile (a sealed one is only a salted hash), and this drawing reads
a slot's number only when the slot is revealed, so a picture cannot show a secret.
"""

from __future__ import annotations

from referee import svg
from referee.games.coda.model import COLOURS, State, value_word

W, H, GAP = 44, 64, 10  # a tile and the space between tiles
NAME_W = 110
ROW_H = H + 34
STYLE = """
.face-black{fill:#1e1e1e;stroke:#1e1e1e;stroke-width:2}
.face-white{fill:#fafafa;stroke:#1e1e1e;stroke-width:2}
.back-black{fill:#1e1e1e;stroke:#1e1e1e;stroke-width:2}
.back-white{fill:#e9e9e9;stroke:#1e1e1e;stroke-width:2}
.hatch{fill:none;stroke:#888;stroke-width:1.5}
.on-black{fill:#fafafa;font-weight:700}
.on-white{fill:#1e1e1e;font-weight:700}
.player{font-weight:700}
.turn{fill:#d1495b;font-weight:700}
"""


def picture(game, state: State) -> str:
    title = f"Coda, round {state.round} of {state.rounds}"
    body: list[str] = []
    widest = 0
    first = max(NAME_W, 12 + svg.name_width(["▶ " + p for p in state.players], 18))
    for k, (player, row, dealt) in enumerate(zip(state.players, state.rows, state.dealt,
                                                 strict=True)):
        y = k * ROW_H
        playing = state.phase not in ("deal", "closed", "over") and player == state.to_play
        body.append(svg.name(0, y + H / 2 - 4, ("▶ " if playing else "") + player, 18,
                             "turn" if playing else "player"))
        if not dealt:
            body.append(svg.text(first, y + H / 2, "no row yet", 15, "note", anchor="start"))
            continue
        x = first
        for pos, slot in enumerate(row, start=1):
            body.append(_tile(x, y, slot.colour, slot.tile, pos))
            x += W + GAP
        if playing and state.drawn is not None:
            body.append(svg.text(x + 8, y + H / 2, "drew", 14, "note", anchor="start"))
            body.append(_tile(x + 48, y, state.drawn, None, None))
            x += 48 + W + GAP
        hidden = sum(s.tile is None for s in row)
        status = "wins the round" if player == state.winner else (
            f"{hidden} hidden" if hidden else "out")
        body.append(svg.text(0, y + H / 2 + 24, status, 13, "note", anchor="start"))
        widest = max(widest, x)
    pool = f"pool: {state.pool[0]} black, {state.pool[1]} white"
    bottom = len(state.players) * ROW_H
    body.append(svg.text(0, bottom, pool, 15, "note", anchor="start"))
    return svg.document(body, (0, 0, max(widest, first + 200), bottom + 10), title, STYLE)


def _tile(x: float, y: float, colour: int, tile: int | None, pos: int | None) -> str:
    """A revealed tile shows its number; a hidden one (tile None) only its back."""
    name = COLOURS[colour]
    parts = []
    if tile is None:
        parts.append(svg.card(x, y, W, H, f"back-{name}", 6))
        parts.append(svg.card(x + 7, y + 7, W - 14, H - 14, "hatch", 3))
        kind = "hidden"
    else:
        parts.append(svg.card(x, y, W, H, f"face-{name}", 6))
        parts.append(svg.text(x + W / 2, y + H / 2, value_word(tile) if value_word(tile) != "dash"
                              else "–", 24, f"on-{name}"))
        kind = "revealed"
    if pos is not None:
        parts.append(svg.text(x + W / 2, y + H + 14, pos, 12, "note"))
    return svg.group(parts, f"tile {kind} {name}")
