"""Tripple Domino's dealer for simulations: the shuffled tiles, the hands, the reserve order.

The referee tracks the board and the counts; the dealer knows which tiles each hand holds and
which tile lies on top of the reserve. Drawing is two decisions, as at the table: a player
decides to draw (worth the draw penalty), looks at the tile, then keeps it or places it.
"""

from __future__ import annotations

import random
from collections import defaultdict
from functools import cache
from itertools import product
from typing import Any

from referee.dealing import Choice, Dealer, Take, Turn
from referee.engine import Game
from referee.games.tripple_domino.board import corners, edge_neighbours
from referee.games.tripple_domino.model import (
    Draw,
    End,
    Pass,
    Place,
    Start,
    State,
    Tile,
    capped,
    name,
    rotations,
    strength,
    tiles,
    to_tell,
)

DRAW = "draw"


@cache
def _fitting() -> dict[tuple[int | None, ...], list[tuple[Tile, Tile]]]:
    """(tile, reading) for every reading of every tile (D4: rotations only) by the corner
    numbers it fits, None for a free corner: one look-up per free cell instead of a check per
    tile and rotation."""
    out: dict[tuple[int | None, ...], list[tuple[Tile, Tile]]] = defaultdict(list)
    for t in sorted(tiles()):
        for r in rotations(t):
            for free in product((False, True), repeat=3):  # each corner known or free
                out[tuple(None if f else v for f, v in zip(free, r, strict=True))].append((t, r))
    return dict(out)  # the intent: draw a tile and look at it


class TrippleDominoDealer(Dealer):
    def __init__(self, rules: Game, state: State, rng: random.Random):
        super().__init__(rules, state, rng)
        self.peeked = False
        self._deal(state)

    def _deal(self, state: State) -> None:
        self._shuffle(state)
        self._deal_hands(state)

    def _shuffle(self, state: State) -> None:
        """A round's tiles, shuffled into the reserve; the hands are dealt from it next."""
        self.reserve: list[Tile] = sorted(tiles())  # the top is the end of the list
        self.rng.shuffle(self.reserve)
        self.hands: list[list[Tile]] = [[] for _ in state.players]
        self.dealing = True
        self.peeked = False

    def _deal_hands(self, state: State) -> None:
        size = state.rules.hands[len(state.players)]
        self.hands = [[self.reserve.pop() for _ in range(size)] for _ in state.players]
        self.dealing = False

    @classmethod
    def chance_cards(cls, rules: Game) -> list[Tile]:
        return sorted(tiles())

    def card_text(self, card: Tile) -> str:
        return name(card)

    def takes(self, state: State, choice: Choice | None = None, after: Any = None
              ) -> list[Take]:
        """A later round's hands, the solitaire's opening tile, the tile a player draws."""
        if choice is not None:
            who = self.rules.to_move(state)
            return [Take("reserve", (who,))] if choice.intent == DRAW else []
        size = state.rules.hands[len(state.players)] if self.dealing else 0
        out = [Take("reserve", (p,)) for p in state.players for _ in range(size)]
        if state.phase == "start" and len(state.players) == 1:
            out.append(Take("reserve", state.players))
        return out

    def turn(self, state: State) -> Turn | None:
        if state.phase == "over":
            return None
        if self.dealing:
            self._deal_hands(state)
        if state.phase == "start":
            return Turn(None, [Choice(self._start(state))])
        if state.phase == "end":
            told = tuple((p, tuple(sorted(self.hands[state.index(p)])))
                         for p in to_tell(state))
            return Turn(None, [Choice(End(told))])
        who = self.rules.to_move(state)
        if self.peeked:
            top = self.reserve[-1]
            return Turn(who, [Choice(Draw(who))] + [Choice(m) for m in
                                                    self._placements(state, who, [top], True)])
        can_draw = state.reserve > 0 and not capped(state) and state.draws < 3
        choices: list[Choice] = []
        if not state.draws:
            hand = self.hands[state.index(who)]
            choices += [Choice(m) for m in self._placements(state, who, hand, False)]
        if can_draw:
            choices.append(Choice(intent=DRAW, worth=float(state.rules.draw)))
        elif not state.draws:
            choices.append(Choice(Pass(who)))
        return Turn(who, choices)

    def _start(self, state: State) -> Start:
        if len(state.players) == 1:  # solitaire: the reserve's top tile opens
            return Start(state.players[0], self.reserve[-1])
        best = [max(h, key=strength) for h in self.hands]
        opener = max(range(len(best)), key=lambda i: strength(best[i]))
        claims = tuple((p, best[i]) for i, p in enumerate(state.players) if i != opener)
        return Start(state.players[opener], best[opener], claims)

    def _placements(self, state: State, who: str, hand: list[Tile], drawn: bool) -> list[Place]:
        """Every way a tile of `hand` fits the board: next to a tile, numbers matching."""
        spots = sorted({c for cell in state.board for c in edge_neighbours(cell)}
                       - set(state.board))
        held = set(hand)
        fitting, number = _fitting(), state.numbers.get
        out = []
        for cell in spots:
            a, b, c = corners(cell)
            out += [Place(who, t, cell, r, drawn)
                    for t, r in fitting.get((number(a), number(b), number(c)), ()) if t in held]
        return out

    def commit(self, state: State, intent: Any) -> None:
        self.peeked = True

    def moved(self, before: State, move: Any, after: State) -> None:
        if isinstance(move, Start):
            if len(before.players) == 1:
                self.reserve.pop()
            else:
                self.hands[before.index(move.player)].remove(move.tile)
        elif isinstance(move, Place):
            if move.drawn:
                self.reserve.pop()
            else:
                self.hands[before.index(move.player)].remove(move.tile)
        elif isinstance(move, Draw):
            self.hands[before.index(move.player)].append(self.reserve.pop())
        self.peeked = False
        if isinstance(move, End) and after.phase == "start":
            self._shuffle(after)  # the hands are dealt at the next turn: draws to chance

    def sees(self, state: State, player: str) -> str:
        hand = " ".join(name(t) for t in sorted(self.hands[state.index(player)]))
        looked = self.peeked and self.rules.to_move(state) == player
        return f"hand: {hand}" + (f"; drawn: {name(self.reserve[-1])}" if looked else "")

    def resample(self, state: State, player: str, rng: random.Random) -> None:
        me = state.index(player)
        known = self.reserve.pop() if self.peeked and self.rules.to_move(state) == player \
            else None  # the tile they drew and looked at
        others = [i for i in range(len(self.hands)) if i != me]
        unseen = self.reserve + [t for i in others for t in self.hands[i]]
        rng.shuffle(unseen)
        for i in others:
            n = len(self.hands[i])
            self.hands[i], unseen = unseen[:n], unseen[n:]
        self.reserve = unseen + ([known] if known is not None else [])

    def no_winner(self, before: State, move: Any, after: State) -> bool:
        return isinstance(move, End) and before.out is None  # blocked: nobody went out

    def cards(self, before: State, move: Any) -> list[str]:
        return [name(move.tile)] if isinstance(move, Place | Start) else []

    def all_cards(self) -> list[str]:
        return [name(t) for t in sorted(tiles())]


DEALER = TrippleDominoDealer
