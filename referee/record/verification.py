"""`referee verify`: every check the record allows, on one match or all, listing what broke.

Other commands stop at the first problem of the match they read; verify goes on, so the user
learns every damaged match and event at once: the database manifest (dropped matches), each
match's header and chain head (a cut tail, edited options or creation time), the hash chain of
every event (an edited or deleted event), every cache row's MAC (an edit of the file alone
cannot forge one: the key is outside it), and the replay of the log by the rules from the newest
authentic snapshot, the summary compared with it. `full` replays from the first event instead
and compares every snapshot's state and ledger marks too: what only a holder of the key, or a
change of the rules' results without a change of their code, could make wrong. A cache that
fails is reported by match and table, though no command would print it.
"""

from __future__ import annotations

import sqlite3
from typing import Any, NamedTuple

from referee import engine
from referee.engine import Game, RefereeError
from referee.record import chain_check, key, snapshots, state_pickle, summaries
from referee.record.integrity import Problem
from referee.record.match_read import read
from referee.record.snapshots import Folded, Snapshot, end_read
from referee.record.store import Match, Store


class Report(NamedTuple):
    matches: int
    events: int
    problems: tuple[Problem, ...]


def verify(store: Store, match_id: int | None = None, every: bool = False,
           full: bool = False) -> Report:
    """Check the database and one match (the current one, or `match_id`), or every match;
    `full`: every match replayed from its first event, every cached state compared."""
    reading = not store.db.in_transaction  # one consistent view while others append
    if reading:
        store.db.execute("BEGIN")
    try:
        return _verify(store, match_id, every, full)
    finally:
        store.chain_checked.clear()  # trusted only inside this read transaction
        if reading:
            end_read(store.db)


def _verify(store: Store, match_id: int | None, every: bool, full: bool) -> Report:
    problems = list(store.database_problems())
    keyed = key.key() is not None
    if not keyed:  # every cache row would "fail its MAC": the key is what is wrong, named once
        problems.append(Problem(f"the key of the caches, {key.path()}, cannot be used (not a "
                                "key the referee made, or unreadable): no cached state is used "
                                "or kept, every command folds its match from the events; "
                                "delete the file and the next command makes a new key",
                                str(key.path())))
    if every:
        ids = [m.id for m in store.matches()]
    else:
        try:
            ids = [store.match(match_id if match_id is not None else store.current_id(),
                               damaged=True).id]  # a damaged one is reported below
        except RefereeError:
            if problems:  # the current match is the one that was dropped: say so, not "no match"
                return Report(0, 0, tuple(problems))
            raise
    events = 0
    joined = _every_match(store) if every else None
    for mid in ids:
        try:
            chain_check.check(store, mid,  # every event hashed again, whatever the caches say
                              None if joined is None else joined.get(mid, chain_check.NO_EVENTS))
            store.chain_checked.add(mid)  # so the read below need not digest them again
            found, authentic = snapshot_macs(store, mid) if keyed else ([], {})
            # an edited row stays as found, to be shown
            m, g, folded = read(store, mid, replay=not full, keep=not found)
            if keyed:
                found += caches(store, m, g, folded, authentic if full else None)
        except RefereeError as e:
            if e.what not in (p.what for p in problems):
                problems.append(Problem(e.what, e.where or f"match {mid}"))
            continue
        problems += found
        events += len(folded.log)
    return Report(len(ids), events, tuple(problems))


def snapshot_macs(store: Store, match_id: int) -> tuple[list[Problem], dict[int, Snapshot]]:
    """Each snapshot row of the match whose MAC fails, as a problem; the others by event."""
    db, where = store.db, f"match {match_id}; {store.path}"
    out, authentic = [], {}
    for (seq,) in _rows(db, "SELECT seq FROM snapshots WHERE match = ? ORDER BY seq", match_id):
        found = snapshots.snapshot(db, match_id, seq) if type(seq) is int else None
        if found is None:
            out.append(Problem(f"the cached state of match {match_id} at event {seq} (table "
                               "snapshots) fails its MAC: edited, or made under another key; "
                               "never used", where))
        else:
            authentic[seq] = found
    return out, authentic


def caches(store: Store, m: Match, g: Game, folded: Folded,
           authentic: dict[int, Snapshot] | None) -> list[Problem]:
    """The summary against the fold. Given the `authentic` snapshots (`folded` not replayed):
    the match folded from its first event, and each snapshot a command would use compared
    with it, state and marks."""
    if authentic is None:
        return _summary(store, m, g, folded, folded.state)
    code = snapshots.code_fingerprint(type(g))
    gone = engine.retracted(folded.control)
    used = {seq: found for seq, found in authentic.items()
            if found.code == code and found.gone == snapshots.gone_text(gone, seq)}
    state, marks, states = replayed(m, g, folded, gone, set(used))
    out = []
    for seq, found in used.items():
        try:
            same = (state_pickle.loads(found.state) == states[seq]
                    and snapshots.marks_of(found.marks) == marks[:seq])
        except Exception:  # noqa: BLE001 - unreadable is as wrong as different
            same = False
        if not same:
            out.append(Problem(f"the cached state of match {m.id} at event {seq} (table "
                               "snapshots) differs from the fold of its events",
                               f"match {m.id}; {store.path}"))
    out += _summary(store, m, g, folded, state)
    return out


def replayed(m: Match, g: Game, folded: Folded, gone: set[int],
             at: set[int]) -> tuple[Any, list[int], dict[int, Any]]:
    """The state after the last event folded from the first (no cache), the ledger length
    after each event, and the states after the events `at`."""
    state, marks, states = None, [], {}
    events = [s.event for s in folded.log.span(1, len(folded.log))]
    try:
        for e, after in engine.steps(g, events, None, gone):
            state = after
            marks.append(len(g.ledger(state)) if state is not None else 0)
            if e.seq in at:
                states[e.seq] = state
    except RefereeError as e:
        raise RefereeError(f"match {m.id} no longer replays: {e}", f"match {m.id} log") from None
    return state, marks, states


def _summary(store: Store, m: Match, g: Game, folded: Folded, state: Any) -> list[Problem]:
    """The match's summary row: its MAC, and, when it fits the events as stored, its data
    against the summary of the fold."""
    db, where = store.db, f"match {m.id}; {store.path}"
    rows = _rows(db, "SELECT head, code, content, data, mac FROM summaries WHERE match = ?",
                 m.id)
    if not rows:
        return []
    head, code, content, data, check = rows[0]
    if not summaries.authentic(m.id, head, code, content, data, check):
        return [Problem(f"the summary of match {m.id} (table summaries) fails its MAC: edited, "
                        "or made under another key; never used", where)]
    count = len(folded.log)
    last = db.execute("SELECT hash FROM events WHERE match = ? AND seq = ?",
                      (m.id, count)).fetchone()
    if last is None or head != last[0] or code != snapshots.code_fingerprint(type(g)):
        return []  # made from other events or rules: never used, made again when asked
    # Its digest of the events needs no check: the chain checked above ties every event to
    # the last one's hash, and the MAC ties the digest to that hash as the referee made it.
    if summaries.summarised(m, g, state, folded.control, summaries.moves(db, m.id))[1] != data:
        return [Problem(f"the summary of match {m.id} (table summaries) differs from the fold "
                        "of its events", where)]
    return []


def _rows(db: sqlite3.Connection, sql: str, match_id: int) -> list[tuple]:
    """A cache table's rows for a match ([] when the table is not there)."""
    try:
        return db.execute(sql, (match_id,)).fetchall()
    except sqlite3.DatabaseError:
        return []


def _every_match(store: Store) -> dict[int, tuple] | None:
    """Every match's rows for the chain check, in one query; None when the database fails it
    (each match then reads its own and reports the failure, as without this)."""
    try:
        return chain_check.every_match(store)
    except RefereeError:
        return None
