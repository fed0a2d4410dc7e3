"""A digest of a match's events as stored, for the caches (snapshots, summaries): it tells
whether the rows a cached state was folded from are still the same, without hashing each event.

Why this shape: every command computes it over every event (20,000 on a long match), so SQLite
joins each column of the rows in one pass (kinds, data, times, hashes: four strings, the rows'
values separated by \\x1e, which no column holds) and Python hashes the four strings, far
cheaper than hashing each event. A digest goes on from where it stopped (one query over the newer events),
so a snapshot saved after the fold does not read the log again, and it is the same whether
made in one pass or several.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence

COLUMNS = ("kind", "data", "at", "hash")
SEPARATOR = "\x1e"  # written into the SQL: char(30) there would be called once per row
JOINED = ", ".join(f"CAST(group_concat({c}, '{SEPARATOR}') AS BLOB)" for c in COLUMNS)


class EventDigest:
    """The digest of events 1..seq of a match; extend() takes in the events after them."""

    def __init__(self) -> None:
        self.seq = 0  # the last event taken in
        self.rows = 0  # how many rows were taken in (seq, in a log without gaps)
        self._columns = [hashlib.sha256() for _ in COLUMNS]

    @classmethod
    def of(cls, joined: Sequence[bytes | None], rows: int, seq: int) -> EventDigest:
        """The digest of a match from its columns as JOINED gives them (summaries' grouped
        query), `rows` rows up to event `seq`."""
        d = cls()
        d._take(joined, rows, seq)
        return d

    def extend(self, db: sqlite3.Connection, match_id: int, upto: int) -> EventDigest:
        """Take in the events after self.seq up to `upto` (one query); returns self."""
        if upto > self.seq:
            *joined, rows = db.execute(
                f"SELECT {JOINED}, count(*) FROM events WHERE match = ? AND seq > ? AND seq <= ?",
                (match_id, self.seq, upto)).fetchone()
            self._take(joined, rows, upto)
        return self

    def _take(self, joined: Sequence[bytes | None], rows: int, seq: int) -> None:
        if rows:
            for h, part in zip(self._columns, joined, strict=True):
                if self.rows:
                    h.update(SEPARATOR.encode())
                h.update(part or b"")
        self.rows += rows
        self.seq = seq

    def copy(self) -> EventDigest:
        other = EventDigest()
        other.seq, other.rows = self.seq, self.rows
        other._columns = [h.copy() for h in self._columns]
        return other

    def hexdigest(self) -> str:
        parts = "|".join(h.hexdigest() for h in self._columns)
        return hashlib.sha256(f"{parts}|{self.rows}|{self.seq}".encode()).hexdigest()


def digest(db: sqlite3.Connection, match_id: int, upto: int) -> str:
    """The digest of events 1..upto of a match, as stored."""
    return EventDigest().extend(db, match_id, upto).hexdigest()
