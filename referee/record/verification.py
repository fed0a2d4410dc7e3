"""`referee verify`: every check the record allows, on one match or all, listing what broke.

Other commands stop at the first problem of the match they read; verify goes on, so the user
learns every damaged match and event at once: the database manifest (dropped matches), each
match's header and chain head (a cut tail, edited options or creation time), the hash chain of
every event (an edited or deleted event), and the replay of the log by the rules.
"""

from __future__ import annotations

from typing import NamedTuple

from referee import chain_check, session
from referee.engine import RefereeError
from referee.integrity import Problem
from referee.snapshots import end_read
from referee.store import Store


class Report(NamedTuple):
    matches: int
    events: int
    problems: tuple[Problem, ...]


def verify(store: Store, match_id: int | None = None, every: bool = False) -> Report:
    """Check the database and one match (the current one, or `match_id`), or every match."""
    reading = not store.db.in_transaction  # one consistent view while others append
    if reading:
        store.db.execute("BEGIN")
    try:
        return _verify(store, match_id, every)
    finally:
        store.chain_checked.clear()  # trusted only inside this read transaction
        if reading:
            end_read(store.db)


def _verify(store: Store, match_id: int | None, every: bool) -> Report:
    problems = list(store.database_problems())
    if every:
        ids = [m.id for m in store.matches()]
    else:
        try:
            ids = [store.match(match_id).id if match_id is not None else store.current().id]
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
            store.chain_checked.add(mid)  # so the load below need not digest them again
            cur = session.load(store, mid)
        except RefereeError as e:
            if e.what not in (p.what for p in problems):
                problems.append(Problem(e.what, e.where or f"match {mid}"))
            continue
        events += len(cur.events)
    return Report(len(ids), events, tuple(problems))


def _every_match(store: Store) -> dict[int, tuple] | None:
    """Every match's rows for the chain check, in one query; None when the database fails it
    (each match then reads its own and reports the failure, as without this)."""
    try:
        return chain_check.every_match(store)
    except RefereeError:
        return None
