"""The scorepad's dealer for `referee simulate scorepad`: random entries within the sheet's
checks, then the round closes. It exercises the sheet (rounds, target, ties); it knows nothing
of the game being scored, so its figures say nothing about that game's balance."""

from __future__ import annotations

from referee.dealing import Choice, Dealer, Turn
from referee.games.scorepad.model import Round, Score, State


class ScorepadDealer(Dealer):
    note = ("a score sheet, not a game: each player scores a random entry per category "
            "(0-10 within its limits), then the round closes; no figure here is about the "
            "game being scored")

    def turn(self, state: State) -> Turn | None:
        if state.over:
            return None
        for p in state.players:
            for c in state.spec.categories:
                if not any(i.round == state.round and i.player == p and i.label == c
                           for i in state.ledger):
                    low, high = state.spec.limit(c)
                    lo = 0 if low is None else max(low, min(0, high if high is not None else 0))
                    hi = lo + 10 if high is None else high
                    return Turn(p, [Choice(Score(p, c, v)) for v in range(lo, max(lo, hi) + 1)])
        return Turn(None, [Choice(Round())])


DEALER = ScorepadDealer
