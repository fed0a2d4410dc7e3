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

import sqlite3

from referee.record.event_digest import EventDigest

BLOCK = 1000


class BlockDigest:
    """Events 1..seq of a match: the digests of the whole blocks, and the block under way (an
    EventDigest that starts at the block's first event)."""

    def __init__(self, blocks: list[str] | None = None) -> None:
        self.blocks = blocks or []  # digests of blocks 1..len(blocks), each BLOCK events
        self._part = self._new_block()

    def _new_block(self) -> EventDigest:
        part = EventDigest()
        part.seq = len(self.blocks) * BLOCK
        return part

    @property
    def seq(self) -> int:
        """The last event taken in."""
        return self._part.seq

    @classmethod
    def resume(cls, text: str) -> BlockDigest | None:
        """The whole blocks of a digest's text (events up to the last whole block), to go on
        from there; None when the text is not a block digest's."""
        blocks, _, rest = text.partition(";")
        found = [b for b in blocks.split(",") if b]
        if not rest or any(len(b) != 64 for b in found):
            return None
        return cls(found)

    def extend(self, db: sqlite3.Connection, match_id: int, upto: int) -> BlockDigest:
        """Take in the events after self.seq up to `upto` (a query per block); returns self."""
        while self.seq < upto:
            end = min(upto, (self.seq // BLOCK + 1) * BLOCK)
            self._part.extend(db, match_id, end)
            if end % BLOCK == 0:
                self.blocks.append(self._part.hexdigest())
                self._part = self._new_block()
        return self

    def copy(self) -> BlockDigest:
        other = BlockDigest(list(self.blocks))
        other._part = self._part.copy()
        return other

    def text(self) -> str:
        """What a snapshot stores: the whole blocks' digests; the block under way; seq."""
        under_way = self.seq > len(self.blocks) * BLOCK
        return f"{','.join(self.blocks)};{self._part.hexdigest() if under_way else ''};{self.seq}"


def digest(db: sqlite3.Connection, match_id: int, upto: int) -> str:
    """The text of the digest of events 1..upto of a match, as stored."""
    return BlockDigest().extend(db, match_id, upto).text()
