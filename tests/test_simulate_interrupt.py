"""Ctrl-C during `referee simulate` on worker processes: one line, exit 130, promptly, no
worker left behind and no kept match half-written. Run as a real process group, as a terminal's
Ctrl-C reaches every process of it (the workers too)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.record.store import Store

REPO = Path(__file__).resolve().parents[1]
BOUND = 10  # seconds to wait at most; a hung run never ended
PROMPT = 3  # seconds: the interrupted run ends in ~0.05 s (workers killed, not waited on)


def _as_in_a_terminal() -> None:
    """Ctrl-C acts as in a terminal even when the tests run as a background job (started with
    SIGINT ignored, which the child would inherit)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "stat").read_text().split()[3] == str(pid):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _started(proc: subprocess.Popen) -> list[int]:
    """The worker processes, once all four are there."""
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline and proc.poll() is None:
        if len(found := _children(proc.pid)) == 4:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no four workers (exit {proc.poll()})")


@pytest.mark.parametrize("after", [0.1, 2.0], ids=["as-workers-start", "mid-batch"])
def test_ctrl_c_during_simulate_keep_ends_at_once_in_one_line(tmp_path, after):
    """The tester's report: Ctrl-C during `simulate --keep` printed `error: aborted`, then
    waited on its workers (for good when one died holding the task queue's lock), or a worker
    printed a traceback. The hang depends on where each worker is: two moments are tried."""
    db = tmp_path / "r.sqlite3"
    env = {**os.environ, "REFEREE_DB": str(db), "HOME": str(tmp_path), "PYTHONPATH": str(REPO),
           "PYTHONUNBUFFERED": "1"}
    # more workers than cores, as the tester's loaded machine had: the hang was likeliest
    proc = subprocess.Popen([sys.executable, "-m", "referee", "simulate", "tripple-domino",
                             "--players", "3", "--games", "2000", "--keep", "5", "--workers", "4"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_as_in_a_terminal)
    try:
        workers = _started(proc)
        time.sleep(after)
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the whole group, as a terminal sends it
        start = time.monotonic()
        out, err = proc.communicate(timeout=BOUND)
        took = time.monotonic() - start
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    # (click starts a new line after the terminal's ^C: blank, then the one line)
    assert (proc.returncode, err.strip()) == (130, "error: aborted (referee)"), err
    assert out == "" and took < PROMPT, took
    time.sleep(0.2)  # a terminated worker is reaped by the parent, which has ended
    assert not [p for p in workers if Path(f"/proc/{p}").exists()
                and (Path(f"/proc/{p}/stat").read_text().split()[2] != "Z")]
    if db.exists():  # interrupted before the games were kept: no match at all
        assert Store(db).matches() == []


def test_ctrl_c_while_games_are_kept_keeps_none(tmp_path, monkeypatch):
    """Kept games are stored together: a Ctrl-C while they are written (here as the second is
    checked) leaves no match of the aborted run, where the first used to stay."""
    from click.testing import CliRunner

    from referee import session
    from referee.cli import main

    loads = []
    load = session.load

    def interrupted(*args, **kwargs):
        loads.append(args)
        if len(loads) == 2:
            raise KeyboardInterrupt
        return load(*args, **kwargs)

    monkeypatch.setattr(session, "load", interrupted)
    db = tmp_path / "r.sqlite3"
    done = CliRunner().invoke(main, ["--db", str(db), "simulate", "thricewise", "--players", "2",
                                     "--games", "3", "--keep", "3", "--workers", "1"])
    assert done.exit_code == 130 and done.stderr.strip() == "error: aborted (referee)"
    monkeypatch.setattr(session, "load", load)
    listed = CliRunner().invoke(main, ["--db", str(db), "matches"])
    assert listed.exit_code == 0 and Store(db).matches() == [], listed.output
