"""Where each card lies on the built pages, and its outlines, as the page's overlays need them.

Numbers are PDF points measured from the top-left corner (of the page, or of the card's trim
box), since that is how a browser lays things out; the layout's own origin is bottom-left.
"""

from __future__ import annotations

import re

from generator.layout.legend import LegendCard
from generator.layout.sheet import Sheet
from pnp_model.components import Deck

# What a warning is about: "card #12 (Name)", "cards #3, #4 ..." (not "[[face]] #1")
CARD_REF = re.compile(r"\bcards?\s+((?:#\d+(?:\s*(?:,|and|or)\s*)?)+)")


def card_boxes(deck: Deck, sheet: Sheet) -> tuple[list[dict], list[dict]]:
    """The pages (size, side, each card's trim corner and turn) and the cards (id, name, and
    for its front and its back: the page, the region to crop with its bleed, the turn)."""
    pages, cards = [], {}
    for index, page in enumerate(sheet.pages):
        placed = []
        for p in page.placements:
            top = sheet.height - p.y - deck.height
            placed.append({"id": p.card.id, "x": round(p.x, 2), "y": round(top, 2),
                           "turn": p.rotation})
            card = cards.setdefault(p.card.id, {"id": p.card.id, "name": _name(p.card),
                                                "legend": isinstance(p.card, LegendCard),
                                                "front": None, "back": None})
            if card[page.side] is None:
                card[page.side] = _crop(deck, sheet, index, p.x, top, p.bleed, p.rotation)
        pages.append({"side": page.side, "w": round(sheet.width, 2),
                      "h": round(sheet.height, 2), "cards": placed})
    return pages, sorted(cards.values(), key=lambda c: c["id"])


def _name(card) -> str:
    return f"Legend {card.id}" if isinstance(card, LegendCard) else card.name


def _crop(deck: Deck, sheet: Sheet, page: int, x: float, top: float, bleed: float,
          turn: int) -> dict:
    """The card's trim box grown by its bleed, kept on the page; `trim`: where the trim box's
    corner lies in that region once the image is turned upright."""
    x0, y0 = max(0.0, x - bleed), max(0.0, top - bleed)
    x1 = min(sheet.width, x + deck.width + bleed)
    y1 = min(sheet.height, top + deck.height + bleed)
    w, h = x1 - x0, y1 - y0
    tx, ty = x - x0, top - y0
    if turn == 180:
        tx, ty = w - tx - deck.width, h - ty - deck.height
    return {"page": page, "crop": [round(v, 2) for v in (x0, y0, w, h)],
            "trim": [round(tx, 2), round(ty, 2)], "turn": turn}


def outlines(deck: Deck, bleed: float) -> dict[str, str]:
    """SVG paths of the trim, bleed and safe-area outlines of one card, upright, in points
    from the trim box's top-left corner: bleed is the trim shape grown (square past rounded
    corners, as the art bleeds), the safe area the trim shape shrunk by the safe margin."""
    safe = deck.print.safe
    return {"trim": _outline(deck, 0.0, deck.corner_radius),
            "bleed": _outline(deck, bleed, 0.0) if bleed > 0 else "",
            "safe": _outline(deck, -safe, max(deck.corner_radius - safe, 0.0))}


def _outline(deck: Deck, grow: float, radius: float) -> str:
    from generator.render.outline import hexagon, triangle

    w, h = deck.width, deck.height
    if deck.shape == "circle":
        r = min(w, h) / 2 + grow
        return (f"M {w / 2 - r:.2f} {h / 2:.2f} a {r:.2f} {r:.2f} 0 1 0 {2 * r:.2f} 0 "
                f"a {r:.2f} {r:.2f} 0 1 0 {-2 * r:.2f} 0 Z")
    if deck.shape in ("hexagon", "triangle"):
        points = (hexagon if deck.shape == "hexagon" else triangle)(w, h, grow)
        return "M " + " L ".join(f"{px:.2f} {h - py:.2f}" for px, py in points) + " Z"
    x, y, rw, rh = -grow, -grow, w + 2 * grow, h + 2 * grow
    if radius <= 0:
        return f"M {x:.2f} {y:.2f} h {rw:.2f} v {rh:.2f} h {-rw:.2f} Z"
    r = min(radius, rw / 2, rh / 2)
    return (f"M {x + r:.2f} {y:.2f} h {rw - 2 * r:.2f} a {r:.2f} {r:.2f} 0 0 1 {r:.2f} {r:.2f} "
            f"v {rh - 2 * r:.2f} a {r:.2f} {r:.2f} 0 0 1 {-r:.2f} {r:.2f} "
            f"h {-(rw - 2 * r):.2f} a {r:.2f} {r:.2f} 0 0 1 {-r:.2f} {-r:.2f} "
            f"v {-(rh - 2 * r):.2f} a {r:.2f} {r:.2f} 0 0 1 {r:.2f} {-r:.2f} Z")
