"""Tripple Domino's board as SVG: every tile a triangle with its cell and card id, and every
number on the vertex where it lies (the tiles meeting there agree on it, D3: one number, as on
the table, rather than up to six copies crowding each other); the free cells next to the tiles
dashed, with the cell to type (lower case, as `show` labels them); the latest tile ringed.
"""

from __future__ import annotations

import math

from referee import svg
from referee.games.tripple_domino.board import corners, free_cells
from referee.games.tripple_domino.model import State, cell_name, tiles

SIDE = 80  # a lattice step, in picture units
RADIUS = 17  # of the disc a number sits on
STYLE = """
.tile{fill:#fbf3dc;stroke:#3b3b3b;stroke-width:2}
.vertex{fill:#fff;stroke:#1d3557;stroke-width:2}
.corner{font-weight:700;fill:#1d3557}
.cell{fill:#555}
"""


def point(v: tuple[int, int]) -> svg.Point:
    """Where lattice vertex (x, y) lies: rows of equilateral triangles, y upwards."""
    x, y = v
    return SIDE * (x + y / 2), -SIDE * y * math.sqrt(3) / 2


def picture(game, state: State) -> str:
    title = f"Tripple Domino, round {state.round}: {len(state.board)} tiles on the table"
    if not state.board:
        return svg.message("the table is empty: the round opens with `start`")
    latest = list(state.board)[-1]  # the board keeps the order tiles were placed in
    free = free_cells(state.board)
    body: list[str] = []
    spots: list[svg.Point] = []
    for cell in sorted(free):
        pts = [point(v) for v in corners(cell)]
        spots += pts
        mid = _centre(pts)
        body.append(svg.group([svg.polygon(pts, "free"),
                               svg.text(*mid, cell_name(cell).lower(), 13, "free-label")],
                              "free-cell", data_cell=cell_name(cell)))
    for cell, numbers in state.board.items():
        pts = [point(v) for v in corners(cell)]
        spots += pts
        mid = _centre(pts)
        card_id = tiles()[tuple(sorted(numbers))][0]
        body.append(svg.group([svg.polygon(pts, "tile latest" if cell == latest else "tile"),
                               svg.text(mid[0], mid[1] - 7, cell_name(cell), 14, "cell"),
                               svg.text(mid[0], mid[1] + 9, f"#{card_id}", 13, "note")],
                              "placed", data_cell=cell_name(cell),
                              data_tile="-".join(map(str, numbers))))
    for v, n in state.numbers.items():
        x, y = point(v)
        spots += [(x - RADIUS, y - RADIUS), (x + RADIUS, y + RADIUS)]
        body.append(svg.group([f'<circle class="vertex" cx="{svg.num(x)}" cy="{svg.num(y)}" '
                               f'r="{RADIUS}"/>', svg.text(x, y + 1, n, 26, "corner")],
                              "number", data_vertex=f"{v[0]},{v[1]}"))
    return svg.document(body, svg.bounds(spots), title, STYLE)


def _centre(pts: list[svg.Point]) -> svg.Point:
    return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3
