"""`referee` as the program runs it, stopped at one point of a writing command until the test
sends Ctrl-C (tests/test_referee_interrupt.py). Test code only: the pause is added here, from
outside, so nothing a user runs can ever wait in it.

    python tests/paused_referee.py POINT referee-arguments...

POINT: `append` (inside the transaction, before the event is written), `commit` (just before
COMMIT), `committed` (just after it, before anything is printed), `reported` (the output
written, the database about to close). At the point it writes PAUSED on stderr and waits for a
line on stdin.
"""

from __future__ import annotations

import sys


def pause() -> None:
    sys.stderr.write("PAUSED\n")
    sys.stderr.flush()
    sys.stdin.readline()


class Paused:
    """The store's connection, pausing before or after the statement the point names."""

    def __init__(self, db, point: str):
        self._db, self._point = db, point

    def __getattr__(self, name):
        return getattr(self._db, name)

    def execute(self, sql, *args):
        if (self._point == "append" and sql.startswith("INSERT INTO events")) or (
                self._point == "commit" and sql == "COMMIT"):
            pause()
        out = self._db.execute(sql, *args)
        if self._point == "committed" and sql == "COMMIT":
            pause()
        return out


def main() -> None:
    point, sys.argv = sys.argv[1], ["referee", *sys.argv[2:]]  # is_program("referee"): as run
    from referee import record
    from referee.__main__ import main as program
    from referee.record.store import Store

    opened = Store.__init__

    def init(self, *args, **kwargs):
        opened(self, *args, **kwargs)
        self.db = Paused(self.db, point)

    Store.__init__ = init
    if point == "reported":
        finish = record.finish

        def finished(store):
            pause()
            finish(store)

        record.finish = finished
    program()


if __name__ == "__main__":
    main()
