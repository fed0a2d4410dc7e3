"""CMYK output for print shops: every colour the drawing sets, and every raster image it
draws, becomes DeviceCMYK inks for the press of generator/ink/profile.py, within a total-ink
limit (generator/ink/limit.py: 300 % by default, a shop's own figure where it has one).

Colours and images go through the press's ICC profile with littleCMS (Pillow's ImageCms), so
the inks print the sRGB colour; greys set as colours, black text included, print with black
ink only (#000000 is C0 M0 Y0 K100, not a four-ink muddy black), and a colour a definition
gives as cmyk(C,M,Y,K) (percentages, e.g. a rich black cmyk(60,40,40,100)) is kept exactly
when within the limit. The canvas remembers the most ink it put on each page, for `pnp check`.
"""

from __future__ import annotations

from reportlab.lib.colors import CMYKColor, HexColor, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from generator.ink import limit as ink_limit
from pnp_model.colorspec import cmyk_percent


def to_color(literal: str):
    """A resolved colour literal (#rrggbb or cmyk(...)) as a reportlab colour."""
    inks = cmyk_percent(literal)
    return HexColor(literal) if inks is None else CMYKColor(*inks)


def rgb_to_cmyk(r: float, g: float, b: float, limit: float = ink_limit.DEFAULT
                ) -> tuple[float, float, float, float]:
    """Fractions 0..1 in, ink fractions 0..1 out: a grey in black ink only, a colour through
    the press profile, within the limit."""
    from generator.ink.profile import rgb_inks

    rgb = tuple(round(v * 255) for v in (r, g, b))
    if rgb[0] == rgb[1] == rgb[2]:
        return 0.0, 0.0, 0.0, 1 - rgb[0] / 255
    return ink_limit.cap(rgb_inks(*rgb), limit)


def cmyk_image(image, limit: float = ink_limit.DEFAULT):
    """A PIL image as CMYK inks: through the press profile, within the limit (Pillow's own
    RGB->CMYK conversion puts no black at all: K = 0)."""
    import numpy as np
    from PIL import Image

    from generator.ink.profile import to_cmyk_image

    inks = np.asarray(to_cmyk_image(image.convert("RGB")))
    return Image.fromarray(ink_limit.cap_pixels(inks, limit), "CMYK")


class _CmykReader(ImageReader):
    """An image's pixels as CMYK by cmyk_image, its alpha (if any) kept as the soft mask;
    `most` is the most ink of a pixel it shows, in percent."""

    def __init__(self, source: ImageReader, limit: float):
        import numpy as np
        from PIL import Image

        super().__init__(source._image)
        image = source._image
        if image.mode in ("P", "LA", "PA") or "transparency" in image.info:
            image = image.convert("RGBA")
        alpha = image.getchannel("A") if image.mode == "RGBA" else None
        self._alpha = ImageReader(alpha) if alpha is not None else None
        if image.mode == "CMYK":
            image = Image.fromarray(ink_limit.cap_pixels(np.asarray(image), limit), "CMYK")
        self._cmyk = image if image.mode == "CMYK" else cmyk_image(image, limit)
        totals = np.asarray(self._cmyk, dtype=np.uint16).sum(axis=2)
        shown = np.asarray(alpha) > 0 if alpha is not None else None
        self.most = float(totals[shown].max() if shown is not None and shown.any() else
                          totals.max()) / 2.55

    def getRGBData(self):  # noqa: N802  reportlab's name: the bytes it embeds
        if self._data is None:
            self.mode = "CMYK"
            self._data = self._cmyk.tobytes()
            self._dataA = self._alpha
        return self._data

    def getTransparent(self):  # noqa: N802  the alpha went into the soft mask
        return None


class CmykCanvas(Canvas):
    """A canvas whose colours and images are drawn in DeviceCMYK within an ink limit whoever
    draws them (art, symbols, SVG rasters): the drawers stay colour-blind. An image seen twice
    is converted once. `most_ink` is the most ink at any point of each page (percent, by page
    number), as written."""

    def __init__(self, *args, ink_limit: float = ink_limit.DEFAULT, **kwargs):
        self.ink_limit = ink_limit
        self.most_ink: dict[int, float] = {}
        super().__init__(*args, enforceColorSpace=self.to_cmyk, **kwargs)

    def to_cmyk(self, value):
        """reportlab's enforceColorSpace hook: any colour in, a CMYKColor within the limit out."""
        c = toColor(value)
        alpha = getattr(c, "alpha", 1)
        if isinstance(c, CMYKColor):
            inks = (c.cyan, c.magenta, c.yellow, c.black)
            capped = ink_limit.cap(inks, self.ink_limit)
            if capped != inks:
                c = CMYKColor(*capped, alpha=alpha)
        else:
            capped = rgb_to_cmyk(c.red, c.green, c.blue, self.ink_limit)
            c = CMYKColor(*capped, alpha=alpha)
        self._inked(ink_limit.total(capped))
        return c

    def _inked(self, percent: float) -> None:
        page = getattr(self, "_pageNumber", 1)
        if percent > self.most_ink.get(page, 0.0):
            self.most_ink[page] = percent

    def drawImage(self, image, *args, **kwargs):  # noqa: N802  reportlab's name
        memo = self.__dict__.setdefault("_cmyk_images", {})
        key = _image_key(image)
        if key not in memo:  # the source is kept with it: an id is unique while it lives
            memo[key] = (image, _CmykReader(ImageReader(image), self.ink_limit))
        self._inked(memo[key][1].most)
        return super().drawImage(memo[key][1], *args, **kwargs)


def _image_key(image):
    """A file by its name (a drawer may open it again for every card), else the object."""
    if isinstance(image, str):
        return image
    name = getattr(image, "fileName", None)
    if isinstance(name, str) and not name.startswith("PILIMAGE_"):
        return name
    return id(image)
