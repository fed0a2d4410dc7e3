"""Seat One: a rigged test game where the first seat always wins, to check the simulator's
win rates and intervals against a known answer.

Players in turn take 1 or 2 chips; after three turns each the game ends and, whatever was taken,
the first seat is declared the winner (the score is the chips taken, so scores still vary).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from referee.engine import InvalidMove, Outcome, RuleRef, Rules, ScoreItem, Violation

RULES = {"R1": RuleRef("R1", "take 1 or 2 chips, in seating order, three turns each")}


@dataclass(frozen=True)
class Take:
    player: str
    chips: int


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    turn: int = 0
    ledger: tuple[ScoreItem, ...] = ()


class SeatOne(Rules[State, Take]):
    name = "seat-one"
    title = "Seat One (rigged)"
    min_players, max_players = 2, 4
    rules = RULES

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> State:
        return State(tuple(players))

    def parse(self, state: State, text: str, player: str | None = None) -> Take:
        if text.strip() not in ("1", "2"):
            raise InvalidMove(f"take 1 or 2, not {text!r}")
        return Take(player or self.to_move(state), int(text))

    def format(self, state: State, move: Take) -> str:
        return str(move.chips)

    def violations(self, state: State, move: Take) -> list[Violation]:
        out = []
        if self.outcome(state) is not None:
            out.append(Violation(RULES["R1"], "the game is over"))
        if move.player != self.to_move(state):
            out.append(Violation(RULES["R1"], f"it is {self.to_move(state)}'s turn"))
        return out

    def transition(self, state: State, move: Take) -> tuple[State, list[str]]:
        return replace(state, turn=state.turn + 1, ledger=state.ledger + (
            ScoreItem(move.player, move.chips, "chips"),)), []

    def legal_moves(self, state: State) -> list[Take]:
        if self.outcome(state) is not None:
            return []
        return [Take(self.to_move(state), k) for k in (1, 2)]

    def to_move(self, state: State) -> str | None:
        return state.players[state.turn % len(state.players)]

    def outcome(self, state: State) -> Outcome | None:
        if state.turn < 3 * len(state.players):
            return None
        return Outcome((state.players[0],), "rigged: the first seat always wins")

    def show(self, state: State) -> str:
        return f"turn {state.turn}"


GAME = SeatOne()
