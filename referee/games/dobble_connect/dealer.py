"""Dobble Connect's dealer for simulations: every player's shuffled pile.

Dobble Connect is played in real time: everyone looks for a place for the top card of their
pile at once. A simulation cannot race, so at each step a random team acts (uniformly among the
teams), through a random member still holding cards, with the top card of that member's pile.
Rival cards received in a catch-up transfer are chosen at random among those not lent already.
"""

from __future__ import annotations

import random
from typing import Any

from referee.dealing import Choice, Dealer, Take, Turn
from referee.engine import Game
from referee.games.dobble_connect.model import Place, State, around


class DobbleConnectDealer(Dealer):
    note = ("real-time game: simulated by letting a random team act at each step (its member's "
            "top card, placed where the bot chooses)")

    def __init__(self, rules: Game, state: State, rng: random.Random):
        super().__init__(rules, state, rng)
        self.deck = rules.deck
        self.held: dict[str, list[int]] = {t: [] for t in state.teams}  # rival cards received
        self.colours = tuple(state.teams)  # colours no team plays are not in this game
        self._piles(state)
        self.turned = set(self.piles)  # whose top card is turned: the deal's, at first

    def _piles(self, state: State) -> None:
        """A new round: each team takes back its colour (less what rivals hold) and what it
        received, shuffled and dealt among its members."""
        lent = {c for cards in self.held.values() for c in cards}
        self.piles: dict[str, list[int]] = {}
        for team, members in state.teams.items():
            cards = [c for c, col in sorted(self.deck.colors.items())
                     if col == team and c not in lent] + list(self.held[team])
            self.rng.shuffle(cards)
            for k, p in enumerate(members):
                self.piles[p] = cards[k::len(members)]
        self.turned: set[str] = set()

    @classmethod
    def chance_cards(cls, rules: Game) -> list[int]:
        return sorted(rules.deck.colors)

    def card_text(self, card: int) -> str:
        return f"#{card}"

    def takes(self, state: State, choice: Choice | None = None, after: Any = None
              ) -> list[Take]:
        """Each pile's next top card, seen by its holder when they turn it."""
        if choice is not None or state.outcome is not None:
            return []
        return [Take("piles", (p,), key=p) for p in sorted(self.piles)
                if self.piles[p] and p not in self.turned]

    def turn(self, state: State) -> Turn | None:
        if state.outcome is not None:
            return None
        self.turned = {p for p, pile in self.piles.items() if pile}
        teams = [t for t, members in state.teams.items()
                 if any(self.piles[p] for p in members)]
        team = self.rng.choice(teams)
        who = self.rng.choice([p for p in state.teams[team] if self.piles[p]])
        card = self.piles[who][-1]
        free = {h for at in state.board for h in around(at)} - set(state.board)
        choices = []
        for at, against in sorted(state.board.items()):
            (symbol,) = sorted(self.deck.symbols[card] & self.deck.symbols[against])[:1]
            choices += [Choice(Place(who, card, against, symbol, h))
                        for h in around(at) if h in free]
        return Turn(who, choices)

    def moved(self, before: State, move: Any, after: State) -> None:
        if not isinstance(move, Place):
            return
        self.piles[move.player].pop()
        self.turned.discard(move.player)
        team = before.team_of(move.player)
        if move.card in self.held[team]:
            self.held[team].remove(move.card)
        if after.round == before.round:
            return
        winner = next((t for t in after.teams if after.points[t] > before.points[t]), None)
        if winner is not None:  # the catch-up transfer, as the referee counted it
            for rival in after.teams:
                got = after.received[winner].get(rival, 0) - before.received[winner].get(rival, 0)
                lent = {c for cards in self.held.values() for c in cards}
                spare = [c for c, col in sorted(self.deck.colors.items())
                         if col == rival and c not in lent]
                self.held[winner] += self.rng.sample(spare, got)
        self._piles(after)

    def resample(self, state: State, player: str, rng: random.Random) -> None:
        """Every face-down pile card dealt again, keeping the top card the player has turned.
        What stands on the board is public, so each colour's cards left are known; which of
        them a rival team received in a catch-up, and in what order each pile lies, is not.
        Every pile keeps its size and every team the number of each colour it holds."""
        top = self.piles[player].pop() if self.piles[player] else None
        colour = self.deck.colors
        by_colour: dict[str, list[int]] = {}
        for pile in self.piles.values():
            for c in pile:
                by_colour.setdefault(colour[c], []).append(c)
        for cards in by_colour.values():  # sorted: the order they lay in says nothing
            cards.sort()
            rng.shuffle(cards)
        for team, members in state.teams.items():
            cards = [c for p in members for c in self.piles[p]]
            counts = {col: sum(colour[c] == col for c in cards) for col in by_colour}
            dealt = [by_colour[col].pop() for col, n in sorted(counts.items()) for _ in range(n)]
            rng.shuffle(dealt)
            for p in members:
                n = len(self.piles[p])
                self.piles[p], dealt = dealt[:n], dealt[n:]
            kept = [top] if top is not None and player in members else []
            held = [c for p in members for c in self.piles[p]] + kept
            self.held[team] = [c for c in held if colour[c] != team]
        if top is not None:
            self.piles[player].append(top)

    def sees(self, state: State, player: str) -> str:
        pile = self.piles[player]
        return f"top card: #{pile[-1]}" if pile else "no cards"

    def starts_turn(self, before: State, move: Any) -> bool:
        return True  # no turns in real time: every placement counts as one

    def no_winner(self, before: State, move: Any, after: State) -> bool:
        return after.round != before.round and after.restart

    def cards(self, before: State, move: Any) -> list[str]:
        if not isinstance(move, Place):
            return []
        return [f"#{move.card} {self.deck.colors[move.card]}"]

    def all_cards(self) -> list[str]:
        return [f"#{c} {col}" for c, col in sorted(self.deck.colors.items())
                if col in self.colours]


DEALER = DobbleConnectDealer
