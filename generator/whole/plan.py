"""Each component of a game imposed with the build's options, in the PDF's page order.

Options the user gave apply to every component; what they leave unset comes from each
component's own [print] (the game's, with the component's keys over it). A double-sided
component starts on an odd page, so the whole file prints duplex with every back behind its
front; a blank page before it keeps that (the contents page says so).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.build import Options, plan, resolved
from generator.layout.sheet import Sheet
from pnp_model import units
from pnp_model.errors import PnpError
from pnp_model.game import Component, Game


@dataclass(frozen=True)
class Part:
    component: Component
    sheet: Sheet
    options: Options  # resolved for this component
    first_page: int  # 1-based page of the PDF where its sheets start
    blank_before: bool = False  # a blank page before it keeps its fronts on odd pages

    @property
    def pages(self) -> int:
        return len(self.sheet.pages)

    @property
    def double_sided(self) -> bool:
        return any(p.side == "back" for p in self.sheet.pages)

    @property
    def sheets(self) -> int:
        return sum(1 for p in self.sheet.pages if p.side == "front")


def plan_game(game: Game, opts: Options) -> list[Part]:
    """The parts in page order, after the contents page (page 1)."""
    if opts.pdfx:
        raise PnpError("PDF/X is written per deck; a whole game is one PDF of several "
                       "components: build them for a shop with --single and --cmyk", "--pdfx")
    parts, page = [], 2
    for comp in game.components:
        sheet = _imposed(comp, opts)
        o = resolved(comp.deck, opts)
        blank = any(p.side == "back" for p in sheet.pages) and page % 2 == 0
        page += blank
        parts.append(Part(comp, sheet, o, page, blank))
        page += len(sheet.pages)
    return parts


def _imposed(comp: Component, opts: Options) -> Sheet:
    """The component's sheets; a board larger than the paper is split over several."""
    try:
        if comp.kind == "board" and opts.layout != "single":
            return _board(comp, opts)
        return plan(comp.deck, opts)
    except PnpError as e:  # name the component, whatever the option or table at fault
        raise PnpError(f"{comp.name}: {e.what}", e.where) from None


def _board(comp: Component, opts: Options) -> Sheet:
    from generator.layout.tiling import plan_tiling, tile

    deck = comp.deck
    o = resolved(deck, opts)
    if deck.has_backs and o.backs:
        raise PnpError("a board split over sheets is one-sided: its back cannot land behind "
                       "glued sheets (give it no [[back]], or print it at a shop with --single)",
                       "--backs")
    if len(deck.cards) != 1:
        raise PnpError(f"a board is one card, not {len(deck.cards)}: one row in its card list",
                       "[deck].file")
    turns = ("portrait", "landscape") if o.orientation == "auto" else (o.orientation,)
    tilings = [plan_tiling(deck.width, deck.height, *units.paper(o.paper, turn), o.bleed)
               for turn in turns]
    best = min(tilings, key=lambda t: (t.cols * t.rows, t.paper_w > t.paper_h))
    return tile(deck.cards[0], deck.width, deck.height, best, o.bleed)
