"""The scorepad's position as text (disputes: `referee position`, `referee new scorepad
--position FILE`): the round under way and every entry, `score ROUND PLAYER CATEGORY POINTS`."""

from __future__ import annotations

from dataclasses import replace

from referee.engine import RefereeError, ScoreItem
from referee.games.scorepad.model import State


def write_position(state: State) -> str:
    lines = [f"round {state.round}" + (" over" if state.over else "")]
    lines += [f"score {i.round} {i.player} {i.label} {i.points}" for i in state.ledger]
    return "\n".join(lines) + "\n"


def read_position(state: State, text: str) -> State:
    from referee.position import read_lines

    items: list[ScoreItem] = []
    now, over = 1, False
    for line in read_lines(text, {"round": 1, "score": 4}):
        with line.reading():
            if line.key == "round":
                now = line.number(0)
                over = line.args[1:2] == ("over",)
                if now < 1:
                    raise RefereeError("rounds count from 1")
            else:
                at = line.number(0)
                if not 1 <= at <= now:
                    raise RefereeError(f"round {at} is not 1-{now}")
                items.append(ScoreItem(state.player(line.args[1]),
                                       line.number(3), state.spec.category(line.args[2]), at))
    return replace(state, round=now, ledger=tuple(items), over=over)
