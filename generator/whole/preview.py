"""`pnp preview` of a whole game: a page of the one PDF the build writes, rendered from the same
bytes (generator/whole/build.py game_pdf), with the build's warnings; a piece of one component
is previewed as a deck's card is (generator/preview.py)."""

from __future__ import annotations

from pathlib import Path

from generator.build import Options
from generator.raster import image_size
from pnp_model.errors import PnpError
from pnp_model.game import Game


def preview_game_page(game: Game, page: int, out: Path, dpi: int,
                      opts: Options) -> tuple[str, ...]:
    """Page `page` (1-based) of the game's PDF as PNG; returns the build's warnings."""
    import pypdfium2 as pdfium

    from generator.preview import write_png
    from generator.whole.build import game_pdf

    data, result = game_pdf(game, out, opts)
    if not 1 <= page <= result.pages:
        raise PnpError(f"{game.name} has {result.pages} pages; there is no page {page}", "--page")
    doc = pdfium.PdfDocument(data)
    try:
        w, h = doc[page - 1].get_size()
    finally:
        doc.close()
    image_size(w, h, dpi, "the page preview")
    write_png(data, page - 1, out, dpi)
    return result.notes


def component_deck(game: Game, name: str | None, why: str):
    """The deck of the named component; a whole game needs the name for `why`."""
    if not name:
        names = ", ".join(c.name for c in game.components)
        raise PnpError(f"{game.name} holds several components ({names}): {why} needs "
                       "--component NAME", "--component")
    return game.only((name,), "--component").components[0].deck
