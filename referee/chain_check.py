"""Every event of a match hashed again, in one pass over the rows as stored: what `referee
verify` does whatever the caches say, reporting exactly what store.stamped() reports.

Why not store.stamped(): it builds an event object (and parses its JSON) per row, 150 ms for
20,000 events. Here SQLite writes each row's hashed text (match, seq, kind, data, time and the
previous hash, joined by \\x1f as store.event_hash joins them) into one string in one pass,
with the hashes and links, and checks the JSON; Python splits it, hashes each text and compares
the lists of hashes and links.
"""

from __future__ import annotations

import hashlib
import json
from operator import methodcaller

from referee.engine import RefereeError
from referee.store import GENESIS, Store

SEP = "\x1f"  # literal in the SQL (char(31) would be called per row)
BODY = (f"CAST(CAST(? AS TEXT) || '{SEP}' || seq || '{SEP}' || kind || '{SEP}' || data || "
        f"'{SEP}' || at || '{SEP}' || prev AS BLOB)")
ROWS = "\x1e"  # between the rows' texts in the one pass; written by json.dumps as \u001e
ONE_PASS = (
    "SELECT count(*), min(seq), max(seq), group_concat(hash, ''), group_concat(prev, ''), "
    "min(json_valid(data)), CAST(group_concat(printf('%d" + SEP + "%d" + SEP + "%s" + SEP
    + "%s" + SEP + "%s" + SEP + "%s', match, seq, kind, data, at, prev), '" + ROWS
    + "') AS BLOB) FROM events WHERE match = ?")  # in the key's order (match, seq), as the
# digests of referee/event_digest.py read it; a row out of order only sends it event by event


def check(store: Store, match_id: int) -> None:
    """Raise the first problem of the match's chain (a missing event, an event that breaks the
    chain, an unreadable one, no events, a cut tail or edited header) as a RefereeError.
    One pass: SQLite writes each row's hashed text (printf: one string per row) and joins
    them with the hashes and links; Python splits the texts and hashes each."""
    count, first, last, hashes, links, readable, bodies = store._one(ONE_PASS, (match_id,))
    if not count:
        raise RefereeError(f"tampered log: match {match_id} has no events", str(store.path))
    computed = b"".join(map(methodcaller("digest"), map(hashlib.sha256, bodies.split(
        ROWS.encode())))).hex()
    if (first, last) != (1, count) or hashes != computed or links != GENESIS + computed[:-64] \
            or not readable:
        _first_problem(store, match_id)  # found again event by event, to say which and how
    for p in store.head_problems(match_id, count, computed[-64:]):
        raise RefereeError(p.what, p.where)


def _first_problem(store: Store, match_id: int) -> None:
    """The first problem in the order store.stamped() finds them, event by event (SQLite's
    verdict on the JSON is confirmed by Python's, which store.stamped() uses)."""
    prev = GENESIS
    rows = store._all(f"SELECT seq, prev, hash, {BODY}, json_valid(data), data FROM events "
                      "WHERE match = ? ORDER BY seq", (str(match_id), match_id))
    for expected, (seq, link, digest, body, valid, data) in enumerate(rows, start=1):
        where = f"match {match_id}, event {seq}; {store.path}"
        if seq != expected:
            raise RefereeError(f"tampered log: event {expected} is missing", where)
        if link != prev or hashlib.sha256(body).hexdigest() != digest:
            raise RefereeError(f"tampered log: event {seq} breaks the hash chain", where)
        if not valid:
            try:
                json.loads(data)
            except (TypeError, ValueError):
                raise RefereeError(f"tampered log: event {seq} is unreadable", where) from None
        prev = digest
