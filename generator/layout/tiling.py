"""A board larger than the paper split over as few sheets as fit, to be glued together.

Each sheet shows a window of the board, all windows the same size; neighbours share an overlap
band of the same art (the sheet to the right or below is laid over it). Registration crosses
sit in the bands at the same board position on both sheets, so lining them up assembles the
board; ticks outside the window show where the band starts, crop marks where to cut, and a
small map in the bottom margin shows which sheet this is (its cell crossed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.layout.grid import MARK_GAP, PRINTER_MARGIN
from generator.layout.sheet import Page, Placement, Segment, Sheet
from pnp_model.components import Card
from pnp_model.errors import PnpError
from pnp_model.units import MM

OVERLAP = 10 * MM  # wide enough to glue, narrow enough not to waste a column of sheets
MARK_ROOM = 6 * MM  # around the window, inside the printer margin: crop marks and band ticks
MAP_ROOM = 10 * MM  # below the window: the assembly map
CROSS = 2.5 * MM  # half a registration cross's arm


@dataclass(frozen=True)
class Tiling:
    cols: int
    rows: int
    win_w: float  # every sheet's window of the board, overlap bands included
    win_h: float
    paper_w: float
    paper_h: float
    margin: float = PRINTER_MARGIN  # the printer's unprintable edge: nothing is drawn there

    @property
    def step_x(self) -> float:
        return self.win_w - OVERLAP

    @property
    def step_y(self) -> float:
        return self.win_h - OVERLAP


def plan_tiling(board_w: float, board_h: float, paper_w: float, paper_h: float,
                bleed: float = 0.0, margin: float = PRINTER_MARGIN) -> Tiling:
    """The fewest sheets of this paper that hold the board with overlap bands."""
    usable_w = paper_w - 2 * (margin + MARK_ROOM + bleed)
    usable_h = paper_h - 2 * (margin + MARK_ROOM + bleed) - MAP_ROOM
    if usable_w <= OVERLAP * 2 or usable_h <= OVERLAP * 2:
        raise PnpError(f"a {paper_w / MM:.0f}x{paper_h / MM:.0f} mm paper is too small to split "
                       "a board over", "--paper")
    cols = _count(board_w, usable_w)
    rows = _count(board_h, usable_h)
    win_w = (board_w + (cols - 1) * OVERLAP) / cols
    win_h = (board_h + (rows - 1) * OVERLAP) / rows
    return Tiling(cols, rows, win_w, win_h, paper_w, paper_h, margin)


def _count(length: float, usable: float) -> int:
    """Sheets along one side: n windows of at most `usable` covering length with n-1 bands."""
    if length <= usable:
        return 1
    return math.ceil((length - OVERLAP) / (usable - OVERLAP) - 1e-9)


def tile(card: Card, board_w: float, board_h: float, t: Tiling, bleed: float = 0.0) -> Sheet:
    """One page per sheet, row by row from the top-left, each with its window of the board."""
    pages = []
    for row in range(t.rows):
        for col in range(t.cols):
            pages.append(_page(card, board_w, board_h, t, col, row, bleed))
    return Sheet(t.paper_w, t.paper_h, tuple(pages), 1,
                 {"board sheets": f"{t.cols}x{t.rows}",
                  "overlap": f"{OVERLAP / MM:g} mm"}, guides=False)


def _page(card: Card, board_w: float, board_h: float, t: Tiling, col: int, row: int,
          bleed: float) -> Page:
    # the window's bottom-left on the page: centred across, above the map's room
    wx = (t.paper_w - t.win_w) / 2
    wy = t.margin + MAP_ROOM + (t.paper_h - 2 * t.margin - MAP_ROOM - t.win_h) / 2
    bx = col * t.step_x  # the window's left edge in board coordinates (from the left)
    by = board_h - row * t.step_y - t.win_h  # its bottom edge (board y from the bottom)
    # bleed only where the window meets the board's own edge, never into a band
    grow = (bleed if col == 0 else 0, bleed if row == t.rows - 1 else 0,
            bleed if col == t.cols - 1 else 0, bleed if row == 0 else 0)  # left bottom right top
    clip = (wx - grow[0], wy - grow[1], t.win_w + grow[0] + grow[2], t.win_h + grow[1] + grow[3])
    placement = Placement(card, wx - bx, wy - by, 0, bleed, clip=clip)
    marks = _crop_marks(wx, wy, t.win_w, t.win_h, bleed) + _band_marks(t, wx, wy, col, row) \
        + _map(t, col, row)
    return Page("front", (placement,), marks)


def _crop_marks(x: float, y: float, w: float, h: float, bleed: float) -> tuple[Segment, ...]:
    """Marks on the window's four cut lines, beyond both ends, outside its art."""
    gap, end = bleed + MARK_GAP, MARK_ROOM - MARK_GAP
    out: list[Segment] = []
    for v in (x, x + w):
        out += [(v, y - gap, v, y - end), (v, y + h + gap, v, y + h + end)]
    for v in (y, y + h):
        out += [(x - gap, v, x - end, v), (x + w + gap, v, x + w + end, v)]
    return tuple(out)


def _band_marks(t: Tiling, wx: float, wy: float, col: int, row: int) -> tuple[Segment, ...]:
    """Where each overlap band starts (ticks outside the window) and registration crosses in
    the bands, at the same board position on both sheets that share the band."""
    out: list[Segment] = []
    half = OVERLAP / 2
    verticals = ([wx + OVERLAP] if col > 0 else []) + \
        ([wx + t.win_w - OVERLAP] if col < t.cols - 1 else [])
    horizontals = ([wy + t.win_h - OVERLAP] if row > 0 else []) + \
        ([wy + OVERLAP] if row < t.rows - 1 else [])
    for v in verticals:
        out += [(v, wy - MARK_GAP, v, wy - MARK_ROOM + MARK_GAP),
                (v, wy + t.win_h + MARK_GAP, v, wy + t.win_h + MARK_ROOM - MARK_GAP)]
    for v in horizontals:
        out += [(wx - MARK_GAP, v, wx - MARK_ROOM + MARK_GAP, v),
                (wx + t.win_w + MARK_GAP, v, wx + t.win_w + MARK_ROOM - MARK_GAP, v)]
    # crosses at a quarter and three quarters along each band, in the band's middle
    centres = []
    if col > 0:
        centres += [(wx + half, wy + t.win_h * f) for f in (0.25, 0.75)]
    if col < t.cols - 1:
        centres += [(wx + t.win_w - half, wy + t.win_h * f) for f in (0.25, 0.75)]
    if row > 0:
        centres += [(wx + t.win_w * f, wy + t.win_h - half) for f in (0.25, 0.75)]
    if row < t.rows - 1:
        centres += [(wx + t.win_w * f, wy + half) for f in (0.25, 0.75)]
    for cx, cy in centres:
        out += [(cx - CROSS, cy, cx + CROSS, cy), (cx, cy - CROSS, cx, cy + CROSS)]
    return tuple(out)


def _map(t: Tiling, col: int, row: int) -> tuple[Segment, ...]:
    """The assembly map: the board's sheets as a small grid, this sheet's cell crossed."""
    cell = min(4 * MM, (MAP_ROOM - 2 * MM) / t.rows)
    x0 = t.paper_w - t.margin - t.cols * cell
    y0 = t.margin + 1 * MM
    out: list[Segment] = []
    for i in range(t.cols + 1):
        out.append((x0 + i * cell, y0, x0 + i * cell, y0 + t.rows * cell))
    for j in range(t.rows + 1):
        out.append((x0, y0 + j * cell, x0 + t.cols * cell, y0 + j * cell))
    cx, cy = x0 + col * cell, y0 + (t.rows - 1 - row) * cell
    out += [(cx, cy, cx + cell, cy + cell), (cx, cy + cell, cx + cell, cy)]
    return tuple(out)
