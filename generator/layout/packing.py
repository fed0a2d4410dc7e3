"""Seeded layout of a card's symbols inside a circle or a regular hexagon, in pure Python.

Each symbol gets a bounding circle; the circles vary in size (the largest at least `spread`
times the smallest), never overlap and never cross the card's edge, and each symbol gets a
random rotation. The layout grows the circles together from small random starting places:
after every growth step a few rounds of relaxation push overlapping pairs apart and pull
circles back inside the region; when relaxation cannot make the layout legal, the last legal
layout is kept. The same (n, region, seed) always gives the same layout.

Coverage, the sum of the bounding circles' areas over the region's area, is what `coverage()`
reports (bench/bench_symbols.py prints it for the bundled decks).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache

SQRT3 = math.sqrt(3)
SKIN = 0.15  # big cards list the pairs within (1 + SKIN) times their radii sum (see _NearPairs)


@dataclass(frozen=True)
class Region:
    """A circle (sides = 0) or a regular hexagon of circumradius r centred at the origin.

    A hexagon is pointy-topped (corners up and down) unless flat is true.
    """

    r: float
    sides: int = 0
    flat: bool = False

    @property
    def area(self) -> float:
        if self.sides == 0:
            return math.pi * self.r**2
        return 1.5 * SQRT3 * self.r**2

    def normals(self) -> list[tuple[float, float, float]]:
        """Edge half-planes (nx, ny, apothem): a point p is inside when n·p <= apothem."""
        if self.sides == 0:
            return []
        apothem = self.r * SQRT3 / 2
        start = 0 if not self.flat else 30  # pointy-top: an edge faces right
        return [(math.cos(math.radians(start + 60 * i)), math.sin(math.radians(start + 60 * i)),
                 apothem) for i in range(6)]


@dataclass(frozen=True)
class Spot:
    """One symbol's place: centre (x, y, y up, relative to the region centre), radius, turn."""

    x: float
    y: float
    r: float
    angle: float  # degrees, counter-clockwise


def relative_sizes(n: int, rng: random.Random, spread: float) -> list[float]:
    """Relative radii from 1 down to 1/spread, evenly spaced with a little jitter, shuffled."""
    if n == 1:
        return [1.0]
    lo = 1 / spread
    out = [1 - (1 - lo) * i / (n - 1) for i in range(n)]
    out = [out[0]] + [v * rng.uniform(0.96, 1.04) for v in out[1:-1]] + [out[-1]]
    rng.shuffle(out)
    return out


def _depth(region: Region, normals, x: float, y: float, r: float) -> tuple[float, float, float]:
    """How far a circle sticks out of the region, and the inward direction to move it."""
    if region.sides == 0:
        d = math.hypot(x, y)
        over = d + r - region.r
        if over <= 0 or d == 0:
            return 0.0, 0.0, 0.0
        return over, -x / d, -y / d
    worst, wx, wy = 0.0, 0.0, 0.0
    for nx, ny, a in normals:
        over = nx * x + ny * y + r - a
        if over > worst:
            worst, wx, wy = over, -nx, -ny
    return worst, wx, wy


class _NearPairs:
    """Pairs (i < j, in order) that may overlap during a round: a superset of the pairs
    closer than their radii sum, so the pure-Python pass skips the far ones.

    numpy lists the pairs within (1 + SKIN) times their radii sum at once; the list stays
    valid until some circle has moved by half the smallest margin since, so it is rebuilt
    only then, not every round (only big cards use it; small ones need no numpy import)."""

    def __init__(self, radii: list[float]):
        import numpy as np

        self.np = np
        self.first, self.second = np.triu_indices(len(radii), 1)
        r = np.asarray(radii)
        sums = r[self.first] + r[self.second]
        self.reach2 = (sums * (1 + SKIN)) ** 2
        self.slack = float(sums.min()) * SKIN / 2  # any one circle may move this far
        self.since = None
        self.pairs: list[tuple[int, int]] = []

    def __call__(self, pos: list[list[float]]) -> list[tuple[int, int]]:
        p = self.np.array(pos)
        if self.since is not None:
            moved = p - self.since
            if float((moved * moved).sum(axis=1).max()) < self.slack * self.slack:
                return self.pairs
        d = p[self.first] - p[self.second]
        near = (d * d).sum(axis=1) < self.reach2
        self.since = p
        self.pairs = list(zip(self.first[near].tolist(), self.second[near].tolist(),
                              strict=True))
        return self.pairs


def _relax(pos: list[list[float]], radii: list[float], region: Region, normals,
           rounds: int) -> bool:
    """Push overlaps apart and circles inside; True when the result is legal.

    The hot loop of symbol layout: squared distances are compared first, so a pair that
    cannot overlap (most of them) costs no square root."""
    n = len(pos)
    eps = 1e-9 * region.r
    pairs = _NearPairs(radii) if n > BIG else None
    every = [(i, j) for i in range(n) for j in range(i + 1, n)]
    # a circle whose centre is within (inscribed radius - r + eps) of the centre is inside
    inner = region.r if region.sides == 0 else region.r * SQRT3 / 2
    inside2 = [(inner - r + eps) ** 2 if inner - r + eps > 0 else -1.0 for r in radii]
    for _ in range(rounds):
        moved = False
        for i, j in (every if pairs is None else pairs(pos)):
            pi, pj = pos[i], pos[j]
            xi, yi = pi
            dx, dy = pj[0] - xi, pj[1] - yi
            d2 = dx * dx + dy * dy
            ri, rj = radii[i], radii[j]
            touch = ri + rj - eps
            if d2 >= touch * touch:
                continue
            d = math.sqrt(d2)
            over = ri + rj - d
            if d < 1e-12:
                dx, dy, d = 1.0, 0.0, 1.0
            wi = rj / (ri + rj)  # the smaller circle moves more
            push = (over * 0.5 + eps) * 2
            ux, uy = dx / d * push, dy / d * push
            pi[0] = xi - ux * wi
            pi[1] = yi - uy * wi
            pj[0] += ux * (1 - wi)
            pj[1] += uy * (1 - wi)
            moved = True
        for i in range(n):
            p = pos[i]
            if p[0] * p[0] + p[1] * p[1] <= inside2[i]:
                continue
            over, ux, uy = _depth(region, normals, p[0], p[1], radii[i])
            if over > eps:
                p[0] += ux * (over + eps)
                p[1] += uy * (over + eps)
                moved = True
        if not moved:
            return True
    return _legal(pos, radii, region, normals)


def _legal(pos, radii, region: Region, normals, tol: float = 1e-6) -> bool:
    t = tol * region.r
    n = len(pos)
    for i in range(n):
        if _depth(region, normals, pos[i][0], pos[i][1], radii[i])[0] > t:
            return False
        for j in range(i + 1, n):
            if math.hypot(pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]) < radii[i] + radii[j] - t:
                return False
    return True


def pack(n: int, region: Region, seed: int | str = 0, spread: float = 2.2,
         target: float = 0.78, steps: int = 15, shakes: int = 8) -> list[Spot]:
    """Lay out n symbols in the region; deterministic for a given seed (int or string).

    Grows the layout in `steps` geometric steps towards `target` coverage; when a step cannot
    be made legal, the circles are shaken a little and the step retried with a smaller growth,
    up to `shakes` times. The result is always legal (no overlap, nothing outside).
    """
    if n <= 0:
        return []
    rng = random.Random(f"pack:{seed}:{n}:{region.sides}")
    rel = relative_sizes(n, rng, spread)
    normals = region.normals()
    inner = region.r if region.sides == 0 else region.r * SQRT3 / 2
    # the scale k at which the circles' areas add up to target * region area
    k_max = math.sqrt(target * region.area / (math.pi * sum(v * v for v in rel)))
    k = k_max * 0.4
    pos = []
    for _ in range(n):
        a, d = rng.uniform(0, 2 * math.pi), inner * math.sqrt(rng.random()) * 0.6
        pos.append([d * math.cos(a), d * math.sin(a)])
    radii = [k * v for v in rel]
    if not _relax(pos, radii, region, normals, 200):
        return pack(n, region, f"{seed}+", spread, target * 0.8, steps, shakes)
    grow = (k_max / k) ** (1 / steps)
    failures = 0
    while failures < shakes and k * grow <= k_max:
        trial_k = k * grow
        trial_pos = [p[:] for p in pos]
        if failures:
            for p in trial_pos:
                p[0] += rng.uniform(-1, 1) * 0.15 * k
                p[1] += rng.uniform(-1, 1) * 0.15 * k
        trial_r = [trial_k * v for v in rel]
        if _relax(trial_pos, trial_r, region, normals, 30):
            k, pos, radii = trial_k, trial_pos, trial_r
        else:
            failures += 1
            grow = grow**0.6
    # relaxation stops within a hair (1e-6 of the region) of legal: shrink by more than that
    shrink = 1 - 1e-4
    return [Spot(p[0], p[1], r * shrink, rng.uniform(0, 360))
            for p, r in zip(pos, radii, strict=True)]


def pack_dense(n: int, region: Region, seed: int | str = 0, spread: float = 2.2) -> list[Spot]:
    """n circles of the same relative sizes as pack's, packed tighter: each placed greedily
    in the tightest hole, the set as large as fits (generator.layout.front_packing)."""
    from generator.layout.front_packing import pack_front

    if n <= 0:
        return []
    rng = random.Random(f"pack:{seed}:{n}:{region.sides}")
    rel = relative_sizes(n, rng, spread)
    k, centres = pack_front(rel, region, str(seed))
    shrink = 1 - 1e-4  # as pack: strictly inside, never touching
    return [Spot(x, y, k * v * shrink, rng.uniform(0, 360))
            for (x, y), v in zip(centres, rel, strict=True)]


POOL = 8  # base layouts per deck; each card turns, mirrors and reassigns one of them
CANDIDATES = 12  # layouts tried for the pool; the best-covering POOL are kept
BIG = 16  # above this many symbols packing is slow and even: fewer layouts, tried at once
BIG_POOL = 4  # ...and each card turns, mirrors and reshuffles one of these


@cache
def _pool(n: int, region: Region, seed: str, spread: float = 2.2, dense: bool = False
          ) -> tuple[tuple[Spot, ...], ...]:
    if dense and n <= BIG:
        tried = [pack_dense(n, region, f"{seed}:{i}", spread) for i in range(CANDIDATES)]
    elif n <= BIG:
        tried = [pack(n, region, f"{seed}:{i}", spread) for i in range(CANDIDATES)]
    else:  # a few big layouts, each slow: one per core (each is seeded on its own)
        import numpy  # noqa: F401  (imported once here, not once in each worker)

        from generator.parallel import fork_map

        tried = fork_map(lambda i: pack(n, region, f"{seed}:{i}", spread), range(BIG_POOL))
    tried.sort(key=lambda spots: -coverage(spots, region))
    return tuple(tuple(t) for t in tried[:POOL])


def card_layout(n: int, region: Region, seed: int | str, card_id: int,
                rotate_symbols: bool = True, spread: float = 2.2, dense: bool = False
                ) -> list[Spot]:
    """The layout of one card: one of the deck's base layouts, turned and mirrored at random,
    its places dealt to the symbols in a random order, each symbol at a random angle.

    Packing is the expensive part, so a deck packs POOL layouts once, not one per card; the
    per-card turn, mirror and shuffle make every card look different, and which symbol gets a
    big place changes from card to card. Deterministic for a given seed and card id.
    `dense` packs the base layouts greedily (pack_dense), for circles that are seen (discs)
    rather than only kept apart.
    """
    rng = random.Random(f"card:{seed}:{card_id}:{n}")
    pool = _pool(n, region, str(seed), spread, dense)
    base = pool[rng.randrange(len(pool))]
    if region.sides == 0:
        turn = rng.uniform(0, 2 * math.pi)
    else:
        turn = math.radians(60 * rng.randrange(6))  # keep the hexagon's edges where they are
    mirror = -1 if rng.random() < 0.5 else 1
    cos, sin = math.cos(turn), math.sin(turn)
    places = list(base)
    rng.shuffle(places)
    out = []
    for s in places:
        x = mirror * s.x
        angle = rng.uniform(0, 360) if rotate_symbols else 0.0
        out.append(Spot(x * cos - s.y * sin, x * sin + s.y * cos, s.r, angle))
    return out


def coverage(spots: list[Spot], region: Region) -> float:
    """Sum of the bounding circles' areas over the region's area."""
    return sum(math.pi * s.r * s.r for s in spots) / region.area
