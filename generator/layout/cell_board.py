"""The card as a board of n x n cells for silhouette packing: which cells are blocked, where a
footprint fits, and which of those places is snug. Pillow and Python integers, no numpy.

The blocked cells are one Python integer of n * n bits (cell (i, j) is bit i * n + j), so that
testing a footprint at every position at once is a few shifts and ORs of that integer per run
of inked cells in the footprint's rows, in C. Among the legal positions the one with the most
blocked cells around it is taken (snug against neighbours and the rim leaves room for the
next): the count is a box filter of the board (Pillow's BoxBlur, in C), to within a cell or
two for big boxes (its 8-bit result is rounded), which only decides between nearly equal
positions. A footprint is given by the runs of inked cells in its rows.

Where the install built the compiled kernel (generator/layout/cells.c, the module _pnp_cells),
best(), first_fit() and place() ask it instead, and boards are kept as the bytes it reads: the
same answers, on 64-bit words in C, where the search of every position was most of a symbol
deck's build. `KERNEL = None` runs the Python code.
"""

from __future__ import annotations

import math
import random
from functools import cache

from PIL import Image

try:
    import _pnp_cells as KERNEL  # built by setup.py where a C compiler was found
except ImportError:
    KERNEL = None

SNUG = 2  # crowding is counted this many cells around a symbol's box


@cache
def outside(r: float, sides: int, normals: tuple, n: int, cell: float, rim: float) -> int:
    """The cells not wholly inside the region less rim (a circle of radius r when sides is
    0, else the polygon of the normals): a cell is usable when its four corners are inside
    (both shapes are convex)."""
    edges = [(k - n / 2) * cell for k in range(n + 1)]  # corner x (and, upside down, y)
    inner = r - rim
    full = (1 << n) - 1
    rows = []
    for y in (-e for e in edges):  # corner rows, top (y up) first
        if sides == 0:
            ok = [math.hypot(x, y) <= inner for x in edges]
        else:
            ok = [all(nx * x + ny * y <= apothem - rim for nx, ny, apothem in normals)
                  for x in edges]
        rows.append(sum(1 << j for j, inside in enumerate(ok) if inside))
    blocked = 0
    for i in range(n):
        inside = rows[i] & (rows[i] >> 1) & rows[i + 1] & (rows[i + 1] >> 1)
        blocked |= (~inside & full) << (i * n)
    return blocked


class Board:
    """Blocked cells (outside the region, or within one cell of a placed symbol) and the
    legal, snug positions for a footprint (see Footprint)."""

    def __init__(self, n: int, blocked: int | bytes):
        """blocked: an integer (bit i * n + j: cell (i, j)), or the bytes the kernel reads
        (see blank(): with the kernel, boards are kept as bytes and never turned into
        integers, whose conversion cost more than a search)."""
        self.n = n
        self._blocked, self._bytes = (None, blocked) if isinstance(blocked, bytes) else (blocked, None)
        self._runs: dict[int, int] | None = None

    @property
    def blocked(self) -> int:
        if self._blocked is None:
            self._blocked = int.from_bytes(self._bytes, "little")
        return self._blocked

    def _run_memo(self) -> dict[int, int]:
        if self._runs is None:
            self._runs = {1: self.blocked}
        return self._runs

    def run(self, length: int) -> int:
        """Bit i * n + j set when any of cells (i, j) .. (i, j + length - 1) is blocked: the
        run of the largest power of two below the length OR-ed with itself shifted by the
        rest (one shift per length, the powers made once), memoised per board."""
        memo = self._run_memo()
        got = memo.get(length)
        if got is None:
            power = 1 << ((length - 1).bit_length() - 1)
            half = memo.get(power)
            if half is None:
                half = self.run(power // 2)
                half |= half >> (power // 2)
                memo[power] = half
            got = memo[length] = half | half >> (length - power)
        return got

    def legal(self, fp: Footprint, w: int, h: int) -> int:
        """The bits of the top-left cells where the w x h footprint fits (no inked cell on
        a blocked one).

        The runs of every 8th row are tested first, then those halfway between
        (Footprint.plan): a footprint that fits nowhere (nearly half the tries) is most often
        found so from the first rows, before the others are read."""
        n = self.n
        if h > n or w > n:
            return 0
        free = tops(n, h, w)
        memo, run = self._run_memo(), self.run
        for part in fp.plan(n):
            hit = 0
            for shift, length in part:
                bits = memo.get(length)
                hit |= (run(length) if bits is None else bits) >> shift
            free &= ~hit
            if not free:
                return 0
        return free

    def best(self, fp: Footprint, w: int, h: int, rng: random.Random) -> tuple[int, int] | None:
        """The top-left cell where the footprint fits with the most blocked cells around it
        (one of the most, chosen by rng), or None.

        Crowding is a box filter of the board over the part the legal positions' boxes cover
        (the board's edge cells are all blocked, so the filter's repeating of edge pixels
        counts cells off the board as blocked); the legal positions mask it (a minimum with
        0 or 255)."""
        if KERNEL is not None:
            return self._kernel_best(fp, w, h, rng)
        free = self.legal(fp, w, h)
        if not free:
            return None
        n = self.n
        y0, y1, x0, x1 = _bounds(free, n)
        bw, bh = w + 2 * SNUG, h + 2 * SNUG  # the box counted: the footprint's, grown
        r0, r1 = max(y0 - SNUG, 0), min(y1 - SNUG + bh, n)
        c0, c1 = max(x0 - SNUG, 0), min(x1 - SNUG + bw, n)
        # Pillow's C images (ImagingCore) directly: its Python wrappers cost more than the
        # work on images this small
        board = rows_image(self.blocked, n, r0, r1).crop((c0, 0, c1, r1 - r0))
        top, left = y0 - SNUG + (bh - 1) // 2 - r0, x0 - SNUG + (bw - 1) // 2 - c0
        # along the rows, then down only the legal positions' columns: Pillow blurs the two
        # ways as separate passes (8-bit between) anyway, and the columns' pass is the same
        # without the others
        across = board.box_blur(((bw - 1) / 2, 0), 1).crop((left, 0, left + x1 - x0, r1 - r0))
        crowding = across.box_blur((0, (bh - 1) / 2), 1).crop((0, top, x1 - x0, top + y1 - y0))
        legal = rows_image(free, n, y0, y1).crop((x0, 0, x1, y1 - y0))
        scored = crowding.chop_darker(legal)
        most = scored.getextrema()[1]  # in C: max() over the bytes in Python was slow
        scored = core_bytes(scored)
        if most == 0:  # no legal place has a blocked cell near: any legal place will do
            scored, most = core_bytes(legal), 255
        return _chosen(scored, most, x1 - x0, y0, x0, rng)

    def _kernel_best(self, fp: Footprint, w: int, h: int, rng: random.Random):
        """best() by the compiled kernel, which returns the scored box."""
        got = KERNEL.best(self.as_bytes(), self.n, *fp.pixels, w, h, SNUG)
        if got is None:
            return None
        y0, x0, width, scored, most = got
        return _chosen(scored, most, width, y0, x0, rng)

    def as_bytes(self) -> bytes:
        """The blocked cells as the kernel reads them (little-endian bytes), made once."""
        if self._bytes is None:
            self._bytes = self.blocked.to_bytes(self.n * self.n // 8, "little")
        return self._bytes

    def first_fit(self, fp: Footprint, w: int, h: int, places: list) -> tuple[int, int] | None:
        """The first of places (top-left cells) where the footprint fits (fits_at), or None."""
        if KERNEL is not None:
            at = KERNEL.fits(self.as_bytes(), self.n, *fp.pixels, w, h, places)
            return places[at] if at >= 0 else None
        return next((place for place in places if self.fits_at(fp, w, h, *place)), None)

    def place(self, fp: Footprint, i: int, j: int) -> None:
        """Block the footprint's cells with its top-left at (i, j), and one cell around."""
        if KERNEL is not None:
            self._bytes, self._blocked = self.cells(fp, i, j, self.as_bytes()), None
        else:
            self._blocked, self._bytes = self.blocked | self.cells(fp, i, j), None
        self._runs = None

    def fits_at(self, fp: Footprint, w: int, h: int, i: int, j: int) -> bool:
        """Whether the footprint fits with its top-left at (i, j): one position's test (the
        board's edge cells are blocked, so no footprint fits in its first row or column)."""
        n = self.n
        if i < 1 or j < 1 or i + h > n or j + w > n:
            return False
        return not (fp.rows(n)[0] << ((i - 1) * n + j - 1)) & self.blocked

    def cells(self, fp: Footprint, i: int, j: int, onto: bytes | None = None) -> int | bytes:
        """The bits place() blocks: the footprint's cells with its top-left at (i, j), and
        one cell around, the rows past the board's end dropped; with the kernel, as its
        bytes (added to onto's)."""
        n = self.n
        if KERNEL is not None:
            return KERNEL.mark(onto or _no_cells(n), n, *fp.pixels, fp.width - 1, fp.height, i, j)
        return (fp.halo(n) << ((i - 1) * n + j - 1)) & _board_bits(n)


def blank(n: int, outside: int) -> int | bytes:
    """A board's blocked cells before any symbol is placed, as Board takes them: the
    integer, or with the kernel its bytes (converted once per region)."""
    return _blank(n, outside, KERNEL is not None)


@cache
def _blank(n: int, outside: int, as_bytes: bool) -> int | bytes:
    return outside.to_bytes(n * n // 8, "little") if as_bytes else outside


@cache
def _no_cells(n: int) -> bytes:
    return bytes(n * n // 8)


def union(first: int | bytes, parts: list) -> int | bytes:
    """The cells of first and of every part (integers, or with the kernel bytes)."""
    if KERNEL is not None:
        return KERNEL.union(first, parts)
    for part in parts:
        first |= part
    return first


@cache
def _board_bits(n: int) -> int:
    return (1 << (n * n)) - 1


def _chosen(scored: bytes, most: int, width: int, y0: int, x0: int,
            rng: random.Random) -> tuple[int, int]:
    """The top-left cell of one of the most crowded places (scored: the legal positions' box,
    `width` cells a row, from cell (y0, x0)), chosen by rng: the one choice both searches make,
    so that they draw the same numbers."""
    row, col = divmod(_nth(scored, most, rng.randrange(scored.count(most))), width)
    return y0 + row, x0 + col


def _nth(data: bytes, value: int, k: int) -> int:
    """The index of the k-th (from 0) byte of data equal to value (ties are one to three)."""
    at = data.index(value)
    for _ in range(k):
        at = data.index(value, at + 1)
    return at


def rows_image(bits: int, n: int, first: int, end: int):
    """Rows first..end-1 of n x n cells of bits as a mode L Pillow C image (0 or 255): the
    bytes read lowest bit first ("1;R"), as the integer holds them. Decoded straight into a
    C image: Image.frombytes's wrapper cost more than the decoding."""
    part = (bits >> (first * n)) & ((1 << ((end - first) * n)) - 1)
    size = (n, end - first)
    im = Image.core.new("1", size)
    decoder = Image.core.raw_decoder("1", "1;R")
    decoder.setimage(im, (0, 0, *size))
    decoder.decode(part.to_bytes((end - first) * n // 8, "little"))
    return im.convert("L")


def core_bytes(im) -> bytes:
    """The pixels of a mode L Pillow C image, row by row: one call of the raw encoder with
    room for them all (Image.tobytes's wrapper, and its loop of 64 KiB chunks, cost more
    than the copy for images this small)."""
    w, h = im.size
    encoder = Image.core.raw_encoder("L", "L")
    encoder.setimage(im, (0, 0, w, h))
    return encoder.encode(w * h + 1)[2]


def _bounds(bits: int, n: int) -> tuple[int, int, int, int]:
    """The first and past-the-last rows and columns holding a bit (bits not 0)."""
    first, end = ((bits & -bits).bit_length() - 1) // n, (bits.bit_length() - 1) // n + 1
    folded, span = bits >> (first * n), n
    while span < (end - first) * n:  # every row ORed into the first
        folded |= folded >> span
        span *= 2
    row = folded & ((1 << n) - 1)
    return first, end, (row & -row).bit_length() - 1, row.bit_length()


@cache
def tops(n: int, h: int, w: int) -> int:
    """The bits of the cells where an h x w box's top-left corner keeps it on the grid: the
    first n - h + 1 rows of _columns (one shift, where building them is a long division)."""
    return _columns(n, w) >> (n * (h - 1))


@cache
def _columns(n: int, w: int) -> int:
    """The bits of columns 0 .. n - w in every row (a row's bits repeated every n bits)."""
    row = (1 << (n - w + 1)) - 1
    return row * (((1 << (n * n)) - 1) // ((1 << n) - 1))


class Footprint:
    """A footprint's inked cells: their box with one blank cell around (a mode L Pillow C
    image), read when asked as runs of inked cells (row, first column, length: `runs`; `plan`
    gives them in the order the test of every position at once takes them), or as integers
    of board rows for the test of one position and for marking it (both kept)."""

    __slots__ = ("image", "width", "height", "_data", "_pixels", "_runs", "_rows")

    def __init__(self, image):
        self.image = image
        self.width, self.height = image.size[0] - 1, image.size[1] - 2  # one blank column kept
        self._data: bytes | None = None
        self._pixels: tuple | None = None
        self._runs: list | None = None
        self._rows: tuple[int, int, int] | None = None

    @property
    def pixels(self) -> tuple[bytes, int, int]:
        """The whole image's bytes, the box's first cell in them and their row length (the
        box's width and two blank cells: no run goes on into the next row)."""
        if self._pixels is None:
            stride = self.width + 1
            self._pixels = core_bytes(self.image), stride + 1, stride
        return self._pixels

    @property
    def data(self) -> bytes:
        """The box's rows, each `width + 1` cells long (the pixels from the box's first)."""
        if self._data is None:
            pixels, start, stride = self.pixels
            self._data = pixels[start:start + self.height * stride]
        return self._data

    @property
    def runs(self) -> list[tuple[int, int, int]]:
        if self._runs is None:
            self._runs = _runs(self.data, self.width + 1)
        return self._runs

    def plan(self, n: int):
        """The runs as legal tests them on a board n cells wide, as (shift, length): every
        8th row's first (found alone: most footprints that fit nowhere fail on them), then
        the rows halfway between those tested, and so on."""
        yield [(r * n + a, length) for r, a, length in _runs(self.data, self.width + 1, 8)]
        runs = self.runs
        for part, of in ((4, 8), (2, 4), (1, 2)):
            yield [(r * n + a, length) for r, a, length in runs if r % of == part]

    def rows(self, n: int) -> tuple[int, int]:
        """The inked cells, and those with one cell around (the halo), each as one integer of
        n-bit board rows from the row and column before the box's top-left (bit t * n + c:
        row t, column c): the image's bits read straight into an integer (its blank rim
        keeps the halo's shifts from wrapping)."""
        if self._rows is None or self._rows[0] != n:
            h = self.height + 2
            bits = rows_bits(self.image.crop((0, 0, n, h)).convert("1"), n, h)
            halo = bits | (bits << 1) | (bits >> 1)
            self._rows = n, bits, halo | (halo << n) | (halo >> n)
        return self._rows[1], self._rows[2]

    def halo(self, n: int) -> int:
        return self.rows(n)[1]


def _runs(data: bytes, width: int, every: int = 1) -> list[tuple[int, int, int]]:
    """The runs of inked bytes (255: a footprint's cells are 0 or 255) in data, as (row, first
    column, length) of rows `width` long, in every row or every `every`-th: C's byte search
    from one end of a run to the other (a regular expression read every byte, at several
    times the cost). Each row ends with a blank cell, so a run always ends within its row."""
    out = []
    find = data.find
    # every row: one search of the whole (no row crosses into the next)
    stride, span = (width * every, width) if every > 1 else (len(data), len(data))
    for start in range(0, len(data), stride):
        end = start + span
        at = find(255, start, end)
        while at >= 0:
            stop = find(0, at)
            row, col = divmod(at, width)
            out.append((row, col, stop - at))
            at = find(255, stop, end)
    return out


def rows_bits(im, n: int, h: int) -> int:
    """A mode 1 Pillow C image n cells wide as one integer of its rows, lowest bit first."""
    encoder = Image.core.raw_encoder("1", "1;R")
    encoder.setimage(im, (0, 0, n, h))
    return int.from_bytes(encoder.encode(n * h // 8 + 1)[2], "little")


def footprint_and_box(fp) -> tuple[Footprint, tuple]:
    """The Footprint of the inked cells of fp (a mode L Pillow C image, some cell inked)
    and their box in it (top, left, bottom, right; the last two past the end)."""
    left, top, right, bottom = fp.getbbox()
    return (Footprint(fp.crop((left - 1, top - 1, right + 1, bottom + 1))),
            (top, left, bottom, right))
