"""The match database: an append-only, hash-chained SQLite event log.

Why SQLite with WAL + synchronous=FULL and one BEGIN IMMEDIATE transaction per command: two
terminals at the same table may type at once (the second waits on the write lock instead of
failing), and a command says "done" only after its COMMIT reached the disk, so killing the
process at any moment loses nothing that was reported. Each event carries the hash of the one
before it, so an edited or deleted event is found the next time the match is loaded.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from pnp_shared import interrupts
from referee.engine import Event, RefereeError
from referee.record import dbopen, integrity, rows

ENV = "REFEREE_DB"
GENESIS = "0" * 64
BUSY_MS = 30_000

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    match INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at TEXT NOT NULL,
    prev TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (match, seq)
);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"""


def default_path() -> Path:
    """$REFEREE_DB, else referee.sqlite3 in the user's data folder (per OS conventions)."""
    env = os.environ.get(ENV)
    if env:
        return Path(env).expanduser()
    from pnp_shared.folders import user_folder

    return user_folder("data") / "referee.sqlite3"


def event_hash(match: int, seq: int, kind: str, data: str, at: str, prev: str) -> str:
    """The chain link: sha256 over the event's content and the previous event's hash."""
    body = "\x1f".join((str(match), str(seq), kind, data, at, prev))
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Match(NamedTuple):
    id: int
    game: str
    players: tuple[str, ...]
    options: dict[str, str]
    created: str
    # why the match cannot be read (Store.matches lists it anyway, so the others still are):
    # then game, players and options are its first event's, as far as it can be read
    damage: str | None = None

    @property
    def own_name(self) -> str:
        """The game as people name it: a match of a designer's own game (`referee new FOLDER`)
        carries that game's name in the option `game-name`; standings and playtests group by it."""
        return self.options.get("game-name") or self.game


class Stamped(NamedTuple):
    """An event with its storage facts (when it was recorded)."""

    event: Event
    at: str


class Store:
    """One open database. Use `with store.transaction():` around each command's work."""

    def __init__(self, path: str | Path | None = None, hold_on_commit: bool = False,
                 create: bool = True):
        """`create`: make the database (and the default data folder) when there is none;
        else a missing database reads as an empty one and nothing is made on disk (a command
        that only reads)."""
        self.path = Path(path) if path is not None else default_path()
        self._in_tx = False
        # a command that reports and exits: from just before its COMMIT, Ctrl-C is ignored
        # (pnp_shared/interrupts.py), so what is recorded is always reported
        self.hold_on_commit = hold_on_commit
        # states folded in the write transaction under way (referee/fold_memo.py): emptied
        # when it ends, so none is recalled in another and none outlives it in memory
        self.folded: dict[Any, Any] = {}
        # matches whose every event `referee verify` hashed again in its read transaction:
        # their snapshots need no digest of the events (see referee/verification.py)
        self.chain_checked: set[int] = set()
        self.read_only: str | None = None  # why writes are refused (read-only or full storage)
        self._db_checked: tuple[tuple[int, int], list[integrity.Problem]] | None = None
        self._appended = 0  # matches and events this connection added
        if not create and not self.path.exists():
            self._none_yet()
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db, self.read_only = dbopen.connect(self.path, BUSY_MS)
            if self.read_only is not None:  # reads work; a write names the cause
                return
            mode = self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            if mode.lower() != "wal":
                raise RefereeError("cannot switch the database to WAL mode", str(self.path))
            if not self._has_schema():  # a new database (or its triggers dropped: put back)
                with self.transaction():
                    for stmt in SCHEMA.split(";\n"):
                        if stmt.strip():
                            self.db.execute(stmt)
            if integrity.needs_install(self.db):
                with self.transaction():
                    if integrity.needs_install(self.db):
                        integrity.install(self.db)
        except (sqlite3.DatabaseError, OSError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            if isinstance(e, (FileExistsError, NotADirectoryError)):
                why = f"{self.path.parent} is a file, not a folder"
            raise RefereeError(f"cannot open the match database: {why}", str(self.path)) from None

    def _none_yet(self) -> None:
        """No database yet: an empty one in memory, which writes refuse (read_only)."""
        self.db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        for stmt in SCHEMA.split(";\n"):
            if stmt.strip():
                self.db.execute(stmt)
        integrity.install(self.db)
        self.read_only = f"there is no match database at {str(self.path)!r} yet"

    def _failed(self, e: sqlite3.DatabaseError) -> RefereeError:
        """An SQLite failure as a user-facing error: read-only, damaged, or what SQLite says."""
        if "readonly" in str(e) or "disk is full" in str(e) or (
                self.read_only and "disk I/O" in str(e)):
            why = self.read_only or dbopen.storage_problem(self.path)
            if "disk is full" in str(e):
                why = "the disk is full"
            if why is None:
                return RefereeError("the match database is read-only: nothing was recorded",
                                    str(self.path))
            return RefereeError(f"cannot write the match database, {why}: nothing was recorded",
                                str(self.path))
        if isinstance(e, sqlite3.OperationalError):
            return RefereeError(f"the match database failed: {e}", str(self.path))
        return RefereeError(f"the match database is damaged ({e}): restore a copy or pick "
                            "another with --db", str(self.path))

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        try:
            return self.db.execute(sql, params).fetchone()
        except sqlite3.DatabaseError as e:
            raise self._failed(e) from None

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as e:
            raise self._failed(e) from None

    def _has_schema(self) -> bool:
        row = self.db.execute(
            "SELECT count(*) FROM sqlite_master WHERE type='trigger' AND name='events_no_delete'"
        ).fetchone()
        return bool(row[0])

    def close(self) -> None:
        self.db.close()

    @property
    def writing(self) -> bool:
        """Inside `with store.transaction():` (the write lock is held)."""
        return self._in_tx

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT: takes the write lock up front, so the read-check-append of
        a command cannot interleave with another terminal's (the other one waits)."""
        if self._in_tx:
            yield
            return
        self._in_tx = True
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
                if self.hold_on_commit:  # a Ctrl-C until here rolls back; from here, ignored
                    interrupts.hold()
            except BaseException:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            raise self._failed(e) from None
        finally:
            self._in_tx = False
            self.folded.clear()

    # matches

    def create_match(self, game: str, players: Sequence[str], options: dict[str, str]) -> Match:
        """A new match with its "new" event; it becomes the current match."""
        created = _now()
        header = (game, json.dumps(list(players)), _dump(options), created)
        with self.transaction():
            cur = self.db.execute(
                "INSERT INTO matches (game, players, options, created) VALUES (?, ?, ?, ?)",
                header,
            )
            mid = int(cur.lastrowid)
            integrity.record_match(self.db, mid, *header)
            self._appended += 1
            self.append(mid, "new", {"game": game, "players": list(players), "options": options})
            self.set_current(mid)
        return Match(mid, game, tuple(players), dict(options), created)

    def match(self, match_id: int, damaged: bool = False) -> Match:
        """The match `match_id`; one that cannot be read is an error naming why, or with
        `damaged`, returned marked (Match.damage) for `referee verify` to report."""
        row = self._one(
            "SELECT id, game, players, options, created FROM matches WHERE id = ?", (match_id,)
        )
        if row is None:
            for p in self.database_problems():  # a dropped match is not just "no match"
                raise RefereeError(p.what, p.where)
            raise RefereeError(f"no match {match_id} (see `referee matches`)", str(self.path))
        header = self._one("SELECT header FROM heads WHERE match = ?", (match_id,)) \
            if integrity.installed(self.db) else None
        m = self._match(row, None if header is None else header[0])
        if m.damage is not None and not damaged:
            raise RefereeError(m.damage, str(self.path))
        return m

    def matches(self) -> list[Match]:
        """Every match; a damaged one is listed too, marked (Match.damage)."""
        found = self._all("SELECT id, game, players, options, created FROM matches ORDER BY id")
        headers = self._guarded(integrity.headers)
        return [self._match(r, None if headers is None else headers.get(r[0])) for r in found]

    def _match(self, row: tuple, header: object = None) -> Match:
        """A match's row as a Match, each column checked (rows.py) and the whole against the
        header hash recorded for it (None: none recorded); a damaged one says why."""
        try:
            rows.check("matches", rows.MATCH, row, row[0], str(self.path))
            if header is not None:  # (no heads row: database_problems reports it)
                changed = self._guarded(
                    lambda db: integrity.header_problem(db, row, header, str(self.path)))
                if changed is not None:
                    raise RefereeError(changed.what, changed.where)
        except RefereeError as e:
            return self._damaged(row[0], e.what)
        return Match(row[0], row[1], tuple(json.loads(row[2])), json.loads(row[3]), row[4])

    def _damaged(self, match_id: int, why: str) -> Match:
        """A damaged match, grouped by its first event's game, players and options when they
        read as the referee writes them (`playtests GAME` then names it instead of leaving it
        out), else by none."""
        first = self._one("SELECT data FROM events WHERE match = ? AND seq = 1", (match_id,))
        try:
            new = json.loads(first[0])
            game, players, options = new["game"], tuple(new["players"]), dict(new["options"])
            if rows.sound("matches", rows.MATCH[1:4],
                          (game, json.dumps(players), json.dumps(options))):
                return Match(match_id, game, players, options, "", why)
        except (TypeError, ValueError, KeyError, RecursionError):
            pass
        return Match(match_id, "", (), {}, "", why)

    def _guarded(self, read: Any) -> Any:
        try:
            return read(self.db)
        except sqlite3.DatabaseError as e:
            raise self._failed(e) from None

    def current(self) -> Match:
        return self.match(self.current_id())

    def current_id(self) -> int:
        """The current match's number, as set (the match itself is not read)."""
        row = self._one("SELECT value FROM settings WHERE key = 'current'")
        if row is None:
            raise RefereeError(
                "no current match (start one with `referee new GAME --players a,b` "
                "or pick one with `referee use ID`)"
            )
        if type(row[0]) is int or (isinstance(row[0], str) and row[0].isdecimal()
                                   and row[0].isascii()):
            return int(row[0])
        raise RefereeError(f"the current match is unreadable (table settings, column value "
                           f"holds {rows.kind(row[0])}, edited behind the referee's back): pick "
                           "one with `referee use ID`", f"table settings; {self.path}")

    def set_current(self, match_id: int) -> Match:
        """Make a match the current one; returns it (an unknown id is an error)."""
        m = self.match(match_id)
        with self.transaction():
            self.db.execute(
                "INSERT INTO settings (key, value) VALUES ('current', ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (str(match_id),),
            )
        return m

    # events

    def append(self, match_id: int, kind: str, data: dict[str, Any]) -> Event:
        """Add one event at the end of the match's chain (inside the caller's transaction)."""
        with self.transaction():
            row = self.db.execute(
                "SELECT seq, hash FROM events WHERE match = ? ORDER BY seq DESC LIMIT 1",
                (match_id,),
            ).fetchone()
            seq, prev = (row[0] + 1, row[1]) if row else (1, GENESIS)
            body, at = _dump(data), _now()
            digest = event_hash(match_id, seq, kind, body, at, prev)
            self.db.execute(
                "INSERT INTO events (match, seq, kind, data, at, prev, hash) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, seq, kind, body, at, prev, digest),
            )
            integrity.record_append(self.db, match_id, seq, digest)
            self._appended += 1
        return Event(seq, kind, data)

    def stamped(self, match_id: int) -> list[Stamped]:
        """Every event of a match in order, the hash chain verified (a tampered log is an error
        naming the match and the first bad event)."""
        found = self._all(
            "SELECT seq, kind, data, at, prev, hash FROM events WHERE match = ? ORDER BY seq",
            (match_id,),
        )
        out: list[Stamped] = []
        prev = GENESIS
        for expected, row in enumerate(found, start=1):
            seq, kind, data, at, link, digest = row
            where = f"match {match_id}, event {seq}; {self.path}"
            if seq != expected:
                raise RefereeError(f"tampered log: event {expected} is missing", where)
            rows.check("events", rows.EVENT[1:], row[1:], match_id, where, seq)
            if link != prev or event_hash(match_id, seq, kind, data, at, link) != digest:
                raise RefereeError(f"tampered log: event {seq} breaks the hash chain", where)
            try:
                payload = json.loads(data)
            except json.JSONDecodeError:
                raise RefereeError(f"tampered log: event {seq} is unreadable", where) from None
            out.append(Stamped(Event(seq, kind, payload), at))
            prev = digest
        if not out:
            raise RefereeError(f"tampered log: match {match_id} has no events", str(self.path))
        problems = self.head_problems(match_id, len(out), prev)
        if problems:
            raise RefereeError(problems[0].what, problems[0].where)
        return out

    def head_problems(self, match_id: int, count: int, head: str) -> list[integrity.Problem]:
        """The match's header and chain head against its heads row (a cut tail, an edited
        header), and the database against its manifest (a dropped match)."""
        where = f"match {match_id}; {self.path}"
        try:
            row = self.db.execute("SELECT id, game, players, options, created FROM matches "
                                  "WHERE id = ?", (match_id,)).fetchone()
            if row:
                rows.check("matches", rows.MATCH, row, match_id, where)
            found = integrity.match_problems(self.db, row, count, head, where) if row else []
            return found + self.database_problems()
        except sqlite3.DatabaseError as e:
            raise self._failed(e) from None

    def database_problems(self) -> list[integrity.Problem]:
        """Whole-database checks (a match dropped or its head record changed): one row per
        match, done again only when the database changed since (PRAGMA data_version counts
        other connections' commits, _appended this one's matches and events; cache writes such
        as snapshots do not count)."""
        try:
            key = (self.db.execute("PRAGMA data_version").fetchone()[0], self._appended)
            if self._db_checked is None or self._db_checked[0] != key:
                self._db_checked = (key, integrity.database_problems(self.db, str(self.path)))
            return self._db_checked[1]
        except sqlite3.DatabaseError as e:
            raise self._failed(e) from None

    def last_seq(self, match_id: int) -> int:
        """The number of the match's last event (0: none); an event numbered with anything but
        an integer (an edit behind the referee's back) is reported as stamped() reports it."""
        last = self._one("SELECT max(seq) FROM events WHERE match = ?", (match_id,))[0]
        if last is not None and type(last) is not int:
            self.stamped(match_id)  # names the event the odd number stands for
            raise RefereeError(f"tampered log: match {match_id} has an event numbered {last!r}",
                               f"match {match_id}; {self.path}")
        return last or 0

    def events(self, match_id: int) -> list[Event]:
        return [s.event for s in self.stamped(match_id)]




def _now() -> str:
    """When an event was recorded: kept for the log and exports, never read by the rules."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
