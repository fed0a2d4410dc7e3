"""Tripple Domino's position as text: the whole board, or a view that fits a terminal.

After a round with three players the whole board is some 50 lines by 100 columns, more than a
laptop's terminal shows between turns. `show` therefore draws the full board only when it fits
80x24 (with the referee's own line above it); otherwise it draws the part of the board around
the latest tile, as large as fits, and says how to get the rest (`referee show --full`).
"""

from __future__ import annotations

from referee.engine import totals
from referee.games.tripple_domino.board import LEGEND, corners, draw, free_cells, scale_for, spot
from referee.games.tripple_domino.model import State, tiles

SCREEN_W, SCREEN_H = 80, 24
ABOVE = 1  # the line `referee show` prints above the view ("match 1: ... after event 9")


def _tags(state: State) -> dict:
    return {c: f"#{tiles()[tuple(sorted(t))][0]}" for c, t in state.board.items()}


def _status(state: State, to_move: str | None) -> str:
    return {
        "start": "next: `start` with everyone's best tile",
        "play": f"to move: {to_move}" + (
            f" (drew {state.draws} this turn)" if state.draws else ""),
        "end": (f"{state.out} went out" if state.out else "blocked") + ": tell the hands "
               "left with `end`",
        "over": "game over",
    }[state.phase]


def _reserve(state: State) -> str:
    return f"reserve: {state.reserve} tiles" + (
        f", {state.round_draws} of {state.cap} draws used this round" if state.cap else "")


def full(state: State, to_move: str | None, tot: dict[str, int] | None = None) -> str:
    """The whole board, one line per player, the reserve and whose turn it is (`tot`: the
    totals when the caller has them: a long match's ledger takes milliseconds to add up)."""
    lines = [f"round {state.round} · {state.variant} rules · target {state.target}"]
    if state.board:
        lines += [draw(state.board, state.numbers, _tags(state)), LEGEND]
    else:
        lines.append("(empty table)")
    tot = tot if tot is not None else totals(state.ledger, state.players)
    for k, p in enumerate(state.players):
        mark = "→" if state.turn == k and state.phase == "play" else " "
        lines.append(f"{mark} {p:<10} {tot[p]:>4} points  {state.hands[k]:>2} tiles in hand")
    lines += [_reserve(state), _status(state, to_move)]
    return "\n".join(lines)


def fits(text: str) -> bool:
    rows = text.split("\n")
    return len(rows) + ABOVE <= SCREEN_H and max(len(r) for r in rows) <= SCREEN_W


def show(state: State, to_move: str | None) -> str:
    """The whole board when it fits 80x24, else the board around the latest tile: the same
    player lines two to a line, and the header, reserve and turn on as few lines as fit."""
    tot = totals(state.ledger, state.players)
    whole = full(state, to_move, tot)
    if fits(whole) or not state.board:
        return whole
    import textwrap  # only a large board needs it: keeps `referee` start-up light

    cells = [f"{'→' if state.turn == k and state.phase == 'play' else ' '} {p:<10} "
             f"{tot[p]:>4} points  {state.hands[k]:>2} in hand"
             for k, p in enumerate(state.players)]
    footer = [" · ".join(cells[k:k + 2]) for k in range(0, len(cells), 2)]
    footer += textwrap.wrap(f"{_reserve(state)} · {_status(state, to_move)}", SCREEN_W)
    latest = list(state.board)[-1]  # the board keeps the order tiles were placed in
    h = scale_for(state.board)
    rows = 0
    for _ in range(2):  # the header's length depends on the count shown, which depends on rows
        window = around(state.board, latest, rows=max(1, rows), width=SCREEN_W, h=h)
        shown = sum(c in window for c in state.board)
        where = (f"around {latest[0]}{latest[1]},{latest[2]}: {shown} of "
                 f"{len(state.board)} tiles (--full: all)" if shown < len(state.board)
                 else f"all {shown} tiles")
        head = textwrap.wrap(f"round {state.round} · {state.variant} · target {state.target}"
                             f" · {where}", SCREEN_W)
        rows = (SCREEN_H - ABOVE - len(head) - len(footer) - 1) // h
    window = around(state.board, latest, rows=max(1, rows), width=SCREEN_W, h=h)
    return "\n".join([*head, draw(state.board, state.numbers, _tags(state), window, h),
                      *footer])


def around(board: dict, latest: tuple, rows: int, width: int, h: int) -> set:
    """The cells (tiles and free cells) of a window `rows` lattice rows high and `width`
    columns wide (drawn at h lines per row), centred on the latest tile and pushed inside the
    board's extent; a cell is in only when all of it is (so its label is whole)."""
    cells = set(board) | free_cells(board)
    points = {v: spot(v, h) for c in cells for v in corners(c)}
    ys = [v[1] for v in points]
    cols = [p[1] for p in points.values()]
    y0 = min(v[1] for v in corners(latest))
    c0 = sum(points[v][1] for v in corners(latest)) // 3
    low = _clamp(y0 - (rows - 1) // 2, min(ys), max(ys) - rows)
    left = _clamp(c0 - width // 2, min(cols), max(cols) - (width - 1))
    return {c for c in cells
            if all(low <= v[1] <= low + rows and left <= points[v][1] <= left + width - 1
                   for v in corners(c))}


def _clamp(value: int, lo: int, hi: int) -> int:
    """value moved into [lo, hi]; when the range is empty (the board is smaller), lo."""
    return lo if hi < lo else min(max(value, lo), hi)
