"""`referee look` for a symbol deck (Dobble): the cards found by their features
(referee/camera/features.py) against the reference pack, and for every two of them the symbol
they share, where it lies on each in the photo (the deck's plane guarantees exactly one)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

from referee.camera import features
from referee.camera.pack import Face

# per process: the pack's features, read once (computed in 4 s for 55 cards, or read from the
# disk cache beside the pack); keyed by the files' own change times too, so a pack made again
# is read again
_REFERENCES: dict[tuple, features.Reference] = {}


def reference(folder: Path) -> features.Reference:
    """The pack's faces and features, read once per process and pack as it is now; computed
    once per render, OpenCV and parameters (kept beside the pack)."""
    from referee.camera import pack

    faces = pack.read(folder)
    key = (folder.resolve(), *(_stamp(f.image) for f in faces), _stamp(folder / pack.PACK))
    if key not in _REFERENCES:
        _REFERENCES.clear()  # one pack at a time: a table has one deck
        _REFERENCES[key] = features.reference(faces, cache=folder)
    return _REFERENCES[key]


def _stamp(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return (0, 0)  # missing: features.reference says so
    return (st.st_mtime_ns, st.st_size)


def read(ref: features.Reference, image: Any, name: str) -> dict[str, Any]:
    """What the photo shows, as `referee look --json` prints it."""
    found = sorted(features.find(ref, image), key=lambda f: f["face"].id)
    cards = []
    for f in found:
        w, h = features.size(f)
        corners = features.project(f, [[0, 0], [w, 0], [w, h], [0, h]]).tolist()
        cards.append({"id": f["face"].id, "card": f["face"].card, "corners": corners,
                      "center": features.centre(f), "inliers": f["inliers"]})
    shared = [_shared(a, b) for a, b in combinations(found, 2)]
    if len(cards) == 2 and shared[0]["symbol"] is not None:
        for card, at in zip(cards, shared[0]["at"], strict=True):
            card["shared"] = {"symbol": shared[0]["symbol"], "center": at[:2], "radius": at[2]}
    return {"photo": name, "size": [image.shape[1], image.shape[0]], "cards": cards,
            "not_seen": [], "shared": shared}


def outlines(ref: features.Reference, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The cards as the overlay draws them: a round card's rim as a polygon in the photo."""
    import math

    by_id = {f.id: f for f in ref.faces}
    drawn = []
    for card in data["cards"]:
        w, h = by_id[card["id"]].size
        rim = [[w / 2 + w / 2 * math.cos(a), h / 2 + h / 2 * math.sin(a)]
               for a in (2 * math.pi * k / 48 for k in range(48))]
        pts = _through(card, w, h, rim)
        across = max(math.dist(pts[k], pts[k + 24]) for k in range(24))
        drawn.append(card | {"corners": pts, "side": 0.8 * across})
    return drawn


def circles(data: dict[str, Any]) -> list[tuple[float, float, float]]:
    """The shared symbol to ring when exactly two cards are read: (x, y, radius) in the photo,
    on both (the rings of every pair of a dozen cards would hide the cards)."""
    if len(data["cards"]) != 2:
        return []
    return [tuple(at) for s in data["shared"] for at in s["at"]]


def _through(card: dict[str, Any], w: float, h: float, pts) -> list[list[float]]:
    """Render pixels -> photo pixels through the homography the card's corners give."""
    import numpy as np

    from referee.camera import opencv

    cv2 = opencv()
    hmat = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]),
                                       np.float32(card["corners"]))
    return cv2.perspectiveTransform(np.float32([pts]), hmat)[0].tolist()


def _shared(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """The symbol cards a and b share, and where it lies on each: [x, y, radius] photo px."""
    fa, fb = a["face"], b["face"]
    common = {s.name for s in fa.symbols} & {s.name for s in fb.symbols}
    name = min(common) if len(common) == 1 else None
    at = [_where(f, face, name) for f, face in ((a, fa), (b, fb))] if name else []
    return {"cards": [fa.id, fb.id], "symbol": name, "at": at}


def _where(f: dict[str, Any], face: Face, name: str) -> list[float]:
    import numpy as np

    s = next(s for s in face.symbols if s.name == name)
    ring = features.project(f, [[s.x, s.y], [s.x + s.r, s.y], [s.x, s.y + s.r],
                                [s.x - s.r, s.y], [s.x, s.y - s.r]])
    r = float(np.mean(np.linalg.norm(ring[1:] - ring[0], axis=1)))
    return [float(ring[0][0]), float(ring[0][1]), r]
