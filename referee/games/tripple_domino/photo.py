"""Tripple Domino read from a photo (`referee look`): the markers found -> cells and turns.

Each tile printed with `pnp build --markers` carries its marker upright, with the tile's first
corner (a) above it, at a known place on the tile. So a marker's four corners say where its tile
lies and which way it is turned. One homography from the photo to the table's plane, fitted to
the corners of every marker read so far (grown outwards from the first tile, so perspective is
learnt from near tiles before far ones are placed), puts each tile in its lattice cell. A tile
whose marker lands away from every cell, or turned between two of its three turns, or on a
cell another tile claims, is listed as not seen: the board never holds a guess.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from referee.games.tripple_domino.board import Cell, corners
from referee.games.tripple_domino.model import cell_name, name, tiles

R3 = math.sqrt(3)
CENTRE_TOLERANCE = 0.18  # of a tile's side: a marker farther from its cell's centre is not read
TURN_TOLERANCE = 15.0  # degrees off one of the cell's three turns


def read(seen: Sequence[Mapping[str, Any]], geometry: Mapping[str, float]) -> dict[str, Any]:
    """seen: {"id": card id, "corners": 4 (x, y) photo pixels, the marker's own top-left first};
    geometry: the tile's "w", "h" and its marker's "x", "y", "size" (points, from the top-left
    of the tile's box). -> {"cells": {card id: (cell, reading)}, "not_seen": {card id: why},
    "position": the board as a position file, "outline": cell -> its corners in the photo,
    "line": (cell, reading) -> its position line}."""
    import numpy as np

    by_id = {cid: tile for tile, (cid, _) in tiles().items()}
    not_seen: dict[int, str] = {}
    ids = [s["id"] for s in seen]
    marks = {s["id"]: np.asarray(s["corners"], float) for s in seen
             if ids.count(s["id"]) == 1 and s["id"] in by_id}
    for i in set(ids) - set(marks):
        not_seen[i] = "seen twice" if ids.count(i) > 1 else "not a tile of this set"
    if not marks:
        return {"cells": {}, "not_seen": not_seen, "position": position({}),
                "outline": None, "line": None}
    side = geometry["w"]
    first = max(sorted(marks), key=lambda i: len(_grown(marks, i, geometry, (2.5,))[1]))
    h, _ = _grown(marks, first, geometry, (2.5, 5, 10, math.inf))
    placed = {i: p for i, m in marks.items() if (p := _place(h, m, geometry)) is not None}
    claims: dict[Cell, list[int]] = {}
    for i, (c, _) in placed.items():
        claims.setdefault(c, []).append(i)
    cells: dict[int, tuple[Cell, tuple[int, int, int]]] = {}
    for i in marks:
        if i not in placed:
            not_seen[i] = "not on a cell of the board"
        elif len(claims[placed[i][0]]) > 1:
            not_seen[i] = f"shares {cell_name(placed[i][0])} with another tile"
        else:
            c, k = placed[i]
            tile = by_id[i]
            reading = [0, 0, 0]
            for j in range(3):
                reading[(k + j) % 3] = tile[j]
            cells[i] = (c, tuple(reading))
    inverse = np.linalg.inv(h)
    return {"cells": cells, "not_seen": not_seen, "position": position(cells),
            "outline": lambda c: _apply(inverse, np.array(cell_outline(c, side))).tolist(),
            "line": lambda c, r: f"{cell_name(c)} {name(r)}"}


def _grown(marks, first: int, geometry: Mapping[str, float], reaches):
    """(homography, markers placed) with tile `first` in U0,0 or D0,0, refitted as the board
    grows to each reach (in tiles' sides from it). The first tile is the one whose
    neighbourhood places the most tiles, so a tile lying apart never sets the board's frame."""
    import numpy as np

    side = geometry["w"]
    cell, turn = _first_cell(marks[first])
    placed = {first: (cell, turn)}
    h = _fit([(marks[first], _marker_on_board(cell, turn, geometry))])
    centre0 = np.mean(_to_board(h, marks[first]), axis=0)
    for reach in reaches:
        near = {i: m for i, m in marks.items()
                if np.linalg.norm(np.mean(_to_board(h, m), axis=0) - centre0) <= reach * side}
        placed = {i: p for i, m in near.items() if (p := _place(h, m, geometry)) is not None}
        if first not in placed:
            break
        h = _fit([(marks[i], _marker_on_board(c, t, geometry)) for i, (c, t) in placed.items()])
    return h, placed


def position(cells: Mapping[int, tuple[Cell, tuple[int, int, int]]]) -> str:
    """The board as a position file (`U0,0 5-5-5` lines, in the order `referee position`
    writes them); `referee new tripple-domino --position` takes it once a `turn NAME` line
    says who plays next (a photo cannot tell)."""
    rows = [f"{cell_name(c)} {name(r)}" for c, r in sorted(cells.values(),
                                                            key=lambda cr: cr[0][::-1])]
    return "\n".join(["# tripple-domino board read from a photo: cells as CELL CORNERS "
                      "(clockwise from the apex)", *rows]) + "\n"


def vertex_point(v: tuple[int, int], side: float) -> tuple[float, float]:
    """A lattice vertex on the table's plane, y down as in the photo."""
    x, y = v
    return side * (x + y / 2), -side * R3 / 2 * y


def cell_outline(c: Cell, side: float) -> list[tuple[float, float]]:
    return [vertex_point(v, side) for v in corners(c)]


def _first_cell(m) -> tuple[Cell, int]:
    """The first tile's cell and turn: the board is drawn the way the photo is held, so the
    tile's turn nearest the photo's up decides whether it lies in U0,0 or D0,0."""
    up = (m[0] + m[1]) / 2 - m.mean(axis=0)
    clockwise = math.degrees(math.atan2(up[0], -up[1])) % 360
    j = round(clockwise / 60) % 6
    return (("U", 0, 0), {0: 0, 2: 1, 4: 2}[j]) if j % 2 == 0 else (("D", 0, 0),
                                                                      {3: 0, 5: 1, 1: 2}[j])


def _marker_on_board(c: Cell, k: int, g: Mapping[str, float]):
    """The marker's corners on the table's plane for a tile in cell c with its corner a on the
    cell's k-th corner (clockwise from the apex)."""
    import numpy as np

    pts = np.array(cell_outline(c, g["w"]))
    centre = pts.mean(axis=0)
    up = pts[k] - centre
    up /= np.linalg.norm(up)
    right = np.array([-up[1], up[0]])
    dx, dy = g["x"] - g["w"] / 2, g["y"] - 2 * g["h"] / 3  # board units: the tile's points
    mid = centre + right * dx - up * dy
    q = g["size"] / 2
    return np.array([mid - right * q + up * q, mid + right * q + up * q,
                     mid + right * q - up * q, mid - right * q - up * q])


def _place(h, m, g: Mapping[str, float]) -> tuple[Cell, int] | None:
    """The cell and turn of one marker under the homography h, or None when it is not
    clearly on one cell in one of its turns (the cell is the one under the marker's centre:
    markers sit near their tile's centre)."""
    import numpy as np

    side = g["w"]
    board = _to_board(h, m)
    centre = board.mean(axis=0)
    y = -centre[1] / (side * R3 / 2)
    x = centre[0] / side - y / 2
    fx, fy = math.floor(x), math.floor(y)
    c: Cell = ("U" if (x - fx) + (y - fy) < 1 else "D", fx, fy)
    outline = np.array(cell_outline(c, side))
    mid = outline.mean(axis=0)
    up = (board[0] + board[1]) / 2 - centre
    for k in range(3):
        want = outline[k] - mid
        cos = np.dot(up, want) / (np.linalg.norm(up) * np.linalg.norm(want))
        if math.degrees(math.acos(max(-1.0, min(1.0, cos)))) <= TURN_TOLERANCE:
            if np.linalg.norm(_marker_on_board(c, k, g).mean(axis=0) - centre) \
                    > CENTRE_TOLERANCE * side:
                return None
            return c, k
    return None


def _fit(pairs):
    """The homography photo -> board through every pair of corner sets (least squares on
    normalised points: Hartley's DLT)."""
    import numpy as np

    src = np.concatenate([p for p, _ in pairs])
    dst = np.concatenate([q for _, q in pairs])

    def norm(p):
        mean = p.mean(axis=0)
        scale = math.sqrt(2) / max(np.mean(np.linalg.norm(p - mean, axis=1)), 1e-9)
        return np.array([[scale, 0, -scale * mean[0]], [0, scale, -scale * mean[1]], [0, 0, 1]])

    ts, td = norm(src), norm(dst)
    s = _apply(ts, src)
    d = _apply(td, dst)
    rows = []
    for (x, y), (u, v) in zip(s, d, strict=True):
        rows.append([-x, -y, -1, 0, 0, 0, u * x, u * y, u])
        rows.append([0, 0, 0, -x, -y, -1, v * x, v * y, v])
    a = np.array(rows)
    _, vectors = np.linalg.eigh(a.T @ a)  # the null vector of a, without a's own U
    hn = vectors[:, 0].reshape(3, 3)
    h = np.linalg.inv(td) @ hn @ ts
    return h / h[2, 2]


def _apply(h, pts):
    import numpy as np

    p = np.c_[pts, np.ones(len(pts))] @ h.T
    return p[:, :2] / p[:, 2:3]


def _to_board(h, m):
    return _apply(h, m)


def move(board: Mapping[Cell, Sequence[int]],
         cells: Mapping[int, tuple[Cell, tuple[int, int, int]]]) -> tuple[str | None, str]:
    """The move a photo shows: the table's `board` (cell -> corners) with one tile more.
    -> (the move as typed, e.g. `4-5-5 D-1,0`, or None; why none). The photo's board is drawn
    the way the photo was held, so it is matched to the table's up to a shift and a turn by
    the tiles both show (each tile is in the set once); a tile the photo shows elsewhere than
    the table has it, or a fit that two placements allow, proposes nothing."""
    table = {tuple(sorted(r)): dict(zip(corners(c), r, strict=True)) for c, r in board.items()}
    seen = {tuple(sorted(r)): dict(zip(corners(c), r, strict=True)) for c, r in cells.values()}
    common = sorted(set(table) & set(seen))
    if not common:
        return None, "the photo shows none of the tiles on the table"
    new = [t for t in seen if t not in table]
    if len(new) != 1:
        return None, (f"the photo shows {len(new)} tiles not on the table: a move lays one"
                      if new else "the photo shows no tile that is not on the table")
    proposals = set()
    for k in range(6):
        turned = {t: {_turn(v, k): n for v, n in vs.items()} for t, vs in seen.items()}
        anchor = common[0]
        shift = _sub(min(table[anchor]), min(turned[anchor]))
        placed = {t: {_add(v, shift): n for v, n in vs.items()} for t, vs in turned.items()}
        if any(placed[t] != table[t] for t in common):
            continue
        cell = _cell(placed[new[0]])
        proposals.add(f"{name(placed[new[0]][v] for v in corners(cell))} {cell_name(cell)}")
    if len(proposals) != 1:
        return None, ("the tiles on the table lie otherwise in the photo" if not proposals
                      else "the photo fits the table in more than one way: type the move")
    return proposals.pop(), ""


def _turn(v: tuple[int, int], k: int) -> tuple[int, int]:
    """Vertex v turned k sixths of a turn about the origin."""
    for _ in range(k):
        v = (-v[1], v[0] + v[1])
    return v


def _add(a, b):
    return a[0] + b[0], a[1] + b[1]


def _sub(a, b):
    return a[0] - b[0], a[1] - b[1]


def _cell(vertices) -> Cell:
    """The cell whose corners are these three vertices."""
    x = min(v[0] for v in vertices)
    y = min(v[1] for v in vertices)
    return ("U", x, y) if (x, y) in vertices else ("D", x, y)
