"""Clean a user's raster symbol: drop its plain background, trim it to the drawing, find its ink.

People's art is often a drawing on a white (or other plain) square: packed as is, the square
shows on the card and the drawing shrinks inside its margins. For a PNG or JPG without alpha,
the background colour is read from the border pixels; when the border is one colour (within
TOLERANCE), the pixels of that colour reachable from the border become transparent, with a soft
edge (ALIASED: edge pixels get an alpha from their distance to the background colour, and
their colour is un-blended from it). A colour-keyed island inside the drawing (a white eye) is
kept. Art with its own alpha keeps it. Either way the image is trimmed to its visible pixels.

All of it is Pillow's C image operations and, for the fill from the border, one Python integer
of bits per image (generator.bit_plane): no numpy, whose import alone would cost a
build more time than cleaning a deck of 57 images.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from pathlib import Path

from PIL import Image, ImageChops

from generator.bit_plane import Plane, lookup
from generator.layout.silhouettes import Silhouette
from pnp_model.errors import PnpError

TOLERANCE = 40  # per channel: JPEG noise and paper-white variations stay background
ALIASED = 120  # a pixel this far from the background colour is fully opaque
UNIFORM = 0.95  # the share of border pixels that must be the background colour
VISIBLE = 24  # alpha above this counts as ink when trimming and for the silhouette
MASK_CELLS = 40  # the silhouette's mask is at most this many cells on its longer side


@dataclass
class Art:
    """A cleaned symbol: the trimmed image, its ink silhouette, and a note for the build."""

    image: Image.Image  # RGB or RGBA, trimmed
    silhouette: Silhouette
    note: str = ""
    offset: tuple[int, int] = (0, 0)  # the trimmed image's top-left pixel in the file's image
    source_size: tuple[int, int] = (0, 0)  # the file's image, in pixels

    @property
    def size(self) -> tuple[int, int]:
        """The trimmed image's size in pixels."""
        return self.image.size

    def full_alpha(self) -> Image.Image:
        """The transparency at the file's own size (for embedding the file as it is)."""
        alpha = Image.new("L", self.source_size, 0)
        alpha.paste(self.image.getchannel("A"), self.offset)
        return alpha


def clean(path: Path, keep: bool = False) -> Art:
    """Read and clean one raster symbol; keep=True leaves its background as it is."""
    from generator.render.basic import art_pixels
    from pnp_shared.limits import MAX_SYMBOL_PIXELS

    try:
        with Image.open(path) as im:
            art_pixels(im.size, path.name, str(path), MAX_SYMBOL_PIXELS)
            im.load()
            src = _eight_bit(im)
    except PnpError:
        raise
    except Exception as e:  # Pillow raises assorted errors for bad files
        raise PnpError(f"cannot read image {path.name!r}: not a PNG or JPG file, or damaged "
                       f"({type(e).__name__})", str(path)) from None
    note, origin = "", (0, 0)
    if src.mode == "RGBA":
        rgba = src
    else:
        rgba = None
        if not keep:
            rgba, note, origin = _unbackground(src, path)
        if rgba is None:
            return Art(src, _silhouette(Image.new("L", src.size, 255)), note,
                       source_size=src.size)
    ink = lookup(rgba.getchannel("A"), _VISIBLE_LUT)
    box = ink.getbbox()
    if box is None:
        raise PnpError(f"the symbol {path.name!r} is empty (every pixel is transparent "
                       "or background)", str(path))
    return Art(rgba.crop(box), _silhouette(ink.crop(box)), note,
               (origin[0] + box[0], origin[1] + box[1]), src.size)


def seen_ink(path: Path) -> Image.Image | None:
    """The shape a player sees of a raster symbol (mode L, 255 where inked): its cleaned ink,
    less any enclosed part of the background's own colour (a ring's hole stays opaque in the
    build, but on a pale card it reads as a hole). None when the background is kept (then the
    art prints as its rectangle)."""
    art = clean(path)
    if art.image.mode != "RGBA":
        return None
    ink = lookup(art.image.getchannel("A"), _VISIBLE_LUT)
    with Image.open(path) as im:
        bg = None if _has_alpha(im) else _border_colour(_eight_bit(im).convert("RGB"))
    if bg is not None:
        ink = ImageChops.darker(ink, lookup(art.image.convert("RGB"), _solid_channels(bg))
                                .convert("L").point(lambda v: 255 if v else 0))
    return ink


def _eight_bit(im: Image.Image) -> Image.Image:
    """The loaded image as RGBA when it has alpha, else RGB (a new image: the file closes)."""
    if im.mode.startswith("I"):  # 16-bit greyscale: Pillow's 8-bit conversion clips it
        import numpy as np  # only for this rare kind of file

        im = Image.fromarray((np.asarray(im, dtype=np.uint32) >> 8).clip(0, 255)
                             .astype(np.uint8))
    return im.convert("RGBA" if _has_alpha(im) else "RGB")


def _has_alpha(im: Image.Image) -> bool:
    return im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info)


def _unbackground(im: Image.Image, path: Path
                  ) -> tuple[Image.Image | None, str, tuple[int, int]]:
    """RGBA with the border-connected background transparent, or None and a note; and the
    top-left pixel, in the image, of the box the RGBA covers.

    Only the box around the pixels that are not background colour needs work: every pixel
    outside it is background reachable from the border (a straight line of background leads
    there), so the fill, the soft edge and the RGBA are made on that box alone (the margins
    of a drawing on a white square are most of its pixels)."""
    w, h = im.size
    bg = _border_colour(im)
    if bg is None:
        return None, (f"{path.name}: its border is not one plain colour, so its background "
                      "was kept; give it a transparent background or a plain border"), (0, 0)
    found = lookup(im, _solid_channels(bg)).getbbox()  # getbbox skips an RGB pixel's pad byte
    if found is None:
        return Image.new("RGBA", (w, h), (0, 0, 0, 0)), "", (0, 0)
    # one ring of background around the box (where the image has room) seeds the fill
    box = (max(found[0] - 1, 0), max(found[1] - 1, 0), min(found[2] + 1, w), min(found[3] + 1, h))
    rgb = im.crop(box)
    far = _distance(rgb, bg)
    plane = Plane.of(*far.size)
    candidate = plane.bits(lookup(far, _NEAR, "1"))
    background = plane.reachable(candidate, plane.rim())
    edge = plane.touching(background) & ~background
    # alpha: 0 on the background, from the distance on its edge, 255 on the drawing (masks
    # of mode L: Pillow pastes through a mode "1" mask several times slower)
    on_edge, on_background = plane.image(edge).convert("L"), plane.image(background).convert("L")
    alpha = Image.new("L", far.size, 255)
    alpha.paste(lookup(far, _SOFT), mask=on_edge)
    alpha.paste(0, mask=on_background)
    # an edge pixel is the drawing's colour blended with the background: take the blend out
    # (its colour less the background's share is the drawing's premultiplied by the alpha;
    # Pillow's RGBa -> RGBA conversion divides by the alpha)
    share = Image.merge("RGB", [lookup(alpha, _background_share(v)) for v in bg])
    drawing = ImageChops.subtract(rgb, share)
    unblended = Image.merge("RGBa", (*drawing.split(), alpha)).convert("RGB")
    rgb.paste(unblended, mask=on_edge)
    rgb.putalpha(alpha)
    return rgb, "", box[:2]


def _border_colour(im: Image.Image) -> tuple[int, int, int] | None:
    """The median colour of the border pixels when at least UNIFORM of them are within
    TOLERANCE of it (per channel), else None."""
    w, h = im.size
    strip = Image.new("RGB", (2 * w + 2 * h, 1))
    strip.paste(im.crop((0, 0, w, 1)), (0, 0))
    strip.paste(im.crop((0, h - 1, w, h)), (w, 0))
    for n, x in enumerate((0, w - 1)):
        column = im.crop((x, 0, x + 1, h)).transpose(Image.Transpose.TRANSPOSE)
        strip.paste(column, (2 * w + n * h, 0))
    count = strip.width
    hist = strip.histogram()
    bg = tuple(_median(hist[256 * c:256 * (c + 1)], count) for c in range(3))
    near = lookup(_distance(strip, bg), _NEAR).histogram()[255]
    return bg if near >= UNIFORM * count else None


def _median(hist: list[int], count: int) -> int:
    """The median of count values given by their histogram (the two middle values' mean,
    rounded half to even, for an even count)."""
    seen = list(accumulate(hist))  # values up to each one
    low, high = bisect_right(seen, (count - 1) // 2), bisect_right(seen, count // 2)
    return round((low + high) / 2)


def _distance(im: Image.Image, colour: tuple[int, ...]) -> Image.Image:
    """Per pixel, the largest per-channel difference from colour (mode L)."""
    r, g, b = ImageChops.difference(im, Image.new("RGB", im.size, colour)).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b)


@cache
def _solid_channels(colour: tuple[int, int, int]) -> bytes:
    """A lookup table for an RGB image: a channel farther than TOLERANCE from the colour's
    becomes 255, else 0 (so a pixel is not background colour when any channel is set: one
    pass over the whole image finds the drawing's box, the distance is then taken in it)."""
    return bytes(255 if abs(v - c) > TOLERANCE else 0 for c in colour for v in range(256))


@cache
def _background_share(channel: int) -> bytes:
    """For each alpha, the background channel's share in a pixel of that alpha."""
    return bytes(round((255 - a) * channel / 255) for a in range(256))



# lookup tables: not background colour, background colour, soft edge alpha, ink
_SOLID = bytes([0] * (TOLERANCE + 1) + [255] * (255 - TOLERANCE))
_NEAR = bytes(255 - v for v in _SOLID)
_SOFT = bytes(int(min(max((d - TOLERANCE) / (ALIASED - TOLERANCE), 0), 1) * 255)
              for d in range(256))
_VISIBLE_LUT = bytes([0] * (VISIBLE + 1) + [255] * (255 - VISIBLE))


def _silhouette(ink: Image.Image) -> Silhouette:
    """A coarse mask of the ink (a mask cell is inked when any of its pixels is), in pixels.

    The cells are even numbers k of half pixels, the padding to whole cells split evenly on
    both sides: the mask's centre is then exactly the image's centre. A cell thus covers k / 2
    pixels, or k / 2 + 1 when the padding is an odd number of half pixels (a pixel on the
    edge between two cells is in both): then the ink is first widened by a pixel that way.
    The cells are averaged as floats (any ink at all leaves a cell above 0, whatever the
    cell's size)."""
    w, h = ink.size
    k = 2 * max(1, math.ceil(max(h, w) / MASK_CELLS))
    half = k // 2
    pw, ph = math.ceil(w / half) * half, math.ceil(h / half) * half  # in pixels
    left, top = pw - w, ph - h  # the padding, in half pixels
    if left % 2:
        ink = ImageChops.lighter(ink.crop((-1, 0, w, h)), ink.crop((0, 0, w + 1, h)))
    if top % 2:
        ink = ImageChops.lighter(ink.crop((0, -1, ink.width, h)), ink.crop((0, 0, ink.width, h + 1)))
    pad = Image.new("F", (pw, ph), 0)
    pad.paste(ink.convert("F"), (left // 2, top // 2))
    cells = pad.reduce(half).point(lambda v: v * 1e6).convert("L")
    return Silhouette(cells, k / 2)
