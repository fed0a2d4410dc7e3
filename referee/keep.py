"""Simulated games kept as matches (`referee simulate --keep N`), so `referee log`, `show` and
`replay` show them like any match typed at the table.

Each kept game is stored as the moves `referee play` would store (canonical text and player),
then read back through the fold: a kept game that would not replay is an error, not a match.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee import session
from referee.record import Store
from referee.simulate import GameRecord, Plan


def keep(store: Store, plan: Plan, records: Sequence[GameRecord]) -> list[int]:
    """Store every record that carries its moves; the match ids, in game order. One
    transaction for all, each game replayed before it ends: a Ctrl-C or a game that would not
    replay leaves no match of the run (they used to stay, one by one, the failing one too)."""
    ids = []
    with store.transaction():
        for r in records:
            if r.log is None:
                continue
            m = session.new_match(store, plan.game, r.players, plan.options).match
            for text, player in r.log:
                store.append(m.id, "move", {"text": text, "player": player})
            session.load(store, m.id)  # the fold replays it, or says why not
            ids.append(m.id)
    return ids
