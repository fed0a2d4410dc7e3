"""The match database: append-only, hash-chained, durable, and safe with two writers at once."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from referee import session
from referee.engine import RefereeError
from referee.record.store import Store
from tests.programs import REFEREE

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def db(tmp_path):
    return tmp_path / "matches.sqlite3"


def test_events_are_numbered_per_match_and_chained(db):
    store = Store(db)
    a = store.create_match("tripple-domino", ["ana", "bob"], {})
    b = store.create_match("tripple-domino", ["cy", "dee"], {})
    store.append(a.id, "move", {"text": "x"})
    assert [e.seq for e in store.events(a.id)] == [1, 2]
    assert [e.seq for e in store.events(b.id)] == [1]
    rows = store.db.execute("SELECT prev, hash FROM events WHERE match = ? ORDER BY seq",
                            (a.id,)).fetchall()
    assert rows[1][0] == rows[0][1]  # each event carries the hash of the one before
    assert store.current().id == b.id


def test_the_database_is_wal_with_full_sync(db):
    store = Store(db)
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_events_cannot_be_updated_or_deleted(db):
    store = Store(db)
    m = store.create_match("tripple-domino", ["ana", "bob"], {})
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.db.execute("UPDATE events SET data = '{}' WHERE match = ?", (m.id,))
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.db.execute("DELETE FROM events WHERE match = ?", (m.id,))


def _tamper(db: Path, sql: str) -> None:
    raw = sqlite3.connect(db)
    raw.executescript("DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete;" + sql)
    raw.commit()
    raw.close()


def _match_with_moves(db: Path) -> int:
    store = Store(db)
    session.new_match(store, "tripple-domino", ["ana", "bob"], {})
    session.play(store, "start ana=5-5-5 bob=4-4-4")
    session.play(store, "4-5-5 D0,0")
    session.play(store, "draw")
    mid = store.current().id
    store.close()
    return mid


def test_a_changed_event_is_reported_naming_match_and_event(db):
    mid = _match_with_moves(db)
    _tamper(db, f"UPDATE events SET data = replace(data, '4-5-5', '3-5-5') "
                f"WHERE match = {mid} AND seq = 3;")
    with pytest.raises(RefereeError, match=rf"tampered log: event 3 .*\(match {mid}, event 3"):
        session.load(Store(db))


def test_a_deleted_event_is_reported(db):
    mid = _match_with_moves(db)
    _tamper(db, f"DELETE FROM events WHERE match = {mid} AND seq = 2;")
    with pytest.raises(RefereeError, match=r"event 2 is missing"):
        session.load(Store(db))


def test_a_rewritten_chain_tail_is_still_caught(db):
    """Deleting the last event and re-adding another with a made-up hash breaks the chain."""
    mid = _match_with_moves(db)
    _tamper(db, f"UPDATE events SET hash = 'f00' WHERE match = {mid} AND seq = 4;")
    with pytest.raises(RefereeError, match="event 4 breaks the hash chain"):
        session.load(Store(db))


WRITER = textwrap.dedent("""
    import sys
    from referee.record.store import Store
    store = Store(sys.argv[1])
    match, tag, n = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    for i in range(n):
        with store.transaction():
            store.append(match, "note", {"by": tag, "i": i})
        print(i, flush=True)
""")


def test_two_writer_processes_both_land_without_loss_or_duplicates(db):
    store = Store(db)
    m = store.create_match("tripple-domino", ["ana", "bob"], {})
    n = 60
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(m.id), tag, str(n)],
                              stdout=subprocess.PIPE, text=True, cwd=ROOT)
             for tag in ("left", "right")]
    for p in procs:
        out, _ = p.communicate(timeout=60)
        assert p.returncode == 0 and out.split()[-1] == str(n - 1)
    events = Store(db).events(m.id)  # loads and verifies the whole chain
    assert [e.seq for e in events] == list(range(1, 2 * n + 2))
    for tag in ("left", "right"):
        assert sorted(e.data["i"] for e in events if e.data.get("by") == tag) == list(range(n))


def test_two_referee_commands_at_once_both_land(db):
    _match_with_moves(db)
    env = {**os.environ, "REFEREE_DB": str(db)}
    cmds = [[REFEREE, "play", "draw"], [REFEREE, "play", "pass", "--by", "ana"]]
    procs = [subprocess.Popen(c, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for c in cmds]
    codes = sorted(p.wait(timeout=60) for p in procs)
    assert codes == [0, 1]  # ana's second draw is legal; a pass is not (the reserve has tiles)
    kinds = [e.kind for e in Store(db).events(1)]
    assert kinds[-2:] in (["move", "rejected"], ["rejected", "move"])


def test_sigkill_mid_command_loses_nothing_reported_done(db):
    store = Store(db)
    m = store.create_match("tripple-domino", ["ana", "bob"], {})
    p = subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(m.id), "w", "100000"],
                         stdout=subprocess.PIPE, text=True, cwd=ROOT)
    reported = []
    deadline = time.monotonic() + 30
    while len(reported) < 40 and time.monotonic() < deadline:
        reported.append(int(p.stdout.readline()))
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    p.stdout.close()
    events = Store(db).events(m.id)  # the log still loads, chain intact
    done = {e.data["i"] for e in events if e.kind == "note"}
    assert set(reported) <= done
    assert [e.seq for e in events] == list(range(1, len(events) + 1))


def test_sigkill_of_the_cli_mid_play_keeps_what_it_reported(db):
    _match_with_moves(db)
    env = {**os.environ, "REFEREE_DB": str(db)}
    for delay in (0.0, 0.03, 0.06, 0.1, 0.15, 0.3):
        p = subprocess.Popen([REFEREE, "play", "draw"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        out, _ = p.communicate()
        cur = session.load(Store(db))  # never half-written: loads, verifies and folds
        if out.startswith("ok (event "):
            seq = int(out.split("event ")[1].split(")")[0])
            assert cur.events[seq - 1].kind == "move"
    assert subprocess.run([REFEREE, "log"], env=env, capture_output=True).returncode == 0


def test_no_current_match_is_a_user_error(db):
    with pytest.raises(RefereeError, match="no current match"):
        Store(db).current()


def test_the_database_path_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "env.sqlite3"))
    assert Store().path == tmp_path / "env.sqlite3"


def test_default_path_is_in_the_user_data_folder(monkeypatch):
    from platformdirs import user_data_path

    from referee.record.store import default_path

    monkeypatch.delenv("REFEREE_DB", raising=False)
    assert default_path().parent == user_data_path("referee", appauthor=False)


def test_a_read_only_database_answers_but_records_nothing_with_one_clear_error(db):
    store = Store(db)
    session.new_match(store, "tripple-domino", ["ana", "bob"], {})
    session.play(store, "start ana=5-5-5 bob=4-4-4")
    store.db.close()
    store.db = sqlite3.connect(f"file:{db}?mode=ro", uri=True, isolation_level=None)
    assert session.load(store).state.phase == "play"  # reading still works
    with pytest.raises(RefereeError, match="the match database is read-only: nothing was "
                                           "recorded"):
        session.play(store, "4-5-5 D0,0")
