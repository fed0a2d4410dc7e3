"""Imposition of equilateral triangular tiles as a tessellation cut with full-length straight lines.

Tiles sit in rows of alternating up/down triangles on a triangular lattice, so every tile edge
lies on a lattice line in one of three directions (horizontal, +60°, −60°). A lattice line never
crosses a tile, so each one is a single straight cut across the sheet: 56 tiles need 23 cuts
instead of 168 separate edges. Each page takes a block of rows (the last row may be partial);
the block shape with the fewest cuts is chosen and centred on the paper.

Lattice (as in docs/reference/rules.md §1): point (i, j) sits at x0 + (i + j/2)·side, y0 + j·height; cell
U(x, y) has corners (x, y), (x+1, y), (x, y+1) and D(x, y) has (x+1, y), (x, y+1), (x+1, y+1).
A down tile is the up-pointing tile turned 180° about its box centre (Placement.rotation=180).

Entry point for the build pipeline:

    impose_triangles(deck, cards, paper_w, paper_h, *, margin=PRINTER_MARGIN, backs=False,
                     flip="long", back_offset=(0.0, 0.0), marks=True) -> Sheet

Sheet.info carries "cuts" (distinct cut lines over all front pages), "tile_edges" (3 per
tile: what cutting tile by tile would take) and "block" (rows x tiles per row, "7x8", one per
page joined with "+").
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from generator.layout.grid import flips_left_right
from generator.layout.sheet import Page, Placement, Segment, Sheet
from pnp_model.components import Card, Deck
from pnp_model.errors import PnpError
from pnp_model.units import MM

PRINTER_MARGIN = 6 * MM
EXTEND = 4 * MM  # cut lines run this far past the tiles so a ruler can be lined up
EQUILATERAL_TOLERANCE = 0.05 * MM
# Fronts butt edge to edge (no bleed: a cut line is shared by two tiles). Backs are all alike,
# so each back may spill over its neighbours: 2 mm of bleed hides a duplex misregistration.
BACK_BLEED = 2 * MM

Cell = tuple[str, int, int]  # ("U" | "D", x, y) on the lattice
LineKey = tuple[str, int]  # ("h", j) | ("p", i) for +60° | ("m", i + j) for −60°


@dataclass(frozen=True)
class Block:
    """One page's tessellation: `rows` rows of up to `slots` tiles, anchored at (x0, y0)."""

    rows: int
    slots: int
    count: int
    side: float
    height: float
    x0: float
    y0: float

    def cells(self) -> list[Cell]:
        """Cells in reading order: top row first, left to right; the last row may be partial."""
        out: list[Cell] = []
        for t in range(self.rows):
            y = self.rows - 1 - t
            for k in range(self.slots):
                if len(out) == self.count:
                    return out
                out.append(("U", (k - y) // 2, y) if (k + y) % 2 == 0
                           else ("D", (k - y - 1) // 2, y))
        return out

    def point(self, i: float, j: float) -> tuple[float, float]:
        return self.x0 + (i + j / 2) * self.side, self.y0 + j * self.height

    def placement(self, card: Card, cell: Cell) -> Placement:
        """The tile's box: bottom-left corner of the up tile's box, or of the turned down tile."""
        kind, x, y = cell
        if kind == "U":
            bx, by = self.point(x, y)
            return Placement(card, bx, by, 0)
        bx, by = self.point(x, y + 1)
        return Placement(card, bx, by - self.height, 180)


def tile_edges(cell: Cell) -> list[tuple[LineKey, int]]:
    """The three edges of a cell, each as (lattice line, position of its start along the line)."""
    kind, x, y = cell
    if kind == "U":
        return [(("h", y), x), (("p", x), y), (("m", x + y + 1), y)]
    return [(("h", y + 1), x), (("p", x + 1), y), (("m", x + y + 1), y)]


def cut_lines(cells: list[Cell]) -> dict[LineKey, list[tuple[int, int]]]:
    """For each lattice line carrying a tile edge, its runs of consecutive edges (start, end)."""
    along: dict[LineKey, set[int]] = defaultdict(set)
    for cell in cells:
        for key, start in tile_edges(cell):
            along[key].add(start)
    runs: dict[LineKey, list[tuple[int, int]]] = {}
    for key, starts in sorted(along.items()):
        ordered = sorted(starts)
        spans = [[ordered[0], ordered[0] + 1]]
        for s in ordered[1:]:
            if s == spans[-1][1]:
                spans[-1][1] = s + 1
            else:
                spans.append([s, s + 1])
        runs[key] = [(a, b) for a, b in spans]
    return runs


def count_cuts(cells: list[Cell]) -> int:
    """Straight cuts needed: one per distinct lattice line that carries a tile edge."""
    return len({key for cell in cells for key, _ in tile_edges(cell)})


def _line_points(key: LineKey, t: float) -> tuple[float, float]:
    """Lattice coordinates (i, j) of the point at parameter t along a line."""
    kind, c = key
    if kind == "h":
        return t, c
    if kind == "p":
        return c, t
    return c - t, t


def _clip(seg: Segment, lo_x: float, lo_y: float, hi_x: float, hi_y: float) -> Segment | None:
    """Liang–Barsky clip of a segment to a rectangle (keeps marks inside the printable area)."""
    x1, y1, x2, y2 = seg
    dx, dy = x2 - x1, y2 - y1
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x1 - lo_x), (dx, hi_x - x1), (-dy, y1 - lo_y), (dy, hi_y - y1)):
        if p == 0:
            if q < 0:
                return None
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
    if t0 >= t1:
        return None
    return (x1 + t0 * dx, y1 + t0 * dy, x1 + t1 * dx, y1 + t1 * dy)


def cut_marks(block: Block, cells: list[Cell], paper_w: float, paper_h: float,
              margin: float) -> tuple[Segment, ...]:
    """Every run of tile edges on a cut line, stroked and extended a little past its ends."""
    marks: list[Segment] = []
    for key, spans in cut_lines(cells).items():
        for a, b in spans:
            x1, y1 = block.point(*_line_points(key, a))
            x2, y2 = block.point(*_line_points(key, b))
            length = math.hypot(x2 - x1, y2 - y1)
            ux, uy = (x2 - x1) / length, (y2 - y1) / length
            seg = (x1 - ux * EXTEND, y1 - uy * EXTEND, x2 + ux * EXTEND, y2 + uy * EXTEND)
            clipped = _clip(seg, margin, margin, paper_w - margin, paper_h - margin)
            if clipped:
                marks.append(tuple(round(v, 4) for v in clipped))
    return tuple(marks)


def capacity(side: float, height: float, paper_w: float, paper_h: float,
             margin: float, margin_y: float | None = None) -> tuple[int, int]:
    """Most rows, and most tiles per row, that fit inside the printable area (margin_y above
    and below, if it differs: a cutting machine's cut area)."""
    rows = int((paper_h - 2 * (margin if margin_y is None else margin_y)) // height)
    slots = int((paper_w - 2 * margin) // (side / 2)) - 1
    return max(rows, 0), max(slots, 0)


def plan(count: int, max_rows: int, max_slots: int) -> tuple[int, int]:
    """The rows x slots block for `count` tiles with the fewest cuts (then the most compact)."""
    best: tuple[int, int, int, int] | None = None
    for rows in range(1, max_rows + 1):
        for slots in range(1, max_slots + 1):
            if rows * slots < count or rows * slots - count >= slots:
                continue
            probe = Block(rows, slots, count, 1.0, 1.0, 0.0, 0.0)
            key = (count_cuts(probe.cells()), rows * slots, abs(rows - slots), rows, slots)
            if best is None or key < best:
                best = key
    if best is None:
        raise ValueError(f"{count} tiles do not fit in {max_rows} rows of {max_slots}")
    return best[3], best[4]


def _block(count: int, side: float, height: float, max_rows: int, max_slots: int,
           paper_w: float, paper_h: float) -> Block:
    rows, slots = plan(count, max_rows, max_slots)
    width, tall = (slots + 1) * side / 2, rows * height
    return Block(rows, slots, count, side, height, (paper_w - width) / 2, (paper_h - tall) / 2)


def _back(p: Placement, side: float, height: float, paper_w: float, paper_h: float, flip: str,
          offset: tuple[float, float]) -> Placement:
    """Behind its front, mirrored as the paper turns (grid.flips_left_right); mirroring rows
    turns an up triangle into a down one."""
    if flips_left_right(paper_w, paper_h, flip):
        x, y, rot = paper_w - p.x - side, p.y, p.rotation
    else:
        x, y, rot = p.x, paper_h - p.y - height, (p.rotation + 180) % 360
    return Placement(p.card, x + offset[0], y + offset[1], rot, BACK_BLEED)


def check_tile(deck: Deck) -> tuple[float, float]:
    """The tile's side and height, refusing a box that is not an equilateral triangle's."""
    side, height = deck.width, deck.height
    want = side * math.sqrt(3) / 2
    if abs(height - want) > EQUILATERAL_TOLERANCE:
        raise PnpError(
            f"a triangular tile of side {side / MM:.3f} mm is {want / MM:.3f} mm tall, not "
            f"{height / MM:.3f} mm: write size = \"{side / MM:g}x{want / MM:.3f}mm\"",
            f"{deck.root.name}/game.toml [deck].size")
    return side, height


def impose_triangles(deck: Deck, cards: tuple[Card, ...], paper_w: float, paper_h: float, *,
                     margin: float = PRINTER_MARGIN, margin_y: float | None = None,
                     backs: bool = False, flip: str = "long",
                     back_offset: tuple[float, float] = (0.0, 0.0),
                     marks: bool = True) -> Sheet:
    """Pages of tessellated tiles (a back page after each front page when backs is true)."""
    if flip not in ("long", "short"):
        raise PnpError(f"duplex flip must be 'long' or 'short', not {flip!r}", "--flip")
    side, height = check_tile(deck)
    max_rows, max_slots = capacity(side, height, paper_w, paper_h, margin, margin_y)
    if max_rows < 1 or max_slots < 1:
        raise PnpError(
            f"a {side / MM:.1f} mm triangular tile does not fit on {paper_w / MM:.0f}x"
            f"{paper_h / MM:.0f} mm paper with a {margin / MM:.0f} mm printer margin",
            f"{deck.root.name}/game.toml [deck].size")
    per_page = max_rows * max_slots
    pages: list[Page] = []
    cuts: list[int] = []
    shapes: list[str] = []
    for start in range(0, len(cards), per_page):
        chunk = cards[start:start + per_page]
        block = _block(len(chunk), side, height, max_rows, max_slots, paper_w, paper_h)
        cells = block.cells()
        fronts = tuple(block.placement(card, cell) for card, cell in zip(chunk, cells, strict=True))
        lines = cut_marks(block, cells, paper_w, paper_h, margin) if marks else ()
        cuts.append(count_cuts(cells))
        shapes.append(f"{block.rows}x{block.slots}")
        pages.append(Page("front", fronts, lines))
        if backs:
            placed = tuple(_back(p, side, height, paper_w, paper_h, flip, back_offset)
                           for p in fronts)
            # no cut lines on backs: they lie on tile edges, and a misregistered duplex
            # would print them as dark lines inside the tiles
            pages.append(Page("back", placed))
    info = {"cuts": sum(cuts), "tile_edges": 3 * len(cards), "block": "+".join(shapes)}
    return Sheet(paper_w, paper_h, tuple(pages), per_page, info, flip=flip)
