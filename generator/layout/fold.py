"""Fold-and-glue sheets: each card's back printed beside its front, on the same side of the paper.

For printers that cannot register two sides. The page is split by a fold line; the fronts sit on
one half, their backs on the other at the mirror position across the line, so one fold (and a
little glue) puts every back exactly behind its front, whatever the printer's duplex slip.
The art is not mirrored: folding turns the back half over, as a duplex printer turns the paper
(see grid.mirror), so the back reads as it would on a duplex sheet.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.layout import grid
from generator.layout.grid import EPS, MARK_GAP, MARK_LENGTH, MIN_MARK, PRINTER_MARGIN, crop_marks
from generator.layout.sheet import Page, Placement, Polygon, Segment, Sheet
from pnp_model.components import Card
from pnp_model.errors import PnpError
from pnp_model.units import MM

FOLD_GAP = 2 * MM  # between the fold line and the nearest bleed edge: the fold never creases art
TAB_DEPTH = 6 * MM  # how far a glue tab reaches out from its card, room allowing
MIN_TAB = 3 * MM  # a narrower strip holds too little glue to be worth printing
TAB_INSET = 2 * MM  # a tab ends short of its card's trim corners, clear of the crop marks there


@dataclass(frozen=True)
class FoldGrid(grid.Grid):
    """A Grid (the same cells, pitch and block) whose fronts fill one half of the paper, placed
    against the fold line rather than centred; `axis` is the fold line's direction: "vertical"
    folds left over right, "horizontal" top over bottom."""

    axis: str = "vertical"

    @property
    def line(self) -> float:
        """The fold line's position: x for a vertical fold, y for a horizontal one."""
        return (self.paper_w if self.axis == "vertical" else self.paper_h) / 2

    def trim_origin(self, col: int, row: int) -> tuple[float, float]:
        """Bottom-left trim corner of the front in column col, row row (row 0 at the top)."""
        near = self.line - FOLD_GAP - self.bleed  # trim edge nearest the fold
        if self.axis == "vertical":  # fronts on the left half, the last column by the fold
            top = (self.paper_h + self.block_h) / 2
            return near - self.card_w - (self.cols - 1 - col) * self.pitch_x, \
                top - self.bleed - self.card_h - row * self.pitch_y
        # fronts on the top half, the last row by the fold
        return (self.paper_w - self.block_w) / 2 + self.bleed + col * self.pitch_x, \
            2 * self.line - near + (self.rows - 1 - row) * self.pitch_y

    def back(self, x: float, y: float) -> tuple[float, float]:
        """The back's trim corner: the front's trim box mirrored across the fold line."""
        if self.axis == "vertical":
            return 2 * self.line - x - self.card_w, y
        return x, 2 * self.line - y - self.card_h


def fit(paper_w: float, paper_h: float, card_w: float, card_h: float, bleed: float,
        gutter: float, axis: str, margin: float = PRINTER_MARGIN) -> FoldGrid | None:
    """The most fronts one half holds (None if not one): the half runs from the printer margin
    to FOLD_GAP before the fold line; the other axis is the whole printable length."""
    cell_w, cell_h = card_w + 2 * bleed, card_h + 2 * bleed
    half_w = paper_w / 2 - FOLD_GAP - margin if axis == "vertical" else paper_w - 2 * margin
    half_h = paper_h / 2 - FOLD_GAP - margin if axis == "horizontal" else paper_h - 2 * margin
    cols = int((half_w + gutter + 1e-6) // (cell_w + gutter))
    rows = int((half_h + gutter + 1e-6) // (cell_h + gutter))
    if cols < 1 or rows < 1:
        return None
    return FoldGrid(cols, rows, card_w, card_h, bleed, gutter, paper_w, paper_h,
                    margin=margin, axis=axis)


def best(papers: list[tuple[float, float]], card_w: float, card_h: float, bleed: float,
         gutter: float, margin: float = PRINTER_MARGIN) -> FoldGrid:
    """Of every orientation asked and both fold directions, the grid with the most cards."""
    grids = [g for w, h in papers for axis in ("vertical", "horizontal")
             if (g := fit(w, h, card_w, card_h, bleed, gutter, axis, margin))]
    if not grids:
        raise PnpError(f"a {card_w / MM:.1f}x{card_h / MM:.1f} mm card and its back do not fit "
                       "side by side on this paper inside the printer margin; use larger "
                       "paper (--paper a3) or duplex printing (no --fold)", "--fold")
    return max(grids, key=lambda g: g.cols * g.rows)


def impose_fold(cards: tuple[Card, ...], g: FoldGrid, marks: bool = True) -> Sheet:
    """One page per `cols x rows` cards: fronts and backs on the same side, a dashed fold line
    with a mark at both ends, crop marks around the whole block, glue tabs where room allows."""
    per_page = g.cols * g.rows
    pages = []
    unmarked: set[str] = set()
    for start in range(0, len(cards), per_page):
        placed: list[Placement] = []
        for i, card in enumerate(cards[start:start + per_page]):
            x, y = g.trim_origin(i % g.cols, i // g.cols)
            placed.append(Placement(card, x, y, 0, g.bleed, side="front"))
            placed.append(Placement(card, *g.back(x, y), 0, g.bleed, side="back"))
        lines, missing = crop_marks(tuple(placed), g.card_w, g.card_h, g.paper_w, g.paper_h,
                                    g.margin) \
            if marks else ((), ())
        unmarked.update(missing)
        fold, ends = _fold_line(g, tuple(placed))
        tabs = glue_tabs(g, tuple(placed)) if marks else ()
        pages.append(Page("front", tuple(placed), (*lines, *ends), (fold,), tabs=tabs))
    return Sheet(g.paper_w, g.paper_h, tuple(pages), per_page,
                 {"grid": f"{g.cols}x{g.rows}", "fold": g.axis}, flip="long",
                 unmarked=tuple(("front", side) for side in sorted(unmarked)))


def _fold_line(g: FoldGrid, placed: tuple[Placement, ...]) -> tuple[Segment, list[Segment]]:
    """The dashed fold line across the cards' block, and a solid mark beyond each of its ends
    (as long as the printer margin allows), to line a ruler up with before folding."""
    vertical = g.axis == "vertical"
    size = g.card_h if vertical else g.card_w
    lows = [(p.y if vertical else p.x) - p.bleed for p in placed]
    highs = [(p.y if vertical else p.x) + size + p.bleed for p in placed]
    low, high = min(lows), max(highs)
    paper = g.paper_h if vertical else g.paper_w
    ends: list[Segment] = []
    for start, end in ((low - MARK_GAP, max(low - MARK_GAP - MARK_LENGTH, g.margin)),
                       (high + MARK_GAP, min(high + MARK_GAP + MARK_LENGTH, paper - g.margin))):
        if abs(end - start) >= MIN_MARK:
            ends.append((g.line, start, g.line, end) if vertical else (start, g.line, end, g.line))
    fold = (g.line, low, g.line, high) if vertical else (low, g.line, high, g.line)
    return fold, ends


def glue_tabs(g: FoldGrid, placed: tuple[Placement, ...]) -> tuple[Polygon, ...]:
    """A tab along each open edge of each back (the three that do not face the fold), in the
    room its bleed leaves before the printer margin or the next card: a line of glue there
    holds the folded halves in register while the glue on the cards dries and while they are
    cut; it is cut away with the margin. Tapered, and short of the trim corners, so it never
    touches a crop mark; shorter than MIN_TAB it is left out."""
    boxes = [(p.x - p.bleed, p.y - p.bleed, p.x + g.card_w + p.bleed, p.y + g.card_h + p.bleed)
             for p in placed]
    fold_side = "left" if g.axis == "vertical" else "top"
    tabs = []
    for p, box in zip(placed, boxes, strict=True):
        if p.side != "back":
            continue
        for side in ("left", "right", "top", "bottom"):
            if side != fold_side and (tab := _tab(g, p, box, side, boxes)):
                tabs.append(tab)
    return tuple(tabs)


def _tab(g: FoldGrid, p: Placement, box: Segment, side: str,
         boxes: list[Segment]) -> Polygon | None:
    """The tab on one side of a placed back, or None where the room is too small. Worked out
    as a tab on the top edge in turned axes (u along the edge, v outward), then turned back."""
    turn = {"top": (lambda u, v: (u, v), lambda b: (b[0], b[1], b[2], b[3])),
            "bottom": (lambda u, v: (u, -v), lambda b: (b[0], -b[3], b[2], -b[1])),
            "right": (lambda u, v: (v, u), lambda b: (b[1], b[0], b[3], b[2])),
            "left": (lambda u, v: (-v, u), lambda b: (b[1], -b[2], b[3], -b[0]))}
    back, turned = turn[side]
    u0, v0, u1, v1 = turned(box)
    limit = {"top": g.paper_h - g.margin, "bottom": -g.margin, "right": g.paper_w - g.margin,
             "left": -g.margin}[side]
    for other in boxes:  # a card ahead: each of the two facing edges takes half the room
        a0, b0, a1, b1 = turned(other)
        if other != box and a0 < u1 and a1 > u0 and b0 >= v1 - EPS:
            limit = min(limit, (v1 + b0 - MARK_GAP) / 2)
    start = v1 + MARK_GAP
    depth = min(TAB_DEPTH, limit - start)
    if depth < MIN_TAB - EPS:
        return None
    inset = TAB_INSET + p.bleed  # u0, u1 are bleed edges; the tab keeps clear of the trim's
    a, b = u0 + inset, u1 - inset
    slant = min(depth, (b - a) / 4)
    return tuple(back(u, v) for u, v in ((a, start), (b, start), (b - slant, start + depth),
                                          (a + slant, start + depth)))
