"""Opening the match database: read-write when possible, read-only when the storage refuses
writes (so `show`, `log`, `export` still work), and never someone else's SQLite file.

Why a module of its own: the store's job is the log; this one knows SQLite's ways of failing on
read-only or full storage and how to still read a WAL database there.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from referee.engine import RefereeError

REFEREE_TABLES = {"matches", "events"}


def connect(path: Path, busy_ms: int) -> tuple[sqlite3.Connection, str | None]:
    """(connection, None) read-write, or (connection, why) read-only when the storage refuses
    writes; `why` names the cause for the commands that would write."""
    try:
        db = _connect(str(path), busy_ms, uri=False)
        refuse_foreign(db, path)
        db.execute("PRAGMA journal_mode=WAL").fetchone()
        return db, None
    except sqlite3.OperationalError as e:
        why = storage_problem(path)
        if why is None:
            raise
        first = e
    for query in ("mode=ro", "immutable=1"):
        wal = Path(f"{path}-wal")
        if query == "immutable=1" and wal.exists() and wal.stat().st_size > 0:
            break  # unsaved changes wait in the -wal file: reading without it would lie
        try:
            db = _connect(f"file:{quote(str(path))}?{query}", busy_ms, uri=True)
            refuse_foreign(db, path)
            return db, why
        except sqlite3.OperationalError:
            continue
    raise RefereeError(f"cannot open the match database: {why} ({first})", str(path))


def _connect(target: str, busy_ms: int, uri: bool) -> sqlite3.Connection:
    db = sqlite3.connect(target, timeout=busy_ms / 1000, isolation_level=None,
                         check_same_thread=False, uri=uri)
    db.execute(f"PRAGMA busy_timeout={busy_ms}")
    return db


def refuse_foreign(db: sqlite3.Connection, path: Path) -> None:
    """A non-empty SQLite file of another program is refused before anything is changed in it
    (switching it to WAL and adding tables would convert it silently)."""
    names = {r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    if names and not REFEREE_TABLES <= names:
        shown = ", ".join(sorted(names)[:5]) + (" …" if len(names) > 5 else "")
        raise RefereeError(f"not a referee database: it is another program's SQLite file "
                           f"(tables {shown}); pick another file with --db", str(path))


def storage_problem(path: Path) -> str | None:
    """Why the folder of the database refuses writes (read-only or full), or None."""
    folder = path.parent
    try:
        st = os.statvfs(folder)
    except OSError:
        return None
    if st.f_flag & os.ST_RDONLY:
        return "the storage is read-only"
    if st.f_bavail == 0 or (st.f_favail == 0 and st.f_files):
        return "the disk is full"
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return "the database file or its folder is read-only (no write permission)"
    return None
