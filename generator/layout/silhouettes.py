"""Seeded layout of a card's symbols by their real silhouettes, on a coarse grid (numpy).

Bounding circles waste the space between a symbol's ink and its circle; packing the ink itself
fits symbols into each other's gaps. Each symbol is a Silhouette: the centres of its ink cells
(a coarse mask of the art, in the art's own units). The card is a grid of small square cells;
placing a symbol marks every cell its ink can touch (conservatively, so two symbols on
disjoint cells never share ink), and one free cell is kept around each symbol.

Symbols go in from the biggest down, each at a size from `max_size` towards `max_size /
spread` (fractions of the region's diameter, measured on the symbol's enclosing circle) and a
seeded angle. For one size and angle, every legal position is found at once by an FFT
correlation of the symbol's cells with the blocked cells; of those, the position touching the
most blocked cells nearby is taken (snug against neighbours and the rim leaves room for the
next). When no position is legal the symbol is shrunk and tried again. A last pass grows each
symbol while it still fits. The same inputs and seed give the same layout.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache

import numpy as np

from generator.layout.packing import SQRT3, Region

SHRINK = 0.9  # a symbol that fits nowhere is tried again this much smaller
GROW = (1.15,)  # steps of the last pass that enlarges symbols into the room left
SNUG = 2  # crowding is counted this many cells around a symbol's box
FLOOR = 0.25  # a symbol is never shrunk below this fraction of min_size


class Silhouette:
    """A symbol's ink as a coarse mask (row 0 at the top), each mask cell `cell` art units
    wide (pixels for an image), centred on the art's centre."""

    def __init__(self, mask: np.ndarray, cell: float):
        self.mask = np.asarray(mask, dtype=bool)
        self.cell = cell
        rows, cols = np.nonzero(self.mask)
        h, w = self.mask.shape
        if len(rows):
            # the farthest corner of an inked cell from the centre
            dx = np.maximum(np.abs(cols - w / 2), np.abs(cols + 1 - w / 2))
            dy = np.maximum(np.abs(rows - h / 2), np.abs(rows + 1 - h / 2))
            self.radius = float(np.sqrt(dx**2 + dy**2).max()) * cell
        else:
            self.radius = cell
        self._grown: dict[int, np.ndarray] = {}

    def grown(self, k: int) -> np.ndarray:
        """The mask grown by k cells every way (k cells larger on each side), cached."""
        if k not in self._grown:
            self._grown[k] = _dilate(self.mask, k)
        return self._grown[k]

    @classmethod
    def disc(cls, radius: float) -> Silhouette:
        """A filled circle: the stand-in for a symbol whose ink is not known cell by cell."""
        n = 16
        grid = (np.arange(n) + 0.5 - n / 2) * (2 / n)
        xx, yy = np.meshgrid(grid, grid)
        return cls(xx**2 + yy**2 <= (1 - 1 / n) ** 2, 2 * radius / n)


@dataclass(frozen=True)
class Placed:
    """Where one symbol goes: centre (x, y, y up, relative to the region centre, points),
    scale (points per art unit) and turn (degrees, counter-clockwise)."""

    x: float
    y: float
    scale: float
    angle: float


@dataclass(frozen=True)
class Sizes:
    """Symbol sizes as fractions of the region's diameter (a symbol's enclosing circle)."""

    min_size: float = 0.16
    max_size: float = 0.5
    spread: float = 2.0


class _Grid:
    """The card as cells of side g points, cell (0, 0) at the top-left, y down."""

    def __init__(self, region: Region, cell: float, rim: float):
        self.g = cell
        self.n = int(math.ceil((2 * region.r / cell + 4) / 32)) * 32  # a margin, FFT-friendly
        self.x0 = -self.n * cell / 2  # left edge of column 0
        self.y0 = self.n * cell / 2  # top edge of row 0
        self.outside = _outside(region, self.n, cell, rim)

    def footprint(self, sil: Silhouette, scale: float, angle: float
                  ) -> tuple[np.ndarray, int, int]:
        """Cells the ink can touch at this scale and angle (the art's centre on a cell
        corner), and that corner's (row, col) in the footprint.

        Each cell's centre is mapped back into the mask; the cell is inked when the mask,
        grown by the cell's reach in mask cells, is inked there (conservative)."""
        unit = sil.cell * scale  # a mask cell, in points
        reach = int(math.ceil(self.g * math.sqrt(0.5) / unit))
        grown = sil.grown(reach)
        m = int(math.ceil(sil.radius * scale / self.g)) + 1
        offs = (np.arange(-m, m) + 0.5) * self.g / unit
        a = math.radians(angle)
        cos, sin = math.cos(a), math.sin(a)
        # grid cell (i, j) centre, relative to the art's centre: x = offs[j], y = -offs[i];
        # turned back by -angle, then to mask columns (right) and rows (down)
        h, w = sil.mask.shape
        u = cos * offs[None, :] + sin * -offs[:, None] + w / 2 + reach
        v = -(-sin * offs[None, :] + cos * -offs[:, None]) + h / 2 + reach
        ui, vi = np.floor(u).astype(np.int64), np.floor(v).astype(np.int64)
        gh, gw = grown.shape
        ok = (ui >= 0) & (vi >= 0) & (ui < gw) & (vi < gh)
        fp = np.zeros(ui.shape, dtype=bool)
        fp[ok] = grown[vi[ok], ui[ok]]
        rows, cols = np.flatnonzero(fp.any(1)), np.flatnonzero(fp.any(0))
        r0, c0 = rows[0], cols[0]
        return fp[r0:rows[-1] + 1, c0:cols[-1] + 1], m - int(r0), m - int(c0)

    def centre(self, i: int, j: int, cr: int, cc: int) -> tuple[float, float]:
        """Region coordinates of the art's centre for a footprint with top-left at (i, j)."""
        return self.x0 + (j + cc) * self.g, self.y0 - (i + cr) * self.g


@cache
def _outside_cached(r: float, sides: int, flat: bool, n: int, cell: float, rim: float
                    ) -> np.ndarray:
    region = Region(r, sides, flat)
    edges = (np.arange(n + 1) - n / 2) * cell
    xs, ys = np.meshgrid(edges, -edges)  # cell corners, y up
    inner = region.r - rim
    if region.sides == 0:
        ok = np.hypot(xs, ys) <= inner
    else:
        ok = np.ones_like(xs, dtype=bool)
        for nx, ny, apothem in region.normals():
            ok &= nx * xs + ny * ys <= apothem - rim
    # a cell is usable when all four of its corners are inside (both shapes are convex)
    inside = ok[:-1, :-1] & ok[1:, :-1] & ok[:-1, 1:] & ok[1:, 1:]
    out = ~inside
    out.flags.writeable = False
    return out


def _outside(region: Region, n: int, cell: float, rim: float) -> np.ndarray:
    return _outside_cached(region.r, region.sides, region.flat, n, cell, rim)


def _dilate(a: np.ndarray, k: int) -> np.ndarray:
    """a grown by k cells in every direction (a (2k+1)-square), k cells larger on each side."""
    h, w = a.shape
    out = np.zeros((h + 2 * k, w + 2 * k), dtype=bool)
    rows = np.zeros((h, w + 2 * k), dtype=bool)
    for d in range(2 * k + 1):
        rows[:, d:d + w] |= a
    for d in range(2 * k + 1):
        out[d:d + h, :] |= rows
    return out


class _Board:
    """Blocked cells (outside the region, or within one cell of a placed symbol) and the
    legal, snug positions for a footprint."""

    def __init__(self, grid: _Grid):
        self.grid = grid
        self.blocked = grid.outside.copy()
        self._spectrum = None

    def spectrum(self):
        if self._spectrum is None:
            self._spectrum = np.fft.rfft2(self.blocked.astype(np.float32))
        return self._spectrum

    def best(self, fp: np.ndarray, rng: random.Random) -> tuple[int, int] | None:
        """The top-left cell where fp fits with the most blocked cells around it, or None.

        Legal places come from one FFT correlation of fp with the blocked cells; crowding is
        the count of blocked cells in fp's box grown by SNUG cells (an integral image)."""
        n = self.grid.n
        h, w = fp.shape
        if h > n or w > n:
            return None
        pad = np.zeros((n, n), dtype=np.float32)
        pad[:h, :w] = fp
        hits = np.fft.irfft2(self.spectrum() * np.conj(np.fft.rfft2(pad)), s=(n, n))
        hits = hits[:n - h + 1, :n - w + 1]
        idx = np.flatnonzero(hits.ravel() < 0.5)
        if not len(idx):
            return None
        s = SNUG
        big = np.ones((n + 2 * s + 1, n + 2 * s + 1), dtype=np.int32)
        big[0, :] = big[:, 0] = 0
        big[s + 1:s + 1 + n, s + 1:s + 1 + n] = self.blocked
        acc = big.cumsum(0).cumsum(1)
        hh, ww = h + 2 * s, w + 2 * s
        crowd = (acc[hh:hh + n - h + 1, ww:ww + n - w + 1] - acc[:n - h + 1, ww:ww + n - w + 1]
                 - acc[hh:hh + n - h + 1, :n - w + 1] + acc[:n - h + 1, :n - w + 1])
        score = crowd.ravel()[idx]
        top = idx[score >= score.max()]
        i, j = divmod(int(top[rng.randrange(len(top))]), n - w + 1)
        return i, j

    def place(self, fp: np.ndarray, i: int, j: int) -> None:
        n = self.grid.n
        grown = _dilate(fp, 1)
        i0, j0 = i - 1, j - 1
        a0, b0 = max(0, -i0), max(0, -j0)
        a1, b1 = min(grown.shape[0], n - i0), min(grown.shape[1], n - j0)
        self.blocked[i0 + a0:i0 + a1, j0 + b0:j0 + b1] |= grown[a0:a1, b0:b1]
        self._spectrum = None

    def fits(self, fp: np.ndarray, i: int, j: int) -> bool:
        h, w = fp.shape
        if i < 0 or j < 0 or i + h > self.grid.n or j + w > self.grid.n:
            return False
        return not (self.blocked[i:i + h, j:j + w] & fp).any()


def _relative(n: int, rng: random.Random, spread: float) -> list[float]:
    """Relative sizes from 1 down to 1/spread, evenly spaced with a little jitter, shuffled."""
    if n == 1:
        return [1.0]
    lo = 1 / spread
    out = [1 - (1 - lo) * i / (n - 1) for i in range(n)]
    out = [out[0]] + [v * rng.uniform(0.96, 1.04) for v in out[1:-1]] + [out[-1]]
    rng.shuffle(out)
    return out


@cache
def _grid(region: Region, cell: float, rim: float) -> _Grid:
    return _Grid(region, cell, rim)


def pack_silhouettes(shapes: list[Silhouette], region: Region, seed: int | str = 0,
                     sizes: Sizes = Sizes(), cell: float | None = None, rim: float = 0.0,
                     rotate: bool = True) -> list[Placed]:
    """Place the symbols (in the given order) in the region, no two inks within a cell of
    each other and no ink within `rim` of the edge; deterministic for a given seed."""
    n = len(shapes)
    if n == 0:
        return []
    rng = random.Random(f"silhouettes:{seed}:{n}")
    diameter = 2 * (region.r if region.sides == 0 else region.r * SQRT3 / 2)
    grid = _grid(region, cell or diameter / 120, rim)
    board = _Board(grid)
    rel = _relative(n, rng, sizes.spread)
    angles = [rng.uniform(0, 360) if rotate else 0.0 for _ in range(n)]
    floor = sizes.min_size * FLOOR
    chosen: dict[int, tuple[float, np.ndarray, int, int, int, int]] = {}
    for k in sorted(range(n), key=lambda i: -rel[i]):
        size = max(sizes.max_size * rel[k], sizes.min_size)
        while True:
            found = _try(grid, board, shapes[k], size, diameter, angles[k], rng)
            if found is not None or size <= floor:
                break
            size *= SHRINK
        if found is None:
            raise ValueError(f"symbol {k + 1} of {n} does not fit in the card even at "
                             f"{size:.0%} of its width")
        fp, i, j, cr, cc = found
        board.place(fp, i, j)
        chosen[k] = (size, fp, i, j, cr, cc)
    _grow(grid, board, shapes, chosen, angles, diameter, sizes.max_size, rng)
    out = []
    for k in range(n):
        size, _, i, j, cr, cc = chosen[k]
        x, y = grid.centre(i, j, cr, cc)
        out.append(Placed(x, y, _scale(shapes[k], size, diameter), angles[k]))
    return out


def _scale(sil: Silhouette, size: float, diameter: float) -> float:
    return size * diameter / (2 * sil.radius)


def _try(grid: _Grid, board: _Board, sil: Silhouette, size: float, diameter: float,
         angle: float, rng: random.Random):
    fp, cr, cc = grid.footprint(sil, _scale(sil, size, diameter), angle)
    pos = board.best(fp, rng)
    if pos is None:
        return None
    return fp, pos[0], pos[1], cr, cc


def _grow(grid: _Grid, board: _Board, shapes, chosen, angles, diameter: float,
          max_size: float, rng: random.Random) -> None:
    """Enlarge each symbol, smallest first, into the room the others left."""
    for k in sorted(chosen, key=lambda i: chosen[i][0]):
        others = _Board(grid)
        for m, (_, fp, i, j, _, _) in chosen.items():
            if m != k:
                others.place(fp, i, j)
        size = chosen[k][0]
        for step in GROW:
            bigger = min(size * step, max_size)
            if bigger <= size * 1.01:
                continue
            found = _try(grid, others, shapes[k], bigger, diameter, angles[k], rng)
            if found is not None:
                chosen[k] = (bigger, *found)
                break
    board.blocked[:] = grid.outside
    for _, fp, i, j, _, _ in chosen.values():
        board.place(fp, i, j)
