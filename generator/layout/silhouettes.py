"""Seeded layout of a card's symbols by their real silhouettes, on a coarse grid.

Bounding circles waste the space between a symbol's ink and its circle; packing the ink itself
fits symbols into each other's gaps. Each symbol is a Silhouette: a coarse mask of its ink, in
the art's own units. The card is a grid of small square cells; placing a symbol marks every
cell its ink can touch (conservatively, so two symbols on disjoint cells never share ink), and
one free cell is kept around each symbol.

Symbols go in from the biggest down, each at a size from `max_size` towards `max_size /
spread` and a seeded angle. A size is the symbol's printed extent (the longer side of its ink's
box, whatever the turn) as a fraction of the region's diameter, so `spread` bounds what a
player sees: on a card, the largest symbol's extent over the smallest's. For one size and
angle, every legal position is found at once and the snug one taken
(generator.layout.cell_board). When no position is legal the symbol is shrunk and tried again,
never below the card's largest over `spread`: when that does not fit, the card starts again
with every symbol smaller (from the size at which the inks would fill half the card), so the
spread holds and the space is shared out by it; then each symbol but the smallest grows a
little at a time, where it is or wherever else it fits, until it fits nowhere larger. The same
inputs and seed give the same layout. Pillow and Python integers only, or the compiled kernel
of generator/layout/cell_board.py where the install built it (the same layouts): numpy's import
alone would cost a build of the user's art more than packing a card.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache

from PIL import Image

from generator.bit_plane import Plane, lookup
from generator.layout import cell_board
from generator.layout.packing import SQRT3, Region, relative_sizes

SHRINK = 0.9  # a symbol that fits nowhere is tried again this much smaller
RETRIES = 8  # a card whose symbols do not fit (at min_size, in the spread) starts again smaller
RETRY_SHRINK = 0.9
GROW, GROW_PASSES = 1.04, 6  # after packing, each symbol tried this much larger, pass by pass
DENSITY = 0.5  # a card's inks (by silhouette cells) fill no more of it than this
TURNS = (90, 180, 270)  # a symbol that fits nowhere at its smallest is tried turned so
NEAR = ((0, 0), (0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))
REFINE = 1  # halvings of the last retry's step, towards the largest size that fits
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
        box = self.image.getbbox()  # the ink's box: its longer side is the printed extent
        self.extent = (max(box[2] - box[0], box[3] - box[1]) if box else 1) * cell
        self.area = sum(self.image.histogram()[1:]) * cell * cell  # inked cells
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
            self._grown_image[k] = _grown(self.image, k)
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


def _grown(mask: Image.Image, k: int) -> Image.Image:
    """The mask grown by k cells every way (a (2k+1)-square dilation), k cells larger on each
    side: the mask's bits shifted and ORed, the reach doubling at each step (a few integer
    operations, where a square filter would visit (2k+1)^2 cells for each cell)."""
    w, h = mask.size
    plane = Plane.of(w + 2 * k, h + 2 * k)
    padded = Image.new("1", (w + 2 * k, h + 2 * k), 0)
    padded.paste(lookup(mask, _INKED, "1"), (k, k))
    bits = plane.bits(padded)
    for unit in (1, plane.stride):  # along rows, then along columns
        reach = 0
        while reach < k:
            step = min(reach + 1, k - reach)
            bits |= (bits << (step * unit)) | (bits >> (step * unit))
            reach += step
    return plane.image(bits).convert("L")


_INKED = bytes([0] + [255] * 255)


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
    size: float  # the printed extent (the ink box's longer side) over the region's diameter


@dataclass(frozen=True)
class Sizes:
    """Symbol sizes as fractions of the region's diameter (a symbol's printed extent: the
    longer side of its ink's box); spread: the largest over the smallest on one card."""

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
        self.outside = cell_board.outside(region.r, region.sides, tuple(region.normals()),
                                          self.n, cell, rim)

    def footprint(self, sil: Silhouette, scale: float, angle: float
                  ) -> tuple[cell_board.Footprint, int, int, int, int]:
        """Cells the ink can touch at this scale and angle (the art's centre on a cell
        corner) as a cell_board.Footprint (its inked cells' box), the footprint's width and
        height, and that corner's (row, col) in it.

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
        side = 2 * m  # Pillow's C images directly: its wrapper costs more than the work
        fp = Image.core.fill("L", (side, side), 0)
        fp.transform((0, 0, side, side), grown.im, Image.Transform.AFFINE, data,
                     Image.Resampling.NEAREST, True)
        runs, (top, left, bottom, right) = cell_board.footprint_and_box(fp)
        return runs, right - left, bottom - top, m - top, m - left

    def centre(self, i: int, j: int, cr: int, cc: int) -> tuple[float, float]:
        """Region coordinates of the art's centre for a footprint with top-left at (i, j)."""
        return self.x0 + (j + cc) * self.g, self.y0 - (i + cr) * self.g


@cache
def _grid(region: Region, cell: float, rim: float) -> _Grid:
    return _Grid(region, cell, rim)


def _diameter(region: Region) -> float:
    return 2 * (region.r if region.sides == 0 else region.r * SQRT3 / 2)


def prepare_grid(region: Region, rim: float, cell: float | None = None) -> None:
    """Make the region's grid now (before forking helpers: they inherit it, not remake it)."""
    _grid(region, cell or _diameter(region) / CELLS, rim)


def pack_silhouettes(shapes: list[Silhouette], region: Region, seed: int | str = 0,
                     sizes: Sizes = Sizes(), cell: float | None = None, rim: float = 0.0,
                     rotate: bool = True) -> list[Placed]:
    """Place the symbols (in the given order) in the region, no two inks within a cell of
    each other and no ink within `rim` of the edge; deterministic for a given seed.

    No symbol goes below min_size, nor below the largest over spread, while the card can hold
    them all so: when one does not fit, the card starts again with every symbol smaller
    (RETRIES times), then lets symbols shrink below both (to FLOOR of min_size). ValueError
    when even that fails."""
    n = len(shapes)
    if n == 0:
        return []
    rng = random.Random(f"silhouettes:{seed}:{n}")
    diameter = _diameter(region)
    grid = _grid(region, cell or diameter / CELLS, rim)
    rel = relative_sizes(n, rng, sizes.spread)
    angles = [rng.uniform(0, 360) if rotate else 0.0 for _ in range(n)]
    order = sorted(range(n), key=lambda i: -rel[i])
    memo: dict = {}  # footprints of this card by (symbol, scale, angle): retries ask again

    def fit(big: float, last: bool = False, hints: dict | None = None):
        floor = sizes.min_size * (FLOOR if last else 1)
        targets = [big * v if last else max(big * v, sizes.min_size) for v in rel]
        return _greedy(grid, shapes, order, targets, floor, angles, diameter, rng, memo,
                       None if last else sizes.spread, TURNS if rotate else (), hints)

    # the first try: the size at which the inks would fill DENSITY of the region, if less
    ink = sum(sh.area * (v * diameter / sh.extent) ** 2
              for sh, v in zip(shapes, rel, strict=True))
    room = DENSITY * math.pi * (diameter / 2) ** 2
    big, failed, chosen = min(sizes.max_size, math.sqrt(room / ink) if ink else 1.0), None, None
    for _ in range(RETRIES):
        chosen = fit(big)
        if chosen is not None:
            break
        failed, big = big, big * RETRY_SHRINK
    if chosen is not None and failed is None and big < sizes.max_size:
        failed = min(sizes.max_size, big / RETRY_SHRINK)  # the guess fitted: look above it
    if chosen is not None and failed is not None:
        for _ in range(REFINE):  # the largest size between the one that failed and this one
            mid = math.sqrt(big * failed)
            better = fit(mid, hints=chosen)  # each symbol first where it went last
            if better is None:
                failed = mid
            else:
                chosen, big = better, mid
    if chosen is not None:
        _grow(grid, shapes, chosen, angles, diameter, sizes, rng, memo, rotate)
    if chosen is None:
        chosen = fit(big, last=True)  # the last try lets every symbol go below min_size
    if chosen is None:
        raise ValueError(f"{n} symbols do not fit in the card, even at "
                         f"{sizes.min_size * FLOOR:.0%} of its width")
    return _placed(grid, shapes, chosen, angles, diameter)


def _grow(grid: _Grid, shapes, chosen: dict, angles: list, diameter: float, sizes: Sizes,
          rng: random.Random, memo: dict, rotate: bool) -> None:
    """Each symbol but the smallest (it and the largest make the spread), smallest first,
    tried GROW times larger (within the spread and max_size) where it is (its centre kept,
    or a cell away), else anywhere it fits among the others, turned too, pass after pass:
    the greedy leaves room behind it.

    Each symbol's blocked cells are kept, so a board of the others is their union. A symbol
    that fits nowhere larger keeps its size from then on: tried again after others had
    grown, such symbols seldom grew, and those tries were most of growing's cost; smaller
    steps over more passes find more ink than they did."""
    blank = cell_board.blank(grid.n, grid.outside)
    empty = cell_board.Board(grid.n, blank)
    blocks = {}
    for m, (s, i, j, _, _) in chosen.items():
        runs = _footprint(grid, memo, shapes[m], _scale(shapes[m], s, diameter), angles[m])[0]
        blocks[m] = empty.cells(runs, i, j)
    done: set = set()  # the symbols that fit nowhere larger
    for _ in range(GROW_PASSES):
        for k in sorted(chosen, key=lambda m: chosen[m][0])[1:]:  # the smallest keeps its size
            others = [chosen[m][0] for m in chosen if m != k]
            size = chosen[k][0]
            new = min(size * GROW, sizes.max_size,
                      min(others) * sizes.spread if others else sizes.max_size)
            if k in done or new <= size * (1 + 1e-9):
                continue
            board = cell_board.Board(grid.n, cell_board.union(
                blank, [cells for m, cells in blocks.items() if m != k]))
            found = _in_place(grid, board, shapes[k], new, diameter, angles[k], memo, chosen[k])
            turn = 0
            for turn in (0, *TURNS) if rotate and found is None else ():
                found = _try(grid, board, shapes[k], new, diameter, angles[k] + turn, rng, memo)
                if found is not None:
                    break
            if found is None:
                done.add(k)
                continue
            angles[k] += turn
            chosen[k] = (new, *found[1:])
            blocks[k] = empty.cells(found[0], found[1], found[2])


def _in_place(grid: _Grid, board: cell_board.Board, sil: Silhouette, size: float,
              diameter: float, angle: float, memo: dict, was: tuple):
    """The symbol at `size` with its centre where it was, or a cell away, if it fits there
    (as _try answers): most steps of growing do, and one position's test spares the search
    of every position and the choice of the snug one."""
    fp, w, h, cr, cc = _footprint(grid, memo, sil, _scale(sil, size, diameter), angle)
    i, j = was[1] + was[3] - cr, was[2] + was[4] - cc  # the centre's cell kept
    at = board.first_fit(fp, w, h, [(i + di, j + dj) for di, dj in NEAR])
    return None if at is None else (fp, *at, cr, cc)


def _placed(grid: _Grid, shapes, chosen: dict, angles, diameter: float) -> list[Placed]:
    out = []
    for k in range(len(shapes)):
        size, i, j, cr, cc = chosen[k]
        x, y = grid.centre(i, j, cr, cc)
        out.append(Placed(x, y, _scale(shapes[k], size, diameter), angles[k], size))
    return out


def _greedy(grid: _Grid, shapes, order, targets, floor: float, angles: list, diameter: float,
            rng: random.Random, memo: dict, spread: float | None, turns: tuple = (),
            hints: dict | None = None) -> dict[int, tuple[float, int, int, int, int]] | None:
    """Each symbol in order at its target size, shrunk until it fits, not below floor nor
    (with a spread) below the largest placed over spread, at its smallest tried at `turns`
    more (its angle kept); None when one does not fit. With hints (a fitted layout of the
    card a little smaller), a symbol at its target size is first tried where it went there
    (its centre kept, or a cell away)."""
    board = cell_board.Board(grid.n, cell_board.blank(grid.n, grid.outside))
    chosen = {}
    damp = 1.0  # how much the last symbols had to shrink: the next ones start that small
    largest = 0.0
    for k in order:
        low = max(floor, largest / spread) if spread else floor
        size = max(targets[k] * damp, low)
        first = True
        while True:
            found = None
            if first and hints:
                found = _in_place(grid, board, shapes[k], size, diameter, angles[k], memo,
                                  hints[k])
            if found is None:
                found = _try(grid, board, shapes[k], size, diameter, angles[k], rng, memo)
            if found is None and size <= low:  # the last chance: turned another way
                for turn in turns:
                    found = _try(grid, board, shapes[k], size, diameter, angles[k] + turn, rng,
                                 memo)
                    if found is not None:
                        angles[k] += turn
                        break
            if found is not None:
                break
            if size <= low:
                return None
            size = max(size * SHRINK, low)
            damp *= SHRINK
            first = False
        largest = max(largest, size)
        if first:
            damp = min(1.0, damp / SHRINK**2)
        runs, i, j, cr, cc = found
        board.place(runs, i, j)
        chosen[k] = (size, i, j, cr, cc)
    return chosen


def _scale(sil: Silhouette, size: float, diameter: float) -> float:
    return size * diameter / sil.extent


def _footprint(grid: _Grid, memo: dict, sil: Silhouette, scale: float, angle: float):
    key = (sil, scale, angle)  # a Silhouette hashes by identity
    got = memo.get(key)
    if got is None:
        got = memo[key] = grid.footprint(sil, scale, angle)
    return got


def _try(grid: _Grid, board: cell_board.Board, sil: Silhouette, size: float, diameter: float,
         angle: float, rng: random.Random, memo: dict):
    runs, w, h, cr, cc = _footprint(grid, memo, sil, _scale(sil, size, diameter), angle)
    pos = board.best(runs, w, h, rng)
    if pos is None:
        return None
    return runs, pos[0], pos[1], cr, cc
