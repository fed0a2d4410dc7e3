"""The result of imposition: pages of placed cards plus the cut guides to draw on each page.

Layout modules (grid.py for rectangles, circles and hexagons; triangles.py for tessellated
triangular tiles) produce these; the renderer draws them without knowing which layout made them.
All numbers are PDF points on the page, origin at the bottom-left corner of the paper.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp_model.components import Card
from pnp_model.units import INCH, MM, US_PAPERS

Segment = tuple[float, float, float, float]  # x1, y1, x2, y2
Polygon = tuple[tuple[float, float], ...]  # corners in order


@dataclass(frozen=True)
class Placement:
    """One card on a page: where its trim box's bottom-left corner lands, and its turn.

    rotation is 0 or 180 degrees about the trim box centre (down-pointing triangles are
    up-pointing tiles turned 180°). bleed is how far the art extends past the trim.
    """

    card: Card
    x: float
    y: float
    rotation: int = 0
    bleed: float = 0.0
    clip: Segment | None = None  # x, y, w, h on the page: one sheet's window of a large board
    side: str | None = None  # "front"/"back" where a page holds both (fold sheets), else the page's


@dataclass(frozen=True)
class Page:
    side: str  # "front" or "back"
    placements: tuple[Placement, ...]
    marks: tuple[Segment, ...] = ()  # crop marks / cut lines, stroked thin
    guides: tuple[Segment, ...] = ()  # optional cut guides inside the sheet (dashed)
    fills: tuple[Segment, ...] = ()  # x, y, w, h of filled black boxes: a cutter's reg marks
    tabs: tuple[Polygon, ...] = ()  # glue tabs of a fold sheet (layout/fold.py), filled grey


@dataclass(frozen=True)
class Sheet:
    """A whole imposed document: paper size, pages in print order, and facts to report."""

    width: float
    height: float
    pages: tuple[Page, ...]
    cards_per_page: int
    info: dict[str, object] = field(default_factory=dict)  # e.g. {"cuts": 23, "grid": "3x3"}
    # How to print it, decided with the imposition so the renderer resolves no options:
    flip: str = "long"  # the paper edge the backs were mirrored for (the PDF's /Duplex hint)
    guides: bool = True  # grey cut outlines on the fronts
    trim_box: Segment | None = None  # x, y, w, h of the trimmed card on one-card pages
    # (page side, block side) pairs with no room for crop marks, e.g. ("front", "top")
    unmarked: tuple[tuple[str, str], ...] = ()
    margin: float = 6 * MM  # the printer's unprintable edge: the page's footer stays out of it


def one_card_a_page(width: float, height: float, jobs: list[tuple[Card, str]], bleed: float,
                    flip: str = "long", guides: bool = False) -> Sheet:
    """One (card, side) a page, the page being the card plus its bleed, with TrimBox and
    BleedBox: what print shops, preflight and per-card exports all ask for."""
    pages = tuple(Page(side, (Placement(card, bleed, bleed, 0, bleed),)) for card, side in jobs)
    return Sheet(width + 2 * bleed, height + 2 * bleed, pages, 1,
                 {"bleed": f"{round(bleed / MM, 3):g} mm"}, flip=flip, guides=guides,
                 trim_box=(bleed, bleed, width, height))


def shop_bleed(paper: str) -> float:
    """The bleed print shops ask for: 1/8 in on US paper (US shops), else 3 mm."""
    return 0.125 * INCH if paper in US_PAPERS else 3 * MM
