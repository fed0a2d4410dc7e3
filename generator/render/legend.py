"""Legend cards of a symbol deck: made when a build asks for them, drawn like the deck's cards.

A legend card is the deck's card: same shape, size, background (the face's rect, ellipse,
shape, image and line elements, with the first printed card's fields, so a colour border
stays) and back. In place of the symbols element it lists the symbols, each drawn as on the
cards (the same icon form in the same colour, the same cleaned image, the same SVG) with its
name under it; a word symbol is its own name. The card's texts (an id, a name) are left off:
they belong to playing cards. The layout is generator.layout.legend's.
"""

from __future__ import annotations

from functools import cache

from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics

from generator.layout.legend import (
    LEADING,
    RIM,
    Area,
    LegendCard,
    display_name,
    plan_legend,
    word_size,
)
from generator.render.fonts import font
from generator.render.registry import Ctx, drawer
from generator.render.symbols import kit_for, place
from pnp_model.components import IMAGE_SUFFIXES, Card, Deck, Element
from pnp_model.designs import icons
from pnp_model.errors import PnpError
from pnp_model.percard import for_card

BACKGROUND = ("rect", "ellipse", "shape", "image", "line")  # what a legend card keeps
CAPTION_COLOR = HexColor("#333333")


def legend_cards(deck: Deck, cards: tuple[Card, ...], where: str = "--legend") -> tuple[LegendCard, ...]:
    """The legend cards for the symbols of these cards, numbered after the deck's last card."""
    if not cards:
        return ()
    template = cards[0]
    symbols_el = next((el for el in deck.face if el.kind == "symbols"
                       and (not el.layout or el.layout == template.layout)), None)
    if symbols_el is None or not any(c.symbols for c in cards):
        raise PnpError(f"{deck.name} is not a symbol deck: a legend lists the symbols of a deck "
                       "whose cards have a symbols element", where)
    symbols_el = for_card(symbols_el, template)
    x, y = symbols_el.get("x", 0.0), symbols_el.get("y", 0.0)
    w, h = symbols_el.get("w", deck.width - x), symbols_el.get("h", deck.height - y)
    # 2 mm inside the symbols' box, and never outside the card's safe zone (3 mm by default)
    margin = min(x, y, deck.width - x - w, deck.height - y - h)
    area = Area.inside(deck.shape, w, h, max(RIM, deck.print.safe - margin))
    used = list(dict.fromkeys(s for c in cards for s in c.symbols))
    words = _word_symbols(deck, used)
    entries = [(s, s if s in words else display_name(s), s in words) for s in used]
    caption, title = font("sans"), font("sans-bold")
    sheets = plan_legend(entries, area, _measure(caption), _measure(title))
    if sheets is None:
        raise PnpError(f"the {len(used)} symbols do not fit legibly on a few legend cards of "
                       f"this size: build without --legend", where)
    face = tuple(el for el in deck.face if el.kind in BACKGROUND) + (
        Element("legend", {"x": x, "y": y, "w": w, "h": h, "symbols_element": symbols_el},
                "legend card"),)
    last = max(c.id for c in deck.cards)
    return tuple(LegendCard(last + i, dict(template.fields), template.part, (), template.layout,
                            legend=sheet, face=face)
                 for i, sheet in enumerate(sheets, 1))


def _measure(font_name: str):
    """Text width at a size in this font, remembered (the layout search asks again and again)."""
    return cache(lambda text, size: pdfmetrics.stringWidth(text, font_name, size))


def _word_symbols(deck: Deck, names: list[str]) -> set[str]:
    """The symbols drawn as words (a word list, or names that are no icon and no file)."""
    spec = deck.source.get("symbols", "icons")
    if isinstance(spec, str) and spec.startswith("words:"):
        return set(names)
    if isinstance(spec, str) and spec.startswith("folder:"):
        folder = deck.root / spec[len("folder:"):]
        files = {p.stem for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES}
        return {n for n in names if n not in files}
    return {n for n in names if icons.codepoint(n) is None}


@drawer("legend")
def draw_legend(ctx: Ctx, el: Element) -> None:
    card = ctx.card
    sheet = card.legend if isinstance(card, LegendCard) else None
    if sheet is None:
        return
    c = ctx.canvas
    kit = kit_for(ctx, el.get("symbols_element"))
    badge = el.get("symbols_element").get("badge", "none") != "none"
    cx = el.get("x") + el.get("w") / 2
    cy = ctx.y(el.get("y") + el.get("h") / 2)
    if sheet.title:
        c.setFillColor(CAPTION_COLOR)
        c.setFont(font("sans-bold"), sheet.title_size)
        c.drawCentredString(cx, cy + sheet.title_y, sheet.title)
    for e in sheet.entries:
        x, y = cx + e.x, cy + e.y
        if kit.files and e.symbol in kit.files:
            form = kit.form(c, e.symbol)
            # raster forms are the trimmed image, 1 unit a pixel: fit its box; others their circle
            scale = e.size / (2 * max(form.cx, form.cy)) if form.pixels else e.size / 2 / form.radius
            place(c, form, x, y, 0, scale)
        elif kit.is_word(e.symbol):
            size = word_size(e.size)
            c.setFillColor(kit.color.get(e.symbol, CAPTION_COLOR))
            c.setFont(kit.word_font, size)
            c.drawCentredString(x, y - 0.36 * size, e.symbol)
            continue
        else:
            form = kit.icon_form(c, e.symbol, badge)
            place(c, form, x, y, 0, e.size / 2 / form.radius)
        c.setFillColor(CAPTION_COLOR)
        c.setFont(font("sans"), sheet.text_size)
        top = y - e.size / 2 - sheet.gap
        for i, line in enumerate(e.lines):
            c.drawCentredString(x, top - sheet.text_size * (0.9 + i * LEADING), line)
