"""Seeded layout of a card's symbols by their real silhouettes, on a coarse grid (numpy).

Bounding circles waste the space between a symbol's ink and its circle; packing the ink itself
fits symbols into each other's gaps. Each symbol is a Silhouette: a coarse mask of its ink, in
the art's own units. The card is a grid of small square cells; placing a symbol marks every
cell its ink can touch (conservatively, so two symbols on disjoint cells never share ink), and
one free cell is kept around each symbol.

Symbols go in from the biggest down, each at a size from `max_size` towards `max_size /
spread` (fractions of the region's diameter, measured on the symbol's enclosing circle) and a
seeded angle. For one size and angle, every legal position is found at once (the blocked
cells are the bits of one integer: per run of the symbol's cells, a shift and an OR); of
those, the position touching the most blocked cells nearby is taken (snug against neighbours
and the rim leaves room for the next). When no position is legal the symbol is shrunk and
tried again. The same inputs and seed give the same layout.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache

import numpy as np
from PIL import Image, ImageFilter

from generator.layout.packing import SQRT3, Region, relative_sizes

SHRINK = 0.9  # a symbol that fits nowhere is tried again this much smaller
SNUG = 2  # crowding is counted this many cells around a symbol's box
RETRIES = 4  # a card whose symbols do not fit at min_size starts again, big ones smaller
RETRY_SHRINK = 0.85
FLOOR = 0.25  # after the retries, a symbol may shrink to this fraction of min_size
CELLS = 120  # grid cells across the region: finer packs a little closer, and costs more


class Silhouette:
    """A symbol's ink as a coarse mask (row 0 at the top), each mask cell `cell` art units
    wide (pixels for an image), centred on the art's centre.

    The mask is kept as a Pillow image (mode L, inked cells 255): the cleaning of raster art
    makes it without numpy, and packing resamples it with Pillow. A boolean array (icons, SVG
    shapes) is taken too."""

    def __init__(self, mask, cell: float):
        if not isinstance(mask, Image.Image):
            import numpy as np  # the caller made the array: numpy is loaded already

            mask = Image.fromarray(np.asarray(mask, dtype=np.uint8) * 255)
        self.image = mask if mask.mode == "L" else mask.convert("L")
        self.cell = cell
        self.radius = _radius(self.image) * cell
        self._grown_image: dict = {}

    @property
    def size(self) -> tuple[int, int]:
        """The mask's (width, height) in cells."""
        return self.image.size

    @property
    def mask(self):
        """The mask as a boolean numpy array (for measures outside the build)."""
        import numpy as np

        return np.asarray(self.image) > 0

    def grown_image(self, k: int):
        """The mask grown by k cells every way (k cells larger on each side), 0 or 255,
        cached: footprints resample it."""
        if k not in self._grown_image:
            w, h = self.image.size
            pad = Image.new("L", (w + 2 * k, h + 2 * k), 0)
            pad.paste(self.image, (k, k))
            self._grown_image[k] = pad.filter(ImageFilter.MaxFilter(2 * k + 1)) if k else pad
        return self._grown_image[k]

    @classmethod
    def disc(cls, radius: float) -> Silhouette:
        """A filled circle: the stand-in for a symbol whose ink is not known cell by cell."""
        n = 16
        grid = [(i + 0.5 - n / 2) * (2 / n) for i in range(n)]
        edge = (1 - 1 / n) ** 2
        im = Image.new("L", (n, n), 0)
        im.putdata([255 if x * x + y * y <= edge else 0 for y in grid for x in grid])
        return cls(im, 2 * radius / n)


def _radius(mask: Image.Image) -> float:
    """The farthest corner of an inked cell from the mask's centre, in cells (1 when none is
    inked): per row, only its first and last inked cells can be the farthest."""
    w, h = mask.size
    data = mask.tobytes()
    far = 0.0
    for row in range(h):
        line = data[row * w:(row + 1) * w]
        right = len(line.rstrip(b"\0"))
        if not right:
            continue
        left = w - len(line.lstrip(b"\0"))
        dx = max(abs(left - w / 2), abs(right - w / 2))
        dy = max(abs(row - h / 2), abs(row + 1 - h / 2))
        far = max(far, dx * dx + dy * dy)
    return math.sqrt(far) if far else 1.0


@dataclass(frozen=True)
class Placed:
    """Where one symbol goes: centre (x, y, y up, relative to the region centre, points),
    scale (points per art unit), turn (degrees, counter-clockwise) and size."""

    x: float
    y: float
    scale: float
    angle: float
    size: float  # the enclosing circle's diameter over the region's


@dataclass(frozen=True)
class Sizes:
    """Symbol sizes as fractions of the region's diameter (a symbol's enclosing circle)."""

    min_size: float = 0.12
    max_size: float = 0.5
    spread: float = 2.0


class _Grid:
    """The card as cells of side g points, cell (0, 0) at the top-left, y down."""

    def __init__(self, region: Region, cell: float, rim: float):
        self.g = cell
        self.n = int(math.ceil((2 * region.r / cell + 4) / 32)) * 32  # a margin; whole bytes of bits
        self.x0 = -self.n * cell / 2  # left edge of column 0
        self.y0 = self.n * cell / 2  # top edge of row 0
        self.outside = _outside(region, self.n, cell, rim)

    def footprint(self, sil: Silhouette, scale: float, angle: float
                  ) -> tuple[np.ndarray, int, int]:
        """Cells the ink can touch at this scale and angle (the art's centre on a cell
        corner), and that corner's (row, col) in the footprint.

        Each cell's centre is mapped back into the mask; the cell is inked when the mask,
        grown by the cell's reach in mask cells, is inked there (conservative). The mapping
        is one affine resampling of the grown mask by Pillow (nearest cell, in C)."""
        unit = sil.cell * scale  # a mask cell, in points
        reach = int(math.ceil(self.g * math.sqrt(0.5) / unit))
        grown = sil.grown_image(reach)
        m = int(math.ceil(sil.radius * scale / self.g)) + 1
        k = self.g / unit
        a = math.radians(angle)
        cos, sin = math.cos(a) * k, math.sin(a) * k
        # grid cell (i, j) centre, relative to the art's centre: x = (j - m + 0.5) k,
        # y = -(i - m + 0.5) k (mask cells); turned back by -angle, then to mask columns
        # (right) and rows (down): Pillow samples at each output cell's centre
        w, h = sil.size
        data = (cos, -sin, m * (sin - cos) + w / 2 + reach,
                sin, cos, -m * (sin + cos) + h / 2 + reach)
        fp = grown.transform((2 * m, 2 * m), Image.Transform.AFFINE, data,
                             Image.Resampling.NEAREST)
        left, top, right, bottom = fp.getbbox()
        return (np.asarray(fp.crop((left, top, right, bottom))) > 0), m - top, m - left

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
    legal, snug positions for a footprint.

    The blocked cells are also kept as one Python integer of n * n bits (cell (i, j) is bit
    i * n + j), so that testing a footprint at every position at once is a few shifts and ORs
    of that integer per run of inked cells in the footprint's rows, in C: several times
    cheaper than an FFT correlation of the whole grid."""

    def __init__(self, grid: _Grid):
        self.grid = grid
        n = grid.n
        # the blocked cells with SNUG blocked cells around them (crowding counts the edge)
        self.padded = np.ones((n + 2 * SNUG, n + 2 * SNUG), dtype=bool)
        self.blocked = self.padded[SNUG:SNUG + n, SNUG:SNUG + n]
        self.blocked[:] = grid.outside
        self._bits = None
        self._runs: dict[int, int] = {}

    def bits(self) -> int:
        if self._bits is None:
            packed = np.packbits(self.blocked, bitorder="little")
            self._bits = int.from_bytes(packed.tobytes(), "little")
            self._runs = {1: self._bits}
        return self._bits

    def run(self, length: int) -> int:
        """Bit i * n + j set when any of cells (i, j) .. (i, j + length - 1) is blocked: the
        run of half the length OR-ed with itself shifted by the rest, memoised per board."""
        got = self._runs.get(length)
        if got is None:
            half = (length + 1) // 2
            got = self.run(half)
            got |= got >> (length - half)
            self._runs[length] = got
        return got

    def best(self, fp: np.ndarray, rng: random.Random) -> tuple[int, int] | None:
        """The top-left cell where fp fits with the most blocked cells around it, or None.

        A position is taken when, for every run of inked cells in fp's rows, the blocked
        cells under that run are none (the shifted run bits); crowding is the count of
        blocked cells in fp's box grown by SNUG cells, from an integral image of the part
        of the board the legal positions' boxes cover."""
        n = self.grid.n
        h, w = fp.shape
        if h > n or w > n:
            return None
        self.bits()
        runs = self._runs
        hit = 0
        for r, a, length in _row_runs(fp):
            bits = runs.get(length)
            hit |= (self.run(length) if bits is None else bits) >> (r * n + a)
        free = _tops(n, h, w) & ~hit
        if not free:
            return None
        idx = np.flatnonzero(np.unpackbits(np.frombuffer(free.to_bytes(n * n // 8, "little"),
                                                         np.uint8), bitorder="little"))
        ii, jj = np.divmod(idx, n)
        hh, ww = h + 2 * SNUG, w + 2 * SNUG
        i0, j0 = int(ii[0]), int(jj.min())
        part = self.padded[i0:int(ii[-1]) + hh, j0:int(jj.max()) + ww]
        acc = np.zeros((part.shape[0] + 1, part.shape[1] + 1), dtype=np.int32)
        np.cumsum(part, axis=0, out=acc[1:, 1:])
        np.cumsum(acc[1:, 1:], axis=1, out=acc[1:, 1:])
        a, b = ii - i0, jj - j0
        score = acc[a + hh, b + ww] - acc[a, b + ww] - acc[a + hh, b] + acc[a, b]
        top = np.flatnonzero(score >= score.max())
        pick = int(top[rng.randrange(len(top))])
        return int(ii[pick]), int(jj[pick])

    def place(self, fp: np.ndarray, i: int, j: int) -> None:
        n = self.grid.n
        grown = _dilate(fp, 1)
        i0, j0 = i - 1, j - 1
        a0, b0 = max(0, -i0), max(0, -j0)
        a1, b1 = min(grown.shape[0], n - i0), min(grown.shape[1], n - j0)
        self.blocked[i0 + a0:i0 + a1, j0 + b0:j0 + b1] |= grown[a0:a1, b0:b1]
        self._bits = None


@cache
def _tops(n: int, h: int, w: int) -> int:
    """The bits of the cells where an h x w box's top-left corner keeps it on the grid."""
    row = (1 << (n - w + 1)) - 1
    return row * (((1 << (n * (n - h + 1))) - 1) // ((1 << n) - 1))  # row, repeated every n


def _row_runs(fp: np.ndarray) -> list[tuple[int, int, int]]:
    """(row, first column, length) of each run of inked cells in fp."""
    h, w = fp.shape
    edges = np.zeros((h, w + 2), dtype=np.int8)
    edges[:, 1:-1] = fp
    rows, cols = np.nonzero(edges[:, 1:] != edges[:, :-1])  # a start, then its end, per run
    starts = cols[0::2]
    return list(zip(rows[0::2].tolist(), starts.tolist(), (cols[1::2] - starts).tolist(),
                    strict=True))


@cache
def _grid(region: Region, cell: float, rim: float) -> _Grid:
    return _Grid(region, cell, rim)


def pack_silhouettes(shapes: list[Silhouette], region: Region, seed: int | str = 0,
                     sizes: Sizes = Sizes(), cell: float | None = None, rim: float = 0.0,
                     rotate: bool = True) -> list[Placed]:
    """Place the symbols (in the given order) in the region, no two inks within a cell of
    each other and no ink within `rim` of the edge; deterministic for a given seed.

    No symbol goes below min_size while the card can hold them all at it: when one does not
    fit, the card starts again with smaller big symbols (RETRIES times), then lets symbols
    shrink below min_size (to FLOOR of it). ValueError when even that fails."""
    n = len(shapes)
    if n == 0:
        return []
    rng = random.Random(f"silhouettes:{seed}:{n}")
    diameter = 2 * (region.r if region.sides == 0 else region.r * SQRT3 / 2)
    grid = _grid(region, cell or diameter / CELLS, rim)
    rel = relative_sizes(n, rng, sizes.spread)
    angles = [rng.uniform(0, 360) if rotate else 0.0 for _ in range(n)]
    order = sorted(range(n), key=lambda i: -rel[i])
    big = sizes.max_size
    for attempt in range(RETRIES + 1):
        last = attempt == RETRIES  # the last try lets every symbol go below min_size
        floor = sizes.min_size * (FLOOR if last else 1)
        targets = [big * v if last else max(big * v, sizes.min_size) for v in rel]
        chosen = _greedy(grid, shapes, order, targets, floor, angles, diameter, rng)
        if chosen is not None:
            break
        big *= RETRY_SHRINK
    else:
        raise ValueError(f"{n} symbols do not fit in the card, even at "
                         f"{sizes.min_size * FLOOR:.0%} of its width")
    out = []
    for k in range(n):
        size, i, j, cr, cc = chosen[k]
        x, y = grid.centre(i, j, cr, cc)
        out.append(Placed(x, y, _scale(shapes[k], size, diameter), angles[k], size))
    return out


def _greedy(grid: _Grid, shapes, order, targets, floor: float, angles, diameter: float,
            rng: random.Random) -> dict[int, tuple[float, int, int, int, int]] | None:
    """Each symbol in order at its target size, shrunk until it fits, not below floor."""
    board = _Board(grid)
    chosen = {}
    damp = 1.0  # how much the last symbols had to shrink: the next ones start that small
    for k in order:
        size = max(targets[k] * damp, floor)
        first = True
        while True:
            found = _try(grid, board, shapes[k], size, diameter, angles[k], rng)
            if found is not None:
                break
            if size <= floor:
                return None
            size = max(size * SHRINK, floor)
            damp *= SHRINK
            first = False
        if first:
            damp = min(1.0, damp / SHRINK**2)
        fp, i, j, cr, cc = found
        board.place(fp, i, j)
        chosen[k] = (size, i, j, cr, cc)
    return chosen


def _scale(sil: Silhouette, size: float, diameter: float) -> float:
    return size * diameter / (2 * sil.radius)


def _try(grid: _Grid, board: _Board, sil: Silhouette, size: float, diameter: float,
         angle: float, rng: random.Random):
    fp, cr, cc = grid.footprint(sil, _scale(sil, size, diameter), angle)
    pos = board.best(fp, rng)
    if pos is None:
        return None
    return fp, pos[0], pos[1], cr, cc
