"""Coda's dealer for simulations: the face-down pool and every tile standing in the rows.

The referee knows colours, revealed tiles and announced answers; the dealer knows what every
hidden tile is, so it answers each guess truly. Bots guess from the referee's own public
deduction (deduction.guesses): a guess names a tile the public information still allows, and
greedy prefers the tile with the fewest possibilities (keeping on after a hit only while a
guess is more likely right than wrong).
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from referee.dealing import Choice, Dealer, Take, Turn
from referee.engine import Game, RefereeError
from referee.games.coda import deduce, deduction
from referee.games.coda.model import (
    Deal,
    Draw,
    Expose,
    Guess,
    Place,
    State,
    Stop,
    Tally,
    colour_of,
    tile_name,
    tile_set,
    value_word,
)


class CodaDealer(Dealer):
    choices_answer = True  # a guess carries its true answer: dealt again with the tiles

    def __init__(self, rules: Game, state: State, rng: random.Random):
        super().__init__(rules, state, rng)
        if state.sealed:
            raise RefereeError("simulate plays coda without seals (sealed=no)", "--option sealed")
        self.truth: dict[int, int] = {}  # slot id -> tile
        self.drawn: int | None = None
        self._fill_pool(state)

    def _fill_pool(self, state: State) -> None:
        self.pool = [t for t in tile_set() if state.advanced or not deduce.is_dash(t)]
        self.rng.shuffle(self.pool)
        self.rows: dict[str, list[int]] = {}  # dealt this round, before they stand in the row

    def turn(self, state: State) -> Turn | None:
        if state.phase == "over":
            return None
        if state.phase in ("deal", "closed"):
            return Turn(None, [Choice(self._deal(state))])
        me = self.rules.to_move(state)
        if state.phase == "tally":
            row = state.row(me)
            values = tuple(value_word(self.truth[s.id]) for s in row if s.tile is None)
            return Turn(None, [Choice(Tally(values, me))])
        if state.phase == "draw":
            return Turn(me, [Choice(Draw(c, me)) for c in (0, 1) if state.pool[c]])
        if state.phase == "stop":
            return Turn(me, [Choice(Stop(self._slot_for(state, me), "", me))])
        if state.phase == "place":
            return Turn(me, [Choice(Place(value_word(self.drawn), self._slot_for(state, me),
                                          me))])
        if state.phase == "expose":
            return Turn(me, [Choice(Expose(k, value_word(self.truth[s.id]), me))
                             for k, s in enumerate(state.row(me), start=1) if s.tile is None])
        return Turn(me, self._guesses(state, me))

    @classmethod
    def chance_cards(cls, rules: Game) -> tuple[int, ...]:
        return tile_set()

    def card_text(self, card: int) -> str:
        return tile_name(card)

    def takes(self, state: State, choice: Choice | None = None, after: Any = None
              ) -> list[Take]:
        """A row's tiles, seen by its player as they are dealt; a drawn tile of the colour
        asked for, seen by its drawer."""
        if choice is None:
            if state.phase not in ("deal", "closed"):
                return []
            p = self._to_deal(state)
            return [Take("pool", (p,))] * (3 if len(state.players) == 4 else 4)
        if isinstance(choice.move, Draw):
            return [Take("pool", (state.to_play,), kind=choice.move.colour)]
        return []

    def fits(self, take: Take, card: int) -> bool:
        return take.kind is None or colour_of(card) == take.kind

    def _to_deal(self, state: State) -> str:
        return next(p for p, d in zip(state.players, state.dealt, strict=True)
                    if not d or state.phase == "closed")

    def _deal(self, state: State) -> Deal:
        p = self._to_deal(state)
        size = 3 if len(state.players) == 4 else 4
        tiles = [self.pool.pop() for _ in range(size)]
        row = sorted(t for t in tiles if not deduce.is_dash(t))
        for t in tiles:  # a dash may stand anywhere
            if deduce.is_dash(t):
                row.insert(self.rng.randrange(len(row) + 1), t)
        self.rows[p] = row
        return Deal(p, tuple(colour_of(t) for t in row))

    def _guesses(self, state: State, me: str) -> list[Choice]:
        """One guess per (target, position, tile) the public information allows, answered
        truly; worth: chance right minus chance wrong (a miss reveals the drawn tile)."""
        named: dict[tuple[str, int], list[int]] = defaultdict(list)
        for target, k, tile, hit in deduction.guesses(state, me):
            if hit:
                named[(target, k)].append(tile)
        out = []
        for (target, k), tiles in named.items():
            truth = self.truth[state.row(target)[k - 1].id]
            p = 1 / len(tiles)
            for tile in tiles:
                out.append(Choice(Guess(target, k, value_word(tile), tile == truth, me),
                                  worth=2 * p - 1, listed=True))
        if state.hits:  # after a hit: stop, the drawn tile going hidden into its place
            at = self._slot_for(state, me) if self.drawn is not None else None
            out.append(Choice(Stop(at, "", me), worth=0.0))
        return out

    def _slot_for(self, state: State, me: str) -> int:
        """Where the drawn tile stands in the row (the order rule, with what the tiles are)."""
        tile = self.drawn
        row = [self.truth[s.id] for s in state.row(me)]
        if deduce.is_dash(tile):
            return self.rng.randrange(len(row) + 1) + 1
        for k in range(len(row) + 1):
            left = [t for t in row[:k] if not deduce.is_dash(t)]
            right = [t for t in row[k:] if not deduce.is_dash(t)]
            if all(t < tile for t in left) and all(t > tile for t in right):
                return k + 1
        raise AssertionError("no place keeps the row in order")

    def moved(self, before: State, move: Any, after: State) -> None:
        if isinstance(move, Deal):
            row = after.row(move.player)
            for slot, tile in zip(row, self.rows.pop(move.player), strict=True):
                self.truth[slot.id] = tile
        elif isinstance(move, Draw):
            tile = next(t for t in reversed(self.pool) if colour_of(t) == move.colour)
            self.pool.remove(tile)
            self.drawn = tile
        elif isinstance(move, Stop | Place) and move.position is not None:
            me = before.to_play
            self.truth[after.row(me)[move.position - 1].id] = self.drawn
            self.drawn = None
        if after.phase == "closed" and self.truth:  # the next round's pool, to deal from
            self.truth.clear()
            self._fill_pool(after)

    def sees(self, state: State, player: str) -> str:
        row = " ".join(value_word(self.truth[s.id]) if s.id in self.truth else "?"
                       for s in state.row(player))
        mine = self.drawn is not None and state.to_play == player
        return f"my row: {row}" + (f"; drawn: {value_word(self.drawn)}" if mine else "")

    def resample(self, state: State, player: str, rng: random.Random) -> None:
        """Every tile the player has not seen dealt again (the other rows' hidden tiles, the
        pool, another player's drawn tile) as the public record allows: colours, the order
        rule, announced misses and revealed tiles. Their own row and drawn tile stay."""
        rows, loose = deduction.problem(state, answers=True)
        rows[state.players.index(player)] = [{self.truth[s.id]} for s in state.row(player)]
        if loose and state.to_play == player:
            loose = [{self.drawn}]
        found = deduce.sample(rows, loose, rng)
        if found is None:  # the true tiles fit, so some arrangement always does
            raise AssertionError("no arrangement fits the public record")
        for row, tiles in zip(state.rows, found[0], strict=True):
            self.truth.update({s.id: t for s, t in zip(row, tiles, strict=True)})
        if loose:
            self.drawn = found[1][0]
        used = {t for tiles in found[0] for t in tiles} | set(found[1])
        self.pool = [t for t in tile_set() if (state.advanced or not deduce.is_dash(t))
                     and t not in used]
        rng.shuffle(self.pool)

    def starts_turn(self, before: State, move: Any) -> bool | None:
        return isinstance(move, Draw) or (isinstance(move, Guess) and before.phase == "guess"
                                           and not before.hits and before.drawn is None
                                           and not sum(before.pool))


DEALER = CodaDealer
