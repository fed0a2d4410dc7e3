"""Transparency and raster art flattened for PDF/X-1a, which allows neither.

PDF/X-1a forbids soft masks and constant alpha below 1, and every image must be DeviceCMYK.
So, per card side, each element that draws transparency (an `opacity`, a PNG's alpha, a raster
symbol) or a raster image is replaced by an opaque CMYK picture of the card as it looks there:
the card is drawn up to and with that element, rendered by pdfium at FLATTEN_DPI, and the
pixels that element changed (their bounding box, plus one pixel) become a DeviceCMYK image
drawn in its place. What lies under it is in the picture, so the card looks the same; the rest
of the card stays vector. This is what a prepress flattener does with "atomic regions".

An element is found by what it writes, not by its kind: it is drawn alone into a PDF and the
file is searched for an image, a soft mask or an alpha below 1 (only when its operators use a
graphics state, an XObject or an inline image at all: none of the three, nothing to find).
"""

from __future__ import annotations

import io
import re

from generator.layout.sheet import Placement
from generator.raster import image_size
from pnp_model.components import Card, Deck, Element

FLATTEN_DPI = 300  # the shops' own resolution for raster art
_TRANSPARENT_OR_RASTER = re.compile(
    rb"/SMask\b|/Subtype\s*/Image\b|/(?:ca|CA)\s+(?:0?\.\d*|0)(?![\d.])"
    rb"|/BM\s*/(?!Normal\b|Compatible\b)")
_MAY_BE = re.compile(r"\b(?:gs|Do|BI)\b")  # the only operators that can bring either in


def flattened(deck: Deck, card: Card, side: str, bleed: float, drawers,
              memo: dict) -> tuple[Element, ...]:
    """The elements to draw for this card side, transparent and raster ones replaced by
    opaque CMYK pictures (see the module docstring). memo caches equal drawings."""
    from pnp_model.cardvalues import visible
    from pnp_model.percard import for_card

    source = deck.face if side == "front" else deck.back
    elements = [for_card(el, card) for el in source if visible(el, card)]
    key = (side, _digest(deck, card, elements, drawers))
    if key not in memo:
        plain = not _needs_flattening(deck, card, elements, bleed, drawers)
        memo[key] = tuple(elements) if plain else _flatten(deck, card, elements, bleed, drawers)
    return memo[key]


def _flatten(deck: Deck, card: Card, elements: list[Element], bleed: float,
             drawers) -> tuple[Element, ...]:
    marked = [i for i, el in enumerate(elements)
              if _needs_flattening(deck, card, [el], bleed, drawers)]
    prefixes = sorted({i for m in marked for i in (m, m + 1)})
    images, size, (ox, oy) = _render_prefixes(deck, card, elements, prefixes, bleed)
    out: list[Element] = []
    for i, el in enumerate(elements):
        if i not in marked:
            out.append(el)
            continue
        patch = _patch(images[i], images[i + 1], size, ox, oy, el)
        if patch is not None:
            out.append(patch)
    return tuple(out)


def _probe_canvas(deck: Deck, width: float, height: float, cmyk: bool = True):
    from generator.render.pdf import new_canvas

    buf = io.BytesIO()
    return buf, new_canvas(buf, width, height, deck.title, cmyk=cmyk)


def _needs_flattening(deck: Deck, card: Card, elements: list[Element], bleed: float,
                      drawers) -> bool:
    from generator.render.pdf import draw_card

    buf, c = _probe_canvas(deck, deck.width + 2 * bleed, deck.height + 2 * bleed)
    draw_card(c, deck, Placement(card, bleed, bleed, 0, bleed), tuple(elements), drawers, {},
              False)
    if not _MAY_BE.search("\n".join(c._code)):  # _code: the page's operators (forms: a Do)
        return False
    c.showPage()
    c.save()
    return bool(_TRANSPARENT_OR_RASTER.search(buf.getvalue()))


def _digest(deck: Deck, card: Card, elements: list[Element], drawers) -> str:
    from generator.render.pdf import drawing_digest

    return drawing_digest(deck, card, tuple(elements), drawers, {})


def _render_prefixes(deck: Deck, card: Card, elements: list[Element], prefixes: list[int],
                     bleed: float):
    """The card drawn with its first n elements, for each n in prefixes, as RGB images of one
    pixel grid: {n: image}, the grid's size in pixels, and the card's offset on it (points)."""
    import pypdfium2 as pdfium

    from generator.raster import render_page
    from generator.render.pdf import draw_card
    from generator.render.registry import load_drawers

    px, py = image_size(deck.width + 2 * bleed, deck.height + 2 * bleed, FLATTEN_DPI,
                        "a flattened card")
    w, h = px * 72 / FLATTEN_DPI, py * 72 / FLATTEN_DPI
    ox, oy = (w - deck.width) / 2, (h - deck.height) / 2
    # Drawn in RGB: pdfium shows RGB colours as they are, so converting its pixels gives the
    # same inks as the vector colours around the picture (its CMYK-to-RGB is not the inverse).
    buf, c = _probe_canvas(deck, w, h, cmyk=False)
    drawers, cache = load_drawers(), {}
    for n in prefixes:
        draw_card(c, deck, Placement(card, ox, oy, 0, max(ox, oy)), tuple(elements[:n]),
                  drawers, cache, False)
        c.showPage()
    c.save()
    doc = pdfium.PdfDocument(buf.getvalue())
    images = {n: render_page(doc, k, FLATTEN_DPI, (px, py), False)
              for k, n in enumerate(prefixes)}
    return images, (px, py), (ox, oy)


def _patch(before, after, size: tuple[int, int], ox: float, oy: float,
           el: Element) -> Element | None:
    """The pixels the element changed, as an opaque picture (CMYK as drawn) placed where they are; None
    when it changed nothing (drawn outside the card, or the same colour as beneath)."""
    from PIL import ImageChops

    changed = ImageChops.difference(before, after).getbbox()
    if changed is None:
        return None
    px, py = size
    left, top = max(changed[0] - 1, 0), max(changed[1] - 1, 0)
    right, bottom = min(changed[2] + 1, px), min(changed[3] + 1, py)
    # RGB: the CMYK canvas that draws it converts it, within its ink limit, like any image
    picture = after.crop((left, top, right, bottom))
    unit = 72 / FLATTEN_DPI
    return Element("flattened", {
        "image": picture, "x": left * unit - ox, "y": (py - bottom) * unit - oy,
        "w": (right - left) * unit, "h": (bottom - top) * unit,
    }, f"{el.where} (flattened)", el.layout)


def draw_flattened(ctx, el: Element) -> None:
    """The drawer of a flattened picture: an opaque DeviceCMYK image, in card coordinates."""
    from reportlab.lib.utils import ImageReader

    ctx.canvas.drawImage(ImageReader(el.get("image")), el.get("x"), el.get("y"), el.get("w"),
                         el.get("h"))
