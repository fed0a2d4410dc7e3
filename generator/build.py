"""From a loaded deck and the user's print options to an imposed sheet and a written PDF."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator.layout import grid as grid_layout
from generator.layout.legend import LegendCard
from generator.layout.margins import printer_margin
from generator.layout.sheet import Sheet, one_card_a_page, shop_bleed
from pnp_model import units
from pnp_model.components import Card, Deck
from pnp_model.errors import PnpError
from pnp_shared import files


@dataclass(frozen=True)
class Options:
    """Print options; None means: use the definition's [print] default."""

    paper: str | None = None
    orientation: str | None = None
    bleed: float | None = None
    gutter: float | None = None
    marks: bool | str | None = None  # True, False, or "full": marks before fewest sheets
    backs: bool | None = None
    flip: str | None = None
    back_offset: tuple[float, float] | None = None
    grid: tuple[int, int] | None = None
    parts: tuple[str, ...] = ()
    guides: bool | None = None  # cut outlines: on sheets, off on print-shop single pages
    layout: str = "sheet"  # sheet | single (one card per page with bleed, for print shops)
    cmyk: bool = False  # DeviceCMYK colours, for print shops (render/cmyk.py)
    legend: bool | None = None  # legend cards after a symbol deck (default: [deck] legend)
    pdfx: bool = False  # PDF/X-1a:2003, CMYK and flattened (render/pdfx.py); needs "single"
    nesting: bool = True  # a whole game: small one-sided pieces in free room (generator/whole)
    fold: bool | None = None  # fold-and-glue sheets: backs beside fronts (layout/fold.py)
    cutter: str | None = None  # a cutting machine's registration marks and room (cut/machines.py)
    margin: float | None = None  # the printer's unprintable edge (default: the paper's, margins.py)
    printer: str | None = None  # the printer profile these options came from, to report it
    from_printer: tuple[str, ...] = ()  # the options the profile set: errors name the profile
    markers: bool | None = None  # fiducial markers for `referee look` (generator/markers)


@dataclass(frozen=True)
class Result:
    path: Path
    pages: int
    cards: int
    paper: str
    info: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # things the user should know (a blurry image, a kept background)
    written: bool = True  # False: --strict and warnings, so the last good file was left as it was


def resolved(deck: Deck, opts: Options) -> Options:
    """Options with every unset value taken from the definition's [print] table."""
    p = deck.print
    paper = opts.paper or p.paper
    # one card a page is for a print shop, which trims into the bleed: never none unless asked
    bleed = max(p.bleed, shop_bleed(paper)) if opts.layout == "single" else p.bleed
    return Options(
        paper=paper,
        orientation=opts.orientation or p.orientation,
        bleed=bleed if opts.bleed is None else opts.bleed,
        gutter=p.gutter if opts.gutter is None else opts.gutter,
        marks=p.marks if opts.marks is None else opts.marks,
        backs=deck.has_backs if opts.backs is None else opts.backs,
        flip=opts.flip or p.flip,
        back_offset=p.back_offset if opts.back_offset is None else opts.back_offset,
        grid=opts.grid, parts=opts.parts, layout=opts.layout, cmyk=opts.cmyk or opts.pdfx,
        pdfx=opts.pdfx, legend=deck.legend if opts.legend is None else opts.legend,
        markers=p.markers if opts.markers is None else opts.markers,
        guides=opts.layout != "single" if opts.guides is None else opts.guides,
        fold=_fold(deck, opts), cutter=opts.cutter,
        margin=printer_margin(paper) if opts.margin is None else opts.margin,
        printer=opts.printer, from_printer=opts.from_printer)


def _fold(deck: Deck, opts: Options) -> bool:
    """--fold or --no-fold, else the definition's [print] fold unless the user asked for a
    layout a fold sheet cannot be (--single, --grid, --cutter): the option given wins."""
    if opts.fold is not None:
        return opts.fold
    return deck.print.fold and not (opts.layout == "single" or opts.grid or opts.cutter)


def cards_of(deck: Deck, parts: tuple[str, ...]) -> tuple[Card, ...]:
    for part in parts:
        if part not in deck.parts and part != "all":
            raise PnpError(f"no part {part!r} in {deck.name} (parts: "
                           f"{', '.join(deck.parts) or 'none'})", "--part")
    if "all" in parts:
        return deck.cards
    return deck.select(parts)


def plan(deck: Deck, opts: Options) -> Sheet:
    """Impose the deck's cards on pages according to the options (no drawing)."""
    o = resolved(deck, opts)
    if o.backs and not deck.has_backs:
        raise PnpError(f"{deck.name} defines no [[back]] elements, so it has no backs to print",
                       "--backs")
    _no_contradiction(opts)
    cards = cards_of(deck, o.parts)
    if o.markers:
        from generator.markers import marked

        cards = marked(deck, cards, "--markers" if opts.markers else "[print] markers")
    legend = ()
    if o.legend:
        from generator.render.legend import legend_cards

        legend = legend_cards(deck, cards, "--legend" if opts.legend else "[deck] legend")
        cards = cards + legend
    if o.grid and deck.shape == "triangle":
        raise PnpError("--grid does not apply: triangular tiles are laid out in rows of "
                       "alternating triangles", "--grid")
    try:
        if o.cutter:
            sheet = _for_cutter(deck, cards, o)
        elif o.fold:
            sheet = _folded(deck, cards, o)
        elif o.layout == "single":
            sheet = single_pages(deck, cards, o)
        else:
            sheet = replace(_imposed(deck, cards, o), guides=o.guides)
    except PnpError as e:
        raise blamed(e, opts) from None
    if legend:
        sheet = replace(sheet, info={**sheet.info, "legend cards": len(legend)})
    return replace(sheet, margin=o.margin)


def blamed(e: PnpError, opts: Options, room: tuple[str, ...] = (grid_layout.CARD_SIZE,)
           ) -> PnpError:
    """A card that does not fit the paper (an error at one of `room`) is named at the options
    given for the paper (`--paper 60x80mm`), not at the deck's card size, which the user did not
    change; an option a printer profile set is named at the profile, never at a flag the user
    did not type (`printer profile big: margin`)."""
    given = [_said(name, opts) for name, value in (("paper", opts.paper), ("margin", opts.margin),
                                                   ("bleed", opts.bleed), ("gutter", opts.gutter))
             if value is not None]
    if e.where in room and given:
        return PnpError(e.what, ", ".join(given))
    name = (e.where or "").removeprefix("--").replace("-", "_")
    return PnpError(e.what, _said(name, opts)) if name in opts.from_printer else e


def _said(name: str, opts: Options) -> str:
    """Where an option came from: its flag, or the printer profile that set it."""
    if name in opts.from_printer:
        return f"printer profile {opts.printer}: {name.replace('_', ' ')}"
    return f"--{name.replace('_', '-')}"


# Options that ask for what another rules out: (first, second, both set?, why). Each is refused
# as one line naming both, never one silently dropped; only options the user gave are compared
# (a printer profile's or the definition's defaults yield to them).
_CLASHES = (
    ("--fold", "--no-backs", lambda o: o.fold and o.backs is False,
     "a fold sheet prints each back beside its front (drop --fold for fronts alone)"),
    ("--cutter", "--marks", lambda o: o.cutter and o.marks not in (None, False),
     "a cutting machine's sheet has no crop marks (the machine cuts by its registration marks)"),
    ("--cutter", "--single", lambda o: o.cutter and o.layout == "single",
     "a cutting machine cuts home sheets, not a print shop's pages"),
    ("--cutter", "--fold", lambda o: o.cutter and o.fold,
     "a cutting machine cuts the duplex home sheet, not a fold sheet"),
    ("--single", "--grid", lambda o: o.layout == "single" and o.grid,
     "--single puts one card per page"),
    ("--single", "--fold", lambda o: o.layout == "single" and o.fold,
     "--single puts one card per page for a print shop"),
    ("--single", "--orientation", lambda o: o.layout == "single" and o.orientation not in
     (None, "auto"), "each page is the card and its bleed, turned as the card is"),
    ("--single", "--marks", lambda o: o.layout == "single" and o.marks not in (None, False),
     "a print shop trims each page at its TrimBox, so it has no crop marks"),
    ("--single", "--back-offset", lambda o: o.layout == "single" and o.back_offset,
     "a print shop registers its own backs; the offset corrects a home printer's"),
    ("--single", "--gutter", lambda o: o.layout == "single" and o.gutter is not None,
     "one card a page has no space between cards"),
    ("--single", "--margin", lambda o: o.layout == "single" and o.margin is not None,
     "a print shop's page is the card and its bleed, with no unprintable edge"),
    ("--paper", "--bleed", lambda o: o.layout == "single" and o.paper and o.bleed is not None,
     "with --single the paper only picks the shop's bleed (1/8 in on US paper), which --bleed "
     "sets"),
    ("--fold", "--grid", lambda o: o.fold and o.grid, "a fold sheet chooses its own grid"),
    ("--fold", "--back-offset", lambda o: o.fold and o.back_offset,
     "a fold sheet prints each back beside its front, with no duplex to correct"),
    ("--fold", "--flip", lambda o: o.fold and o.flip,
     "a fold sheet is printed on one side, so there is no duplex edge"),
)


def _no_contradiction(opts: Options) -> None:
    """Refuse the first clash among the options the user gave (a profile's are left out)."""
    given = replace(opts, **{name: None for name in opts.from_printer})
    for first, second, clash, why in _CLASHES:
        if clash(given):
            raise PnpError(f"{first} and {second} do not go together: {why}; drop one",
                           f"{first}, {second}")


def _for_cutter(deck: Deck, cards: tuple[Card, ...], o: Options) -> Sheet:
    """The sheet laid out clear of the machine's marks, no crop marks (the machine cuts), and
    its registration marks on every front page, the side its camera reads."""
    from generator.cut.machines import machine

    m = machine(o.cutter)
    sheet = _imposed(deck, cards, replace(o, marks=False))
    pages = tuple(replace(p, fills=m.marks(sheet.width, sheet.height)) if p.side == "front"
                  else p for p in sheet.pages)
    return replace(sheet, pages=pages, guides=o.guides,
                   info={**sheet.info, "cutter": m.name})


def _folded(deck: Deck, cards: tuple[Card, ...], o: Options) -> Sheet:
    """Fold-and-glue sheets (layout/fold.py), refused with the reason where they cannot be."""
    from generator.layout import fold

    why = (f"{deck.name} defines no [[back]] elements to fold behind its cards"
           if not deck.has_backs else "triangular tiles are printed edge to edge, each cut "
           "shared by two tiles, so no back could lie beside its front" if deck.shape ==
           "triangle" else None)
    if why:
        raise PnpError(f"cannot fold: {why}", "--fold")
    g = fold.best([units.paper(o.paper, t) for t in _turns(o)], deck.width, deck.height,
                  o.bleed, o.gutter, **({} if o.margin is None else {"margin": o.margin}))
    return replace(fold.impose_fold(cards, g, marks=o.marks is not False), guides=o.guides)


def _imposed(deck: Deck, cards: tuple[Card, ...], o: Options) -> Sheet:
    if deck.shape == "triangle":
        for flag, value in (("--bleed", o.bleed), ("--gutter", o.gutter)):
            if value:
                raise PnpError("triangular tiles are printed edge to edge, each cut shared by two "
                               "tiles: art cannot bleed past a cut its neighbour shares, and a "
                               "gutter would double the cuts (their backs bleed 2 mm already)",
                               flag)
        return _triangles(deck, cards, o)
    grid, sheet = _chosen(deck, cards, o)
    if not sheet.unmarked:
        return sheet
    return replace(sheet, info={**sheet.info, "warnings": [_unmarked_warning(deck, cards, o,
                                                                             grid, sheet)]})


def _chosen(deck: Deck, cards: tuple[Card, ...], o: Options
            ) -> tuple[grid_layout.Grid, Sheet]:
    """The candidate grid that ranks best for the options, and its imposed sheet. Ranked
    without the back offset: an offset moves the backs on the sheet the user calibrated, it
    never changes the layout (moved back marks would otherwise turn the page)."""
    rank = _rank(o.marks == "full")

    def imposed(g: grid_layout.Grid, offset: tuple[float, float] | None) -> Sheet:
        return grid_layout.impose(cards, g, backs=o.backs, flip=o.flip, back_offset=offset,
                                  marks=o.marks is not False)

    grid = max(_clear_of_marks(_grids(deck, o), deck, o), key=lambda g: rank(imposed(g, (0.0, 0.0))))
    return grid, imposed(grid, o.back_offset)


def _clear_of_marks(grids: list[grid_layout.Grid], deck: Deck, o: Options
                    ) -> list[grid_layout.Grid]:
    """With a cutting machine, the grids whose cards (art spill included) keep clear of its
    registration marks, if any does (cut/machines.py)."""
    if not o.cutter:
        return grids
    from generator.cut.machines import machine

    def boxes(g: grid_layout.Grid) -> list[tuple[float, float, float, float]]:
        b = g.bleed + g.spill  # a circle's box: the square around it (outline.py's circle)
        hw, hh = (min(g.card_w, g.card_h) / 2,) * 2 if deck.shape == "circle" else \
            (g.card_w / 2, g.card_h / 2)
        return [(x + g.card_w / 2 - hw - b, y + g.card_h / 2 - hh - b, x + g.card_w / 2 + hw + b,
                 y + g.card_h / 2 + hh + b)
                for x, y in (g.trim_origin(c, r) for c in range(g.cols) for r in range(g.rows))]

    m = machine(o.cutter)
    return [g for g in grids if m.clear_of_marks(boxes(g), g.paper_w, g.paper_h,
                                                 round_=deck.shape == "circle")] or grids


def _turns(o: Options) -> tuple[str, ...]:
    return ("portrait", "landscape") if o.orientation == "auto" else (o.orientation,)


def _triangles(deck: Deck, cards: tuple[Card, ...], o: Options) -> Sheet:
    """Tessellated triangular tiles; with orientation auto, fewer pages, then fewer cuts."""
    from generator.layout.triangles import impose_triangles

    def imposed(turn: str, offset: tuple[float, float] | None) -> Sheet:
        paper = units.paper(o.paper, turn)
        return impose_triangles(deck, cards, *paper, backs=o.backs, flip=o.flip,
                                back_offset=offset, marks=o.marks, **_cutter_margins(o, *paper))

    def rank(turn: str) -> tuple[int, int]:  # as in _chosen: the offset never turns the page
        s = imposed(turn, (0.0, 0.0))
        return len(s.pages), s.info.get("cuts", 0)

    return imposed(min(_turns(o), key=rank), o.back_offset)


def _grids(deck: Deck, o: Options) -> list[grid_layout.Grid]:
    """The grids to choose from: the fullest that fits each orientation, the same less a row
    or a column (room for marks), and for round and hex cards the same with the gutter
    narrowed for marks. A grid given with --grid is taken as it is."""
    candidates, error = [], None
    for turn in _turns(o):
        paper_w, paper_h = units.paper(o.paper, turn)
        try:
            margin = _cutter_margins(o, paper_w, paper_h)
            g = grid_layout.fit(paper_w, paper_h, deck.width, deck.height, bleed=o.bleed, **margin,
                                gutter=o.gutter, cols=o.grid[0] if o.grid else None,
                                rows=o.grid[1] if o.grid else None, shape=deck.shape)
        except PnpError as e:
            error = error or e
            continue
        g = replace(g, shares_cuts=deck.shape == "rect")
        smaller = [] if o.grid else [replace(g, cols=c, rows=r) for c in (g.cols, g.cols - 1)
                                     for r in (g.rows, g.rows - 1)
                                     if c >= 1 and r >= 1 and (c, r) != (g.cols, g.rows)]
        for grid in [g, *smaller]:
            candidates += [grid, *filter(None, [grid_layout.with_room_for_marks(grid)])]
    if not candidates:
        raise error
    return candidates


def _cutter_margins(o: Options, paper_w: float, paper_h: float) -> dict:
    """fit()'s margins for a cutting machine's room, else the printer's (a profile's)."""
    if not o.cutter:
        return {} if o.margin is None else {"margin": o.margin}
    from generator.cut.machines import machine

    mx, my = machine(o.cutter).margins(paper_w, paper_h)
    if o.margin is not None:  # the printer's edge holds too (--margin, a printer profile)
        mx, my = max(mx, o.margin), max(my, o.margin)
    return {"margin": mx, "margin_y": my}


def _sheets(sheet: Sheet) -> int:
    """Sheets of paper: one per front page (its back page is printed on the other side)."""
    return sum(1 for p in sheet.pages if p.side == "front")


def _rank(full_marks: bool):
    """Fewest sheets, then the fewest sides without marks, then most cards a page; with
    --marks full, the fewest sides without marks first."""
    def rank(s: Sheet):
        sheets, marked = -_sheets(s), -len(s.unmarked)
        return (marked, sheets, s.cards_per_page) if full_marks else \
            (sheets, marked, s.cards_per_page)
    return rank


def _unmarked_warning(deck: Deck, cards: tuple[Card, ...], o: Options, grid: grid_layout.Grid,
                      sheet: Sheet) -> str:
    """Which sides lack marks, and what gives them marks: a narrower gutter on as few sheets,
    or --marks full at its cost in sheets."""
    sides = {face: [e for f, e in sheet.unmarked if f == face] for face in ("front", "back")}
    where = _listed(sides["front"] or sides["back"])
    if sides["front"] and sides["back"] and sides["back"] != sides["front"]:
        where += f" (and at the {_listed(sides['back'])} of the backs)"
    elif not sides["front"]:
        where += " of the backs (the --back-offset moves their marks)"
    text = (f"no room for crop marks at the {where} of the {sheet.info['grid']} grid inside "
            f"the {o.margin / units.MM:g} mm printer margin: cut along the "
            "card outlines there")
    if not sides["front"]:
        return text + _room_for_offset_marks(deck, cards, o, sheet)
    gutter = _gutter_for_marks(deck, cards, o, grid, _sheets(sheet))
    if gutter:
        text += f", or build with --gutter {gutter} for every mark on as few sheets"
    build_with = "or with" if gutter else "or build with"
    full = max((grid_layout.impose(cards, g, backs=o.backs, flip=o.flip,
                                   back_offset=o.back_offset)
                for g in _grids(deck, replace(o, grid=None))), key=_rank(True))
    if full.unmarked:
        return text + f" (no grid on {o.paper} {' or '.join(_turns(o))} leaves room for every mark)"
    # the cost in sheets said only where there is one: "on 3 sheets instead of 3" read as a saving
    cost = (f"on {_sheets(full)} sheets instead of {_sheets(sheet)}" if _sheets(full) !=
            _sheets(sheet) else f"on as few sheets ({_sheets(sheet)})")
    return (text + f", {build_with} --marks full{' and no --grid' if o.grid else ''} for every "
            f"mark {cost} (grid "
            f"{full.info['grid']}{', ' + _turn(full) if o.orientation == 'auto' else ''})")


def _room_for_offset_marks(deck: Deck, cards: tuple[Card, ...], o: Options, sheet: Sheet) -> str:
    """The back offset pushed marks into the margin, and an offset never changes the layout
    by itself: the --grid (and orientation) that gives every mark with this offset, if any."""
    roomy = [s for g in _grids(deck, replace(o, grid=None))
             if not (s := grid_layout.impose(cards, g, backs=o.backs, flip=o.flip,
                                             back_offset=o.back_offset)).unmarked]
    if not roomy:
        return (f" (no grid on {o.paper} {' or '.join(_turns(o))} leaves room for every mark "
                "with this offset)")
    best = max(roomy, key=_rank(False))
    turn = _turn(best)
    turned = f" --orientation {turn}" if turn != _turn(sheet) else ""
    again = f"; calibrate on a {turn} sheet for it" if turned else ""
    return (f", or build with --grid {best.info['grid']}{turned} for every mark on "
            f"{_sheets(best)} sheets instead of {_sheets(sheet)} (the offset alone never "
            f"changes the layout{again})")


def _gutter_for_marks(deck: Deck, cards: tuple[Card, ...], o: Options, grid: grid_layout.Grid,
                      sheets: int) -> str | None:
    """The widest gutter, to 0.1 mm, narrower than the one asked, that gives every side marks
    on as few sheets, checked by choosing again with it; None if there is none."""
    narrowed = grid_layout.with_room_for_marks(replace(grid, shares_cuts=False))
    if not o.gutter or narrowed is None:
        return None
    tenths = math.floor(narrowed.gutter / units.MM * 10 + 1e-6)
    gutter = tenths / 10 * units.MM
    _, sheet = _chosen(deck, cards, replace(o, gutter=gutter))
    if sheet.unmarked or _sheets(sheet) > sheets:
        return None
    return f"{tenths / 10:g}mm"


def _listed(items: list[str]) -> str:
    return " and ".join(items) if len(items) < 3 else f"{', '.join(items[:-1])} and {items[-1]}"


def _turn(sheet: Sheet) -> str:
    return "landscape" if sheet.width > sheet.height else "portrait"


def printed_as(deck: Deck, opts: Options) -> tuple[str, str, str]:
    """(paper, flip, orientation) of the sheets a build with these options prints: what a
    calibration sheet must match for its offsets to be read on the same axes."""
    o = resolved(deck, opts)
    return o.paper, o.flip, _turn(plan(deck, opts))


def single_pages(deck: Deck, cards: tuple[Card, ...], o: Options) -> Sheet:
    """One card per page (and its back after it), for print shops."""
    sides = ("front", "back") if o.backs else ("front",)
    return one_card_a_page(deck.width, deck.height, [(c, s) for c in cards for s in sides],
                           o.bleed, flip=o.flip, guides=o.guides)


def build(deck: Deck, out: Path, opts: Options = Options(),
          progress: Callable[[int], None] | None = None, sheet: Sheet | None = None,
          strict: bool = False) -> Result:
    """Impose (unless given the planned sheet), render and atomically write the PDF; `strict`:
    a build with warnings writes nothing, so the last good PDF is never replaced by a bad one."""
    data, result = built(deck, out, opts, progress, sheet)
    if strict and result.notes:
        return replace(result, written=False)
    write_atomic(out, data)
    return result


def built(deck: Deck, out: Path, opts: Options = Options(),
          progress: Callable[[int], None] | None = None, sheet: Sheet | None = None
          ) -> tuple[bytes, Result]:
    """The PDF `build` would write to `out`, and what it reports, without writing it."""
    o = resolved(deck, opts)
    sheet = sheet or plan(deck, opts)
    data, notes = rendered(deck, sheet, o, progress)
    cards = sum(1 for p in sheet.pages if p.side == "front" for pl in p.placements
                if not isinstance(pl.card, LegendCard) and pl.side != "back")
    info = {k: v for k, v in sheet.info.items() if k != "warnings"}
    return data, Result(out, len(sheet.pages), cards, _paper_said(sheet, o),
                        {"orientation": _turn(sheet), **info}, notes)


def _paper_said(sheet: Sheet, o: Options) -> str:
    """The paper the PDF's pages are: one card a page is the card's size with its bleed,
    whatever --paper says (it sets only the shop's bleed)."""
    if o.layout != "single":
        return o.paper
    return "x".join(f"{round(units.to_mm(v), 1):g}" for v in (sheet.width, sheet.height)) + "mm"


def rendered(deck: Deck, sheet: Sheet, o: Options,
             progress: Callable[[int], None] | None = None) -> tuple[bytes, tuple[str, ...]]:
    """The PDF of a planned sheet as the build writes it (`o` resolved), and the build's
    warnings: the layout's (crop marks without room) and the drawing's (overflow, glyphs, ppi).
    One function, so that previews show and say what the build does."""
    from generator.notes import collecting
    from generator.render.pdf import render

    with collecting() as notes:
        if o.pdfx:
            from generator.render.pdfx import render_pdfx

            data = render_pdfx(deck, sheet, progress=progress)
        else:
            data = render(deck, sheet, progress=progress, cmyk=o.cmyk)
    return data, (*sheet.info.get("warnings", ()), *notes.values())


def write_atomic(path: Path, data: bytes) -> None:
    """Write atomically; a path that cannot be written is a one-line user error naming it."""
    folder = next((p for p in (path.parent, *path.parent.parents) if p.exists()), None)
    if folder is not None and not folder.is_dir():
        raise PnpError(f"cannot write {path}: {folder} is a file, not a folder", "--output")
    if path.is_dir():
        raise PnpError(f"cannot write {path}: it is a folder", "--output")
    try:
        files.write_atomic(path, data)
    except OSError as e:
        raise PnpError(f"cannot write {path}: {e.strerror or e}", "--output") from None
