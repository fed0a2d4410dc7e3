"""CMYK output for print shops: every colour the drawing sets, and every raster image it
draws, becomes DeviceCMYK.

The conversion from RGB is the plain device one with full grey component replacement (not
Pillow's, which puts no black): K = 1 - max(R, G, B), C = (1 - R - K) / (1 - K) (likewise M, Y).
So greys, black included, print with black ink only (#000000 is C0 M0 Y0 K100, not a four-ink
muddy black), and a colour a definition gives as cmyk(C,M,Y,K) (percentages, e.g. rich black
cmyk(60,40,40,100)) is kept exactly. No ICC profile is applied: the shop's RIP maps DeviceCMYK
to its press.
"""

from __future__ import annotations

from reportlab.lib.colors import CMYKColor, HexColor, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from pnp_model.colorspec import cmyk_percent


def to_color(literal: str):
    """A resolved colour literal (#rrggbb or cmyk(...)) as a reportlab colour."""
    inks = cmyk_percent(literal)
    return HexColor(literal) if inks is None else CMYKColor(*inks)


def rgb_to_cmyk(r: float, g: float, b: float) -> tuple[float, float, float, float]:
    """Fractions 0..1 in, fractions 0..1 out."""
    k = 1 - max(r, g, b)
    if k >= 1:
        return 0.0, 0.0, 0.0, 1.0
    return ((1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k)


def enforce_cmyk(value):
    """reportlab's enforceColorSpace hook: any colour in, a CMYKColor out."""
    c = toColor(value)
    if isinstance(c, CMYKColor):
        return c
    alpha = getattr(c, "alpha", 1)
    return CMYKColor(*rgb_to_cmyk(c.red, c.green, c.blue), alpha=alpha)

def cmyk_image(image):
    """A PIL image as a CMYK one by the same conversion as colours (Pillow's own RGB->CMYK
    conversion puts no black at all: K = 0)."""
    import numpy as np
    from PIL import Image

    rgb = np.asarray(image.convert("RGB"), dtype=np.float32) / 255
    k = 1 - rgb.max(axis=2, keepdims=True)
    cmy = (1 - rgb - k) / np.where(k < 1, 1 - k, 1)
    inks = np.concatenate([cmy, k], axis=2)
    return Image.fromarray(np.round(inks * 255).astype(np.uint8), "CMYK")


class _CmykReader(ImageReader):
    """An image's pixels as CMYK by cmyk_image, its alpha (if any) kept as the soft mask."""

    def __init__(self, source: ImageReader):
        super().__init__(source._image)
        image = source._image
        if image.mode in ("P", "LA", "PA") or "transparency" in image.info:
            image = image.convert("RGBA")
        self._alpha = ImageReader(image.getchannel("A")) if image.mode == "RGBA" else None
        self._cmyk = image if image.mode == "CMYK" else cmyk_image(image)

    def getRGBData(self):  # noqa: N802  reportlab's name: the bytes it embeds
        if self._data is None:
            self.mode = "CMYK"
            self._data = self._cmyk.tobytes()
            self._dataA = self._alpha
        return self._data

    def getTransparent(self):  # noqa: N802  the alpha went into the soft mask
        return None


class CmykCanvas(Canvas):
    """A canvas whose images are drawn in DeviceCMYK whoever draws them (art, symbols, SVG
    rasters): the drawers stay colour-blind. An image seen twice is converted once."""

    def drawImage(self, image, *args, **kwargs):  # noqa: N802  reportlab's name
        memo = self.__dict__.setdefault("_cmyk_images", {})
        key = _image_key(image)
        if key not in memo:  # the source is kept with it: an id is unique while it lives
            memo[key] = (image, _CmykReader(ImageReader(image)))
        return super().drawImage(memo[key][1], *args, **kwargs)


def _image_key(image):
    """A file by its name (a drawer may open it again for every card), else the object."""
    if isinstance(image, str):
        return image
    name = getattr(image, "fileName", None)
    if isinstance(name, str) and not name.startswith("PILIMAGE_"):
        return name
    return id(image)
