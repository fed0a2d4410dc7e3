"""Every event of a match hashed again, in one pass over the rows as stored: what `referee
verify` does whatever the caches say, reporting exactly what store.stamped() reports.

Why not store.stamped(): it builds an event object (and parses its JSON) per row, a whole
command's time on a long match. Here SQLite joins each column of the rows into one string in one pass (kind,
data, time and link, the values separated by \\x1e), with the hashes, and checks the JSON;
Python splits the columns, joins each row's hashed text (match, seq, kind, data, time and the
previous hash, by \\x1f as store.event_hash joins them), hashes it and compares the hashes
and links. (SQLite writing each row's text with printf cost more than the whole rest.)
"""

from __future__ import annotations

import hashlib
import json
from operator import methodcaller

from referee.engine import RefereeError
from referee.record import rows
from referee.record.store import GENESIS, Store

SEP = "\x1f"  # literal in the SQL (char(31) would be called per row)
BODY = (f"CAST(CAST(? AS TEXT) || '{SEP}' || seq || '{SEP}' || kind || '{SEP}' || data || "
        f"'{SEP}' || at || '{SEP}' || prev AS BLOB)")
ROWS = "\x1e"  # between the rows' values of a column; written by json.dumps as \u001e
COLUMNS = ("kind", "data", "at", "prev")  # of the hashed text, after match and seq
JOINED = ("count(*), min(seq), max(seq), min(json_valid(data)), group_concat(hash, ''), "
          + ", ".join(f"CAST(group_concat({c}, '{ROWS}') AS BLOB)" for c in COLUMNS))
ONE_PASS = f"SELECT {JOINED} FROM events WHERE match = ?"  # in the key's order (match, seq), as
# the digests of referee/event_digest.py read it; a row out of order only sends it event by event
EVERY_MATCH = f"SELECT match, {JOINED} FROM events GROUP BY match"  # the same, in one scan of
# the key (no sort): `verify --all` on 2,000 matches makes one query, not 2,000
NO_EVENTS = (0, None, None, None, None) + (None,) * len(COLUMNS)  # a match without rows


def every_match(store: Store) -> dict[int, tuple]:
    """ONE_PASS's row of every match that has events, read in one query (for check's `joined`)."""
    return {row[0]: row[1:] for row in store._all(EVERY_MATCH)}


def check(store: Store, match_id: int, joined: tuple | None = None) -> None:
    """Raise the first problem of the match's chain (a missing event, an event that breaks the
    chain, an unreadable one, no events, a cut tail or edited header) as a RefereeError.
    One pass: SQLite joins each column of the rows (no text built per row: printf cost more
    than the rest of the pass); Python splits the columns, joins each row's hashed text and
    hashes it. `joined`: the match's row of every_match(), when read with the others."""
    count, first, last, readable, hashes, *columns = joined or store._one(ONE_PASS, (match_id,))
    if not count:
        raise RefereeError(f"tampered log: match {match_id} has no events", str(store.path))
    if (first, last) != (1, count) or not readable or not _linked(match_id, count, hashes,
                                                                   columns):
        _first_problem(store, match_id)  # found again event by event, to say which and how
    for p in store.head_problems(match_id, count, hashes[-64:]):
        raise RefereeError(p.what, p.where)


def _linked(match_id: int, count: int, hashes: str, columns: list[bytes | None]) -> bool:
    """Whether every row hashes to its stored hash and links to the one before, rows 1..count
    in order. Any doubt (a value holding the separator, a NULL, a link not 64 long) is False:
    the caller then goes event by event, which names the problem or finds none."""
    if None in columns:
        return False
    rows, sep = ROWS.encode(), SEP.encode()
    kinds, datas, ats, links = (c.split(rows) for c in columns)
    if {len(kinds), len(datas), len(ats), len(links)} != {count} or set(map(len, links)) != {64}:
        return False
    seqs = f"{ROWS}{match_id}{SEP}".join(map(str, range(1, count + 1)))
    firsts = f"{match_id}{SEP}{seqs}".encode().split(rows)  # each row's match and seq
    bodies = map(sep.join, zip(firsts, kinds, datas, ats, links, strict=True))
    computed = b"".join(map(methodcaller("digest"), map(hashlib.sha256, bodies))).hex()
    return computed == hashes and b"".join(links) == (GENESIS + computed[:-64]).encode()


def _first_problem(store: Store, match_id: int) -> None:
    """The first problem in the order store.stamped() finds them, event by event (SQLite's
    verdict on the JSON is confirmed by Python's, which store.stamped() uses)."""
    prev = GENESIS
    found = store._all(f"SELECT seq, prev, hash, {BODY}, json_valid(data), data, kind, at "
                       "FROM events WHERE match = ? ORDER BY seq", (str(match_id), match_id))
    for expected, row in enumerate(found, start=1):
        seq, link, digest, body, valid, data = row[:6]
        where = f"match {match_id}, event {seq}; {store.path}"
        if seq != expected:
            raise RefereeError(f"tampered log: event {expected} is missing", where)
        rows.check("events", ("prev", "hash", "data", "kind", "at"), row[1:3] + row[5:],
                   match_id, where, seq)
        if link != prev or hashlib.sha256(body).hexdigest() != digest:
            raise RefereeError(f"tampered log: event {seq} breaks the hash chain", where)
        if not valid:
            try:
                json.loads(data)
            except (TypeError, ValueError):
                raise RefereeError(f"tampered log: event {seq} is unreadable", where) from None
        prev = digest
