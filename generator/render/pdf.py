"""Draw an imposed Sheet into PDF bytes: each card clipped to its shape, marks, viewer hints.

Output is deterministic (reportlab invariant mode): the same deck and options give the same bytes.
Fonts are TrueType and embedded; images are embedded once per document (drawers share a cache).
"""

from __future__ import annotations

import hashlib
import io
import math
from collections.abc import Callable

from reportlab.lib.colors import HexColor, toColor
from reportlab.pdfgen.canvas import Canvas

from generator.layout.legend import LegendCard
from generator.layout.sheet import Page, Placement, Sheet
from generator.render.fonts import font
from generator.render.outline import outline
from generator.render.registry import Ctx, load_drawers
from pnp_model.cardvalues import visible
from pnp_model.components import Card, Deck, Element
from pnp_model.percard import for_card
from pnp_model.units import MM

MARK_WIDTH = 0.25
GUIDE_COLOR = HexColor("#9a9a9a")
TAB_COLOR = HexColor("#e3e3e3")  # glue tabs: light enough not to pass for art or a cut line
FOOTER_DROP = 0.5 * MM  # a 6 pt line's descenders reach this far below its baseline
DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}


def new_canvas(buf: io.BytesIO, width: float, height: float, title: str,
               cmyk: bool = False, ink_limit: float | None = None) -> Canvas:
    """A canvas; with cmyk, one that draws press inks within ink_limit percent (default 300)."""
    from generator.render.cmyk import CmykCanvas

    # The initial font is an embedded one: reportlab's default, Helvetica, would be referenced
    # on every page without being embedded (print shops' preflight rejects that).
    common = {"pagesize": (width, height), "invariant": 1, "pageCompression": 1,
              "initialFontName": font("sans")}
    c = CmykCanvas(buf, **common, **({"ink_limit": ink_limit} if ink_limit else {})) if cmyk \
        else Canvas(buf, **common)
    c.setTitle(title)
    c.setCreator("pnp print-and-play toolkit")
    c.setViewerPreference("PrintScaling", "None")
    return c


def render(deck: Deck, sheet: Sheet, *, progress: Callable[[int], None] | None = None,
           cmyk: bool = False, ppi_floor: int | None = None, ink_limit: float | None = None,
           most_ink: dict | None = None) -> bytes:
    """The PDF for a sheet, printed as the sheet says (duplex edge, guides, trim boxes).
    Art below ppi_floor is noted; by default a shop's floor for CMYK output, else a home one.
    CMYK output keeps within ink_limit percent and fills most_ink (page number: percent)."""
    buf = io.BytesIO()
    c = new_canvas(buf, sheet.width, sheet.height, deck.title, cmyk, ink_limit)
    has_backs = any(p.side == "back" for p in sheet.pages)
    c.setViewerPreference("Duplex", DUPLEX.get(sheet.flip, "Simplex") if has_backs else "Simplex")
    draw_sheet(c, deck, sheet, progress=progress, cmyk=cmyk, ppi_floor=ppi_floor)
    c.save()
    if most_ink is not None and cmyk:
        most_ink.update(c.most_ink)
    return buf.getvalue()


def draw_sheet(c: Canvas, deck: Deck, sheet: Sheet, *, progress: Callable[[int], None] | None = None,
               cmyk: bool = False, ppi_floor: int | None = None,
               also: Callable[[Canvas, int], None] | None = None) -> None:
    """A sheet's pages onto an open canvas: one deck's PDF, or one component's part of a whole
    game's (generator/whole), each page at the sheet's own paper size. `also(c, n)` draws
    more on page n (0-based): another component's pieces nested in its free room."""
    from generator.render.basic import PPI_FLOOR

    drawers = load_drawers()
    # the cards this document draws, in order: a drawer may prepare work for all of them
    cache: dict = {"cards drawn": [pl.card for page in sheet.pages for pl in page.placements],
                   "ppi floor": ppi_floor or PPI_FLOOR["shop" if cmyk else "home"]}
    for n, page in enumerate(sheet.pages, 1):
        c.setPageSize((sheet.width, sheet.height))
        if sheet.trim_box:
            set_boxes(c, sheet, sheet.trim_box)
        for placement in page.placements:
            side = placement.side or page.side
            elements = deck.face if side == "front" else deck.back
            # a legend card brings its own face (generator.render.legend); its back is the deck's
            own = isinstance(placement.card, LegendCard) and side == "front"
            # No cut outlines on backs: a duplex slip or a fold would show them on the card.
            draw_card(c, deck, placement, placement.card.face if own else elements, drawers,
                      cache, sheet.guides and side == "front")
        draw_marks(c, page)
        if also:
            also(c, n - 1)
        if not sheet.trim_box:
            footer(c, deck, sheet, page, n)
        c.showPage()
        if progress:
            progress(1)


def set_boxes(c: Canvas, sheet: Sheet, trim: tuple[float, float, float, float]) -> None:
    x, y, w, h = trim
    c.setTrimBox((x, y, x + w, y + h))
    c.setBleedBox((0, 0, sheet.width, sheet.height))


def draw_card(c: Canvas, deck: Deck, pl: Placement, elements: tuple[Element, ...], drawers,
              cache: dict, guides: bool) -> None:
    w, h = deck.width, deck.height
    c.saveState()
    if pl.clip:  # a board's window on this sheet (generator/layout/tiling.py)
        path = c.beginPath()
        path.rect(*pl.clip)
        c.clipPath(path, stroke=0, fill=0)
    c.translate(pl.x, pl.y)
    if pl.rotation:
        c.translate(w / 2, h / 2)
        c.rotate(pl.rotation)
        c.translate(-w / 2, -h / 2)
    c.saveState()
    # A rounded corner is a cut guide, not a clip: art reaching the trim bleeds square past it,
    # so a square cut leaves no white notch.
    c.clipPath(outline(c, deck.shape, w, h, pl.bleed), stroke=0, fill=0)
    ctx = Ctx(c, deck, pl.card, pl.bleed, cache)
    plain = c._enforceColorSpace  # reportlab's hook on every colour set (CMYK output uses it)
    for el in elements:
        if not visible(el, pl.card):
            continue
        el = for_card(el, pl.card)
        c.saveState()
        if el.get("opacity") is not None:
            c._enforceColorSpace = _with_alpha(plain, el.get("opacity"))
        if el.get("rotate"):
            px, py = _pivot(ctx, el)
            c.translate(px, py)
            c.rotate(-el.get("rotate"))
            c.translate(-px, -py)
        drawers[el.kind](ctx, el)
        c._enforceColorSpace = plain
        c.restoreState()
    c.restoreState()
    if guides:
        c.setStrokeColor(GUIDE_COLOR)
        c.setLineWidth(MARK_WIDTH)
        c.drawPath(outline(c, deck.shape, w, h, 0, deck.corner_radius), stroke=1, fill=0)
    c.restoreState()


def drawing_digest(deck: Deck, card: Card, elements: tuple[Element, ...], drawers, cache) -> str:
    """A fingerprint of the PDF operators that draw this card (equal digests: equal faces)."""
    c = Canvas(io.BytesIO(), pagesize=(deck.width, deck.height), invariant=1)
    draw_card(c, deck, Placement(card, 0, 0, 0, 0), elements, drawers, cache, False)
    return hashlib.sha256("\n".join(c._code).encode()).hexdigest()  # _code: the page's operators


def _with_alpha(convert, alpha: float):
    """A colour hook giving every colour an element sets the element's opacity (a drawer's
    setFillColor would otherwise reset the alpha to its colour's own, 1)."""
    def hook(value):
        colour = toColor(convert(value) if convert else value)
        return colour.clone(alpha=alpha * (getattr(colour, "alpha", 1) or 1))

    return hook


def _pivot(ctx: Ctx, el: Element) -> tuple[float, float]:
    """Rotation centre: the anchor of point-like elements, the centre of boxed ones."""
    if el.kind in ("text", "shape") or el.get("w") is None:
        return el.get("x", ctx.width / 2), ctx.y(el.get("y", ctx.height / 2))
    return el.get("x", 0) + el.get("w") / 2, ctx.y(el.get("y", 0) + el.get("h", 0) / 2)


def draw_marks(c: Canvas, page: Page) -> None:
    if page.tabs:
        c.setFillColor(TAB_COLOR)
        for corners in page.tabs:
            path = c.beginPath()
            path.moveTo(*corners[0])
            for x, y in corners[1:]:
                path.lineTo(x, y)
            path.close()
            c.drawPath(path, stroke=0, fill=1)
        c.setFillColor(GUIDE_COLOR)
        c.setFont(font("sans"), 5)
        for corners in page.tabs:  # the word along the tab's base, so it reads as a tab's
            (x1, y1), (x2, y2) = corners[0], corners[1]
            c.saveState()
            c.translate(*centre(corners))
            c.rotate(math.degrees(math.atan2(y2 - y1, x2 - x1)))
            c.drawCentredString(0, -1.8, "glue")
            c.restoreState()
    c.setStrokeColor(HexColor("#000000"))
    c.setLineWidth(MARK_WIDTH)
    for x1, y1, x2, y2 in page.marks:
        c.line(x1, y1, x2, y2)
    c.setFillColor(HexColor("#000000"))
    for x, y, w, h in page.fills:
        c.rect(x, y, w, h, stroke=0, fill=1)
    if page.guides:
        c.setDash(2, 2)
        for x1, y1, x2, y2 in page.guides:
            c.line(x1, y1, x2, y2)
        c.setDash()


def centre(corners) -> tuple[float, float]:
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def footer(c: Canvas, deck: Deck, sheet: Sheet, page: Page, n: int) -> None:
    """A small line under the cards when there is room: what this page is."""
    lowest = min([p.y - p.bleed for p in page.placements] + [min(s[1], s[3]) for s in page.marks]
                 + [y for tab in page.tabs for _, y in tab], default=0)
    if lowest < sheet.margin + 4 * MM or page.fills:  # a cutter's marks: its sensor would read it
        return
    c.setFont(font("sans"), 6)
    c.setFillColor(HexColor("#666666"))
    ids = [p.card.id for p in page.placements if not isinstance(p.card, LegendCard)]
    legend = len(ids) < len(page.placements)
    cards = f" · cards #{min(ids)}–#{max(ids)}" if ids else ""
    # the baseline clear of the margin by the descenders' depth
    c.drawString(max(8 * MM, sheet.margin), sheet.margin + FOOTER_DROP,
                 f"{deck.title} · page {n} of {len(sheet.pages)} · {page.side}s"
                 f"{cards}{' · legend' if legend else ''}")
