"""PNG previews of a page or a single card, rendered from the same PDF the build writes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from generator.build import Options, plan, resolved, single_pages, write_atomic
from generator.raster import image_size
from pnp_model.components import Deck
from pnp_model.errors import PnpError


def _png(pdf: bytes, index: int, out: Path, dpi: int) -> None:
    """Render one page to a PNG file, written atomically like the PDFs."""
    import io

    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        buf = io.BytesIO()
        doc[index].render(scale=dpi / 72).to_pil().save(buf, format="PNG")
    finally:
        doc.close()
    write_atomic(out, buf.getvalue())


def preview_page(deck: Deck, page: int, out: Path, dpi: int = 100, paper: str | None = None) -> None:
    from generator.render.pdf import render

    sheet = plan(deck, Options(paper=paper))
    if not 1 <= page <= len(sheet.pages):
        raise PnpError(f"{deck.name} has {len(sheet.pages)} pages; there is no page {page}", "--page")
    _png(render(deck, sheet), page - 1, out, dpi)


def preview_card(deck: Deck, card_id: int, out: Path, dpi: int = 100, back: bool = False) -> None:
    from generator.render.pdf import render

    try:
        card = deck.card(card_id)
    except KeyError:
        raise PnpError(f"{deck.name} has cards #1 to #{len(deck.cards)}; there is no card "
                       f"#{card_id}", "--card") from None
    if back and not deck.has_backs:
        raise PnpError(f"{deck.name} has no backs", "--back")
    # the card as the definition bleeds it on sheets, not with a print shop's bleed
    o = resolved(deck, Options(backs=back, layout="single", bleed=deck.print.bleed))
    sheet = single_pages(deck, (card,), o)
    image_size(sheet.width, sheet.height, dpi, "the card preview")
    _png(render(deck, replace(sheet, guides=True)), 1 if back else 0, out, dpi)
