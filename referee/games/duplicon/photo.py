"""Duplicon read from a photo (`referee look`): the markers found -> the 3×3 grid.

Each face printed with `pnp build --markers` carries its card's own marker, every back the one
marker all backs share: a face-down card is found, never named. The cards lie flat and each
marker is printed square at a known size, so one homography from the photo to the table's
plane is fitted that makes every marker read such a square (each card's place and the plane
fitted in turn). On that plane the grid's columns and rows are read from the cards' centres,
as the photo is held: a1 top left, as `referee show` draws it. A card between two cells,
turned across the grid, on a cell another card claims, outside the three columns and rows, or
in a grid whose columns (or rows) cannot be told apart, is listed as not seen: the grid never
holds a guess.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from referee.games.duplicon.model import POSITIONS

CELL_TOLERANCE = 0.25  # of a card's side across its column (row): a centre farther is between
TURN_TOLERANCE = 15.0  # degrees off the grid's quarter turns
ADJACENT = 1.6  # of a card's side: two columns (rows) closer than this are neighbours
ROUNDS = 50  # of the plane's fit, each ending when no marker moves by a hundredth of a point


def read(seen: Sequence[Mapping[str, Any]], geometry: Mapping[str, Any],
         types: Mapping[int, str]) -> dict[str, Any]:
    """seen: {"id": card id, "corners": the marker's 4 corners in photo pixels, its own
    top-left first}, or {"id": None, "back": True, ...} for a back's marker; geometry: the
    card's "w", "h", its face marker's "x", "y", "size" and "back" (the same for the back's
    marker); types: card id -> type key, for the cards that lie in the grid. -> as
    referee/camera/look.py reads it: "cells" (card id -> (place, type)), "face_down" (place ->
    its marker's corners), "not_seen" (card id -> why), "backs_not_seen" ([(corners, why)]),
    "position", "outline" (place -> the card's corners in the photo) and "line"."""
    import numpy as np

    ids = [s["id"] for s in seen if not s.get("back")]
    not_seen: dict[int, str] = {}
    marks: list[tuple[int | None, Any, Mapping[str, float]]] = []
    for s in seen:
        m = np.asarray(s["corners"], float)
        if s.get("back"):
            marks.append((None, m, geometry["back"]))
        elif ids.count(s["id"]) > 1:
            not_seen[s["id"]] = "seen twice"
        elif s["id"] not in types:
            not_seen[s["id"]] = "not a card that lies in the grid"
        else:
            marks.append((s["id"], m, geometry))
    if not marks:
        return _result({}, {}, not_seen, [], lambda _: [])
    h, cards = _plane([(m, g) for _, m, g in marks], geometry["w"], geometry["h"])
    places, why = _grid(h, cards, geometry["w"], geometry["h"])
    claims: dict[str, int] = {}
    for p in places.values():
        claims[p] = claims.get(p, 0) + 1
    cells: dict[int, tuple[str, str]] = {}
    face_down: dict[str, list] = {}
    backs_not_seen: list[tuple[list, str]] = []
    corners_of: dict[str, Any] = {}
    for k, (cid, m, _) in enumerate(marks):
        place = places.get(k)
        reason = why.get(k) or (f"shares {place} with another card" if claims[place] > 1
                                else None)
        if reason is not None:
            if cid is None:
                backs_not_seen.append((m.tolist(), reason))
            else:
                not_seen[cid] = reason
            continue
        corners_of[place] = cards[k]["corners"]
        if cid is None:
            face_down[place] = m.tolist()
        else:
            cells[cid] = (place, types[cid])
    inverse = np.linalg.inv(h)
    return _result(cells, face_down, not_seen, backs_not_seen,
                   lambda p: _apply(inverse, corners_of[p]).tolist())


def _result(cells, face_down, not_seen, backs_not_seen, outline) -> dict[str, Any]:
    return {"cells": cells, "face_down": face_down, "not_seen": not_seen,
            "backs_not_seen": backs_not_seen, "position": position(cells, face_down),
            "outline": outline, "line": lambda p, t: f"{p}={t or '?'}"}


def position(cells: Mapping[int, tuple[str, str]], face_down: Mapping[str, Any]) -> str:
    """The grid as the `grid` line of a position (`referee new duplicon --position` takes
    it; the rest of the table keeps a new match's values): `?` a card face down; a place with
    no card read is left out, and said, since a hole and an unread card look alike."""
    shown = {p: t for p, t in cells.values()} | {p: "?" for p in face_down}
    out = ["# duplicon grid read from a photo: columns a-c left to right, rows 1-3 top to "
           "bottom as the photo is held; ? a card face down"]
    if shown:
        out.append("grid " + " ".join(f"{p}={shown[p]}" for p in POSITIONS if p in shown))
    out += [f"# no card read at {p}: a hole ({p}=-) or a card not seen ({p}=?)"
            for p in POSITIONS if p not in shown]
    return "\n".join(out) + "\n"


def _plane(marks, w: float, h: float) -> tuple[Any, list[dict[str, Any]]]:
    """(The homography photo -> table plane in points, per marker its card's "centre",
    "angle" (degrees, the card's right from the plane's x) and "corners" on the plane)."""
    import numpy as np

    from referee.camera import opencv

    cv2 = opencv()
    squares = [_square(g["size"]) for _, g in marks]
    mids = np.array([m.mean(axis=0) for m, _ in marks])
    k = int(np.argmin(np.linalg.norm(mids - mids.mean(axis=0), axis=1)))  # the middle one
    hom = cv2.getPerspectiveTransform(np.float32(marks[k][0]), np.float32(squares[k]))
    photo = np.concatenate([m for m, _ in marks]).astype(np.float64)
    last = None
    for _ in range(ROUNDS):
        poses = [_rigid(q, _apply(hom, m)) for (m, _), q in zip(marks, squares, strict=True)]
        targets = np.concatenate([q @ r.T + t for q, (r, t) in zip(squares, poses, strict=True)])
        fitted = cv2.findHomography(photo, targets, 0)[0] if len(marks) > 1 else None
        if fitted is not None:  # None: no better fit than the last one (degenerate points)
            hom = fitted
        if last is not None and np.abs(targets - last).max() < 0.01:
            break
        last = targets
    poses = [_rigid(q, _apply(hom, m)) for (m, _), q in zip(marks, squares, strict=True)]
    cards = []
    for (_, g), (r, t) in zip(marks, poses, strict=True):
        box = np.array([[0, 0], [w, 0], [w, h], [0, h]]) - [g["x"], g["y"]]  # marker-centred
        corners = box @ r.T + t
        cards.append({"centre": corners.mean(axis=0), "corners": corners,
                      "angle": math.degrees(math.atan2(r[1, 0], r[0, 0]))})
    return hom, cards


def _grid(hom, cards, w: float, h: float) -> tuple[dict[int, str], dict[int, str]]:
    """(marker index -> its place a1..c3, marker index -> why it has none)."""
    import numpy as np

    fourfold = [math.radians(4 * c["angle"]) for c in cards]
    phi = math.degrees(math.atan2(sum(map(math.sin, fourfold)),
                                  sum(map(math.cos, fourfold)))) / 4
    why = {k: "turned across the grid" for k, c in enumerate(cards)
           if abs((c["angle"] - phi + 45) % 90 - 45) > TURN_TOLERANCE}
    keep = [k for k in range(len(cards)) if k not in why]
    if not keep:
        return {}, why
    # the grid's right: of its four quarter turns, the one nearest the photo's right
    middle = np.mean([cards[k]["centre"] for k in keep], axis=0)
    right = max((phi + 90 * q for q in range(4)), key=lambda a: _photo_right(hom, middle, a))
    a = math.radians(right)
    ux, vy = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    size_u = float(np.median([w if round((cards[k]["angle"] - right) / 90) % 2 == 0 else h
                              for k in keep]))
    size_v = w + h - size_u
    us = {k: float(cards[k]["centre"] @ ux) for k in keep}
    vs = {k: float(cards[k]["centre"] @ vy) for k in keep}
    gap_u, gap_v = _gap(us, size_u), _gap(vs, size_v)
    cols, col_why = _lines(us, size_u, gap_u if gap_u is not None else gap_v, "columns")
    rows, row_why = _lines(vs, size_v, gap_v if gap_v is not None else gap_u, "rows")
    places = {}
    for k in keep:
        if k in col_why or k in row_why:
            why[k] = col_why.get(k) or row_why[k]
        else:
            places[k] = f"{'abc'[cols[k]]}{rows[k] + 1}"
    return places, why


def _photo_right(hom, at, degrees: float) -> float:
    """How nearly the plane's direction `degrees`, from the point `at`, points to the photo's
    right (the cosine of the angle between them)."""
    import numpy as np

    a = math.radians(degrees)
    ends = _apply(np.linalg.inv(hom), np.array([at, at + 10 * np.array([math.cos(a),
                                                                          math.sin(a)])]))
    d = ends[1] - ends[0]
    return float(d[0] / np.linalg.norm(d))


def _gap(values: Mapping[int, float], size: float) -> float | None:
    """The space between neighbouring columns (rows) of cards, or None when no two
    neighbours are seen (then the other axis's is taken: players lay a grid evenly enough)."""
    import numpy as np

    centres = [_centre(g, values) for g in _groups(values, size)]
    gaps = [b - a - size for a, b in itertools.pairwise(centres) if b - a < ADJACENT * size]
    return float(np.median(gaps)) if gaps else None


def _groups(values: Mapping[int, float], size: float) -> list[list[int]]:
    """The cards in columns (rows): sorted along the axis, a new one after a space of more
    than half a card."""
    order = sorted(values, key=values.__getitem__)
    groups = [[order[0]]]
    for a, b in itertools.pairwise(order):
        if values[b] - values[a] > size / 2:
            groups.append([b])
        else:
            groups[-1].append(b)
    return groups


def _centre(group: list[int], values: Mapping[int, float]) -> float:
    import numpy as np

    return float(np.median([values[k] for k in group]))


def _lines(values: Mapping[int, float], size: float, gap: float | None, what: str
           ) -> tuple[dict[int, int], dict[int, str]]:
    """(card -> its column (row) 0-2, card -> why it has none). The columns are counted from
    the fullest one a pitch (a card and a gap) apart; three must be told apart: with fewer
    seen, or no two measured as neighbours, which is `a` is unknown."""
    if gap is None:
        return {}, {k: f"fewer than three {what} seen: which is which cannot be told"
                    for k in values}
    pitch = size + gap
    groups = _groups(values, size)
    anchor = _centre(max(groups, key=len), values)
    index = {k: round((values[k] - anchor) / pitch) for k in values}
    counts: dict[int, int] = {}
    for i in index.values():
        counts[i] = counts.get(i, 0) + 1
    low, high = min(counts), max(counts)
    windows = {s: sum(n for i, n in counts.items() if s <= i < s + 3)
               for s in range(low, high - 1)}
    best = max(windows.values(), default=0)
    starts = [s for s, n in windows.items() if n == best]
    if len(starts) != 1:
        reason = (f"fewer than three {what} seen: which is which cannot be told"
                  if high - low < 2 else f"more than three {what}: photograph the grid alone")
        return {}, {k: reason for k in values}
    out, why = {}, {}
    for k, i in index.items():
        if not starts[0] <= i < starts[0] + 3:
            why[k] = "outside the grid's three columns and rows"
        elif abs(values[k] - anchor - i * pitch) > CELL_TOLERANCE * size:
            why[k] = "between two cells"
        else:
            out[k] = i - starts[0]
    return out, why


def _square(size: float):
    import numpy as np

    q = size / 2
    return np.array([[-q, -q], [q, -q], [q, q], [-q, q]])


def _rigid(a, b):
    """(R, t): the turn and shift (no scaling: a card keeps its size) taking the centred
    points a nearest to b."""
    import numpy as np

    cb = b.mean(axis=0)
    m = (b - cb).T @ a
    angle = math.atan2(m[1, 0] - m[0, 1], m[0, 0] + m[1, 1])
    r = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    return r, cb


def _apply(h, pts):
    import numpy as np

    p = np.c_[pts, np.ones(len(pts))] @ h.T
    return p[:, :2] / p[:, 2:3]
