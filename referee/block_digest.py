"""The digest of a match's events 1..seq as stored, in blocks of BLOCK events, for snapshots.

Why blocks: a snapshot records the digest of every event before it, and a command that saves a
new snapshot must give the digest of every event before the new one. When the trust memo
(referee/trust_memo.py) vouches for an older snapshot's digest, its whole blocks are known, so
the new digest reads only the events of the last block and after (~1,000 rows), not all 20,000.
Digested from scratch it costs what one pass does: SQLite joins each column of a block's rows
(kinds, data, times, hashes, separated by \\x1e, which no column holds) and Python hashes them.
The text form (`text()`) is what a snapshot stores and compares; the same events give the same
text however many steps made it.
"""

from __future__ import annotations

import hashlib
import sqlite3

from referee.event_digest import JOINED, SEPARATOR

BLOCK = 1000


class BlockDigest:
    """Events 1..seq of a match: the digests of the whole blocks, and the block under way."""

    def __init__(self) -> None:
        self.seq = 0  # the last event taken in
        self.blocks: list[str] = []  # digests of blocks 1..len(blocks), each BLOCK events
        self._part: list = []  # the block under way: one hash per column, and its rows
        self._rows = 0

    @classmethod
    def resume(cls, text: str) -> BlockDigest | None:
        """The whole blocks of a digest's text (events up to the last whole block), to go on
        from there; None when the text is not a block digest's."""
        blocks, _, rest = text.partition(";")
        found = [b for b in blocks.split(",") if b]
        if not rest or any(len(b) != 64 for b in found):
            return None
        d = cls()
        d.blocks, d.seq = found, len(found) * BLOCK
        return d

    def extend(self, db: sqlite3.Connection, match_id: int, upto: int) -> BlockDigest:
        """Take in the events after self.seq up to `upto` (a query per block); returns self."""
        while self.seq < upto:
            end = min(upto, (self.seq // BLOCK + 1) * BLOCK)
            *joined, rows = db.execute(
                f"SELECT {JOINED}, count(*) FROM events WHERE match = ? AND seq > ? AND seq <= ?",
                (match_id, self.seq, end)).fetchone()
            if not self._part:
                self._part = [hashlib.sha256() for _ in joined]
            if rows:
                for h, part in zip(self._part, joined, strict=True):
                    if self._rows:
                        h.update(SEPARATOR.encode())
                    h.update(part or b"")
            self._rows += rows
            self.seq = end
            if end % BLOCK == 0:
                self.blocks.append(self._part_digest())
                self._part, self._rows = [], 0
        return self

    def _part_digest(self) -> str:
        parts = "|".join(h.hexdigest() for h in self._part)
        return hashlib.sha256(f"{parts}|{self._rows}".encode()).hexdigest()

    def copy(self) -> BlockDigest:
        other = BlockDigest()
        other.seq, other.blocks, other._rows = self.seq, list(self.blocks), self._rows
        other._part = [h.copy() for h in self._part]
        return other

    def text(self) -> str:
        """What a snapshot stores: the whole blocks' digests; the block under way; seq."""
        part = self._part_digest() if self._part else ""
        return f"{','.join(self.blocks)};{part};{self.seq}"


def digest(db: sqlite3.Connection, match_id: int, upto: int) -> str:
    """The text of the digest of events 1..upto of a match, as stored."""
    return BlockDigest().extend(db, match_id, upto).text()
