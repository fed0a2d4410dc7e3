"""From a loaded deck and the user's print options to an imposed sheet and a written PDF."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from generator import files, units
from generator.components import Card, Deck
from generator.errors import PnpError
from generator.layout import grid as grid_layout
from generator.layout.grid import PRINTER_MARGIN
from generator.layout.sheet import Page, Placement, Sheet

EXTRA_BACK_BLEED = 2 * units.MM  # printers misregister duplex by 1-4 mm


@dataclass(frozen=True)
class Options:
    """Print options; None means: use the definition's [print] default."""

    paper: str | None = None
    orientation: str | None = None
    bleed: float | None = None
    gutter: float | None = None
    marks: bool | None = None
    backs: bool | None = None
    flip: str | None = None
    back_offset: tuple[float, float] | None = None
    grid: tuple[int, int] | None = None
    parts: tuple[str, ...] = ()
    guides: bool = True
    layout: str = "sheet"  # sheet | single (one card per page with bleed, for print shops)
    cmyk: bool = False  # DeviceCMYK colours, for print shops (render/cmyk.py)


@dataclass(frozen=True)
class Result:
    path: Path
    pages: int
    cards: int
    paper: str
    info: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # things the user should know (a blurry image, a kept background)


def resolved(deck: Deck, opts: Options) -> Options:
    """Options with every unset value taken from the definition's [print] table."""
    p = deck.print
    return Options(
        paper=opts.paper or p.paper,
        orientation=opts.orientation or p.orientation,
        bleed=p.bleed if opts.bleed is None else opts.bleed,
        gutter=p.gutter if opts.gutter is None else opts.gutter,
        marks=p.marks if opts.marks is None else opts.marks,
        backs=deck.has_backs if opts.backs is None else opts.backs,
        flip=opts.flip or p.flip,
        back_offset=p.back_offset if opts.back_offset is None else opts.back_offset,
        grid=opts.grid, parts=opts.parts, guides=opts.guides, layout=opts.layout, cmyk=opts.cmyk)


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
    cards = cards_of(deck, o.parts)
    if o.grid and (o.layout == "single" or deck.shape == "triangle"):
        why = ("--single puts one card per page" if o.layout == "single" else
               "triangular tiles are laid out in rows of alternating triangles")
        raise PnpError(f"--grid does not apply: {why}", "--grid")
    if o.layout == "single":
        return single_pages(deck, cards, o)
    if deck.shape == "triangle":
        return _triangles(deck, cards, o)
    g = _fit(deck, o)
    sheet = grid_layout.impose(cards, g, backs=o.backs, flip=o.flip, back_offset=o.back_offset,
                               marks=o.marks)
    # Backs bleed further into the gutter (and the free border) to hide duplex misregistration.
    extra = max(0.0, min(EXTRA_BACK_BLEED, o.gutter / 2, min(g.left, g.bottom) - PRINTER_MARGIN))
    if extra and o.backs:
        sheet = _widen_back_bleed(sheet, extra)
    return sheet


def _turns(o: Options) -> tuple[str, ...]:
    return ("portrait", "landscape") if o.orientation == "auto" else (o.orientation,)


def _triangles(deck: Deck, cards: tuple[Card, ...], o: Options) -> Sheet:
    """Tessellated triangular tiles; with orientation auto, fewer pages, then fewer cuts."""
    from generator.layout.triangles import impose_triangles

    sheets = [impose_triangles(deck, cards, *units.paper(o.paper, turn), backs=o.backs,
                               flip=o.flip, back_offset=o.back_offset, marks=o.marks)
              for turn in _turns(o)]
    return min(sheets, key=lambda s: (len(s.pages), s.info.get("cuts", 0)))


def _fit(deck: Deck, o: Options) -> grid_layout.Grid:
    """The grid for the options; with orientation auto, the orientation holding more cards."""
    cols, rows = o.grid or (None, None)
    best, error = None, None
    for turn in _turns(o):
        paper_w, paper_h = units.paper(o.paper, turn)
        try:
            g = grid_layout.fit(paper_w, paper_h, deck.width, deck.height, bleed=o.bleed,
                                gutter=o.gutter, cols=cols, rows=rows, shape=deck.shape)
        except PnpError as e:
            error = error or e
            continue
        if best is None or g.cols * g.rows > best.cols * best.rows:
            best = g
    if best is None:
        raise error
    return best


def _widen_back_bleed(sheet: Sheet, extra: float) -> Sheet:
    pages = tuple(
        page if page.side == "front" else Page(
            page.side, tuple(Placement(p.card, p.x, p.y, p.rotation, p.bleed + extra)
                             for p in page.placements), page.marks, page.guides)
        for page in sheet.pages)
    return Sheet(sheet.width, sheet.height, pages, sheet.cards_per_page, sheet.info)


def single_pages(deck: Deck, cards: tuple[Card, ...], o: Options) -> Sheet:
    """One card per page, the page being the card plus its bleed (what print shops ask for)."""
    b = o.bleed
    pages: list[Page] = []
    for card in cards:
        pages.append(Page("front", (Placement(card, b, b, 0, b),)))
        if o.backs:
            pages.append(Page("back", (Placement(card, b, b, 0, b),)))
    return Sheet(deck.width + 2 * b, deck.height + 2 * b, tuple(pages), 1, {"grid": "1x1"})


def build(deck: Deck, out: Path, opts: Options = Options(),
          progress: Callable[[int], None] | None = None, sheet: Sheet | None = None) -> Result:
    """Impose (unless given the planned sheet), render and atomically write the PDF."""
    from generator.notes import collecting
    from generator.render.pdf import render

    o = resolved(deck, opts)
    sheet = sheet or plan(deck, opts)
    trim = (o.bleed, o.bleed, deck.width, deck.height) if o.layout == "single" else None
    with collecting() as notes:
        data = render(deck, sheet, flip=o.flip, guides=o.guides, trim_box=trim,
                      progress=progress, cmyk=o.cmyk)
    write_atomic(out, data)
    cards = sum(len(p.placements) for p in sheet.pages if p.side == "front")
    return Result(out, len(sheet.pages), cards, o.paper, dict(sheet.info),
                  tuple(notes.values()))


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
