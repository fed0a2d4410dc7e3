"""What the checks found, remembered only while the database file is exactly as it was then.

Why: every command must report an edited event, and digesting every event under a snapshot
again is a large share of a command on a long match. So a command that found "events 1..S of match M
digest to C" (C being the content a snapshot was made from) remembers it, in the user's cache
folder (one file per database), under a key of the file's identity and state: device, inode,
size, modification and change time of the database, its schema cookie and page count (read through the
connection: editing an event means dropping its trigger, which changes the cookie), and the
-wal file's size, time and header. While that key is unchanged, a command takes the digest as
known; any other write (an sqlite3 edit, a copy put in its place) changes the key, and the next
command digests again. `referee verify` never reads this memo.

Trust rule: a memo is written only when no other connection committed since the facts were
checked (PRAGMA data_version) and after a checkpoint leaves the -wal file empty, so closing
the connection changes nothing the key covers. Any write to the file moves its change time
(st_ctime), which no user can set back (the modification time can be: `touch -d`), so bytes
edited in place are seen too. The memo lives outside the database: an edit of the database
alone cannot write it. A memo that cannot be read or written only costs time.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

WAL_HEADER = 32  # magic, version, page size, checkpoint sequence, salts, checksum
KEEP = 16  # facts kept per match (the newest snapshots', two each); older ones are rarely
# asked again

Fact = tuple[int, int, str]  # (match, seq, digest): events 1..seq of the match digest to the
# text a snapshot stores (kept as a hash of that text)


class _Trust:
    """The facts known in this process, while PRAGMA data_version stays `version` (no other
    connection committed: this one only appends, which keeps every fact true)."""

    def __init__(self) -> None:
        self.facts: set[Fact] = set()
        self.version: int | None = None
        self.adopted = False  # the memo on disk was read for this version
        self.on_disk: tuple[str, list[Fact]] | None = None


def _trust(store: Any) -> _Trust:
    return store.__dict__.setdefault("_trust", _Trust())


def _data_version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA data_version").fetchone()[0])


def _current(store: Any) -> _Trust:
    """The facts still true: forgotten when another connection committed since."""
    t = _trust(store)
    version = _data_version(store.db)
    if version != t.version:
        t.facts, t.version, t.adopted = set(), version, False
    return t


def known(store: Any, match_id: int, seq: int, content: str) -> bool:
    """Whether events 1..seq of the match are known to digest to `content` in the database as
    this transaction reads it (called inside the transaction, after its first read)."""
    try:
        t = _current(store)
        if not t.adopted:
            t.adopted = True
            memo = _read(store.path)
            if memo is not None and memo[0] == file_key(store):
                t.facts.update(memo[1])
                t.on_disk = memo
        return (match_id, seq, _short(content)) in t.facts
    except (sqlite3.DatabaseError, OSError):
        return False


def learned(store: Any, match_id: int, seq: int, content: str, earlier: bool = False) -> None:
    """Events 1..seq of the match were just digested to `content` in this transaction
    (`earlier`: partly in an earlier one of this connection; then only if no other connection
    committed in between)."""
    try:
        t = _trust(store)
        before = t.version
        t = _current(store)
        if not earlier or t.version == before:
            t.facts.add((match_id, seq, _short(content)))
    except sqlite3.DatabaseError:
        pass


def finish(store: Any) -> None:
    """At the end of a command: write the facts under the key of the file as it is now, if no
    other connection committed since they were checked. The checkpoint first moves this
    command's writes into the database file and empties the -wal file, so closing the
    connection afterwards changes nothing the key covers."""
    t = store.__dict__.get("_trust")
    db = store.db
    if t is None or not t.facts or db.in_transaction:
        return
    try:
        if store.read_only is None and _wal_bytes(store.path):
            _checkpoint(db)
        key = file_key(store)
        if key is None or _data_version(db) != t.version:
            return
        facts = _newest(t.facts)
        if t.on_disk != (key, facts):
            _write(store.path, key, facts)
    except (sqlite3.DatabaseError, OSError):
        return


def _wal_bytes(path: Path) -> int:
    """The size of the database's -wal file (0 when there is none)."""
    try:
        return os.stat(f"{path}-wal").st_size
    except FileNotFoundError:
        return 0


def _checkpoint(db: sqlite3.Connection) -> None:
    """Empty the -wal file into the database, unless another terminal is at work (then the
    memo waits for a later command). Only when the -wal file holds something: after a write,
    the first command to finish empties it and the others skip, rather than every reader
    checkpointing at once (fewer chances for the WAL-reset race of SQLite before 3.51.3,
    which needs checkpoints in quick succession across connections)."""
    from referee.record.store import BUSY_MS

    db.execute("PRAGMA busy_timeout=0")  # never wait for another terminal for a cache
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    finally:
        db.execute(f"PRAGMA busy_timeout={BUSY_MS}")


def file_key(store: Any) -> str | None:
    """The identity and state of the database file and its -wal file (None: unreadable). An
    empty -wal file and none at all are the same state: closing the last connection deletes it.

    The database file itself is never opened here: closing any file of it drops every POSIX
    lock this process holds on it, SQLite's included. Another terminal that commits and exits
    then takes itself for the last one on the file and checkpoints and deletes the -wal file
    under the read in progress (seen: a reader found the chain head one event ahead of the
    events it read, and pages of two versions). Its header's schema cookie and page count are
    read through the connection instead."""
    path = store.path
    try:
        st = os.stat(path)
        cookie, pages = (store.db.execute(f"PRAGMA {name}").fetchone()[0]
                         for name in ("schema_version", "page_count"))
        wal = Path(f"{path}-wal")
        try:
            ws = os.stat(wal)
            with open(wal, "rb") as f:
                wal_state = f"{ws.st_size}:{ws.st_mtime_ns}:{f.read(WAL_HEADER).hex()}"
        except FileNotFoundError:
            ws = None
        if ws is None or ws.st_size == 0:
            wal_state = "empty"
    except (OSError, sqlite3.DatabaseError):
        return None
    return (f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{cookie}:"
            f"{pages}|{wal_state}")


def _short(content: str) -> str:
    """A snapshot's digest text (a digest per block of events) as a memo keeps it."""
    return hashlib.sha256(content.encode()).hexdigest()[:32]


def _newest(facts: set[Fact]) -> list[Fact]:
    by_match: dict[int, list[Fact]] = {}
    for f in facts:
        by_match.setdefault(f[0], []).append(f)
    return sorted(f for kept in by_match.values() for f in sorted(kept)[-KEEP:])


def _memo_path(db_path: Path) -> Path:
    from referee.components import db_memo_path

    return db_memo_path(db_path, "verified", ".json")


def _read(db_path: Path) -> tuple[str, list[Fact]] | None:
    try:
        data = json.loads(_memo_path(db_path).read_text(encoding="utf-8"))
        facts = [(int(m), int(s), str(c)) for m, s, c in data["facts"]]
        return str(data["key"]), facts
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write(db_path: Path, key: str, facts: list[Fact]) -> None:
    from referee.components import write_memo

    write_memo(_memo_path(db_path), {"db": str(db_path), "key": key, "facts": facts})
