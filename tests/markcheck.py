"""Crop marks read back from a built PDF: which cut-line ends have a mark, how near the paper's
edge any mark comes. Shared by the print-matrix test and bench/bench_marks.py.

Each card of a template is given a face and a back of its own colour (`coloured`), so the card
boxes are found in the drawn output too, not taken from the layout code.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pdfgeom import centre, drawing

from pnp_model.components import Card, Element
from pnp_model.definition import load

EPS = 0.01  # points: how far off a line a mark may be and still be on it


def colour_of(card_id: int) -> str:
    return f"#{(card_id * 37) % 256:02x}{card_id // 256 * 40 + 20:02x}{(card_id * 11) % 256:02x}"


def rgb(hex_colour: str) -> tuple[float, ...]:
    return tuple(round(int(hex_colour[i:i + 2], 16) / 255, 2) for i in (1, 3, 5))


def coloured(name):
    """The template (or a loaded deck) with each card's face and back a full-bleed rectangle of
    its own colour."""
    deck = load(name) if isinstance(name, str) else name
    cards = tuple(Card(c.id, {**c.fields, "tc": colour_of(c.id)}, c.part, c.symbols)
                  for c in deck.cards)
    art = (Element("rect", {"bleed": True, "fill": "{tc}"}, "test"),)
    return replace(deck, cards=cards, face=art, back=art)


def colours_of(deck) -> dict[tuple[float, ...], int]:
    return {rgb(colour_of(c.id)): c.id for c in deck.cards}


def placed(page_content: bytes, card_colours: dict) -> dict[int, tuple[float, float]]:
    """Card id -> centre of its coloured rectangle on the page."""
    out = {}
    for f in drawing(page_content).fills:
        key = tuple(round(v, 2) for v in f.color)
        if key in card_colours and f.points:
            out[card_colours[key]] = centre(f.points)
    return out


@dataclass
class PageMarks:
    """What one page's marks do for its cards: the ends of cut lines with no mark, by side,
    and the smallest distance from any mark to the paper's edge."""

    missing: dict[str, int] = field(default_factory=dict)  # side -> cut-line ends unmarked
    edge_distance: float = float("inf")
    marks: int = 0


def page_marks(content: bytes, centres, card_w: float, card_h: float, paper_w: float,
               paper_h: float) -> PageMarks:
    """Every trim line of the cards (rectangles, and the bounding lines of round and hex cards)
    should have a mark beyond both ends of the block of cards, on the line and outside every
    card. Marks are the strokes drawn outside any card (graphics-state depth 0)."""
    page = drawing(content)
    marks = [seg for seg, depth in zip(page.strokes, page.stroke_depths, strict=True)
             if depth == 0]
    out = PageMarks(marks=len(marks))
    for (x1, y1), (x2, y2) in marks:
        out.edge_distance = min(out.edge_distance, x1, x2, y1, y2, paper_w - x1, paper_w - x2,
                                paper_h - y1, paper_h - y2)
    if not centres:
        return out
    hw, hh = card_w / 2, card_h / 2
    boxes = [(x - hw, y - hh, x + hw, y + hh) for x, y in centres]
    left, bottom = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, top = max(b[2] for b in boxes), max(b[3] for b in boxes)

    def outside(seg) -> bool:
        (x1, y1), (x2, y2) = seg
        return all(max(x1, x2) <= b[0] + EPS or min(x1, x2) >= b[2] - EPS or
                   max(y1, y2) <= b[1] + EPS or min(y1, y2) >= b[3] - EPS for b in boxes)

    def has(side: str, along: float) -> bool:
        for seg in marks:
            (x1, y1), (x2, y2) = seg
            if side in ("top", "bottom") and abs(x1 - along) < EPS and abs(x2 - along) < EPS:
                beyond = min(y1, y2) >= top - EPS if side == "top" else max(y1, y2) <= bottom + EPS
            elif side in ("left", "right") and abs(y1 - along) < EPS and abs(y2 - along) < EPS:
                beyond = min(x1, x2) >= right - EPS if side == "right" else max(x1, x2) <= left + EPS
            else:
                continue
            if beyond and outside(seg):
                return True
        return False

    xs = {round(v, 3) for b in boxes for v in (b[0], b[2])}
    ys = {round(v, 3) for b in boxes for v in (b[1], b[3])}
    for side, lines in (("top", xs), ("bottom", xs), ("left", ys), ("right", ys)):
        missing = sum(1 for v in lines if not has(side, v))
        if missing:
            out.missing[side] = missing
    return out
