"""Duplicon's dealer for simulations: the deck order, the hands and the face-down grid.

The referee knows what the table has seen (flipped grid cards, play zones, piles); the dealer
knows every card, so each flip shows what is really there. A player chooses what to do (play a
hand card on a grid place, steal, reveal two places, draw, exchange) without seeing the face-down
cards: greedy values a pairing attempt by what the table has seen of that place (a seen match
wins the pair; an unseen card matches with the share of that type still unseen).
"""

from __future__ import annotations

import random
from typing import Any

from referee.dealing import Choice, Dealer, Take, Turn
from referee.engine import Game
from referee.games.duplicon.given_back import GivenBack
from referee.games.duplicon.model import (
    HAND,
    HOLE,
    POSITIONS,
    UNKNOWN,
    Draw,
    Exchange,
    Open,
    Play,
    Replay,
    Reveal,
    State,
    Steal,
    card_types,
)


class DupliconDealer(Dealer):
    choices_answer = True  # a flip carries the card really there: dealt again with the cards

    def __init__(self, rules: Game, state: State, rng: random.Random):
        super().__init__(rules, state, rng)
        self._deal(state)

    def _deal(self, state: State) -> None:
        self._shuffle(state)
        self._lay(state)

    def _shuffle(self, state: State) -> None:
        """A round's deck, shuffled; the grid and the hands are dealt from it next."""
        self.deck = [t.key for t in card_types() for _ in range(t.count)]
        self.rng.shuffle(self.deck)
        self.grid = dict.fromkeys(POSITIONS, HOLE)
        self.hands = {p: [] for p in state.players}
        self.laying = True
        self.given_back = GivenBack.new(state.players)

    def _lay(self, state: State) -> None:
        self.grid = {pos: self.deck.pop() for pos in POSITIONS}
        self.hands = {p: [self.deck.pop() for _ in range(HAND)] for p in state.players}
        self.laying = False

    @classmethod
    def chance_cards(cls, rules: Game) -> list[str]:
        return [t.key for t in card_types()]

    def takes(self, state: State, choice: Choice | None = None, after: Any = None
              ) -> list[Take]:
        """A later round's grid (face down) and hands; a pair's or a match's places refilled
        face down; a hand refilled, drawn to or exchanged (seen by its holder)."""
        if choice is None:
            if not self.laying:
                return []
            return [Take("deck")] * len(POSITIONS) + [
                Take("deck", (p,)) for p in state.players for _ in range(HAND)]
        move, left, out = choice.move, len(self.deck), []

        def take(seen: tuple[str, ...], n: int) -> None:
            nonlocal left
            out.extend([Take("deck", seen)] * min(n, left))
            left -= min(n, left)

        if isinstance(move, Open | Reveal):
            (_, ta), (_, tb) = move.flips
            take((), 2 if ta == tb else 0)
        elif isinstance(move, Play | Replay | Steal):
            take((), int(move.flips[0][1] == move.card))
            hand = len(self.hands[move.player]) - isinstance(move, Play)
            take((move.player,), max(0, HAND - hand))
        elif isinstance(move, Draw):
            take((move.player,), 1)
        elif isinstance(move, Exchange):
            take((move.player,), len(self.hands[move.player]))
        return out

    def turn(self, state: State) -> Turn | None:
        if state.phase == "over":
            return None
        if self.laying:
            self._lay(state)
        who = state.current
        places = [pos for pos in POSITIONS if self.grid[pos] != HOLE]
        pairs = [(a, b) for i, a in enumerate(places) for b in places[i + 1:]]
        if state.phase == "opening":
            a, b = self.rng.choice(pairs)
            return Turn(None, [Choice(Open(who, self._shown(a, b)))])
        seen = self._unseen_share(state)
        one = {pos: ((pos, self.grid[pos]),) for pos in places}
        choices = [Choice(Draw(who), worth=0.0), Choice(Exchange(who), worth=0.0)]
        for a, b in pairs:
            known = state.grid[a] == state.grid[b] != UNKNOWN
            choices.append(Choice(Reveal(who, one[a] + one[b]),
                                  worth=2.0 if known and state.deck == 0 else 0.0))
        for card in sorted(set(self.hands[who])):
            choices += [Choice(Play(who, card, one[pos]),
                               worth=self._worth(state, card, pos, seen, -1.0))
                        for pos in places]
        for card in sorted({c for c, _ in state.zones[who]}):
            choices += [Choice(Replay(who, card, one[pos]),
                               worth=self._worth(state, card, pos, seen, 0.0))
                        for pos in places]
        for owner in state.players:
            if owner != who:
                for card in sorted({c for c, _ in state.zones[owner]}):
                    choices += [Choice(Steal(who, owner, card, one[pos]),
                                       worth=self._worth(state, card, pos, seen, 0.0))
                                for pos in places]
        return Turn(who, choices)

    def _shown(self, *positions: str) -> tuple[tuple[str, str], ...]:
        return tuple((pos, self.grid[pos]) for pos in positions)

    def _unseen_share(self, state: State) -> dict[str, float]:
        """Per type, the chance that a face-down card is of it, from what the table has seen."""
        seen = {t.key: 0 for t in card_types()}
        for v in [*state.grid.values(), *state.discard, *(c for w in state.won.values()
                                                            for c in w),
                  *(c for z in state.zones.values() for c, _ in z)]:
            if v in seen:
                seen[v] += 1
        left = {t.key: max(0, t.count - seen[t.key]) for t in card_types()}
        total = sum(left.values()) or 1
        return {k: n / total for k, n in left.items()}

    def _worth(self, state: State, card: str, pos: str, share: dict[str, float],
               miss: float) -> float:
        """Cards won now (2 for a pair), less what a miss costs at the round's end."""
        shown = state.grid[pos]
        p = share[card] if shown == UNKNOWN else float(shown == card)
        return 2 * p + (1 - p) * miss

    def moved(self, before: State, move: Any, after: State) -> None:
        who, known = move.player, self.given_back
        for pos, card in getattr(move, "flips", ()):
            if before.grid[pos] == UNKNOWN:
                known.turned(pos, card)
        if isinstance(move, Open | Reveal):
            (a, ta), (b, tb) = move.flips
            if ta == tb:
                self._take(before, (a, b))
        elif isinstance(move, Play | Replay | Steal):
            pos, shown = move.flips[0]
            if isinstance(move, Play):
                self.hands[who].remove(move.card)
                known.played(who, move.card)
            if shown == move.card:
                self._take(before, (pos,))
            new = [self.deck.pop() for _ in range(min(HAND - len(self.hands[who]),
                                                      len(self.deck)))]
            self.hands[who] += new
            known.drew(who, new)
        elif isinstance(move, Draw):
            self.hands[who].append(self.deck.pop())
            known.drew(who, self.hands[who][-1:])
        elif isinstance(move, Exchange):
            old = self.hands[who]
            self.hands[who] = [self.deck.pop() for _ in old]
            known.exchanged(who, old, self.hands[who])
            self.deck += old
            self.rng.shuffle(self.deck)
        if after.round != before.round:
            self._shuffle(after)  # laid at the next turn: its draws can be chance nodes
        elif len(self.deck) != after.deck:
            raise AssertionError(f"dealer deck {len(self.deck)} != referee deck {after.deck}")

    def _take(self, before: State, positions: tuple[str, ...]) -> None:
        """Grid cards leave; holes are refilled from the deck while it lasts (as the referee)."""
        for pos in positions:
            self.grid[pos] = self.deck.pop() if self.deck else HOLE
            self.given_back.refill(pos)

    def resample(self, state: State, player: str, rng: random.Random) -> None:
        """Every card the player has not seen dealt again: the deck, the other hands and the
        grid cards nobody has turned yet. A grid card the table has seen stays what it is, and
        the cards the player exchanged stay where they can be (given_back.py)."""
        others = [p for p in state.players if p != player]
        hidden = [pos for pos in POSITIONS if state.grid[pos] == UNKNOWN]
        unseen = self.deck + [c for p in others for c in self.hands[p]] + \
            [self.grid[pos] for pos in hidden]
        unseen.sort()  # the order they lay in says nothing: the deal depends on rng alone
        rng.shuffle(unseen)
        hands, grid, self.deck = self.given_back.deal(
            player, unseen, {p: len(self.hands[p]) for p in others}, hidden, rng)
        self.hands.update(hands)
        self.grid.update(grid)

    def sees(self, state: State, player: str) -> str:
        return "hand: " + " ".join(sorted(self.hands[player]))

    def cards(self, before: State, move: Any) -> list[str]:
        return [move.card] if isinstance(move, Play) else []

    def all_cards(self) -> list[str]:
        return [t.key for t in card_types()]


DEALER = DupliconDealer
