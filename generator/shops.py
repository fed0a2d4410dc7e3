"""Print-on-demand shop presets: which card sizes a shop prints, at what pixel size and bleed.

Only figures a shop has published (cited in docs/guides/print-shop.md) are here; a card size a shop does not
list is refused with the sizes it does. Sizes are matched on the deck's trim in inches, to 0.01.
A shop that states its bleed in pixels (MakePlayingCards: 36 px at 300 dpi, not 1/8 in = 37.5)
gets exactly that many pixels on each side: the image is round(trim × dpi) + 2 × bleed_px.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.naming import output_stem
from pnp_model.components import Card, Deck
from pnp_model.errors import PnpError

INCH = 72.0


@dataclass(frozen=True)
class Shop:
    name: str
    title: str
    format: str  # png: one image per distinct face | pdf: one PDF, a back then a front per card
    bleed_in: float
    sizes: dict[str, tuple[float, float]]  # card size name -> trim (width, height) in inches
    cmyk: bool = False
    dpi: int = 300
    bleed_px: int | None = None  # bleed in whole pixels at dpi, when the shop counts it so
    pdfx: bool = False  # the PDF as PDF/X-1a:2003 (render/pdfx.py)
    safe_in: float | None = None  # text this far inside the trim (None: the definition's safe)
    min_text_pt: float = 6.0  # smaller text is a preflight finding (6 pt unless published)
    ink_limit: float = 300.0  # total ink, percent, of the CMYK output (generator/ink/limit.py)

    def safe_points(self) -> float | None:
        return None if self.safe_in is None else self.safe_in * INCH

    def bleed_points(self) -> float:
        """The bleed around each card, in points (exact pixels when the shop gives pixels)."""
        return self.bleed_px * INCH / self.dpi if self.bleed_px is not None else self.bleed_in * INCH


# MakePlayingCards' rectangular card sizes (its image-upload guide); PrinterStudio, its sister
# site, documents poker only. Uploads are trim at 300 dpi plus 36 px on every side.
MPC_SIZES = {
    "poker": (2.5, 3.5), "bridge": (2.25, 3.5), "tarot": (2.75, 4.75), "mini": (1.75, 2.5),
    "large": (3.5, 5.75), "medium": (2.45, 3.95), "micro": (1.25, 1.75), "domino": (1.75, 3.5),
    "small square": (2.0, 2.0), "large square": (3.5, 3.5), "business": (2.0, 3.5),
}


SHOPS = {
    s.name: s for s in (
        # The Game Crafter: PNG at 300 dpi, trim plus 1/8 in of bleed on every side
        # (poker 2.5 x 3.5 in -> 825 x 1125 px); its templates' safe zone is 1/8 in inside.
        Shop("thegamecrafter", "The Game Crafter", "png", 0.125,
             {"poker": (2.5, 3.5), "bridge": (2.25, 3.5), "tarot": (2.75, 4.75)}, safe_in=0.125),
        # DriveThruCards: one PDF/X-1a:2003 per deck, the back then the front of each card,
        # 1/8 in of bleed and of safe zone, CMYK within 240 % total ink (its help pages), 300
        # dpi images.
        Shop("drivethrucards", "DriveThruCards", "pdf", 0.125, {"poker": (2.5, 3.5)}, cmyk=True,
             pdfx=True, safe_in=0.125, ink_limit=240.0),
        # PrintNinja (offset): a print-ready CMYK PDF, 0.125 in of bleed and text 0.125 in
        # inside the trim (its file-setup guide, "Bleed / Safe Zone / Borders").
        Shop("printninja", "PrintNinja", "pdf", 0.125,
             {"poker": (2.5, 3.5), "bridge": (2.25, 3.5), "tarot": (2.75, 4.75),
              "mini": (1.75, 2.5)}, cmyk=True, pdfx=True, safe_in=0.125),
        # MakePlayingCards and PrinterStudio: a PNG per face, trim + 36 px each side at 300 dpi
        # (poker 822 x 1122 px).
        Shop("makeplayingcards", "MakePlayingCards", "png", 0.12, MPC_SIZES, bleed_px=36),
        Shop("printerstudio", "PrinterStudio", "png", 0.12, {"poker": (2.5, 3.5)}, bleed_px=36),
    )
}


def shop(name: str) -> Shop:
    key = name.lower().replace(" ", "").replace("-", "")
    if key not in SHOPS:
        raise PnpError(f"no preset for the shop {name!r} (presets: {', '.join(SHOPS)})", "--shop")
    return SHOPS[key]


def card_size(s: Shop, deck: Deck) -> str:
    """The shop's name for the deck's card size; refused when the shop does not print it."""
    w, h = sorted((deck.width / INCH, deck.height / INCH))
    for name, (sw, sh) in s.sizes.items():
        if abs(w - min(sw, sh)) < 0.01 and abs(h - max(sw, sh)) < 0.01:
            return name
    offered = ", ".join(f"{n} {sw:g}×{sh:g} in" for n, (sw, sh) in s.sizes.items())
    raise PnpError(f"{s.title} does not print {deck.shape} cards of {w:.2f}×{h:.2f} in; it "
                   f"prints {offered}", "--shop")


def export_for_shop(deck: Deck, cards: tuple[Card, ...], name: str, folder: Path, *,
                    workers: int = 1, progress: Callable[[int], None] | None = None) -> dict:
    """Files as the shop asks for them; returns a summary for the CLI."""
    s = shop(name)
    size = card_size(s, deck)
    bleed = s.bleed_points()
    if s.format == "png":
        from generator.exports import export_png

        rows = export_png(deck, cards, folder, dpi=s.dpi, bleed=bleed, workers=workers,
                          progress=progress)
        return {"shop": s.title, "size": size, "files": len(rows), "folder": str(folder)}
    return _pdf(deck, cards, s, size, bleed, folder, progress)


def _pdf(deck: Deck, cards: tuple[Card, ...], s: Shop, size: str, bleed: float,
         folder: Path, progress: Callable[[int], None] | None = None) -> dict:
    from generator.build import Options, resolved, write_atomic
    from generator.layout.sheet import one_card_a_page
    from generator.render.pdf import render

    if not deck.has_backs:
        raise PnpError(f"{s.title} prints a back for every card, and {deck.name} has no "
                       "[[back]]", "--shop")
    jobs = [(card, side) for card in cards for side in ("back", "front")]
    flip = resolved(deck, Options()).flip
    sheet = one_card_a_page(deck.width, deck.height, jobs, bleed, flip=flip)
    if s.pdfx:
        from generator.render.pdfx import render_pdfx

        data = render_pdfx(deck, sheet, progress=progress, ink_limit=s.ink_limit)
    else:
        data = render(deck, sheet, cmyk=s.cmyk, progress=progress, ink_limit=s.ink_limit)
    out = folder / f"{output_stem(deck)}-{s.name}.pdf"
    write_atomic(out, data)
    return {"shop": s.title, "size": size, "files": 1, "pdf": str(out), "pages": len(sheet.pages)}
