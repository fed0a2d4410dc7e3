"""Reading one match: its record, its game, and its events verified and folded (through the
snapshot cache), the match record checked against its first event."""

from __future__ import annotations

from referee import registry
from referee.engine import Game, RefereeError
from referee.record import snapshots
from referee.record.snapshots import Folded
from referee.record.store import Match, Store


def read(store: Store, match_id: int | None = None, upto: int | None = None,
         replay: bool = True, keep: bool = True) -> tuple[Match, Game, Folded]:
    """The current (or given) match, its game, and its verified events folded (through the
    snapshot cache) up to event `upto` (replay=False: verified, not folded); the match record
    must agree with its first event. keep=False: no snapshot saved."""
    m = store.match(match_id) if match_id is not None else store.current()
    g = registry.game(m.game)
    if upto is not None:
        last = store.last_seq(m.id)
        if not 1 <= upto <= last:
            raise RefereeError(f"no event {upto} in match {m.id}: events are 1..{last}", "--to")
    folded = snapshots.fold(store, m.id, g, upto, replay, keep)
    first = folded.log[0].event
    if first.kind != "new" or first.data.get("game") != m.game or tuple(
            first.data.get("players", ())) != m.players:
        raise RefereeError("tampered log: the match record disagrees with its first event",
                           f"match {m.id}, event 1; {store.path}")
    return m, g, folded
