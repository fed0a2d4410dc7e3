"""Each component of a game imposed with the build's options, in the PDF's page order.

Options the user gave apply to every component; what they leave unset comes from each
component's own [print] (the game's, with the component's keys over it). A double-sided
component starts on an odd page, so the whole file prints duplex with every back behind its
front; a blank page before it keeps that (the contents page says so).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from generator.build import Options, blamed, plan, resolved
from generator.layout.sheet import Sheet
from pnp_model import units
from pnp_model.errors import PnpError
from pnp_model.game import Component, Game


@dataclass(frozen=True)
class Part:
    component: Component
    sheet: Sheet
    options: Options  # resolved for this component
    first_page: int = 0  # 1-based page of the PDF where its sheets start
    blank_before: bool = False  # a blank page before it keeps its fronts on odd pages
    # pieces of other components in this part's free room: page index -> ((deck, placement),)
    guests: dict = field(default_factory=dict)
    nested_on: tuple[str, ...] = ()  # the hosts of this part's nested pieces

    @property
    def pages(self) -> int:
        return len(self.sheet.pages)

    @property
    def double_sided(self) -> bool:
        return any(p.side == "back" for p in self.sheet.pages)

    @property
    def sheets(self) -> int:
        return sum(1 for p in self.sheet.pages if p.side == "front")


def plan_game(game: Game, opts: Options, nesting: bool | None = None) -> list[Part]:
    """The parts in page order, after the contents page (page 1); with nesting, small
    one-sided pieces in other parts' free room where that saves sheets (nesting.py)."""
    if opts.pdfx:
        raise PnpError("a whole game's PDF/X is one file per component, not one document: "
                       "pnp build GAME --single --pdfx writes them", "--pdfx")
    parts = [_part(comp, opts) for comp in game.components]
    # not for a cutter: a piece nested on a board's page (no registration marks) or outside a
    # deck's marks would be printed and never cut
    if (opts.nesting if nesting is None else nesting) and not opts.cutter:
        from generator.whole.nesting import nest

        parts = nest(parts, opts)
    page, numbered = len(game.pages) + 2, []  # the designer's pages, then the contents
    for part in parts:
        blank = part.double_sided and page % 2 == 0
        page += blank
        numbered.append(replace(part, first_page=page, blank_before=blank))
        page += part.pages
    return numbered


def sheets(parts: list[Part]) -> int:
    """Sheets of paper of the whole file, the contents page's included."""
    return 1 + sum(p.sheets for p in parts)


def _part(comp: Component, opts: Options) -> Part:
    """The component imposed; a board larger than the paper is split over several. Asked to
    fold, each component that can folds; one that cannot is printed as it would be unfolded,
    and its sheet says why (`not folded`), so a game with a board still folds its cards."""
    try:
        why = _cannot_fold(comp, opts) if resolved(comp.deck, opts).fold else None
        if why:
            opts = replace(opts, fold=False)
        o = resolved(comp.deck, opts)
        if comp.kind == "board" and o.layout != "single" and not o.fold:
            sheet = _board(comp, opts)
        else:
            sheet = plan(comp.deck, opts)
    except PnpError as e:  # name the component, whatever the option or table at fault
        raise PnpError(f"{comp.name}: {e.what}", e.where) from None
    return Part(comp, replace(sheet, info={**sheet.info, "not folded": why}) if why else sheet,
                o)


def _cannot_fold(comp: Component, opts: Options) -> str | None:
    """Why a one-sided component or a board asked to fold is printed unfolded, or None. A
    one-sided piece has no back to fold behind it; a board larger than half a sheet has no
    half to lie on. A double-sided deck is left to plan(), which folds it or refuses the
    build with the reason: printed duplex instead, it would be lost on a one-sided printer."""
    from generator.layout.fold import best

    deck, o = comp.deck, resolved(comp.deck, opts)
    if deck.has_backs and comp.kind != "board":
        return None
    papers = [units.paper(o.paper, t) for t in
              (("portrait", "landscape") if o.orientation == "auto" else (o.orientation,))]
    try:
        best(papers, deck.width, deck.height, o.bleed, o.gutter,
             **({} if o.margin is None else {"margin": o.margin}))
    except PnpError:
        size = f"{deck.width / units.MM:.4g}x{deck.height / units.MM:.4g} mm"
        return f"a {size} {comp.kind} is larger than half a sheet of {o.paper}"
    return None if deck.has_backs else "one-sided: no back to fold behind it"


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
    try:
        tilings = [plan_tiling(deck.width, deck.height, *units.paper(o.paper, turn), o.bleed,
                                o.margin)
                   for turn in turns]
    except PnpError as e:  # paper too small: named at the options that made it so
        raise blamed(e, opts, room=("--paper",)) from None
    best = min(tilings, key=lambda t: (t.cols * t.rows, t.paper_w > t.paper_h))
    return replace(tile(deck.cards[0], deck.width, deck.height, best, o.bleed), margin=o.margin)
