"""Ctrl-C during a move: before the commit nothing is recorded (`error: aborted`, exit 130);
from just before it, the move is recorded, reported `ok` and the exit code is 0. The tester's
report: 3 in 40 Ctrl-Cs said `aborted` (or `ok (event 52)` and then `aborted`) for a move
that was recorded, so the table typed it again and it scored twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.record.store import Store
from tests.programs import REFEREE

REPO = Path(__file__).resolve().parents[1]
BOUND = 20  # seconds a run may take at most


def _as_in_a_terminal() -> None:
    """Ctrl-C acts as in a terminal even when the tests run as a background job."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def table(tmp_path):
    """A scorepad match of ana and bob; the environment that runs the referee on it."""
    db = tmp_path / "r.sqlite3"
    env = {**os.environ, "REFEREE_DB": str(db), "PYTHONPATH": str(REPO), "HOME": str(tmp_path)}
    subprocess.run([REFEREE, "new", "scorepad", "--players", "ana,bob"], env=env, check=True,
                   capture_output=True, timeout=BOUND)
    return db, env


def _moves(db: Path) -> int:
    store = Store(db)
    try:
        return sum(e.kind == "move" for e in store.events(store.current_id()))
    finally:
        store.close()


def _consistent(db: Path, before: int, code: int, out: str, err: str) -> bool:
    """Whether what the command said is what the record holds; True when it was recorded."""
    recorded = _moves(db) - before
    assert recorded in (0, 1), f"the move recorded {recorded} times"
    if recorded:
        assert (code, err) == (0, ""), f"recorded, yet exit {code}: {err!r}"
        assert out.startswith("ok (event "), out
    else:
        assert code == 130 and err.strip() == "error: aborted (referee)", (code, out, err)
        assert "ok" not in out, out
    return bool(recorded)


@pytest.mark.parametrize("point, recorded", [("append", False), ("commit", True),
                                             ("committed", True), ("reported", True)])
def test_ctrl_c_at_each_point_of_a_move(table, point, recorded):
    """Stopped at one point (tests/paused_referee.py), sent Ctrl-C, let go."""
    db, env = table
    proc = subprocess.Popen([sys.executable, str(REPO / "tests" / "paused_referee.py"), point,
                             "play", "ana", "points", "3"], env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=_as_in_a_terminal)
    try:
        assert proc.stderr.readline() == "PAUSED\n"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate("\n", timeout=BOUND)
    finally:
        proc.kill()
    assert _consistent(db, 0, proc.returncode, out, err) is recorded


def test_ctrl_c_at_any_moment_says_what_the_record_holds(table):
    """The tester's way: `referee play` interrupted after a delay, at moments spread from its
    start to its end (measured on this machine); every run says what was recorded."""
    db, env = table
    start = time.monotonic()
    subprocess.run([REFEREE, "play", "ana", "points", "1"], env=env, check=True,
                   capture_output=True, timeout=BOUND)
    whole = time.monotonic() - start
    seen = set()
    for step in range(24):
        before = _moves(db)
        proc = subprocess.Popen([REFEREE, "play", "ana", "points", "1"], env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                preexec_fn=_as_in_a_terminal)
        time.sleep(whole * (0.4 + step * 0.07))  # up to twice its time: the last ones end
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=BOUND)
        seen.add(_consistent(db, before, proc.returncode, out, err))
    assert True in seen  # some got through (the others may or may not have been aborted)
