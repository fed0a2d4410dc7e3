"""Built-in icons' real shapes, for packing them by their ink instead of their bounding circles.

Font Awesome glyphs are thin (a bell, a bicycle): their ink fills well under half of the
circle around them, so circles leave most of a card blank. Each glyph is rasterised once with
Pillow from the same font file the PDF embeds, and its mask becomes a Silhouette in font
units, centred on the mask's centre; generator.layout.silhouettes then nests the icons into
each other's gaps, as it does for the user's own art. Small decks only: shape packing costs
time for every symbol placed, circle packing a pool of layouts shared by the whole deck, so
a 55-card deck of 8 icons is packed by shapes and a 90-card deck of 10 by circles.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

EM_PIXELS = 96  # glyph mask resolution per em: ~1 % of an icon's size per cell
ICON_SHAPE_BUDGET = 500  # cards x symbols per card: above this, icons go by circles
CELLS = 90  # packing grid cells across the card: coarser than silhouettes.CELLS (120), faster


@dataclass(frozen=True)
class IconShape:
    """A glyph's silhouette and where its centre is, in font units (y up, baseline 0)."""

    silhouette: object  # generator.layout.silhouettes.Silhouette
    cx: float
    cy: float
    box: tuple[float, float, float, float]  # the mask's box, padded by a cell each way


def packs_by_shape(cards: int, per_card: int) -> bool:
    """Whether a deck of icons is small enough to pack each card by the icons' shapes."""
    return cards * per_card <= ICON_SHAPE_BUDGET


@cache
def _font(path: str):
    from PIL import ImageFont

    return ImageFont.truetype(path, EM_PIXELS)


@cache
def icon_shape(font_path: str, code: int, units_per_em: int) -> IconShape:
    """The glyph's ink as a mask of font-unit cells (a pixel counts when any of it is ink)."""
    import numpy as np
    from PIL import Image, ImageDraw

    from generator.layout.silhouettes import Silhouette

    font = _font(font_path)
    ch = chr(code)
    left, top, right, bottom = font.getbbox(ch, anchor="ls")
    w, h = max(right - left, 1) + 2, max(bottom - top, 1) + 2
    im = Image.new("L", (w, h))
    ox, oy = 1 - left, 1 - top  # the glyph origin (left end of the baseline), in pixels
    ImageDraw.Draw(im).text((ox, oy), ch, font=font, fill=255, anchor="ls")
    mask = np.asarray(im) > 0
    if not mask.any():
        mask[h // 2, w // 2] = True
    unit = units_per_em / EM_PIXELS  # font units per pixel
    cx, cy = (w / 2 - ox) * unit, (oy - h / 2) * unit
    pad = unit  # Pillow's outline may differ from the PDF's by a fraction of a pixel
    box = (-ox * unit - pad, (oy - h) * unit - pad, (w - ox) * unit + pad, oy * unit + pad)
    return IconShape(Silhouette(mask, unit), cx, cy, box)


def pack_icons(shapes: list, region, seed: str, sizes, rim: float, rotate: bool) -> list:
    """One card's icons packed by their shapes on a CELLS grid (ValueError: they do not fit)."""
    from generator.layout.packing import SQRT3
    from generator.layout.silhouettes import pack_silhouettes

    diameter = 2 * (region.r if region.sides == 0 else region.r * SQRT3 / 2)
    return pack_silhouettes(shapes, region, seed, sizes, cell=diameter / CELLS, rim=rim,
                            rotate=rotate)


def pack_cards(cards: list[tuple[tuple[str, ...], str]], shapes: dict, region, sizes, rim: float,
               rotate: bool) -> list:
    """Each card's layout by shapes (its symbol names and seed given), shared over the cores,
    in the given order; None for a card that does not fit (drawing it says why)."""
    import numpy  # noqa: F401  (imported once here, not once in each child)

    from generator.parallel import fork_map

    def pack_card(card):
        names, seed = card
        try:
            return pack_icons([shapes[n] for n in names], region, seed, sizes, rim, rotate)
        except ValueError:
            return None

    return fork_map(pack_card, cards)
