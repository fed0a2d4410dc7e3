"""A binary image as one Python integer of bits, for flood fills at C speed without numpy; and a
table lookup of Pillow images without Pillow's per-call Python pass over the table.

Cleaning a symbol needs the background pixels connected to the image's border. Pillow has no
connected components, and importing numpy costs a build more than the cleaning; a Python
integer of bits is the whole image, so a shift moves every pixel at once and an AND masks them
all, in C. Each row has at least one zero guard bit after its pixels (rows are padded to whole
bytes, with one more pixel when needed), so a sideways shift never leaks into the next row.

Pixel (y, x) is bit `(height - 1 - y) * stride + (stride - 1 - x)`, as `int.from_bytes(..,
"big")` reads a mode "1" image: one column right is one bit lower, one row down `stride` lower.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image


@dataclass(frozen=True)
class Plane:
    """The geometry of an image's bits: width and height in pixels, row stride in bits."""

    width: int
    height: int
    stride: int

    @classmethod
    def of(cls, width: int, height: int) -> Plane:
        return cls(width, height, (width + 8) // 8 * 8)  # at least one guard bit per row

    def bits(self, image: Image.Image) -> int:
        """The bits of a mode "1" image of this plane's size (its guard bits zero)."""
        if image.width != self.stride:
            padded = Image.new("1", (self.stride, self.height), 0)
            padded.paste(image, (0, 0))
            image = padded
        return int.from_bytes(image.tobytes(), "big")

    def image(self, bits: int) -> Image.Image:
        """The bits as a mode "1" image of the plane's width and height."""
        data = bits.to_bytes(self.stride * self.height // 8, "big")
        full = Image.frombytes("1", (self.stride, self.height), data)
        return full if self.stride == self.width else full.crop((0, 0, self.width,
                                                                 self.height))

    def rows(self) -> int:
        """A 1 bit at the start (lowest bit) of every row: multiply a row's bits by it to
        repeat them on every row."""
        return ((1 << (self.stride * self.height)) - 1) // ((1 << self.stride) - 1)

    def inside(self) -> int:
        """Every pixel of the image (no guard bits)."""
        return (((1 << self.width) - 1) << (self.stride - self.width)) * self.rows()

    def rim(self) -> int:
        """The pixels of the image's first and last rows and columns."""
        row = ((1 << self.width) - 1) << (self.stride - self.width)
        rows = self.rows()
        first_col, last_col = rows << (self.stride - 1), rows << (self.stride - self.width)
        return row | (row << (self.stride * (self.height - 1))) | first_col | last_col

    def touching(self, mask: int) -> int:
        """Pixels with a 4-neighbour in mask (mask's own pixels included, guard bits not)."""
        s = self.stride
        grown = mask | (mask << 1) | (mask >> 1) | (mask << s) | (mask >> s)
        return grown & self.inside()

    def reachable(self, candidate: int, seed: int) -> int:
        """The candidate pixels 4-connected to seed's candidate pixels.

        Fills along each of the four directions at once with doubling shifts (a run of
        candidates of any length is crossed in log2(length) steps: the carry of the fill and
        the 'all candidates' mask double together), and repeats the four until nothing changes
        (a path needs a repeat per turn it takes, a few for real art)."""
        s = self.stride
        spans = []  # (shift, mask) per doubling step, per direction
        for unit, extent in ((1, self.width), (s, self.height)):
            for toward in (1, -1):
                shift, run = unit, candidate  # run: the `shift` pixels up to here are candidates
                while shift // unit < extent:
                    spans.append((shift * toward, run))
                    run &= (run << shift) if toward > 0 else (run >> shift)
                    shift *= 2
        reached = candidate & seed
        while True:
            before = reached
            for shift, run in spans:
                reached |= run & ((reached << shift) if shift > 0 else (reached >> -shift))
            if reached == before:
                return reached


def lookup(im: Image.Image, table: bytes, mode: str | None = None) -> Image.Image:
    """im.point(table, mode) for an 8-bit image and a 256-byte table. Pillow's point() first
    rounds each of the table's entries in Python on every call: of cleaning a 57-image deck,
    a third of the time."""
    return im._new(im.im.point(table, mode))
