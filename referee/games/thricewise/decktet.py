"""The basic Decktet (docs/reference/rules.md §2) as the referee reads it: cards from templates/decktet
(through the referee's memo of the definition), found by name, rank and suits, or printed id.

Any Decktet game can use it; nothing here knows Thricewise.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache

from referee.engine import AmbiguousMove, InvalidMove

SUITS = ("moons", "suns", "waves", "leaves", "wyrms", "knots")
_SUIT_WORDS = {s: s for s in SUITS} | {s[:-1]: s for s in SUITS} | {"leaf": "leaves"}
_RANK_WORDS = {"ace": 1, "a": 1, "crown": 10, "c": 10} | {str(n): n for n in range(1, 11)}


@dataclass(frozen=True)
class DCard:
    """A basic Decktet card as the referee needs it (read from the generator's definition)."""

    id: int
    name: str
    rank: str
    value: int
    suits: tuple[str, ...]

    @property
    def short(self) -> str:
        return {1: "A", 10: "C"}.get(self.value, str(self.value))

    @property
    def label(self) -> str:
        """Name and rank, e.g. 'Journey (3)'."""
        return f"{self.name} ({self.rank})"


@lru_cache(maxsize=1)
def deck() -> tuple[DCard, ...]:
    """The 36 basic cards, from templates/decktet through the referee's memo of the definition
    (read lazily: startup stays light). The basic cards are the ranked ones, Ace to Crown; the
    extended cards (Excuse, Pawns, Courts) have no value and take no part in Thricewise."""
    from referee.components import cards

    fields = ("name", "rank", "value", "suit1", "suit2", "suit3")
    return tuple(
        DCard(i, f["name"], f["rank"], int(f["value"]),
              tuple(s for s in (f["suit1"], f["suit2"], f["suit3"]) if s))
        for i, f in cards("decktet", fields) if f["value"]
    )


def card_by_id(card_id: int) -> DCard:
    return _by_id()[card_id]


@lru_cache(maxsize=1)
def _by_id() -> dict[int, DCard]:
    return {c.id: c for c in deck()}


def find_card(text: str) -> DCard:
    """A card by Decktet name ('Journey'), rank and suits ('3 Moons Waves', 'Ace of Moons')
    or printed id ('#10'). Ambiguous ranks ('3') say which cards they could be."""
    words = [w for w in text.replace("/", " ").replace("+", " ").lower().split() if w != "of"]
    if not words:
        raise InvalidMove("expected a card: a Decktet name (Journey) or rank and suits "
                          "(3 Moons Waves, Ace Moons)")
    key = " ".join(words)
    if key.startswith("#") and key[1:].isdigit():
        found = _by_id().get(int(key[1:]))
        if found is None:
            raise InvalidMove(f"no basic Decktet card #{key[1:]} (ids 1-36)")
        return found
    for c in deck():
        if " ".join(w for w in c.name.lower().split() if w != "of") == key:
            return c
    if words[0] in _RANK_WORDS and all(w in _SUIT_WORDS for w in words[1:]):
        value = _RANK_WORDS[words[0]]
        suits = {_SUIT_WORDS[w] for w in words[1:]}
        hits = [c for c in deck() if c.value == value and suits <= set(c.suits)]
        if len(hits) == 1:
            return hits[0]
        if hits:
            names = ", ".join(f"{c.name} ({' '.join(c.suits)})" for c in hits)
            raise AmbiguousMove(f"{text!r} could be {names}: add a suit or use the name",
                                [c.name for c in hits])
        raise InvalidMove(f"no basic Decktet card of rank {words[0]} with suits "
                          f"{' '.join(sorted(suits))}")
    names = {c.name.lower(): c.name for c in deck()}
    close = difflib.get_close_matches(key, list(names), n=1, cutoff=0.75)
    hint = f"did you mean {names[close[0]]}? " if close else ""
    raise InvalidMove(f"unknown card {text!r}: {hint}expected a Decktet name (Journey, Chance "
                      "Meeting) or rank and suits (3 Moons Waves, Ace Moons, Crown Suns)")


def parse_cards(text: str) -> list[DCard]:
    """Cards separated by commas or spaces; multi-word names are read longest first."""
    out: list[DCard] = []
    for piece in text.split(","):
        words = piece.split()
        i = 0
        while i < len(words):
            for j in range(min(len(words), i + 4), i, -1):
                try:
                    out.append(find_card(" ".join(words[i:j])))
                except (InvalidMove, AmbiguousMove):
                    if j == i + 1:
                        raise
                    continue
                i = j
                break
    return out
