"""Fiducial markers on printed cards, so that `referee look` can read a photo of the table.

One dictionary for every game (ArUco 4x4, 1000 codes, shipped as data in codes.txt so that
printing needs no OpenCV); a game's template places a `marker` element with the first id of its
range, and each card's id is that first id plus the card's id: the reader needs no extra file,
and a stray card of another game reads as that game's, never as this one's.
"""

from __future__ import annotations

from dataclasses import replace

from pnp_model.components import Card, Deck, Element
from pnp_model.errors import PnpError

from .codes import COUNT


def marker_element(deck: Deck) -> Element | None:
    """The face element that reserves the marker's room, or None when the design has none."""
    return next((e for e in deck.face if e.kind == "marker"), None)


def marked(deck: Deck, cards: tuple[Card, ...], flag: str = "--markers") -> tuple[Card, ...]:
    """The cards with their marker ids set (drawn by the `marker` element, which also hides
    the elements marked `markers = "without"`)."""
    el = marker_element(deck)
    if el is None:
        raise PnpError(f"{deck.name} reserves no room for a marker: add a [[face]] element "
                       "with type = \"marker\" to its game.toml", flag)
    first = int(el.get("first", 0))
    out = tuple(replace(c, marker=first + c.id) for c in cards)
    beyond = [c for c in out if not 0 <= c.marker < COUNT]
    if beyond:
        raise PnpError(f"marker id {beyond[0].marker} of card #{beyond[0].id} is outside the "
                       f"dictionary's 0-{COUNT - 1}: lower `first`", el.where or flag)
    _check_backs(deck, {c.marker for c in out})
    return out


def _check_backs(deck: Deck, faces: set[int]) -> None:
    """A back's marker prints one fixed `id` on every card: a card's own id on its back would
    tell which card lies face down, and a face's id would read a back as that face."""
    for el in (e for e in deck.back if e.kind == "marker"):
        fixed = el.get("shared")
        if fixed is None:
            raise PnpError("a marker on the back needs a `shared` id (the same on every card), "
                           "or a photo would tell which card lies face down", el.where)
        if not 0 <= int(fixed) < COUNT or int(fixed) in faces:
            raise PnpError(f"the back's marker id {int(fixed)} is outside the dictionary's "
                           f"0-{COUNT - 1} or a face's: take one of the game's range that no "
                           "card's face prints", el.where)
