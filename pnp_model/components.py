"""The components model shared by the generator and the referee: pure dataclasses, no drawing.

A definition (templates/<game>/) loads into one Deck. Card ids are 1..N in definition order,
counted over every part, so card #37 is the same card whichever parts a build selects.
Geometry is in PDF points; element coordinates are relative to the card's top-left trim corner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")  # the art files a card or symbol may use


@dataclass(frozen=True)
class Card:
    id: int
    fields: dict[str, str]
    part: str = ""
    symbols: tuple[str, ...] = ()
    layout: str = ""  # the named layout drawing this card ("" when the deck has none)
    marker: int | None = None  # the fiducial id printed on it when a build asks for markers

    def __getitem__(self, key: str) -> str:
        return self.fields[key]

    def get(self, key: str, default: str = "") -> str:
        return self.fields.get(key, default)

    @property
    def name(self) -> str:
        """What a person calls the card: its name, title or label column, else its id."""
        for key in ("name", "title", "label"):
            if self.get(key).strip():
                return self.get(key).strip()
        return f"card {self.id}"


@dataclass(frozen=True)
class Element:
    """One drawing instruction of a face or back: its kind and its parameters.

    Geometry parameters (x, y, w, h, size, ...) are already in points; text-like parameters
    may hold {field} placeholders that are filled per card when drawing.
    """

    kind: str
    params: dict[str, Any]
    where: str = ""
    layout: str = ""  # drawn only on cards of this named layout ("" on every card)

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


@dataclass(frozen=True)
class PrintSettings:
    """Defaults a definition gives for printing; command-line options override them."""

    paper: str = "a4"
    orientation: str = "auto"  # auto: whichever fits more cards
    gutter: float = 0.0
    bleed: float = 0.0
    marks: bool = True
    flip: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    fold: bool = False  # fold-and-glue sheets instead of duplex (generator/layout/fold.py)
    safe: float = 3 * 72 / 25.4  # safe zone inside the trim (3 mm), checked by preflight
    markers: bool = False  # print each card's fiducial marker where the design reserves room


@dataclass(frozen=True)
class Deck:
    name: str
    title: str
    description: str
    root: Path
    shape: str  # rect | circle | hexagon | triangle
    width: float
    height: float
    corner_radius: float
    cards: tuple[Card, ...]
    face: tuple[Element, ...]
    back: tuple[Element, ...] = ()
    colors: dict[str, str] = field(default_factory=dict)
    shapes: dict[str, str] = field(default_factory=dict)
    properties: dict[str, Any] = field(default_factory=dict)
    balance: dict[str, Any] = field(default_factory=dict)  # [balance]: pnp verify --balance
    scoring: dict[str, Any] = field(default_factory=dict)  # [scoring]: the referee's scorepad
    print: PrintSettings = field(default_factory=PrintSettings)
    parts: tuple[str, ...] = ()
    default_parts: tuple[str, ...] = ()
    source: dict[str, Any] = field(default_factory=dict)
    icons: dict[str, Any] = field(default_factory=dict)  # [icons]: name -> InlineIcon
    legend: bool = False  # [deck] legend: print legend cards with a symbol deck (pnp build)

    @property
    def has_backs(self) -> bool:
        return bool(self.back)

    def select(self, parts: tuple[str, ...] | None = None) -> tuple[Card, ...]:
        """The cards of the chosen parts (the definition's default parts when None)."""
        chosen = parts if parts else self.default_parts
        if not chosen:
            return self.cards
        return tuple(c for c in self.cards if c.part in chosen or not c.part)

    def card(self, card_id: int) -> Card:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)
