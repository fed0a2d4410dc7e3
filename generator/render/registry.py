"""Element drawers by kind. A drawer module registers its functions with @drawer("kind").

A drawer gets a Ctx and the Element. The canvas origin is the card's trim bottom-left corner,
y up, in points; element coordinates are top-down from the trim top-left, so use ctx.y(y).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pnp_model.components import Card, Deck, Element

DRAWERS: dict[str, Callable[[Ctx, Element], None]] = {}
MODULES = ("generator.render.basic", "generator.render.text", "generator.render.images",
           "generator.render.pips",
           "generator.render.symbols", "generator.render.legend", "generator.markers.draw")


@dataclass
class Ctx:
    canvas: Any  # reportlab.pdfgen.canvas.Canvas
    deck: Deck
    card: Card
    bleed: float
    cache: dict[str, Any] = field(default_factory=dict)  # per-document: images, fonts
    texts: list = field(default_factory=list)  # (element, drawn box) so far (render/text_room)

    @property
    def width(self) -> float:
        return self.deck.width

    @property
    def height(self) -> float:
        return self.deck.height

    def y(self, y_from_top: float) -> float:
        return self.deck.height - y_from_top


def drawer(kind: str):
    def register(fn: Callable[[Ctx, Element], None]):
        DRAWERS[kind] = fn
        return fn

    return register


def load_drawers() -> dict[str, Callable[[Ctx, Element], None]]:
    for mod in MODULES:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name != mod:
                raise
    return DRAWERS
