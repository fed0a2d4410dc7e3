"""One total per player, the same in every view: show, the shell, score, matches, standings,
exports and the table page all read it from here.

Why: the rules keep their own ledger (the position as played), and the table's corrections
(`referee adjust`) follow it. A view that added up only one of the two showed a player at 22
while another said 27. Here the total is the sum of both, written with the correction named
beside it: `27 (22 + 5 adjusted)`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from referee import engine, table
from referee.engine import Event, Game


class Total(NamedTuple):
    """A player's points: what the rules scored and what the table corrected."""

    played: int
    adjusted: int = 0

    @property
    def total(self) -> int:
        return self.played + self.adjusted

    def __str__(self) -> str:
        """`27`, or `27 (22 + 5 adjusted)` once the table corrected it."""
        if not self.adjusted:
            return str(self.total)
        sign = "+" if self.adjusted > 0 else "-"
        return f"{self.total} ({self.played} {sign} {abs(self.adjusted)} adjusted)"


def scores(game: Game, state: Any, events: Sequence[Event],
           players: Sequence[str]) -> dict[str, Total]:
    """Each player's Total: the game's ledger and the corrections in force among `events`."""
    played = engine.totals(game.ledger(state), players)
    adjusted = engine.totals(table.table_items(events), players)
    return {p: Total(played.get(p, 0), adjusted.get(p, 0)) for p in {**played, **adjusted}}


def from_totals(totals: Mapping[str, int], adjusted: Mapping[str, int]) -> dict[str, Total]:
    """Totals kept with their corrections (a match summary) as Totals."""
    return {p: Total(t - adjusted.get(p, 0), adjusted.get(p, 0)) for p, t in totals.items()}


def line(board: Mapping[str, Total]) -> str:
    """`ana 20, bob 9, cy 27 (22 + 5 adjusted)`."""
    return ", ".join(f"{p} {t}" for p, t in board.items())


def corrected(board: Mapping[str, Total]) -> str:
    """Only the corrected players (`cy 27 (22 + 5 adjusted)`), empty when none is."""
    return ", ".join(f"{p} {t}" for p, t in board.items() if t.adjusted)


def as_scored(game: Game, state: Any, events: Sequence[Event]) -> Any:
    """The state a view draws: the game's own, with the table's corrections after its ledger
    (so its board shows the same totals as every other view; table.outcome reads the winner
    from the same corrected state)."""
    items = table.table_items(events)
    return game.with_corrections(state, items) if items else state
