"""Simulation bots: how a simulated player picks among the choices its dealer offers.

A bot sees what a player at the table sees: the public state and its choices. When hidden
cards decide what a choice scores, the dealer gives the expected points (`Choice.worth`);
otherwise the judge says what the move scores, exactly as it would at the table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from referee.dealing import Choice
from referee.engine import Game

Legal = Callable[[Choice], bool]


def points(rules: Game, state: Any, move: Any, player: str | None) -> float:
    """What the move adds to the player's score now, as the judge reckons it."""
    verdict, _after = rules.judge(state, move)
    return float(sum(i.points for i in verdict.score if i.player == player))


def random_bot(rules: Game, state: Any, player: str | None, choices: Sequence[Choice],
               legal: Legal, rng: random.Random) -> Choice | None:
    """Uniform among the legal choices: candidates drawn at random until one is legal (cheap
    when most are legal, and the same distribution as picking among the legal ones)."""
    left = list(range(len(choices)))
    while left:
        k = rng.randrange(len(left))
        if legal(choices[left[k]]):
            return choices[left[k]]
        left[k] = left[-1]
        left.pop()
    return None


def greedy_bot(rules: Game, state: Any, player: str | None, choices: Sequence[Choice],
               legal: Legal, rng: random.Random) -> Choice | None:
    """The best immediate score; ties (often: nothing scores now) broken at random, so no
    seat or card is favoured by the order the dealer lists them in."""
    best: list[Choice] = []
    top = float("-inf")
    for c in choices:
        if not legal(c):
            continue
        if c.worth is not None:
            value = c.worth() if callable(c.worth) else c.worth
        elif c.move is not None:
            value = points(rules, state, c.move, player)
        else:
            value = 0.0
        if value > top + 1e-9:
            best, top = [c], value
        elif abs(value - top) <= 1e-9:
            best.append(c)
    return rng.choice(best) if best else None


BOTS: dict[str, Callable[..., Choice | None]] = {"random": random_bot, "greedy": greedy_bot}
