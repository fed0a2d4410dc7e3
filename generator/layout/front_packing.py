"""Dense packing of a few circles in a circle or a hexagon: each circle placed where it
touches two others (or one and the boundary) in the tightest hole, the whole set scaled as
large as that still fits.

The relaxation packer (generator.layout.packing.pack) pushes random circles apart while they
grow; it jams early (8 circles cover 59 % of the region on average, at best 74 %). Placing
the circles one by one, largest first, each touching two things already placed, in the spot
hemmed in by the most other things (the "maximum hole degree" rule of greedy circle packing),
fills the rim first and then the middle: 73 % of a circle on average. A bisection
on the scale finds the largest one at which every circle still finds a spot. Used where the
circles themselves are what is seen (icons drawn on discs), so their share is the card's ink.
Pure Python; deterministic for a given seed.
"""

from __future__ import annotations

import math
import random

BISECTIONS = 14  # the scale to 1/16000 of the first guess
FIRST_GUESS = 0.92  # no set of circles covers more of a circle than this: the upper bound


def _touching(ax: float, ay: float, da: float, bx: float, by: float, db: float):
    """The points at distance da from A and db from B (none, or two)."""
    dx, dy = bx - ax, by - ay
    d2 = dx * dx + dy * dy
    d = math.sqrt(d2)
    if d < 1e-12 or d > da + db or d < abs(da - db):
        return ()
    a = (da * da - db * db + d2) / (2 * d)
    h = math.sqrt(max(da * da - a * a, 0.0))
    mx, my = ax + a * dx / d, ay + a * dy / d
    ux, uy = -dy / d * h, dx / d * h
    return ((mx + ux, my + uy), (mx - ux, my - uy))


class _Bounds:
    """The region's boundary for a circle of radius r: a rim (a round region) or six edge
    lines (a hexagon: n.p <= apothem), each one thing a circle may touch."""

    def __init__(self, region):
        self.round = region.sides == 0
        self.r = region.r
        self.normals = region.normals()

    def gaps(self, x: float, y: float, r: float) -> list[float]:
        """How far a circle at (x, y) is from each part of the boundary (< 0: outside)."""
        if self.round:
            return [self.r - r - math.hypot(x, y)]
        return [a - r - (nx * x + ny * y) for nx, ny, a in self.normals]

    def corners(self, r: float) -> list[tuple[float, float]]:
        """Spots touching two parts of the boundary: a round region's rim point (the first
        circle; where is immaterial, cards are turned), a hexagon's six corner nooks."""
        if self.round:
            return [(self.r - r, 0.0)]
        out = []
        for k, (nx, ny, a) in enumerate(self.normals):
            mx, my, b = self.normals[(k + 1) % len(self.normals)]
            det = nx * my - ny * mx
            out.append((((a - r) * my - ny * (b - r)) / det, (nx * (b - r) - (a - r) * mx) / det))
        return out

    def touching(self, x: float, y: float, d: float, r: float):
        """Spots at distance d from (x, y) that touch the boundary."""
        if self.round:
            return _touching(0.0, 0.0, self.r - r, x, y, d)
        out = []
        for nx, ny, a in self.normals:  # the line n.p = a - r, met by the circle of radius d
            off = a - r - (nx * x + ny * y)
            if abs(off) > d:
                continue
            along = math.sqrt(d * d - off * off)
            px, py = x + nx * off, y + ny * off
            out.extend(((px - ny * along, py + nx * along), (px + ny * along, py - nx * along)))
        return out


def place_greedily(radii: list[float], order: list[int], bounds: _Bounds
                   ) -> list[tuple[float, float]] | None:
    """Centres for circles of these radii inside the region, placed in the given order;
    None when one of them finds no spot."""
    tol = 1e-9 * bounds.r
    placed: list[tuple[float, float, float]] = []
    centres: dict[int, tuple[float, float]] = {}
    for i in order:
        spot = _tightest_spot(placed, radii[i], bounds, tol)
        if spot is None:
            return None
        placed.append((spot[0], spot[1], radii[i]))
        centres[i] = spot
    return [centres[i] for i in range(len(radii))]


def _tightest_spot(placed, r: float, bounds: _Bounds, tol: float):
    """Of the spots where a circle of radius r touches two things (placed circles or the
    boundary), the legal one with the most other things close by (its third-nearest gap
    smallest), then the one nearest the rim."""
    spots = bounds.corners(r)
    for x, y, pr in placed:
        spots.extend(bounds.touching(x, y, pr + r, r))
    for k, (xa, ya, ra) in enumerate(placed):
        for xb, yb, rb in placed[k + 1:]:
            spots.extend(_touching(xa, ya, ra + r, xb, yb, rb + r))
    best, best_key = None, None
    for x, y in spots:
        gaps = bounds.gaps(x, y, r)
        if min(gaps) < -tol:
            continue
        for px, py, pr in placed:
            gap = math.hypot(x - px, y - py) - pr - r
            if gap < -tol:
                break
            gaps.append(gap)
        else:
            gaps.sort()
            key = (gaps[2] if len(gaps) > 2 else 0.0, -math.hypot(x, y))
            if best_key is None or key < best_key:
                best, best_key = (x, y), key
    return best


def pack_front(rel: list[float], region, seed: str) -> tuple[float, list[tuple[float, float]]]:
    """The largest scale k at which circles of radii k * rel fit (greedily) in the region (a
    generator.layout.packing.Region), and their centres. The order is largest first, with
    neighbours in size swapped at random (the seed) so that seeds give other arrangements."""
    rng = random.Random(f"front:{seed}")
    order = sorted(range(len(rel)), key=lambda i: -rel[i])
    for k in range(1, len(order) - 1):
        if rng.random() < 0.3:
            order[k], order[k + 1] = order[k + 1], order[k]
    bounds = _Bounds(region)
    lo, hi = 0.0, math.sqrt(FIRST_GUESS * region.area / (math.pi * sum(v * v for v in rel)))
    best = place_greedily([lo * v for v in rel], order, bounds)
    for _ in range(BISECTIONS):
        k = (lo + hi) / 2
        found = place_greedily([k * v for v in rel], order, bounds)
        if found is None:
            hi = k
        else:
            lo, best = k, found
    return lo, best
