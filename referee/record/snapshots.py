"""A cache of folded states, so a long match does not replay from its first event every time.

Why: state is a fold over the log (the record), and replaying 20,000 events takes seconds. A
snapshot keeps the state after event `seq`, keyed by that event's hash, the rules' source code
and the moves retracted up to it, plus a digest of every event up to it as stored; a command
folds only the events after the newest snapshot still valid. The log stays the record: a
snapshot is never trusted past what it was made from (any edit of the events before it changes
the digest, and then the whole chain is verified and replayed as without a cache), and deleting
every snapshot only costs time.

Snapshots are pickles read back with an unpickler that builds nothing but the referee's own
dataclasses, named tuples and plain containers (state_pickle.py: a database someone hands you
cannot run code this way), and each row carries an HMAC over every column under the user's key
(key.py, kept outside the database): an edited row is passed over, never trusted, and
`referee verify` folds the events again and compares every snapshot with the fold.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import sqlite3
import sys
import zlib
from array import array
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from referee import engine
from referee.engine import Event, Game, RefereeError
from referee.record import fold_memo, key, state_pickle, trust_memo
from referee.record.block_digest import BlockDigest
from referee.record.block_digest import digest as events_digest
from referee.record.rows import EVENT
from referee.record.rows import check as checked_row
from referee.record.store import GENESIS, Stamped, Store, event_hash

SCHEMA = """
CREATE TABLE IF NOT EXISTS snapshots (
    match INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    hash TEXT NOT NULL,
    code TEXT NOT NULL,
    gone TEXT NOT NULL,
    content TEXT NOT NULL,
    marks BLOB NOT NULL,
    state BLOB NOT NULL,
    mac TEXT NOT NULL,
    PRIMARY KEY (match, seq)
);
CREATE INDEX IF NOT EXISTS events_control ON events (match, seq)
    WHERE kind NOT IN ('move', 'rejected')
"""
KEEP_HEADS = 4  # the newest snapshots kept per match (undo falls back on the one before)
ANCHOR = 500  # snapshots at multiples of this seq are kept longer (undo of several moves)
KEEP_ANCHORS = 3
SAVE_IN_WRITE = 100  # a write command (play, undo...) saves no snapshot of fewer new events:
# pickling one holds the write lock longer, and the next command folds those few again
SAVE_IN_READ = 25  # nor does a reading command, unless it replayed the match from the start:
# pickling a long match's state costs a `show` after every move more than folding 25 moves
# again
ROW = "seq, kind, data, at, prev, hash, json_valid(data)"
READ = "seq, kind, data, at, json_valid(data)"  # what an event is read from, once verified
# a match's first and last event, from the index: counting every row to find a gap cost every
# command; a gap is found by the digest below a snapshot and the chain above it
SPAN = ("SELECT (SELECT min(seq) FROM events WHERE match = :match), "
        "(SELECT max(seq) FROM events WHERE match = :match)")


@cache
def code_fingerprint(game_class: type) -> str:
    """The rules' source (the game's folder, the engine and the table's corrections) and the
    Python version: a snapshot or summary made by other rules is never used."""
    module = sys.modules.get(game_class.__module__)
    folder = None
    if module is not None and getattr(module, "__file__", None):
        folder = str(Path(module.__file__).parent)
    return _source_fingerprint(folder)


def code_fingerprint_by_name(name: str) -> str | None:
    """code_fingerprint of the game named `name` without importing it (`standings` on kept
    summaries needs no rules): the folder of the module named like the game, which is where
    registry.game finds it. None when that module is not there or the game is registered in
    memory: ask code_fingerprint. A game whose class lives elsewhere gets another fingerprint
    than its summaries: they are rebuilt the ordinary way, never wrongly kept."""
    from referee import registry

    key = registry.name_key(name)
    modname = key.replace("-", "_")
    added = {registry.name_key(g.name) for g in registry.added()}
    if key in added or not modname.isidentifier() or key.startswith(("_", "-")):
        return None
    return _module_fingerprint(f"referee.games.{modname}")


@cache
def _module_fingerprint(modname: str) -> str | None:
    """Once per module and command: `standings` asks for each of 2,000 matches."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(modname)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return _source_fingerprint(str(Path(spec.origin).parent))


@cache
def _source_fingerprint(folder: str | None) -> str:
    h = hashlib.sha256(f"{sys.version_info[:2]}|{pickle.DEFAULT_PROTOCOL}".encode())
    files = [Path(engine.__file__), Path(engine.__file__).with_name("table.py"),
             Path(state_pickle.__file__)]
    if folder is not None:
        files += sorted(Path(folder).glob("*.py"))
    for f in files:
        try:
            h.update(f.name.encode() + b"\0" + f.read_bytes())
        except OSError:
            h.update(f.name.encode() + b"\0?")
    return h.hexdigest()


def _marks_blob(marks: Sequence[int]) -> bytes:
    return zlib.compress(array("I", marks).tobytes())


def marks_of(blob: bytes) -> list[int]:
    out = array("I")
    out.frombytes(zlib.decompress(blob))
    return out.tolist()


class Snapshot(NamedTuple):
    """A snapshot row whose MAC agrees with its columns."""

    seq: int
    head: str  # the hash of event `seq`, as the events table holds it
    code: str
    gone: str  # the moves retracted up to seq, as JSON
    content: str  # the digest of events 1..seq (block_digest.py)
    marks: bytes
    state: bytes


def _mac(match_id: int, seq: int, head: object, code: object, gone: object, content: object,
         marks: bytes, state: bytes) -> str | None:
    return key.mac("snapshot", match_id, seq, str(head), str(code), str(gone), str(content),
                   marks, state)


def gone_text(gone: set[int], seq: int) -> str:
    return json.dumps(sorted(g for g in gone if g <= seq))


def snapshot(db: sqlite3.Connection, match_id: int, seq: int) -> Snapshot | None:
    """The snapshot of the match at event `seq` when its MAC agrees and its event hash is that
    of event `seq` as stored; None otherwise (none, edited, or made under another key)."""
    try:
        row = db.execute(
            "SELECT s.hash, s.code, s.gone, s.content, CAST(s.marks AS BLOB), "
            "CAST(s.state AS BLOB), s.mac, e.hash FROM snapshots s LEFT JOIN events e "
            "ON e.match = s.match AND e.seq = s.seq WHERE s.match = ? AND s.seq = ?",
            (match_id, seq)).fetchone()
    except sqlite3.DatabaseError:
        return None
    if row is None:
        return None
    head, code, gone, content, marks, state, check, stored = row
    if head != stored or not key.agrees(check, "snapshot", match_id, seq, str(head), str(code),
                                        str(gone), str(content), marks or b"", state or b""):
        return None
    return Snapshot(seq, head, code, gone, content, marks, state)


def _stamped(row: tuple, where: str) -> Stamped:
    seq, kind, data, at = row[0], row[1], row[2], row[3]
    try:
        payload = json.loads(data)
    except (ValueError, RecursionError):  # not JSON, or nested past what Python reads
        raise RefereeError(f"tampered log: event {seq} is unreadable", where) from None
    return Stamped(Event(seq, kind, payload), at)


def _stamped_all(rows: list[tuple], match_id: int, path: str = "") -> list[Stamped]:
    """Rows (seq, kind, data, at, ..., json_valid(data)) as events. One json.loads over all
    their data, joined as an array, is several times faster than a call per row
    (bench/bench_referee.py). When SQLite found every row one JSON value, the array splits back
    into exactly one value per row; otherwise each row is read alone and an unreadable one
    is reported by its seq."""
    if all(r[-1] for r in rows):
        try:
            payloads = json.loads("[" + ",".join([r[2] for r in rows]) + "]")
        except (ValueError, RecursionError):
            payloads = ()
        if len(payloads) == len(rows):
            return [Stamped(Event(r[0], r[1], p), r[3])
                    for r, p in zip(rows, payloads, strict=True)]
    return [_stamped(r, f"match {match_id}, event {r[0]}{path}") for r in rows]


class LazyLog(Sequence[Stamped]):
    """A match's events as stored, read from the database when asked for (a 20,000-event match
    is not parsed for a command that looks at its last event). Only events already verified
    are handed out: the rows are immutable, the chain was checked before."""

    def __init__(self, store: Store, match_id: int, count: int, known: dict[int, Stamped]):
        self._store, self._match, self._count, self._known = store, match_id, count, known

    def __len__(self) -> int:
        return self._count

    def span(self, first: int, last: int) -> list[Stamped]:
        """Events first..last, those not read yet read in one query (a fold from a snapshot
        far back, a whole log printed)."""
        known = self._known
        if not all(k in known for k in range(first, last + 1)):
            self._read(first, last)
        return [known[k] for k in range(first, last + 1)]

    def _read(self, first: int, last: int) -> None:
        rows = self._store.db.execute(
            f"SELECT {READ} FROM events WHERE match = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            (self._match, first, last)).fetchall()
        for s in _stamped_all(rows, self._match):
            self._known.setdefault(s.event.seq, s)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._count))]
        if i < 0:
            i += self._count
        if not 0 <= i < self._count:
            raise IndexError(i)
        seq = i + 1
        if seq not in self._known:
            row = self._store.db.execute(f"SELECT {READ} FROM events WHERE match = ? AND seq = ?",
                                         (self._match, seq)).fetchone()
            self._known[seq] = _stamped(row, f"match {self._match}, event {seq}")
        return self._known[seq]

    def __iter__(self) -> Iterator[Stamped]:
        return iter(self.span(1, self._count))


class EventsView(Sequence[Event]):
    """The events of a LazyLog (what Loaded.events holds)."""

    def __init__(self, log: LazyLog):
        self._log = log

    def __len__(self) -> int:
        return len(self._log)

    def __getitem__(self, i):  # type: ignore[override]
        got = self._log[i]
        return [s.event for s in got] if isinstance(i, slice) else got.event

    def __iter__(self) -> Iterator[Event]:
        return (s.event for s in self._log)


class Folded(NamedTuple):
    """A match folded through the cache: the state after event `seq`, the ledger length after
    every event (for `log`), and the events, read lazily. (A named tuple: cheaper to create
    at import than a dataclass.)"""

    state: Any
    marks: list[int]
    log: LazyLog
    seq: int
    control: tuple[Event, ...] = ()  # every event but moves and rejected ones, up to seq


def end_read(db: sqlite3.Connection) -> None:
    """End a read transaction; a database too damaged to end it was reported already."""
    try:
        if db.in_transaction:
            db.execute("COMMIT")
    except sqlite3.DatabaseError:
        pass


def _read(store: Store, match_id: int, game: Game, upto: int | None, replay: bool) -> tuple:
    """The verified part of fold(): the events checked and read, the best snapshot taken."""
    db, where = store.db, f"match {match_id}; {store.path}"
    first, last = db.execute(SPAN, {"match": match_id}).fetchone()
    if first != 1 or type(last) is not int:  # no events, or rows before event 1 or odd seqs
        store.stamped(match_id)  # reports the missing event (or no events) exactly
        raise RefereeError(f"tampered log: match {match_id} has a gap", where)
    target = last if upto is None else upto
    control = _control(store, match_id)
    gone = engine.retracted(control)
    code = code_fingerprint(type(game))
    start = _usable(store, match_id, target, code, gone, replay)
    if start is None:  # fold from the first event; verify from the newest snapshot that fits
        state, marks, from_seq, content = None, [], 0, BlockDigest()
        checked, prev = _verified(store, match_id)
    else:
        from_seq, prev, state, marks, content = start
        checked = from_seq
    rows = db.execute(f"SELECT {ROW} FROM events WHERE match = ? AND seq > ? ORDER BY seq",
                      (match_id, checked)).fetchall()
    for expected, row in enumerate(rows, start=checked + 1):
        seq, kind, data, at, link, digest, _ = row
        w = f"match {match_id}, event {seq}; {store.path}"
        if seq != expected:  # a gap after the events the snapshot vouches for (one below
            raise RefereeError(f"tampered log: event {expected} is missing", w)  # it: digest)
        checked_row("events", EVENT[1:], row[1:6], match_id, w, seq)
        if link != prev or event_hash(match_id, seq, kind, data, at, link) != digest:
            raise RefereeError(f"tampered log: event {seq} breaks the hash chain", w)
        prev = digest
    # events after `replay --to N` are verified, not read
    known = {s.event.seq: s for s in _stamped_all([r for r in rows if r[0] <= target],
                                                    match_id, f"; {store.path}")}
    for p in store.head_problems(match_id, last, prev):
        raise RefereeError(p.what, p.where)
    control = tuple(e for e in control if e.seq <= target)
    return target, last, gone, code, from_seq, state, marks, known, control, content


def _control(store: Store, match_id: int) -> list[Event]:
    """Every event but moves and rejected ones, read before the chain is checked: one that
    is not as the referee writes it is reported as store.stamped() reports it."""
    found = store.db.execute(
        "SELECT seq, kind, data FROM events WHERE match = ? AND kind NOT IN ('move', 'rejected')"
        " ORDER BY seq", (match_id,)).fetchall()
    try:
        return [Event(r[0], r[1], json.loads(r[2])) for r in found]
    except (TypeError, ValueError, RecursionError):
        store.stamped(match_id)  # names the event and what is wrong with it
        raise RefereeError(f"tampered log: an event of match {match_id} is unreadable",
                           f"match {match_id}; {store.path}") from None


def fold(store: Store, match_id: int, game: Game, upto: int | None = None,
         replay: bool = True, keep: bool = True) -> Folded:
    """The state after event `upto` (the last when None), from the newest valid snapshot and
    the events after it; the whole chain, header and head verified as store.stamped does.
    replay=False: verified the same way, but no state (None): nothing unpickled or folded.
    keep=False: no snapshot saved (`verify` leaves an edited one as it found it)."""
    db = store.db
    reading = not db.in_transaction  # one read transaction: a consistent view of the
    if reading:  # events, the heads and the snapshots while another terminal appends
        db.execute("BEGIN")
    try:
        target, last, gone, code, from_seq, state, marks, known, control, content = _read(
            store, match_id, game, upto, replay)
    except sqlite3.DatabaseError as e:  # damaged, locked, unreadable: one line, as everywhere
        raise store._failed(e) from None
    finally:
        if reading:
            end_read(db)
    log = LazyLog(store, match_id, target, known)
    if not replay:
        return Folded(None, [], log, target, control)
    tail = [s.event for s in log.span(from_seq + 1, target)]
    try:
        for e, after in engine.steps(game, tail, state, gone):
            state = after
            marks.append(len(game.ledger(state)) if state is not None else 0)
            if keep and e.seq % ANCHOR == 0 and e.seq != target and e.seq - from_seq >= ANCHOR:
                content = _save(store, match_id, e.seq, state, marks, code, gone, content)
    except RefereeError as e:
        raise RefereeError(f"match {match_id} no longer replays: {e}",
                           f"match {match_id} log") from None
    if keep and (target - from_seq >= (SAVE_IN_WRITE if store.writing else SAVE_IN_READ) or (
            target > from_seq == 0 and not store.writing) or (  # a read that replayed it all
            any(m == match_id for m, _ in _damaged(store)))):  # or passed over an edited one
        content = _save(store, match_id, target, state, marks, code, gone, content)
    if target > from_seq and store.writing:
        head = db.execute("SELECT hash FROM events WHERE match = ? AND seq = ?",
                          (match_id, target)).fetchone()[0]
        fold_memo.remember(store, match_id, fold_memo.Remembered(
            target, head, code, tuple(sorted(g for g in gone if g <= target)), state,
            tuple(marks[:target]),
            content.copy().extend(db, match_id, target) if content is not None else None))
    return Folded(state, marks, log, target, control)


def _verified(store: Store, match_id: int) -> tuple[int, str]:
    """(seq, hash) up to which the events are as when the newest snapshot was made (its
    digest of them still matches), or (0, GENESIS): those need no hashing one by one."""
    try:
        row = store.db.execute("SELECT max(seq) FROM snapshots WHERE match = ?",
                               (match_id,)).fetchone()
    except sqlite3.DatabaseError:
        return 0, GENESIS
    found = snapshot(store.db, match_id, row[0]) if type(row[0]) is int else None
    if found is None:  # none, or edited: not mistaken for an edited event
        return 0, GENESIS
    if not trust_memo.known(store, match_id, found.seq, found.content):
        if events_digest(store.db, match_id, found.seq) != found.content:
            return 0, GENESIS
        trust_memo.learned(store, match_id, found.seq, found.content)
    return found.seq, found.head


def _usable(store: Store, match_id: int, target: int, code: str, gone: set[int],
            replay: bool = True) -> tuple[int, str, Any, list[int], BlockDigest | None] | None:
    """The newest snapshot at or before `target` made by these rules, for these retractions, of
    these events as stored, its MAC agreeing: (seq, its event hash, state, marks, digest of the
    events up to it), or None. replay=False: its state is not unpickled (None)."""
    db = store.db
    recalled = fold_memo.recall(store, match_id, target, code, gone)
    try:
        rows = db.execute("SELECT seq FROM snapshots WHERE match = ? AND seq <= ? AND "
                          "code = ? ORDER BY seq DESC", (match_id, target, code)).fetchall()
    except sqlite3.DatabaseError:
        rows = []  # no snapshots table (a read-only database made before it): no cache
    for (seq,) in rows:
        if type(seq) is not int:
            continue
        if recalled is not None and seq <= recalled.seq:
            break  # this command folded as far already
        found = snapshot(db, match_id, seq)
        if found is None:  # an edited cache entry: ignored, never trusted, and dropped by the
            _damaged(store).add((match_id, seq))  # next snapshot saved
            continue
        if found.code != code or found.gone != gone_text(gone, seq):
            continue
        content = str(found.content)
        if match_id in store.chain_checked:  # `referee verify` hashed every event again in
            events = None  # this read: no digest (a snapshot saved digests from event 1)
        elif trust_memo.known(store, match_id, seq, content):  # the file is as it was when
            events = BlockDigest.resume(content)  # these events were found to digest so
        else:
            events = BlockDigest().extend(db, match_id, seq)
            if events.text() != content:
                return None  # the events before it changed: verify and replay all (reports it)
            trust_memo.learned(store, match_id, seq, content)
        if not replay:
            return seq, found.head, None, [], events
        try:
            state = state_pickle.loads(found.state)
            marks = marks_of(found.marks)
        except Exception:  # noqa: BLE001 - any unreadable cache entry is only a cache miss
            continue
        fold_memo.remember(store, match_id, fold_memo.Remembered(
            seq, found.head, code, tuple(sorted(g for g in gone if g <= seq)), state,
            tuple(marks), events.copy() if events is not None else None))
        return seq, found.head, state, marks, events
    if recalled is not None:
        r = recalled
        return r.seq, r.head, r.state, list(r.marks), r.events
    return None


def _save(store: Store, match_id: int, seq: int, state: Any, marks: list[int], code: str,
          gone: set[int], events: BlockDigest | None) -> BlockDigest | None:
    """Keep a snapshot if the database can be written right now without waiting (a reading
    command never waits for, nor holds up, a writer for the sake of a cache). `events` is the
    digest of the events before the fold, taken on to `seq` here (the log is not read again);
    None: not at hand, digested from event 1. Returns the digest (None when not saved)."""
    if store.read_only is not None:
        return events
    try:
        state_blob = state_pickle.dumps(state)
    except Exception:  # noqa: BLE001 - a state that cannot be pickled is simply not cached
        return events
    earlier = events is not None and events.seq > 0 and not store.writing  # partly read in
    # the read transaction before this one
    events = events if events is not None else BlockDigest()
    marks_blob = _marks_blob(marks[:seq])
    db = store.db
    own_tx = not db.in_transaction
    try:
        if own_tx:
            db.execute("PRAGMA busy_timeout=0")
            db.execute("BEGIN IMMEDIATE")
        _schema(db)
        head = db.execute("SELECT hash FROM events WHERE match = ? AND seq = ?",
                          (match_id, seq)).fetchone()[0]
        content = events.extend(db, match_id, seq).text()
        gone_json = gone_text(gone, seq)
        check = _mac(match_id, seq, head, code, gone_json, content, marks_blob, state_blob)
        if check is None:  # no key: a cache nobody could check is not kept
            raise sqlite3.DatabaseError("no key")
        db.execute("INSERT OR REPLACE INTO snapshots (match, seq, hash, code, gone, content, "
                   "marks, state, mac) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (match_id, seq, head, code, gone_json, content, marks_blob, state_blob,
                    check))
        for m, bad in [d for d in _damaged(store) if d[0] == match_id]:
            db.execute("DELETE FROM snapshots WHERE match = ? AND seq = ?", (m, bad))
            _damaged(store).discard((m, bad))
        _prune(db, match_id)
        trust_memo.learned(store, match_id, seq, content, earlier)
        if own_tx:
            db.execute("COMMIT")
        return events
    except sqlite3.DatabaseError:
        if own_tx and db.in_transaction:
            db.execute("ROLLBACK")
        return None
    finally:
        if own_tx:
            from referee.record.store import BUSY_MS

            db.execute(f"PRAGMA busy_timeout={BUSY_MS}")


def _damaged(store: Store) -> set[tuple[int, int]]:
    """The snapshots (match, seq) this connection found edited: the next one saved for the
    match drops them (a cache row that fails is rebuilt, not kept)."""
    return store.__dict__.setdefault("_damaged_snapshots", set())


def _schema(db: sqlite3.Connection) -> None:
    """The snapshots table as this referee keeps it; one made before the MAC column (its rows
    cannot be checked) is dropped: it is a cache, deleting it only costs time."""
    columns = {r[1] for r in db.execute("PRAGMA table_info(snapshots)")}
    if columns and "mac" not in columns:
        db.execute("DROP TABLE snapshots")
    for stmt in SCHEMA.split(";\n"):
        db.execute(stmt)


def _prune(db: sqlite3.Connection, match_id: int) -> None:
    seqs = [r[0] for r in db.execute("SELECT seq FROM snapshots WHERE match = ? ORDER BY seq "
                                     "DESC", (match_id,)) if type(r[0]) is int]  # a row with an
    # edited seq fails its MAC: left as found, `referee verify` reports it
    anchors = [s for s in seqs if s % ANCHOR == 0][:KEEP_ANCHORS]
    keep = set(seqs[:KEEP_HEADS]) | set(anchors)
    for s in seqs:
        if s not in keep:
            db.execute("DELETE FROM snapshots WHERE match = ? AND seq = ?", (match_id, s))
