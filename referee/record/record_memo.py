"""The whole record as last printed (`referee log --all`, `--json`, `--script`, the events and
ledger of `export`, the ledger of `score --json`), so that printing it again renders only the
events recorded since.

Why: rendering each event for the record in Python (reading it, its line with its points, its
text) adds up to most of a command's time on a long match (bench/bench_referee.py). An event's piece of the
record depends only on the events up to it and on which of them were undone or set aside: the
fold is deterministic and the ledger only grows (engine.Rules.ledger). So the pieces of events
1..K, kept in the user's cache folder (a file per database, match and form), are exact while
event K's hash (the chain vouches for every event before it), the entries taken back and the
attempts set aside among 1..K, and the code that renders them are as they were: the memo is
bound to the chain head it was made from, and never kept in the database. The match is
verified first, as by every command; events K+1.. are then rendered (all of them when the memo
does not fit) after the memo's text. A memo that cannot be read or written only costs time.
What renders the pieces is referee/whole_record.py.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from pnp_shared.folders import write_memo_file
from referee import engine
from referee.engine import Event
from referee.record.store import Store

SHORT = 500  # events: a record this short renders in a few ms, and keeps no memo (no file
# per match in the cache folder for the many short ones)
STALE = 100  # events: a memo this far behind is written again (writing the memo again after
# every move costs more than rendering the few events since: it is megabytes on a long match)
SEPARATOR = {"all": b"\n", "json": b",\n", "script": b"\n", "export": b",\n",
             "ledger": b",\n", "export-ledger": b",\n"}  # between two events' pieces: a log
# line, a JSON object in `log --json`, a script line, in `export`; their score items


def pieces(store: Store, match_id: int, code: str, control: Sequence[Event], count: int,
           form: str, render: Callable[[int], list[bytes]]) -> bytes:
    """The pieces of events 1..count joined by SEPARATOR[form]: those of 1..K from the memo
    when it fits, render(K + 1) for the rest (render(1) for all, when none fits). `code`: the
    fingerprint of the rules and of what renders the pieces."""
    if count <= SHORT:
        return SEPARATOR[form].join(p for p in render(1) if p)
    undone = engine.undos(control)
    code = _with_own_source(code)
    from referee.components import db_memo_path

    path = db_memo_path(store.path, "record", f"-{match_id}-{form}.txt")
    upto, kept = _kept(path, store, match_id, count, code, undone)
    body = SEPARATOR[form].join(p for p in [kept, *render(upto + 1)] if p)
    if count - upto >= STALE or not upto:
        _keep(path, store, match_id, count, code, undone, body)
    return body


@cache
def _with_own_source(code: str) -> str:
    """The caller's fingerprint and this module's source (the memo's own layout)."""
    return hashlib.sha256(code.encode() + Path(__file__).read_bytes()).hexdigest()


def _facts(store: Store, match_id: int, upto: int, code: str, undone: engine.Undos) -> dict:
    """What the pieces of events 1..upto were rendered from."""
    row = store.db.execute("SELECT hash FROM events WHERE match = ? AND seq = ?",
                           (match_id, upto)).fetchone()
    return {"seq": upto, "hash": row[0] if row else None, "code": code,
            "gone": sorted(s for s in undone.gone if s <= upto),
            "dismissed": sorted(s for s in undone.dismissed if s <= upto)}


def _kept(path: Path, store: Store, match_id: int, count: int, code: str,
          undone: engine.Undos) -> tuple[int, bytes]:
    """(K, the pieces of events 1..K) from the memo when it still fits, else (0, b"")."""
    try:
        with path.open("rb") as f:
            kept = json.loads(f.readline())
            upto = kept["seq"]
            if type(upto) is int and 1 <= upto <= count and kept == {
                    **_facts(store, match_id, upto, code, undone), "bytes": kept["bytes"]}:
                body = f.read()
                if len(body) == kept["bytes"]:  # not cut short
                    return upto, body
    except (OSError, ValueError, KeyError, TypeError, sqlite3.DatabaseError):
        pass
    return 0, b""


def _keep(path: Path, store: Store, match_id: int, count: int, code: str,
          undone: engine.Undos, body: bytes) -> None:
    try:
        facts = _facts(store, match_id, count, code, undone)
    except sqlite3.DatabaseError:
        return
    write_memo_file(path, json.dumps({**facts, "bytes": len(body)}).encode() + b"\n" + body)
