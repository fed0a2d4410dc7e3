"""Thricewise's dealer for simulations: the shuffled Decktet, the hands, the face-down picks.

The referee sees the grid, each reveal and each placement; the dealer also knows the deck order
and the hands. Each player picks a hand card face down (in any-turn mode a deferred card may be
picked instead); when everyone has picked, the table reveals them together.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from referee.dealing import Choice, Dealer, Take, Turn
from referee.engine import Game
from referee.games.thricewise.decktet import card_by_id, deck
from referee.games.thricewise.model import (
    Grid,
    Place,
    Reveal,
    State,
    grid_shape,
    legal_cells,
    score_placement,
)


class ThricewiseDealer(Dealer):
    def __init__(self, rules: Game, state: State, rng: random.Random):
        super().__init__(rules, state, rng)
        self.deck = [c.id for c in deck()]
        rng.shuffle(self.deck)
        self.hands: list[list[int]] = [[] for _ in state.players]
        self.picks: dict[str, int] = {}

    def turn(self, state: State) -> Turn | None:
        if state.phase == "over":
            return None
        if state.phase == "grid":
            rows, cols = grid_shape(len(state.players))
            grid = tuple(tuple(self.deck.pop() for _ in range(cols)) for _ in range(rows))
            return Turn(None, [Choice(Grid(grid))])
        if state.phase == "reveal":
            for i, p in enumerate(state.players):
                if state.hands[i] and p not in self.picks:
                    options = list(self.hands[i])
                    if state.mode == "any-turn":  # not a rank another player holds deferred:
                        taken = {card_by_id(c).value for j, d in enumerate(state.deferred)
                                 if j != i for c in d}  # it would be deferred again, forever
                        options += [c for c in state.deferred[i]
                                    if card_by_id(c).value not in taken]
                    return Turn(p, [Choice(intent=(p, c), worth=partial(self._best, state, c))
                                    for c in options])
            plays = tuple((p, self.picks[p]) for p in state.players if p in self.picks)
            return Turn(None, [Choice(Reveal(plays))])
        moves = self.rules.legal_moves(state)
        return Turn(self.rules.to_move(state), [Choice(m, listed=True) for m in moves])

    @classmethod
    def chance_cards(cls, rules: Game) -> list[int]:
        return [c.id for c in deck()]

    def card_text(self, card: int) -> str:
        return card_by_id(card).name

    def takes(self, state: State, choice: Choice | None = None, after: Any = None
              ) -> list[Take]:
        """The grid (face up), then the hands and each refill (seen by their holder)."""
        if choice is None:
            if state.phase != "grid":
                return []
            rows, cols = grid_shape(len(state.players))
            return [Take("deck", state.players)] * (rows * cols)
        if after is None:
            return []
        played = dict(choice.move.plays) if isinstance(choice.move, Reveal) else {}
        out = []
        for i, (p, hand) in enumerate(zip(state.players, self.hands, strict=True)):
            kept = len(hand) - (played.get(p) in hand)
            out += [Take("deck", (p,))] * max(0, after.hands[i] - kept)
        return out

    def _best(self, state: State, card: int) -> float:
        """The most the card could score if it were placed now (what greedy reveals for)."""
        cells = state.cells
        best = 0
        for cell in legal_cells(cells):
            here = {**cells, cell: card}
            best = max(best, sum(i.points for i in score_placement(here, cell, "")))
        return float(best)

    def commit(self, state: State, intent: Any) -> None:
        player, card = intent
        self.picks[player] = card

    def moved(self, before: State, move: Any, after: State) -> None:
        if isinstance(move, Grid):
            for hand in self.hands:
                hand.extend(self.deck.pop() for _ in range(3))
        if isinstance(move, Reveal):
            for p, c in move.plays:
                hand = self.hands[before.index(p)]
                if c in hand:
                    hand.remove(c)
            self.picks.clear()
        for i, hand in enumerate(self.hands):  # the referee counted the draws
            while len(hand) < after.hands[i]:
                hand.append(self.deck.pop())

    def sees(self, state: State, player: str) -> str:
        hand = ", ".join(card_by_id(c).name for c in sorted(self.hands[state.index(player)]))
        pick = self.picks.get(player)
        return f"hand: {hand}" + (f"; picked: {card_by_id(pick).name}" if pick else "")

    def intent_text(self, intent: Any) -> str:
        player, card = intent
        return f"{player} picks {card_by_id(card).name} face down"

    def resample(self, state: State, player: str, rng: random.Random) -> None:
        me = state.index(player)
        others = [i for i in range(len(self.hands)) if i != me]
        unseen = self.deck + [c for i in others for c in self.hands[i]]
        rng.shuffle(unseen)
        for i in others:
            n = len(self.hands[i])
            self.hands[i], unseen = unseen[:n], unseen[n:]
            who = state.players[i]
            if who in self.picks and self.picks[who] not in state.deferred[i]:
                self.picks[who] = rng.choice(self.hands[i])  # a face-down pick: any of them
        self.deck = unseen

    def starts_turn(self, before: State, move: Any) -> bool:
        return isinstance(move, Reveal)  # a turn: everyone reveals, then the cards are placed

    def cards(self, before: State, move: Any) -> list[str]:
        return [card_by_id(move.card).name] if isinstance(move, Place) else []

    def all_cards(self) -> list[str]:
        return [c.name for c in deck()]


DEALER = ThricewiseDealer
