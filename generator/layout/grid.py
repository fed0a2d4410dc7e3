"""Imposition of rectangular, round and hexagonal cards on a grid, with crop marks and backs.

Cards sit in a centred block; each cell is the card plus its bleed on every side, cells are
separated by the gutter. Crop marks extend the trim lines outward from the block into the space
left before the printer margin. Backs mirror the fronts about the paper's centre line, the line
the paper turns over (see flips_left_right), so each back lands behind its front.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from generator.layout.sheet import Page, Placement, Segment, Sheet
from pnp_model.components import Card
from pnp_model.errors import PnpError
from pnp_model.units import MM

PRINTER_MARGIN = 6 * MM
MARK_GAP = 1 * MM  # between the bleed edge and the start of a mark
MARK_LENGTH = 5 * MM
MIN_MARK = 2 * MM  # shorter than this is not worth drawing: cut along the card outlines
MAX_SPILL = 2 * MM  # art spills into half the gutter, up to this: hides cutting and duplex slips
SIDES = ("top", "bottom", "left", "right")
EPS = 1e-6  # points: lengths that differ by rounding only are equal

CARD_SIZE = "game.toml [deck].size"  # where a card too large for the paper is blamed


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    card_w: float
    card_h: float
    bleed: float
    gutter: float
    paper_w: float
    paper_h: float
    shares_cuts: bool = True  # rectangles; round and hex cards are each cut along their outline
    margin: float = PRINTER_MARGIN  # the printer's unprintable edge (a printer profile sets it)

    @property
    def spill(self) -> float:
        """How far art bleeds past the asked bleed, into half the gutter (fronts and backs)."""
        return min(MAX_SPILL, self.gutter / 2)

    @property
    def pitch_x(self) -> float:
        return self.card_w + 2 * self.bleed + self.gutter

    @property
    def pitch_y(self) -> float:
        return self.card_h + 2 * self.bleed + self.gutter

    @property
    def block_w(self) -> float:
        return self.cols * self.pitch_x - self.gutter

    @property
    def block_h(self) -> float:
        return self.rows * self.pitch_y - self.gutter

    @property
    def left(self) -> float:
        return (self.paper_w - self.block_w) / 2

    @property
    def bottom(self) -> float:
        return (self.paper_h - self.block_h) / 2

    def trim_origin(self, col: int, row: int) -> tuple[float, float]:
        """Bottom-left trim corner of the card in column col, row row (row 0 at the top)."""
        x = self.left + col * self.pitch_x + self.bleed
        y = self.bottom + self.block_h - row * self.pitch_y - self.bleed - self.card_h
        return x, y


def fit(paper_w: float, paper_h: float, card_w: float, card_h: float, *, bleed: float = 0.0,
        gutter: float = 0.0, margin: float = PRINTER_MARGIN, cols: int | None = None,
        rows: int | None = None, shape: str = "rect", margin_y: float | None = None) -> Grid:
    """The grid with the most cards per page inside the printable area (or the one asked for).

    Round and hexagonal cards share no straight cut with a neighbour (each is cut along its
    own guide), so for them the gutter narrows, down to none, when that fits another row or
    column: 95 mm circles go 2x3 on A4, not 2x2."""
    # a cutting machine's marks or cut area may ask more room top and bottom (margin_y)
    usable_w, usable_h = paper_w - 2 * margin, paper_h - 2 * (margin_y or margin)
    if shape in ("circle", "hexagon") and cols is None and rows is None:
        gutter = min([gutter] + [_closer(usable, size + 2 * bleed, gutter)
                                 for usable, size in ((usable_w, card_w), (usable_h, card_h))])
    max_cols = int((usable_w + gutter) // (card_w + 2 * bleed + gutter))
    max_rows = int((usable_h + gutter) // (card_h + 2 * bleed + gutter))
    if cols is None and rows is None and (max_cols < 1 or max_rows < 1):
        raise PnpError(
            f"a {card_w / MM:.1f}x{card_h / MM:.1f} mm card (bleed {bleed / MM:.1f} mm) does not "
            f"fit on {paper_w / MM:.0f}x{paper_h / MM:.0f} mm paper inside the {margin / MM:.0f} "
            f"mm printer margin; make it smaller or use --single for print-shop pages",
            CARD_SIZE)
    cols = cols or max_cols
    rows = rows or max_rows
    if cols < 1 or rows < 1 or cols > max_cols or rows > max_rows:
        raise PnpError(
            f"a {cols}x{rows} grid of {card_w / MM:.1f}x{card_h / MM:.1f} mm cards "
            f"(bleed {bleed / MM:.1f} mm, gutter {gutter / MM:.1f} mm) does not fit on "
            f"{paper_w / MM:.0f}x{paper_h / MM:.0f} mm paper with a {margin / MM:.0f} mm printer "
            f"margin (at most {max(max_cols, 0)}x{max(max_rows, 0)})", "--grid")
    return Grid(cols, rows, card_w, card_h, bleed, gutter, paper_w, paper_h, margin=margin)


def with_room_for_marks(grid: Grid, margin: float | None = None) -> Grid | None:
    """For cards that share no cut (round, hex), the grid with its gutter narrowed just enough
    for crop marks to fit on every side; None when even no gutter leaves room, or not needed.

    Their gutter only spaces the outlines, so giving it up costs nothing; a rectangle's gutter
    is two cuts the user asked for and is kept."""
    if grid.shares_cuts:
        return None
    margin = grid.margin if margin is None else margin
    gutter = grid.gutter
    for n, paper, cell in ((grid.cols, grid.paper_w, grid.card_w + 2 * grid.bleed),
                           (grid.rows, grid.paper_h, grid.card_h + 2 * grid.bleed)):
        # half the free space, less margin, gap and mark, holds n/2 gutters (spill included)
        spare = (paper - n * cell) / 2 - margin - MARK_GAP - MIN_MARK
        if spare < -EPS:
            return None
        gutter = min(gutter, 2 * spare / n * (1 - 1e-9))
    return None if gutter == grid.gutter else replace(grid, gutter=max(0.0, gutter))


def _closer(usable: float, cell: float, gutter: float) -> float:
    """The widest gutter that still fits the cards a zero gutter fits along one axis."""
    most = int((usable + 1e-6) // cell)
    if most < 2 or int((usable + gutter) // (cell + gutter)) >= most:
        return gutter
    return max(0.0, (usable - most * cell) / (most - 1))


def crop_marks(placements: tuple[Placement, ...], card_w: float, card_h: float,
               paper_w: float, paper_h: float, margin: float = PRINTER_MARGIN
               ) -> tuple[tuple[Segment, ...], tuple[str, ...]]:
    """Marks on the trim lines of the placed cards, beyond the block they make, each as long as
    the space before the printer margin on its own side allows; and the sides with no room.

    Measured from the placements, so a partial page and an offset back page get marks that
    fit them, never running into the margin of a side the full page does not reach."""
    xs = sorted({round(p.x + dx, 6) for p in placements for dx in (0, card_w)})
    ys = sorted({round(p.y + dy, 6) for p in placements for dy in (0, card_h)})
    # marks start clear of the art, which spills past the trim by each placement's bleed
    left = min(p.x - p.bleed for p in placements) - MARK_GAP
    right = max(p.x + card_w + p.bleed for p in placements) + MARK_GAP
    bottom = min(p.y - p.bleed for p in placements) - MARK_GAP
    top = max(p.y + card_h + p.bleed for p in placements) + MARK_GAP
    room = {"top": paper_h - margin - top, "bottom": bottom - margin,
            "left": left - margin, "right": paper_w - margin - right}
    # a trim line inside the margin (a back moved by its offset) gets no mark: its side is short
    inside_x = all(margin - EPS <= v <= paper_w - margin + EPS for v in xs)
    inside_y = all(margin - EPS <= v <= paper_h - margin + EPS for v in ys)
    marks: list[Segment] = []
    missing: list[str] = []
    for side, start, sign, lines, inside in (("top", top, 1, xs, inside_x),
                                             ("bottom", bottom, -1, xs, inside_x),
                                             ("left", left, -1, ys, inside_y),
                                             ("right", right, 1, ys, inside_y)):
        length = min(MARK_LENGTH, room[side])
        if length < MIN_MARK - EPS or not inside:
            missing.append(side)
            continue
        end = start + sign * length
        marks += [(v, start, v, end) if side in ("top", "bottom") else (start, v, end, v)
                  for v in lines]
    return tuple(marks), tuple(missing)


def flips_left_right(paper_w: float, paper_h: float, flip: str) -> bool:
    """Whether turning the paper over mirrors the page left<->right (else top<->bottom).

    Duplex follows the paper, not the page: turning a sheet over its long edge mirrors a
    portrait page left<->right and a landscape page top<->bottom; the short edge the other way.
    """
    if flip not in ("long", "short"):
        raise PnpError(f"duplex flip must be 'long' or 'short', not {flip!r}", "--flip")
    return (flip == "long") == (paper_w <= paper_h)


def mirror(x: float, y: float, w: float, h: float, paper_w: float, paper_h: float,
           flip: str, offset: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """Where the back of a card whose front trim box is (x, y, w, h) goes on the back page.

    The offset is added in the back page's own axes, the axes of the calibration sheet's
    scales when it is printed in the same orientation (`pnp calibrate --orientation`).
    """
    if flips_left_right(paper_w, paper_h, flip):
        bx, by = paper_w - x - w, y
    else:
        bx, by = x, paper_h - y - h
    return bx + offset[0], by + offset[1]


def impose(cards: tuple[Card, ...], grid: Grid, *, backs: bool, flip: str = "long",
           back_offset: tuple[float, float] = (0.0, 0.0), marks: bool = True) -> Sheet:
    """Pages of fronts (and a back page after each front page) for the cards, in order.

    The sheet's `unmarked` lists, per page side, the block's sides with no room for marks."""
    per_page = grid.cols * grid.rows
    pages: list[Page] = []
    unmarked: dict[str, set[str]] = {"front": set(), "back": set()}

    def page(side: str, placed: tuple[Placement, ...]) -> Page:
        if not marks:
            return Page(side, placed)
        lines, missing = crop_marks(placed, grid.card_w, grid.card_h, grid.paper_w,
                                    grid.paper_h, grid.margin)
        unmarked[side].update(missing)
        return Page(side, placed, lines)

    for start in range(0, len(cards), per_page):
        chunk = cards[start:start + per_page]
        fronts = []
        for i, card in enumerate(chunk):
            x, y = grid.trim_origin(i % grid.cols, i // grid.cols)
            fronts.append(Placement(card, x, y, 0, grid.bleed + grid.spill))
        pages.append(page("front", tuple(fronts)))
        if backs:
            pages.append(page("back", tuple(
                Placement(p.card, *mirror(p.x, p.y, grid.card_w, grid.card_h, grid.paper_w,
                                          grid.paper_h, flip, back_offset), 0, p.bleed)
                for p in fronts)))
    return Sheet(grid.paper_w, grid.paper_h, tuple(pages), per_page,
                 {"grid": f"{grid.cols}x{grid.rows}"}, flip=flip,
                 unmarked=tuple((side, edge) for side in ("front", "back") for edge in SIDES
                                if edge in unmarked[side]))
