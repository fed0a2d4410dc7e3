"""What a card's fields make of an element's parameters: templates filled, colours and shape
names resolved, conditions decided. Shared by the loader, which checks every card with them,
and the renderer, which draws with them, so the renderer never imports the loader."""

from __future__ import annotations

from pnp_model.colorspec import is_literal
from pnp_model.components import Card, Element
from pnp_model.errors import PnpError
from pnp_model.shapes import SHAPES

BASIC_COLORS = {
    "black": "#000000", "white": "#ffffff", "grey": "#808080", "gray": "#808080",
    "lightgrey": "#d3d3d3", "darkgrey": "#404040", "red": "#d62728", "green": "#2ca02c",
    "blue": "#1f77b4", "yellow": "#f2c80f", "orange": "#ff7f0e", "purple": "#9467bd",
    "pink": "#e377c2", "brown": "#8c564b", "none": "none",
}

def fill(text: str, card: Card) -> str:
    """A template with the card's fields filled in."""
    if "{" not in text:
        return text
    return text.format_map(_CardFields(card))


class _CardFields(dict):
    def __init__(self, card: Card):
        super().__init__(card.fields)
        self["id"] = str(card.id)
        self["part"] = card.part
        self["symbols"] = " ".join(card.symbols)


def resolve_color(value: str, palette: dict[str, str], where: str = "") -> str:
    """A colour name or #rrggbb, looked up in the definition's [colors] first."""
    v = value.strip()
    key = v.lower()
    if key in palette:
        v = palette[key]
        key = v.lower()
    if key in BASIC_COLORS:
        return BASIC_COLORS[key]
    if is_literal(v):
        return v.lower().replace(" ", "")
    raise PnpError(f"unknown colour {value!r}: use #rrggbb, cmyk(C,M,Y,K) or a name from "
                   "[colors]", where)



def visible(el: Element, card: Card) -> bool:
    """Whether the element is drawn on this card: its layout is the card's, its `when` holds
    and its `unless` does not (conditions parsed at load, see pnp_model.conditions)."""
    if el.layout and el.layout != card.layout:
        return False
    shown = {"with": card.marker is not None, "without": card.marker is None}
    if not shown.get(el.params.get("markers"), True):
        return False
    when, unless = el.params.get("when"), el.params.get("unless")
    if when is None and unless is None:
        return True
    fields = _CardFields(card)  # once for every value the conditions name
    filled = lambda text: text.format_map(fields) if "{" in text else text  # noqa: E731
    named = lambda: f"card #{card.id} ({card.name})"  # noqa: E731
    if when is not None and not when.holds(filled, named):
        return False
    return not (unless is not None and unless.holds(filled, named))


def resolve_shape(value: str, aliases: dict[str, str], where: str = "") -> str:
    """A shape name, through the definition's [shapes] aliases (moons = "crescent")."""
    name = aliases.get(value.strip().lower(), value.strip())
    if name not in SHAPES:
        raise PnpError(f"unknown shape {value!r} (use {', '.join(SHAPES)} or add it to [shapes])",
                       where)
    return name
