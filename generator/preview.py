"""PNG previews of a page or a single card, rendered from the same PDF the build writes.

Both return the build's warnings for what they drew (text that does not fit, a missing glyph,
low-resolution art, crop marks without room), so that `pnp preview` and `pnp watch` say what
`pnp build` would say with the same options."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from generator.build import Options, plan, rendered, resolved, single_pages, write_atomic
from generator.raster import image_size
from pnp_model.components import Deck
from pnp_model.errors import PnpError

AS_DEFINED = Options()  # no option given: the definition's own [print] settings


def write_png(pdf: bytes, index: int, out: Path, dpi: int) -> None:
    """Render one page to a PNG file, written atomically like the PDFs; a name not ending in
    .png is refused (`-o cards.csv` would have replaced the card list with an image)."""
    import io

    if out.suffix.lower() != ".png":
        raise PnpError(f"a preview is a PNG image: name the file .png, not {out.name}",
                       "--output")

    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        buf = io.BytesIO()
        doc[index].render(scale=dpi / 72).to_pil().save(buf, format="PNG", pnginfo=_mark())
    finally:
        doc.close()
    write_atomic(out, buf.getvalue())


def preview_page(deck: Deck, page: int, out: Path, dpi: int = 100,
                 opts: Options = AS_DEFINED) -> tuple[str, ...]:
    """Page `page` of the PDF `pnp build` writes with `opts`; returns the build's warnings."""
    sheet = plan(deck, opts)
    if not 1 <= page <= len(sheet.pages):
        raise PnpError(f"{deck.name} has {len(sheet.pages)} pages; there is no page {page}", "--page")
    image_size(sheet.width, sheet.height, dpi, "the page preview")
    data, warnings = rendered(deck, sheet, resolved(deck, opts))
    write_png(data, page - 1, out, dpi)
    return warnings


def preview_card(deck: Deck, card_id: int, out: Path, dpi: int = 100, back: bool = False,
                 opts: Options = AS_DEFINED) -> tuple[str, ...]:
    """One card (or its back) alone with its bleed and cut outline; returns its warnings."""
    try:
        card = deck.card(card_id)
    except KeyError:
        raise PnpError(f"{deck.name} has cards #1 to #{len(deck.cards)}; there is no card "
                       f"#{card_id}", "--card") from None
    if back and not deck.has_backs:
        raise PnpError(f"{deck.name} has no backs", "--back")
    # the card as the definition bleeds it on sheets, not with a print shop's bleed
    bleed = deck.print.bleed if opts.bleed is None else opts.bleed
    o = resolved(deck, replace(opts, backs=back, layout="single", bleed=bleed))
    sheet = single_pages(deck, (card,), o)
    image_size(sheet.width, sheet.height, dpi, "the card preview")
    data, warnings = rendered(deck, replace(sheet, guides=True), o)
    write_png(data, 1 if back else 0, out, dpi)
    return warnings


def preview_cards(deck: Deck, spec: str, output: Path | None, dpi: int = 100,
                  back: bool = False, opts: Options = AS_DEFINED) -> tuple[list[Path], list[str]]:
    """The cards `spec` names (id, name or range), one PNG each, named after the game and the
    card unless `output` names the file (one card) or the folder (several); returns the files
    written and the warnings, each once."""
    from generator.cardselect import select
    from generator.naming import output_stem

    cards = select(deck, spec)
    outs, warnings = [], {}
    for card in cards:
        name = f"{output_stem(deck)}-card-{card.id}{'-back' if back else ''}.png"
        out = (output / name if output and len(cards) > 1 else output) or Path("output") / name
        warnings.update(dict.fromkeys(preview_card(deck, card.id, out, dpi, back, opts)))
        outs.append(out)
    return outs, list(warnings)


MARK = ("Software", "pnp preview")  # a PNG text chunk: this file is a preview, not art


def _mark():
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add_text(*MARK)
    return info


def _is_preview(path: Path) -> bool:
    from PIL import Image

    try:
        with Image.open(path) as im:
            return getattr(im, "text", {}).get(MARK[0]) == MARK[1]
    except (OSError, ValueError):
        return False


def check_not_game_file(output: Path | None, root: Path) -> None:
    """Refuse an --output that is an existing file of the game's own folder (its art, its
    definition): a preview replaces what it names. An earlier preview there (its PNG says so)
    may be replaced."""
    if output is None or not output.is_file():
        return
    try:
        output.resolve().relative_to(root.resolve())
    except ValueError:
        return
    if not _is_preview(output):
        raise PnpError(f"{output} is one of the files of the game in {root}: a preview does "
                       "not write over it; name a new file", "--output")
