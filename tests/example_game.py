"""First to Ten: the smallest complete referee game, the one docs/explanation/architecture.md walks through.

Players in turn add 1 up to `step` (an option, 3 by default) to their score; the first to reach
10 wins. It lives in the tests: tests/test_game_contract.py registers it and checks it like the
bundled games. A real game is this file in referee/games/ (or a package there).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from referee.engine import (
    InvalidMove,
    Option,
    Outcome,
    RefereeError,
    RuleRef,
    Rules,
    Sample,
    ScoreItem,
    Violation,
    find_player,
    totals,
)

GOAL = 10
RULES = {
    "C1": RuleRef("C1", "add 1 up to the largest step (option step)"),
    "C2": RuleRef("C2", "players add in seating order"),
    "C3": RuleRef("C3", f"the first to reach {GOAL} wins; then the game is over"),
}


# state and moves: frozen values


@dataclass(frozen=True)
class Add:
    player: str
    amount: int


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    step: int
    turn: int = 0
    ledger: tuple[ScoreItem, ...] = ()


class FirstToTen(Rules[State, Add]):
    name = "first-to-ten"
    title = "First to Ten"
    min_players, max_players = 2, 4
    options = (Option("step", "3", "the largest number a player may add", ("2", "3")),)
    rules = RULES
    notation = "a number, e.g. 2 (ana adds 2)"
    sample = Sample(("ana", "bob"), ("3", "2", "ana: 1"))

    # setup

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> State:
        return State(tuple(players), int(options.get("step", "3")))

    # notation

    def parse(self, state: State, text: str, player: str | None = None) -> Add:
        if not (text.strip().isascii() and text.strip().isdigit()):  # "²".isdigit() is True
            raise InvalidMove(f"expected a number, got {text!r}")
        return Add(player or self.to_move(state), int(text))

    def format(self, state: State, move: Add) -> str:
        return str(move.amount)

    # rules

    def violations(self, state: State, move: Add) -> list[Violation]:
        out = []
        if self.outcome(state) is not None:
            out.append(Violation(RULES["C3"], "the game is over"))
        if move.player != self.to_move(state):
            out.append(Violation(RULES["C2"], f"it is {self.to_move(state)}'s turn"))
        if not 1 <= move.amount <= state.step:
            out.append(Violation(RULES["C1"], f"{move.amount} is not 1-{state.step}"))
        return out

    def transition(self, state: State, move: Add) -> tuple[State, list[str]]:
        after = replace(state, turn=(state.turn + 1) % len(state.players),
                        ledger=state.ledger + (ScoreItem(move.player, move.amount, "added"),))
        won = self.outcome(after)
        return after, [f"{won.winners[0]} reaches {GOAL}"] if won else []

    def legal_moves(self, state: State) -> list[Add]:
        if self.outcome(state) is not None:
            return []
        return [Add(self.to_move(state), k) for k in range(1, state.step + 1)]

    # the position

    def to_move(self, state: State) -> str | None:
        return state.players[state.turn]


    def outcome(self, state: State) -> Outcome | None:
        best = [p for p, v in totals(state.ledger, state.players).items() if v >= GOAL]
        return Outcome((best[0],), f"first to {GOAL}") if best else None

    def show(self, state: State) -> str:
        scores = ", ".join(f"{p} {v}" for p, v in totals(state.ledger, state.players).items())
        return f"{scores}\nto move: {self.to_move(state)}"

    # disputes: positions typed in, questions, secrets

    def position(self, state: State) -> str:
        tot = totals(state.ledger, state.players)
        return f"turn {self.to_move(state)}\n" + "\n".join(f"score {p} {tot[p]}" for p in tot)

    def load_position(self, state: State, text: str) -> State:
        from referee.position import read_lines

        for line in read_lines(text, {"turn": 1, "score": 2}):
            with line.reading():
                if line.key == "turn":
                    state = replace(state, turn=state.players.index(
                        find_player(state.players, line.args[0])))
                else:
                    who, points = find_player(state.players, line.args[0]), line.number(1)
                    if points >= GOAL:
                        raise RefereeError(f"{who} would have won already")
                    state = replace(state, ledger=state.ledger + (
                        (ScoreItem(who, points, "set up"),) if points else ()))
        return state


GAME = FirstToTen()
