"""Duplicon's model: the card types (from the template), the rules as data, moves, state."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import ClassVar

from referee.engine import (
    Draft,
    InvalidMove,
    Outcome,
    RuleRef,
    ScoreItem,
    Violation,
)

POSITIONS = tuple(f"{c}{r}" for r in "123" for c in "abc")


HAND = 3


UNKNOWN = "?"  # a face-down grid card nobody has seen


HOLE = ""  # an empty grid place (the deck ran out, so it is not refilled)


RULES = {
    r.id: r
    for r in (
        RuleRef("U1", "a scoring pair is exactly one grid card plus one hand or play-zone card of "
                      "identical colour and shape (never hand + play zone, never without a grid "
                      "card)"),
        RuleRef("U2", "case 2 targets only another player's play-zone card"),
        RuleRef("U3", "one's own play-zone card is not reusable on the turn it was placed"),
        RuleRef("U4", "case 4 (draw) is not allowed if the player chose case 4 on their previous "
                      "turn; case 5 (exchange) only when the deck holds 5 or more cards"),
        RuleRef("turn", "a turn is exactly one of five cases; after a success the same player "
                        "acts again, otherwise play passes to the next player"),
        RuleRef("opening", "each round opens by turning two grid cards; a same-type pair goes to "
                           "the discard and two more are turned, a different pair turns back"),
        RuleRef("grid", "cards turned face up go back face down in the same place"),
        RuleRef("cards", "96 cards: 8 types (a colour and a shape) × 12 cards"),
        RuleRef("end", "the game ends at the end of a round in which someone reaches the target; "
                       "highest total wins, a tie plays another round"),
    )
}


NOTATION = (
    "open a1=T b3=T (opening reveal) · play T b2=T (case 1) · replay T b2=T (case 1 with your "
    "play-zone card) · steal PLAYER T b2=T (case 2) · reveal a1=T c3=T (case 3) · draw (case 4) "
    "· exchange (case 5); T = colour, shape or colour-shape, e.g. orange, circle, orange-circle; "
    "a bare 'T b2=T' is case 1"
)


@dataclass(frozen=True)
class CardType:
    key: str  # "orange-circle"
    color: str
    shape: str
    label: str  # as printed: "orange circle"
    count: int  # copies in the deck


@cache
def card_types() -> tuple[CardType, ...]:
    """The types printed by the duplicon template (loaded lazily: keeps startup light)."""
    from referee.components import cards

    counts: dict[tuple[str, str, str], int] = {}
    for _id, card in cards("duplicon", ("kind", "color", "shape", "label")):
        if card["kind"] != "type":
            continue  # the "your turn" reminders have no rules effect
        key = (card["color"], card["shape"], card["label"])
        counts[key] = counts.get(key, 0) + 1
    return tuple(CardType(f"{c}-{s}", c, s, label, n) for (c, s, label), n in counts.items())


def _types_by_name() -> dict[str, CardType]:
    out: dict[str, CardType] = {}
    for t in card_types():
        for name in (t.key, t.color, t.shape, t.label.replace(" ", "-")):
            out[name.lower()] = t
    return out


def card_type(text: str) -> CardType:
    """A type from what a player types: its colour, its shape or both (orange-circle)."""
    t = _types_by_name().get(text.strip().lower())
    if t is None:
        names = ", ".join(t.key for t in card_types())
        raise InvalidMove(f"unknown card type {text!r} (types: {names})")
    return t


Flips = tuple[tuple[str, str], ...]  # (position, type key) as turned


@dataclass(frozen=True)
class Open:
    """The opening reveal of a round: two grid cards turned."""

    player: str
    flips: Flips
    kind: ClassVar[str] = "open"
    card: ClassVar[str] = ""
    owner: ClassVar[str] = ""


@dataclass(frozen=True)
class Play:
    """Case 1: a hand card into the play zone, and a grid card turned to match it."""

    player: str
    card: str
    flips: Flips
    paired: str = ""  # a claimed pair without a grid card: the player's other card (U1)
    kind: ClassVar[str] = "play"
    owner: ClassVar[str] = ""


@dataclass(frozen=True)
class Replay:
    """Case 1 with a card already in the player's play zone."""

    player: str
    card: str
    flips: Flips
    paired: str = ""  # a claimed pair without a grid card: the player's other card (U1)
    kind: ClassVar[str] = "replay"
    owner: ClassVar[str] = ""


@dataclass(frozen=True)
class Steal:
    """Case 2: a card of another player's play zone, and a grid card turned to match it."""

    player: str
    owner: str
    card: str
    flips: Flips
    kind: ClassVar[str] = "steal"


@dataclass(frozen=True)
class Reveal:
    """Case 3: two grid cards turned."""

    player: str
    flips: Flips
    kind: ClassVar[str] = "reveal"
    card: ClassVar[str] = ""
    owner: ClassVar[str] = ""


@dataclass(frozen=True)
class Draw:
    """Case 4: a card from the deck."""

    player: str
    kind: ClassVar[str] = "draw"
    card: ClassVar[str] = ""
    owner: ClassVar[str] = ""
    flips: ClassVar[Flips] = ()


@dataclass(frozen=True)
class Exchange:
    """Case 5: the hand for as many cards from the deck."""

    player: str
    kind: ClassVar[str] = "exchange"
    card: ClassVar[str] = ""
    owner: ClassVar[str] = ""
    flips: ClassVar[Flips] = ()


Move = Open | Play | Replay | Steal | Reveal | Draw | Exchange


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    target: int
    round: int = 1
    starter: int = 0
    phase: str = "opening"  # opening | play | over
    turn: int = 0  # index of the player to act
    turn_no: int = 1  # counts turns over the match (for U3)
    chained: bool = False  # the player to act just succeeded and acts again
    deck: int = 0
    grid: dict[str, str] = field(default_factory=dict)  # position -> type key, UNKNOWN or HOLE
    hands: dict[str, int] = field(default_factory=dict)
    zones: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # (type, turn_no)
    won: dict[str, list[str]] = field(default_factory=dict)
    discard: list[str] = field(default_factory=list)
    drew_last: dict[str, bool] = field(default_factory=dict)  # previous turn was case 4
    last_turn: dict[str, int] = field(default_factory=dict)  # turn_no of each one's latest turn
    final: tuple[str, ...] | None = None  # deck out: who still takes a final turn
    ledger: list[ScoreItem] = field(default_factory=list)
    outcome: Outcome | None = None

    @property
    def current(self) -> str:
        return self.players[self.turn]


def deal(state: Draft) -> None:
    """A new round: 9 face-down grid cards, 3 cards to each hand, empty piles."""
    total = sum(t.count for t in card_types())
    n = len(state.players)
    state.deck = total - len(POSITIONS) - HAND * n
    state.grid = dict.fromkeys(POSITIONS, UNKNOWN)
    state.hands = dict.fromkeys(state.players, HAND)
    state.zones = {p: [] for p in state.players}
    state.won = {p: [] for p in state.players}
    state.discard = []
    state.drew_last = dict.fromkeys(state.players, False)
    state.final = None
    state.phase = "opening"
    state.turn = state.starter
    state.chained = False
    state.last_turn[state.current] = state.turn_no


def read_flips(args: Sequence[str], n: int, example: str) -> tuple[tuple[str, str], ...]:
    if len(args) != n:
        raise InvalidMove(f"expected {n} grid card{'s' if n > 1 else ''} as <position>=<type>, "
                          f"e.g. '{example}'")
    out = []
    for arg in args:
        m = re.fullmatch(r"([a-c][1-3])=(\S+)", arg)
        if not m:
            raise InvalidMove(f"{arg!r} is not <position>=<type> (positions a1..c3, "
                              f"e.g. '{example}')")
        out.append((m.group(1), card_type(m.group(2)).key))
    return tuple(out)


def violation(rule: str, reason: str) -> Violation:
    return Violation(RULES[rule], reason)
