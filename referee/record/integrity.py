"""Tamper evidence beyond the per-match hash chain: match headers, chain heads, the whole database.

Why: the chain alone cannot see its own end cut off (delete the last events: what is left still
links up), nor a match dropped whole, nor an edited match header (options, creation time) that
lies outside the chain. So each match has a `heads` row: the hash of its header, its event
count and the hash of its last event, updated in the same transaction as every append. The
database keeps a manifest: the XOR of one digest per heads row, with the number of matches
ever created, updated with each change. A cut tail disagrees with its heads row, an edited
header with its header hash, a dropped match (events, header and heads row together) with the
manifest.

Threat model (honest): this catches edits made behind the referee's back with any SQLite tool
that do not recompute every hash, header digest and the manifest. Someone who can rewrite the
whole file consistently (this code is public, there is no secret) cannot be stopped: only a copy
kept elsewhere, or a secret key the editor lacks, could tell. The checks make tampering visible,
not impossible.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import NamedTuple

from referee.record import rows

GENESIS = "0" * 64
VERSION = 2  # PRAGMA user_version of a database guarded by heads and manifest

SCHEMA = """
CREATE TABLE IF NOT EXISTS heads (
    match INTEGER PRIMARY KEY,
    header TEXT NOT NULL,
    count INTEGER NOT NULL,
    head TEXT NOT NULL
)
"""


class Problem(NamedTuple):
    """What broke, and where (a match, an event, or the database as a whole)."""

    what: str
    where: str

    def __str__(self) -> str:
        return f"{self.what} ({self.where})"


def header_hash(match_id: int, game: str, players: str, options: str, created: str) -> str:
    """The digest of a match header as stored (players and options as their stored JSON)."""
    body = "\x1f".join(("header", str(match_id), game, players, options, created))
    return hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()


def _row_digest(match_id: int, header: str, count: int, head: str) -> int:
    body = f"{match_id}\x1f{header}\x1f{count}\x1f{head}".encode()
    return int.from_bytes(hashlib.sha256(body).digest(), "big")


def _setting(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def _put(db: sqlite3.Connection, key: str, value: str) -> None:
    db.execute("INSERT INTO settings (key, value) VALUES (?, ?) "
               "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))


def _manifest(db: sqlite3.Connection) -> tuple[int, int]:
    """(matches ever created, XOR digest); (-1, -1) when the record is unreadable."""
    value = _setting(db, "manifest") or "0:0"
    if not rows.sound("settings", ("value",), (value,)):
        return -1, -1
    made, _, digest = value.partition(":")
    try:
        return int(made), int(digest or "0", 16)
    except ValueError:
        return -1, -1


def _save_manifest(db: sqlite3.Connection, made: int, digest: int) -> None:
    _put(db, "manifest", f"{made}:{digest:064x}")


def installed(db: sqlite3.Connection) -> bool:
    row = db.execute("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='heads'")
    return bool(row.fetchone()[0])


def needs_install(db: sqlite3.Connection) -> bool:
    """True for a database made before heads existed (PRAGMA user_version below VERSION). One
    whose heads table went missing later is not adopted again: database_problems reports it."""
    return not installed(db) and db.execute("PRAGMA user_version").fetchone()[0] < VERSION


def install(db: sqlite3.Connection) -> None:
    """Add the heads table and manifest to a database made before them (inside a write
    transaction): what is there now is trusted from here on (trust on first use)."""
    db.execute(SCHEMA)
    made, digest = 0, 0
    for mid, game, players, options, created in db.execute(
            "SELECT id, game, players, options, created FROM matches ORDER BY id").fetchall():
        last = db.execute("SELECT seq, hash FROM events WHERE match = ? ORDER BY seq DESC "
                          "LIMIT 1", (mid,)).fetchone()
        count, head = (last[0], last[1]) if last else (0, GENESIS)
        header = header_hash(mid, game, players, options, created)
        db.execute("INSERT OR REPLACE INTO heads (match, header, count, head) VALUES (?,?,?,?)",
                   (mid, header, count, head))
        made, digest = max(made, mid), digest ^ _row_digest(mid, header, count, head)
    _save_manifest(db, made, digest)
    db.execute(f"PRAGMA user_version = {VERSION}")


def record_match(db: sqlite3.Connection, match_id: int, game: str, players: str, options: str,
                 created: str) -> None:
    """A new match's heads row (no events yet), folded into the manifest."""
    header = header_hash(match_id, game, players, options, created)
    db.execute("INSERT INTO heads (match, header, count, head) VALUES (?, ?, 0, ?)",
               (match_id, header, GENESIS))
    made, digest = _manifest(db)
    if digest >= 0:  # an unreadable manifest stays unreadable: it is reported, not mended
        _save_manifest(db, max(made, match_id), digest ^ _row_digest(match_id, header, 0, GENESIS))


def record_append(db: sqlite3.Connection, match_id: int, seq: int, digest_hex: str) -> None:
    """Move a match's head to the event just appended, and the manifest with it."""
    row = db.execute("SELECT header, count, head FROM heads WHERE match = ?",
                     (match_id,)).fetchone()
    if row is None:
        return  # an unknown match: the append's foreign key refuses it anyway
    header, count, head = row
    db.execute("UPDATE heads SET count = ?, head = ? WHERE match = ?", (seq, digest_hex, match_id))
    made, digest = _manifest(db)
    if digest >= 0:
        digest ^= _row_digest(match_id, header, count, head) ^ _row_digest(match_id, header, seq,
                                                                             digest_hex)
        _save_manifest(db, made, digest)


def database_problems(db: sqlite3.Connection, where: str) -> list[Problem]:
    """Whole-database checks, cheap (one row per match): the manifest against the heads rows,
    the heads rows against the match headers."""
    if not installed(db):
        if db.execute("PRAGMA user_version").fetchone()[0] >= VERSION:
            return [Problem("tampered database: the record of every match's head (table heads) "
                            "was removed", where)]
        return []
    made, digest = _manifest(db)
    heads = db.execute("SELECT match, header, count, head FROM heads ORDER BY match").fetchall()
    ids = [r[0] for r in db.execute("SELECT id FROM matches ORDER BY id").fetchall()]
    found = 0
    out = []
    for row in heads:
        bad = rows.fault("heads", rows.HEAD, row)
        if bad is not None:  # named here; the manifest disagrees too
            out.append(Problem(rows.damaged(row[0], "heads", *bad, where).what, where))
            continue
        found ^= _row_digest(*row)
    heads = [r for r in heads if type(r[0]) is int]
    if found != digest or (heads and heads[-1][0] > made):
        out.append(Problem("tampered database: a match or a match's head record was removed or "
                           "changed (the manifest disagrees)", where))
    lost = sorted(set(r[0] for r in heads) - set(ids))
    extra = sorted(set(ids) - set(r[0] for r in heads))
    if lost:
        out.append(Problem(f"tampered database: match(es) {_ids(lost)} were deleted", where))
    if extra:
        out.append(Problem(f"tampered database: match(es) {_ids(extra)} were added behind the "
                           "referee's back", where))
    if made > 0 and made not in ids and not lost:
        out.append(Problem(f"tampered database: {made} matches were created, the last one "
                           f"(match {made}) is gone", where))
    return out


def match_problems(db: sqlite3.Connection, row: tuple, count: int, head: str,
                   where: str) -> list[Problem]:
    """One match's header and chain head against its heads row. `row` is the match record as
    stored (id, game, players, options, created); count/head are its last event's seq/hash."""
    if not installed(db):
        return []
    mid = row[0]
    rec = db.execute("SELECT header, count, head FROM heads WHERE match = ?", (mid,)).fetchone()
    if rec is None:
        return [Problem(f"tampered log: match {mid} has no head record (added behind the "
                        "referee's back)", where)]
    rows.check("heads", rows.HEAD[1:], rec, mid, where)
    header, want_count, want_head = rec
    out = []
    changed = header_problem(db, row, header, where)
    if changed is not None:
        out.append(changed)
    if count < want_count:
        gone = want_count - count
        out.append(Problem(f"tampered log: the last {gone} event(s) of match {mid} were deleted "
                           f"({want_count} recorded, {count} left)", where))
    elif count > want_count:
        out.append(Problem(f"tampered log: match {mid} has {count - want_count} event(s) more "
                           "than were recorded", where))
    elif head != want_head:
        out.append(Problem(f"tampered log: event {count} of match {mid} is not the one recorded",
                           where))
    return out


def headers(db: sqlite3.Connection) -> dict[object, object] | None:
    """Every match's header hash as its heads row records it (None: no heads table, a
    database from before them)."""
    if not installed(db):
        return None
    return dict(db.execute("SELECT match, header FROM heads").fetchall())


def header_problem(db: sqlite3.Connection, row: tuple, header: object,
                   where: str) -> Problem | None:
    """A match row (its columns checked: rows.py) against the header hash recorded for it;
    the problem names the column that differs from the match's first event where it can."""
    if header == header_hash(*row):
        return None
    mid = row[0]
    column = "created"
    first = db.execute("SELECT data FROM events WHERE match = ? AND seq = 1", (mid,)).fetchone()
    try:
        new = json.loads(first[0])
        for name, stored in (("game", row[1]), ("players", json.loads(row[2])),
                             ("options", json.loads(row[3]))):
            if new.get(name) != stored:
                column = name
                break
    except (TypeError, ValueError, AttributeError, RecursionError):
        column = "game, players, options or created"
    return Problem(f"match {mid} is damaged: the header of match {mid} (game, players, options "
                   f"or creation time) was changed (table matches, column {column}): run "
                   "`referee verify`", where)


def _ids(ids: list[int]) -> str:
    return ", ".join(str(i) for i in ids[:10]) + (f" and {len(ids) - 10} more"
                                                  if len(ids) > 10 else "")
