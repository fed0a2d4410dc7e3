"""What the table's commands do (undo, redo, adjust, end, moves), over referee.session.

Each is one store transaction, like the commands in session.py; they live apart so that a
`referee show` or `play` does not load them (the CLI imports their commands on demand).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from referee import engine, table
from referee.engine import Event, RefereeError
from referee.record import Match, Store
from referee.session import Loaded, checked, describe, load


@dataclass(frozen=True)
class Undone:
    """What undo did: the entry it took back, or the rejected attempts it set aside (then
    `stands` is the entry still in force), and whose turn it is now."""

    match: Match
    event: Event  # the undo event
    taken: Event | None = None
    dismissed: tuple[Event, ...] = ()
    stands: Event | None = None
    to_move: str | None = None
    winner: str | None = None  # the finished match's new winner, when this changed it


def undo(store: Store, match_id: int | None = None) -> Undone:
    """Take back the latest entry by appending an undo event; nothing is deleted. Rejected
    attempts after the latest entry are set aside instead (they changed nothing)."""
    with store.transaction():
        cur = load(store, match_id)
        taken, attempts = _to_undo(cur)
        if attempts:
            ev = store.append(cur.match.id, "undo", {"dismissed": [e.seq for e in attempts]})
            gone = engine.retracted(cur.table_events)
            stands = next((e for e in reversed(cur.events) if e.kind in engine.TAKE_BACK
                           and e.seq not in gone), None)
            return Undone(cur.match, ev, None, tuple(attempts), stands,
                          cur.game.to_move(cur.state))
        ev = store.append(cur.match.id, "undo", {"seq": taken.seq, "text": describe(taken)})
        after = load(store, cur.match.id)  # from a snapshot before the move undone
    return Undone(cur.match, ev, taken, to_move=cur.game.to_move(after.state),
                  winner=table.winner_change(cur.outcome(), after.outcome()))


def undoable(store: Store, match_id: int | None = None) -> None:
    """RefereeError when undo would find nothing to take back (a phone's request for the
    others' consent is refused at once, not after the last of them agreed)."""
    _to_undo(load(store, match_id))


def _to_undo(cur: Loaded) -> tuple[Event | None, list[Event]]:
    taken, attempts = table.to_undo(cur.events, cur.outcome() is not None, cur.table_events)
    if taken is None and not attempts:
        raise RefereeError("nothing to undo: no move in force", f"match {cur.match.id}")
    return taken, attempts


def keep(store: Store, match_id: int | None = None) -> Loaded:
    """Keep a scratch match (typed in from a position): from now on it counts in standings
    and exports like a match played from the start."""
    with store.transaction():
        cur = checked(store, match_id)
        kinds = {e.kind for e in cur.table_events}
        if "position" not in kinds:
            raise RefereeError(f"match {cur.match.id} is no scratch match: it was played from "
                               "the start and counts already", "referee keep")
        if "keep" in kinds:
            raise RefereeError(f"match {cur.match.id} is kept already", "referee keep")
        store.append(cur.match.id, "keep", {})
        return checked(store, cur.match.id)


def redo(store: Store, match_id: int | None = None) -> Undone:
    """Put back the entry the latest undo took back (while no new entry came since)."""
    with store.transaction():
        cur = checked(store, match_id)  # what to redo follows from the log: no state needed
        pending = table.redoable(cur.events, cur.table_events)
        if not pending:
            raise RefereeError("nothing to redo: no entry taken back since the last move",
                               f"match {cur.match.id}")
        entry = cur.events[pending[-1] - 1]  # event seq N is the N-th
        before = load(store, cur.match.id).outcome() if entry.kind == "adjust" else None
        ev = store.append(cur.match.id, "redo", {"seq": entry.seq, "text": describe(entry)})
        after = load(store, cur.match.id)
    return Undone(cur.match, ev, entry, to_move=cur.game.to_move(after.state),
                  winner=table.winner_change(before, after.outcome()))


class Adjusted(NamedTuple):
    """What adjust did: the match after it, the "adjust" event, and the finished match's new
    winner when the correction changed it (table.winner_change)."""

    cur: Loaded
    event: Event
    winner: str | None = None


def adjust(store: Store, player: str, points: str, reason: str,
           match_id: int | None = None) -> Adjusted:
    """Record a score correction (a table entry: in every total, not in the rules' state)."""
    with store.transaction():
        cur = load(store, match_id)
        ledger = cur.ledger()
        data = table.adjustment(cur.match.players, player, points, reason,
                                ledger[-1].round if ledger else 1)
        ev = store.append(cur.match.id, "adjust", data)
        after = load(store, cur.match.id)  # in the transaction: the fold is recalled
        return Adjusted(after, ev, table.winner_change(cur.outcome(), after.outcome()))


def end(store: Store, abandoned: bool, winners: Sequence[str], reason: str,
        match_id: int | None = None) -> Loaded:
    """End the current match early: abandoned, or with the result the table declares."""
    with store.transaction():
        cur = load(store, match_id)
        done = cur.outcome()
        if done is not None:
            raise RefereeError(f"match {cur.match.id} is already over ({cur.status()})",
                               "referee end")
        store.append(cur.match.id, "end", table.ending(cur.match.players, abandoned, winners,
                                                        reason))
        return load(store, cur.match.id)  # in the transaction: the fold is recalled


@dataclass(frozen=True)
class Listed:
    """The legal moves of the current match's player to act, in notation."""

    match: Match
    to_move: str | None
    moves: tuple[str, ...]


def moves(store: Store, match_id: int | None = None) -> Listed:
    """What `referee moves` lists: the game's public moves, formatted, none once it is over."""
    cur = load(store, match_id)
    g, state = cur.game, cur.state
    if cur.outcome() is not None:
        return Listed(cur.match, None, ())
    listed = tuple(dict.fromkeys(g.format(state, m) for m in g.public_moves(state)))
    return Listed(cur.match, g.to_move(state), listed)
