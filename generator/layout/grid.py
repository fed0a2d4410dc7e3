"""Imposition of rectangular, round and hexagonal cards on a grid, with crop marks and backs.

Cards sit in a centred block; each cell is the card plus its bleed on every side, cells are
separated by the gutter. Crop marks extend the trim lines outward from the block into the space
left before the printer margin. Backs mirror the fronts about the paper's centre line, the line
the paper turns over (see flips_left_right), so each back lands behind its front.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.layout.sheet import Page, Placement, Segment, Sheet
from pnp_model.components import Card
from pnp_model.errors import PnpError
from pnp_model.units import MM

PRINTER_MARGIN = 6 * MM
MARK_GAP = 1 * MM  # between the bleed edge and the start of a mark
MARK_LENGTH = 5 * MM
MIN_MARK = 2 * MM  # shorter than this is not worth drawing: cut along the card outlines
MAX_SPILL = 2 * MM  # art spills into half the gutter, up to this: hides cutting and duplex slips


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
    shape_has_straight_cuts: bool = True  # rectangles; round and hex cards get an outline each

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
        rows: int | None = None, shape: str = "rect") -> Grid:
    """The grid with the most cards per page inside the printable area (or the one asked for).

    Round and hexagonal cards share no straight cut with a neighbour (each is cut along its
    own guide), so for them the gutter narrows, down to none, when that fits another row or
    column: 95 mm circles go 2x3 on A4, not 2x2."""
    usable_w, usable_h = paper_w - 2 * margin, paper_h - 2 * margin
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
            "game.toml [deck].size")
    cols = cols or max_cols
    rows = rows or max_rows
    if cols < 1 or rows < 1 or cols > max_cols or rows > max_rows:
        raise PnpError(
            f"a {cols}x{rows} grid of {card_w / MM:.1f}x{card_h / MM:.1f} mm cards "
            f"(bleed {bleed / MM:.1f} mm, gutter {gutter / MM:.1f} mm) does not fit on "
            f"{paper_w / MM:.0f}x{paper_h / MM:.0f} mm paper with a {margin / MM:.0f} mm printer "
            f"margin (at most {max(max_cols, 0)}x{max(max_rows, 0)})", "--grid")
    return Grid(cols, rows, card_w, card_h, bleed, gutter, paper_w, paper_h)


def unmarked_sides(grid: Grid, margin: float = PRINTER_MARGIN) -> tuple[str, ...]:
    """The sides of the block with no room for crop marks before the printer margin."""
    sides = []
    if grid.bottom - grid.spill - margin - MARK_GAP < MIN_MARK:
        sides += ["top", "bottom"]
    if grid.left - grid.spill - margin - MARK_GAP < MIN_MARK:
        sides += ["left", "right"]
    return tuple(sides)


def _closer(usable: float, cell: float, gutter: float) -> float:
    """The widest gutter that still fits the cards a zero gutter fits along one axis."""
    most = int((usable + 1e-6) // cell)
    if most < 2 or int((usable + gutter) // (cell + gutter)) >= most:
        return gutter
    return max(0.0, (usable - most * cell) / (most - 1))


def crop_marks(grid: Grid, cols: int, rows: int, margin: float = PRINTER_MARGIN
               ) -> tuple[Segment, ...]:
    """Marks on the trim lines of the first cols x rows cells, outside the block, each as long
    as the free space before the printer margin allows (none where unmarked_sides says)."""
    marks: list[Segment] = []
    left, right = grid.left, grid.left + cols * grid.pitch_x - grid.gutter
    top = grid.bottom + grid.block_h
    bottom = top - rows * grid.pitch_y + grid.gutter
    # marks start clear of the art spilling past the block
    left, right, top, bottom = left - grid.spill, right + grid.spill, top + grid.spill, \
        bottom - grid.spill
    room_x = min(MARK_LENGTH, left - margin - MARK_GAP)
    room_y = min(MARK_LENGTH, bottom - margin - MARK_GAP)
    xs = sorted({round(grid.trim_origin(c, 0)[0] + dx, 6) for c in range(cols)
                 for dx in (0, grid.card_w)})
    ys = sorted({round(grid.trim_origin(0, r)[1] + dy, 6) for r in range(rows)
                 for dy in (0, grid.card_h)})
    if room_y >= MIN_MARK:
        for x in xs:
            marks.append((x, top + MARK_GAP, x, top + MARK_GAP + room_y))
            marks.append((x, bottom - MARK_GAP, x, bottom - MARK_GAP - room_y))
    if room_x >= MIN_MARK:
        for y in ys:
            marks.append((left - MARK_GAP, y, left - MARK_GAP - room_x, y))
            marks.append((right + MARK_GAP, y, right + MARK_GAP + room_x, y))
    return tuple(marks)


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
    """Pages of fronts (and a back page after each front page) for the cards, in order."""
    per_page = grid.cols * grid.rows
    pages: list[Page] = []
    for start in range(0, len(cards), per_page):
        chunk = cards[start:start + per_page]
        used_rows = -(-len(chunk) // grid.cols)
        used_cols = min(len(chunk), grid.cols)
        mark_lines = crop_marks(grid, used_cols, used_rows) if marks else ()
        fronts = []
        for i, card in enumerate(chunk):
            x, y = grid.trim_origin(i % grid.cols, i // grid.cols)
            fronts.append(Placement(card, x, y, 0, grid.bleed + grid.spill))
        pages.append(Page("front", tuple(fronts), mark_lines))
        if backs:
            back_marks = tuple(_mirror_segment(s, grid, flip) for s in mark_lines)
            placed = tuple(
                Placement(p.card, *mirror(p.x, p.y, grid.card_w, grid.card_h, grid.paper_w,
                                          grid.paper_h, flip, back_offset), 0, p.bleed)
                for p in fronts)
            pages.append(Page("back", placed, back_marks))
    info: dict[str, object] = {"grid": f"{grid.cols}x{grid.rows}"}
    missing = unmarked_sides(grid) if marks and grid.shape_has_straight_cuts else ()
    if missing:
        info["warnings"] = [
            f"no room for crop marks at the {' and '.join(missing)} of the "
            f"{grid.cols}x{grid.rows} grid inside the {PRINTER_MARGIN / MM:.0f} mm printer "
            "margin: cut along the card outlines there, or choose a smaller --grid or the other "
            "--orientation"]
    return Sheet(grid.paper_w, grid.paper_h, tuple(pages), per_page, info, flip=flip)


def _mirror_segment(s: Segment, grid: Grid, flip: str) -> Segment:
    x1, y1, x2, y2 = s
    if flips_left_right(grid.paper_w, grid.paper_h, flip):
        return (grid.paper_w - x1, y1, grid.paper_w - x2, y2)
    return (x1, grid.paper_h - y1, x2, grid.paper_h - y2)
