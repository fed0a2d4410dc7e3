"""A whole game's PDF: the contents page, then each part's pages, on one canvas.

Each page keeps its own part's paper size and orientation; the drawing of a part's pages is
the one a single deck's build uses (generator.render.pdf.draw_sheet), so a component prints
here exactly as it would on its own.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from reportlab.lib.colors import HexColor

from generator.render.fonts import font
from generator.render.pdf import DUPLEX, FOOTER_DROP, draw_sheet, new_canvas
from generator.whole.contents import draw_contents
from pnp_model import units
from pnp_model.units import MM


def render_game(title: str, parts, *, cmyk: bool = False,
                progress: Callable[[int], None] | None = None, pages=()) -> bytes:
    first = parts[0].options
    w, h = units.paper(first.paper, "portrait")
    buf = io.BytesIO()
    c = new_canvas(buf, w, h, title, cmyk)
    duplex = [p for p in parts if p.double_sided]
    flip = duplex[0].sheet.flip if duplex else "long"
    c.setViewerPreference("Duplex", DUPLEX[flip] if duplex else "Simplex")
    for image in pages:  # the designer's own pages (the rules), each fitted to the paper
        _image_page(c, image, w, h, first.margin)
        c.showPage()
    c.setPageSize((w, h))
    draw_contents(c, title, parts, flip, first_page=len(pages) + 1, margin=first.margin)
    c.showPage()
    for part in parts:
        if part.blank_before:  # said on the page, so nobody thinks a page went missing
            c.setPageSize((part.sheet.width, part.sheet.height))
            c.setFont(font("sans"), 6)
            c.setFillColor(HexColor("#666666"))
            c.drawString(max(8 * MM, part.sheet.margin), part.sheet.margin + FOOTER_DROP,
                         f"{title} · blank: the back of the sheet before; "
                         f"{part.component.name} starts on the next page")
            c.showPage()
        draw_sheet(c, part.component.deck, part.sheet, progress=progress, cmyk=cmyk,
                   also=_guests(part, cmyk) if part.guests else None)
    c.save()
    return buf.getvalue()


def _guests(part, cmyk: bool):
    """Draws the pieces nested on a page of this part, each with its own deck's face and its
    cut outline (nested pieces get no crop marks: generator/whole/nesting.py)."""
    from generator.render.basic import PPI_FLOOR
    from generator.render.pdf import draw_card
    from generator.render.registry import load_drawers

    drawers = load_drawers()
    caches: dict[int, dict] = {}

    def draw(c, n: int) -> None:
        for deck, placement in part.guests.get(n, ()):
            cache = caches.setdefault(id(deck), {
                "cards drawn": [pl.card for d, pl in (g for gs in part.guests.values()
                                                      for g in gs) if d is deck],
                "ppi floor": PPI_FLOOR["shop" if cmyk else "home"]})
            draw_card(c, deck, placement, deck.face, drawers, cache, True)

    return draw


def _image_page(c, path, w: float, h: float, margin: float) -> None:
    """An image as large as fits inside the printer margin, centred, turned to its page."""
    from generator.render.basic import read_image

    image, _ = read_image(path, path.name, "[game].pages")
    iw, ih = image.getSize()
    if iw > ih:  # a landscape image on a landscape page
        w, h = h, w
    c.setPageSize((w, h))
    k = min((w - 2 * margin) / iw, (h - 2 * margin) / ih)
    c.drawImage(image, (w - iw * k) / 2, (h - ih * k) / 2, iw * k, ih * k)
