"""The server's one reader of the match database: notices a move typed in any terminal and
reads the match again, once, however many pages are open.

Why PRAGMA data_version: it changes when another connection commits, and asking costs a few
microseconds (no read of the log), so polling ten times a second keeps the page within a second
of a move at no cost to the `referee play` that made it (readers never block a writer in WAL).
A commit is only a hint: the match is read again only when its last event or the current match
changed, so the snapshots this reader itself saves do not start it again.
No web framework here: the same reader serves the page, its JSON and its stream.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any


class Reader:
    """Reads one match (or whichever is current) from the database at `path`. Not thread-safe:
    the server calls it from one worker thread (SQLite connections stay in their thread)."""

    def __init__(self, path: Path, match_id: int | None):
        self.path = path
        self.match_id = match_id
        self._store = None
        self._watch: sqlite3.Connection | None = None
        self._version: int | None = None
        self._key: tuple | None = None
        self.view: dict[str, Any] | None = None

    def _open(self) -> None:
        from referee.record import Store

        self._store = Store(self.path)
        self._watch = sqlite3.connect(f"{Path(self._store.path).resolve().as_uri()}?mode=ro",
                                      uri=True)

    def poll(self) -> bool:
        """Read the match again if the database changed in a way that concerns it; True when
        the view changed."""
        if self._store is None:
            self._open()
        version = self._watch.execute("PRAGMA data_version").fetchone()[0]
        if version == self._version:
            return False
        self._version = version
        return self.refresh()

    def refresh(self) -> bool:
        from referee import session
        from referee.engine import RefereeError
        from referee.table_page.view import real_match, table_view

        store = self._store
        try:
            mid = self.match_id if self.match_id is not None else store.current().id
            key = (mid, store.last_seq(mid))
            if key == self._key:
                return False
            view = table_view(session.load(store, mid))
            if view["scratch"]:
                view["back"] = real_match(store, mid)
        except RefereeError as e:  # no match yet, a broken log: said in the page, kept polling
            key, view = ("error", str(e)), {"error": str(e), "event": 0, "match": self.match_id}
            if key == self._key:
                return False
        self._key, self.view = key, view
        return True

    def close(self) -> None:
        if self._watch is not None:
            self._watch.close()
        if self._store is not None:
            self._store.close()
