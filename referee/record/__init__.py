"""The one door to the match database: what the rest of the referee may ask of the record.

Why one door: the record is an append-only, hash-chained event log (store.py) with caches
around it (snapshots of folded states, per-match summaries, the memos in the user's cache
folder). Callers outside this package read and append through the names below and never reach
an inner module, so how the caches are kept, authenticated and checked can change in one place.

    Store(path)                  open the database (None: $REFEREE_DB or the data folder)
    store.transaction()          one write transaction per command (the write lock)
    store.create_match / append  add to the log; store.match / matches / current / set_current
    read(store, match, upto)     a match, its game and its verified events folded (Folded)
    summaries_of(store, game)    every match summarised (matches); standings(store, game)
    verify(store, match, every)  every check, the caches re-derived and compared (Report)
    memo_pieces(...)             a rendering of events 1..K kept in the cache folder
    code_fingerprint(cls)        the rules' source, which every cache is keyed by
    finish(store)                after a command: remember what was checked, close

Every cache either carries an HMAC under the user's key (key.py, a file outside the database)
or is bound to the chain head it was made from; a cache that fails is ignored and rebuilt.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from referee.record.store import Match, Stamped, Store, default_path

if TYPE_CHECKING:
    from referee.engine import Event, Game
    from referee.record.snapshots import EventsView, Folded, LazyLog
    from referee.record.summaries import Standing, Summary
    from referee.record.verification import Report

# what reading a match needs (the snapshots and their unpickler) is loaded on first use: a
# command that only opens the store (`use`, `new`) does not import it
_LAZY = {"EventsView": "snapshots", "Folded": "snapshots", "LazyLog": "snapshots"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"referee.record.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'referee.record' has no attribute {name!r}")


def read(store: Store, match_id: int | None = None, upto: int | None = None,
         replay: bool = True) -> tuple[Match, Game, Folded]:
    """The current (or given) match, its game, and its verified events folded (through the
    snapshot cache) up to event `upto` (replay=False: verified, not folded); the match record
    must agree with its first event."""
    from referee.record import match_read

    return match_read.read(store, match_id, upto, replay)


def code_fingerprint(game_class: type) -> str:
    """The rules' source (the game's folder, the engine and the table's corrections) and the
    Python version: a cache made by other rules is never used."""
    from referee.record import snapshots

    return snapshots.code_fingerprint(game_class)

__all__ = ["EventsView", "Folded", "LazyLog", "Match", "Stamped", "Store", "code_fingerprint",
           "default_path", "finish", "memo_pieces", "read", "standings", "summaries_of", "verify"]


def summaries_of(store: Store, game_name: str | None = None) -> list[Summary]:
    """Every match (of one game, or all) summarised; unreadable ones carry their error."""
    from referee.record import summaries as kept

    return kept.every(store, game_name)


def standings(store: Store, game_name: str | None = None,
              left_out: list[Summary] | None = None) -> list[Standing]:
    """Per game and player across matches: played, finished, won, average and best total;
    the matches that cannot be read are left out, into `left_out`."""
    from referee.record import summaries as kept

    return kept.standings(store, game_name, left_out)


def verify(store: Store, match_id: int | None = None, every: bool = False,
           full: bool = False) -> Report:
    """Check the database and one match (the current one, or `match_id`), or every match;
    `full`: replayed from the first event, every cached state compared."""
    from referee.record import verification

    return verification.verify(store, match_id, every, full)


def memo_pieces(store: Store, match_id: int, code: str, control: Sequence[Event], count: int,
                form: str, render: Callable[[int], list[bytes]]) -> bytes:
    """The pieces of events 1..count of a rendering `form` made by code `code`, those of
    1..K from the memo in the cache folder when it still fits, render(K + 1) for the rest."""
    from referee.record import record_memo

    return record_memo.pieces(store, match_id, code, control, count, form, render)


def finish(store: Store) -> None:
    """After a command: what its checks found, remembered for the next command while the file
    stays as it is (trust_memo.py); then the database is closed."""
    from referee.record import trust_memo

    trust_memo.finish(store)
    store.close()
