"""What a Duplicon player knows of the cards they exchanged: those went into the deck, so
they can only be where cards have gone from the deck since (a rival's later draws, a grid
place refilled) or in the deck still. A determinisation (DupliconDealer.resample) keeps them
there; without it, it would hand a rival the very cards the player gave back.

Only what the player saw is kept (counts of draws, the places refilled, the cards shown), so
a determinisation still depends on nothing they could not know. A card of a given-back type
that turns up where one could be counts as maybe one of theirs: the constraint only loosens.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass


@dataclass
class GivenBack:
    """Per player, for one round: the cards given back and still unseen, and what has come
    from the deck since they gave them (compared by value: it is part of the hidden side)."""

    cards: dict[str, Counter]
    drawn: dict[str, Counter]  # rival -> cards drawn since
    refilled: dict[str, set[str]]  # grid places refilled since

    @classmethod
    def new(cls, players: tuple[str, ...] | list[str]) -> GivenBack:
        return cls(*({p: kind() for p in players} for kind in (Counter, Counter, set)))

    def exchanged(self, player: str, old: list[str], new: list[str]) -> None:
        self.drew(player, new)
        if not self.cards[player]:  # counted from the first exchange still open
            self.drawn[player].clear()
            self.refilled[player].clear()
        self.cards[player] += Counter(old)

    def drew(self, player: str, cards: list[str]) -> None:
        for p, given in self.cards.items():
            if p == player:
                given -= Counter(cards)  # seen in the own hand: maybe one of those
            else:
                self.drawn[p][player] += len(cards)

    def turned(self, place: str, card: str) -> None:
        """A face-down grid card turned: maybe one given back, if laid since."""
        for p, given in self.cards.items():
            if place in self.refilled[p] and given[card] > 0:
                given[card] -= 1

    def played(self, player: str, card: str) -> None:
        """A hand card played: maybe one given back, if drawn since."""
        for p, given in self.cards.items():
            if p != player and self.drawn[p][player] and given[card] > 0:
                given[card] -= 1

    def refill(self, place: str) -> None:
        for places in self.refilled.values():
            places.add(place)

    def deal(self, player: str, unseen: list[str], sizes: dict[str, int],
             hidden: list[str], rng: random.Random
             ) -> tuple[dict[str, list[str]], dict[str, str], list[str]]:
        """Shuffled `unseen` cards dealt to the rivals' hands (`sizes`), the face-down grid
        places `hidden` and the deck, given-back cards only where they can be."""
        reserved = self.cards[player] & Counter(unseen)
        old_sizes = dict.fromkeys(sizes, 0)
        old_places: set[str] = set()
        old: list[str] = []
        fresh = unseen
        if reserved:
            rest = sorted((Counter(unseen) - reserved).elements())
            rng.shuffle(rest)  # dealt afresh: taking copies out of a shuffle would bias it
            old_sizes = {p: n - min(n, self.drawn[player][p]) for p, n in sizes.items()}
            old_places = {pos for pos in hidden if pos not in self.refilled[player]}
            cut = sum(old_sizes.values()) + len(old_places)
            old, fresh = rest[:cut], rest[cut:] + list(reserved.elements())
            rng.shuffle(fresh)
        hands = {}
        for p, n in sizes.items():
            k = old_sizes[p]
            hands[p] = old[:k] + fresh[:n - k]
            old, fresh = old[k:], fresh[n - k:]
        grid = {pos: old.pop() if pos in old_places else fresh.pop() for pos in hidden}
        return hands, grid, fresh
