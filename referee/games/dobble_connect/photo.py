"""Dobble Connect read from a photo (`referee look`): the markers found -> the cards' hexes.

Each card printed with `pnp build --markers` carries its marker upright below its centre. A
marker's four corners are a small local frame of the table as the photo sees it (perspective
included), so a card's centre and the step to each neighbour are measured in the frame of a
card already placed: the board is grown outwards from the black start card at 0,0, one
neighbour at a time, and never through one long stretch of perspective. A card whose centre
lands between cells, turned between two of the hexagon's six turns, or on a cell another card
claims, is listed as not seen: the board never holds a guess.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from referee.games.dobble_connect.model import BLACK, hex_name

CELL_TOLERANCE = 0.2  # of a card's width: a centre farther from its hex is not read
TURN_TOLERANCE = 12.0  # degrees off one of the hexagon's six turns


def read(seen: Sequence[Mapping[str, Any]], geometry: Mapping[str, float],
         colors: Mapping[int, str]) -> dict[str, Any]:
    """seen: {"id": card id, "corners": the marker's 4 corners in photo pixels, its own
    top-left first}; geometry: the card's "w", "h" and its marker's "x", "y", "size" (points);
    colors: card id -> colour. -> as referee/camera/look.py reads it: "cells" (card id ->
    hex), "not_seen" (card id -> why), "position", "outline" and "line"."""
    import numpy as np

    ids = [s["id"] for s in seen]
    frames = {s["id"]: _frame(np.asarray(s["corners"], float), geometry) for s in seen
              if ids.count(s["id"]) == 1 and s["id"] in colors}
    not_seen = {i: ("seen twice" if ids.count(i) > 1 else "not a card of this deck")
                for i in set(ids) - set(frames)}
    starts = [i for i in frames if colors[i] == BLACK]
    cells: dict[int, tuple[int, int]] = {}
    if starts:
        # the start card: the black card with the most cards around it
        start = max(sorted(starts), key=lambda i: len(_grown(frames, i, geometry)))
        cells = _grown(frames, start, geometry)
    claims: dict[tuple[int, int], list[int]] = {}
    for i, h in cells.items():
        claims.setdefault(h, []).append(i)
    for i in frames:
        if i not in cells:
            not_seen[i] = ("no black start card read" if not starts
                           else "not on a cell next to the board")
        elif len(claims[cells[i]]) > 1:
            not_seen[i] = f"shares {hex_name(cells[i])} with another card"
    cells = {i: h for i, h in cells.items() if i not in not_seen}
    outline = {i: frames[i]["outline"] for i in cells}
    by_cell = {h: i for i, h in cells.items()}
    return {"cells": {i: (h, None) for i, h in cells.items()}, "not_seen": not_seen,
            "position": position(cells),
            "outline": lambda h: outline[by_cell[h]],
            "line": lambda h, _: f"{hex_name(h)} {by_cell[h]}"}


def position(cells: Mapping[int, tuple[int, int]]) -> str:
    """The board as `referee position` writes its cards (Q,R CARD lines, 0,0 the start)."""
    rows = [f"{hex_name(h)} {i}" for i, h in sorted(cells.items(), key=lambda x: x[1][::-1])]
    return "\n".join(["# dobble-connect board read from a photo: Q,R CARD per card on the "
                      "table (0,0: the black start card)", *rows]) + "\n"


def _frame(m, g: Mapping[str, float]) -> dict[str, Any]:
    """The card's local frame in the photo: its centre, and per point of the card the
    photo's pixels along the marker's right and down (perspective taken as locally affine)."""
    import numpy as np

    right = ((m[1] - m[0]) + (m[2] - m[3])) / 2 / g["size"]
    down = ((m[3] - m[0]) + (m[2] - m[1])) / 2 / g["size"]
    mid = m.mean(axis=0)
    centre = mid + right * (g["w"] / 2 - g["x"]) + down * (g["h"] / 2 - g["y"])
    r = g["w"] / math.sqrt(3)  # centre to corner of a pointy-top hexagon as wide as the card
    outline = [(centre + right * r * math.cos(a) + down * r * math.sin(a)).tolist()
               for a in (math.radians(-90 + 60 * k) for k in range(6))]
    return {"centre": centre, "basis": np.column_stack([right, down]), "outline": outline}


def _grown(frames, start: int, g: Mapping[str, float]) -> dict[int, tuple[int, int]]:
    """card id -> hex, grown from `start` at 0,0 (its marker's up is the board's up): each
    card is placed from a placed neighbour's frame, in the order of their distance."""
    import numpy as np

    width = g["w"]
    turn = {start: 0.0}  # each placed card's marker turn from the board's up, degrees
    cells = {start: (0, 0)}
    todo = [start]
    while todo:
        a = todo.pop(0)
        fa = frames[a]
        inverse = np.linalg.inv(fa["basis"])
        for b, fb in frames.items():
            if b in cells:
                continue
            step = inverse @ (fb["centre"] - fa["centre"])  # points, in a's own frame
            if np.linalg.norm(step) > 1.5 * width:
                continue
            up_b = inverse @ (fb["basis"] @ np.array([0.0, -1.0]))
            off = math.degrees(math.atan2(up_b[0], -up_b[1]))
            k = round(off / 60)
            if abs(off - 60 * k) > TURN_TOLERANCE:
                continue
            x, y = _turned(step, turn[a])
            rr = y / (1.5 * width / math.sqrt(3))
            q = x / width - rr / 2
            cell = (round(q), round(rr))
            dq, dr = q - cell[0], rr - cell[1]
            miss = math.hypot(width * (dq + dr / 2), 1.5 * width / math.sqrt(3) * dr)
            if miss > CELL_TOLERANCE * width or cell == (0, 0):
                continue
            near = cells[a]
            cells[b] = (near[0] + cell[0], near[1] + cell[1])
            turn[b] = (turn[a] + 60 * k) % 360
            todo.append(b)
    return cells


def _turned(v, degrees: float) -> tuple[float, float]:
    """v in a card's frame turned into the board's (the card lies `degrees` clockwise)."""
    a = math.radians(degrees)
    return (v[0] * math.cos(a) - v[1] * math.sin(a), v[0] * math.sin(a) + v[1] * math.cos(a))

