"""Search bots for `referee simulate --bot mcts|ismcts[:N]`: OpenSpiel's MCTS and
information-set MCTS over the adapter.

Neither peeks: MCTS searches one determinisation (the unseen cards dealt again, consistent with
what the player saw) each move; ISMCTS samples a new one every simulation. A leaf is valued by
the lead in points (our scores), squashed to the win share the returns use, so a search of a
few hundred simulations needs no random playout to the end of a long game.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from referee.engine import RefereeError

KINDS = ("mcts", "ismcts")
DEFAULT_SIMULATIONS = 50
SCALE = 20.0  # the least lead worth about three quarters of a win (more in high-scoring games)


@dataclass(frozen=True)
class Spec:
    kind: str
    simulations: int


def parse(text: str) -> Spec | None:
    """`ismcts:200` -> Spec; None for a bot that is not a search bot."""
    kind, _, n = text.partition(":")
    if kind not in KINDS:
        return None
    if n and not (n.isdigit() and 1 <= int(n) <= 100_000):
        raise RefereeError(f"{text!r}: simulations a move are a number 1-100000", "--bot")
    return Spec(kind, int(n) if n else DEFAULT_SIMULATIONS)


class ScoreLead(mcts.Evaluator):
    """A leaf's value: the win share at the end, else the lead in points squashed."""

    def evaluate(self, state):
        if state.is_terminal():
            return np.array(state.returns())
        scores = state.scores()
        scale = max(SCALE, sum(abs(s) for s in scores) / (2 * len(scores)))
        out = []
        for i, s in enumerate(scores):
            rival = max(x for j, x in enumerate(scores) if j != i)
            out.append(0.5 + 0.5 * math.tanh((s - rival) / scale))
        return np.array(out)

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def bot(spec: Spec, game, seat: int, seed: int):
    """A pyspiel bot for one seat; its own random stream, from the game's seed."""
    rng = random.Random(f"{seed}/{seat}")
    numpy_rng = np.random.RandomState(rng.randrange(2**31))
    if spec.kind == "ismcts":
        found = ismcts.ISMCTSBot(game, ScoreLead(), uct_c=2.0,
                                 max_simulations=spec.simulations, random_state=numpy_rng)
        found.set_resampler(lambda state, player: state.resampled(player, rng))
        return found
    return Determinised(mcts.MCTSBot(game, uct_c=2.0, max_simulations=spec.simulations,
                                     evaluator=ScoreLead(), solve=False,
                                     random_state=numpy_rng), rng)


class Determinised:
    """MCTS over one determinisation a move: it sees the game as if the unseen cards were
    those dealt again, never the real ones."""

    def __init__(self, search: mcts.MCTSBot, rng: random.Random):
        self.search, self.rng = search, rng

    def step(self, state):
        return self.search.step(state.resampled(state.current_player(), self.rng))
