"""States folded earlier in the same write transaction, recalled instead of read again: a
command that appends and then looks at its match again (undo, redo, adjust, end) neither
unpickles a snapshot nor digests the log a second time.

Why it is safe: a write transaction holds the database's write lock from its first read to its
commit, so no other terminal or program can change an event in between, and the command's own
appends only add events after those remembered. Nothing is remembered or recalled outside a
write transaction, nor across two of them (Store.folded is emptied when one ends).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.record.block_digest import BlockDigest
from referee.record.store import Store


class Remembered(NamedTuple):
    """The state after event `seq` (its hash `head`), folded by rules `code` with the moves
    `gone` retracted, the ledger lengths after each event, and the digest of events 1..seq."""

    seq: int
    head: str
    code: str
    gone: tuple[int, ...]
    state: Any
    marks: tuple[int, ...]
    events: BlockDigest | None  # None: `referee verify` hashed them (not digested)


def remember(store: Store, match_id: int, remembered: Remembered) -> None:
    if store.writing:
        store.folded[match_id, remembered.seq] = remembered


def recall(store: Store, match_id: int, target: int, code: str,
           gone: set[int]) -> Remembered | None:
    """The newest state remembered in this write transaction at or before `target`, for these
    rules and retractions (marks and digest are copies: the caller extends them)."""
    if not store.writing:
        return None
    found = None
    for (mid, seq), f in store.folded.items():
        if (mid == match_id and seq <= target and f.code == code
                and f.gone == tuple(sorted(g for g in gone if g <= seq))
                and (found is None or seq > found.seq)):
            found = f
    if found is None or found.events is None:
        return found
    return found._replace(events=found.events.copy())
