"""The trust memo (referee/trust_memo.py): a command skips digesting the events under a
snapshot only while the database file is as a previous command left it. These tests warm the
memo first, then edit the file behind the referee's back: every command must still report it,
and `referee verify` never relies on the memo."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

from referee.record import block_digest, dbopen, trust_memo
from referee.record.store import SCHEMA, Store
from tests.test_referee_integrity import CASES, READERS, tamper

MORE = {  # edits of events under the snapshot: only the digest the memo stands in for sees them
    "time of a middle event edited": (
        "UPDATE events SET at = '2020-01-01T00:00:00.000000Z' WHERE match = 2 AND seq = 2;",
        "event 2 breaks the hash chain"),
    "middle event deleted": ("DELETE FROM events WHERE match = 2 AND seq = 3;", "event 3 is missing"),
}


TRIGGERS = "".join(stmt + ";" for stmt in SCHEMA.split(";\n") if "TRIGGER" in stmt)


@pytest.fixture
def warm(referee_run, monkeypatch):
    """Two matches (as in test_referee_integrity), the current one looked at twice: the second
    `show` digests no event from the first, so the memo is in use before the file is edited.
    Blocks of 2 events, so that a digest going on from a vouched one starts past event 1."""
    monkeypatch.setattr(block_digest, "BLOCK", 2)
    ref = referee_run
    for players in ("cy,dee", "ana,bob"):
        ref("new", "tripple-domino", "--players", players, "--option", "target=150")
    for move in ("start ana=5-5-5 bob=4-4-4", "4-5-5 D-1,0", "3-5-5 D0,0", "draw"):
        ref("play", move)
    ref("show")
    assert _digested(ref, "show") == [], "the memo was not used: these tests would prove nothing"
    return ref


def _digested(ref, *args):
    """The events digested from event 1 (match, up to seq) while running one command."""
    seen = []
    real = block_digest.BlockDigest.extend

    def extend(self, db, match_id, upto):
        if self.seq == 0 and upto > 0:
            seen.append((match_id, upto))
        return real(self, db, match_id, upto)

    mp = pytest.MonkeyPatch()
    mp.setattr(block_digest.BlockDigest, "extend", extend)
    try:
        ref(*args, code=None)
    finally:
        mp.undo()
    return seen


@pytest.mark.parametrize("case", list(CASES) + list(MORE))
def test_an_edit_after_the_memo_is_warm_is_reported_by_every_command(warm, case):
    sql, message = {**CASES, **MORE}[case]
    tamper(warm.db, sql)
    for args in READERS:
        r = warm(*args, code=None)
        if args == ("standings",) and r.exit_code == 0:  # the other match counted, this one
            assert "left out: " in r.stdout and message in r.stdout, (case, r.output)  # marked
            continue
        assert r.exit_code == 2 and message in r.stderr, (case, args, r.output, r.stderr)
    r = warm("verify", "--all", code=1)
    assert message in r.output, (case, r.output)


def test_an_edit_that_puts_the_modification_time_back_is_reported(warm):
    """Same size, same mtime, the triggers put back: the header (its schema cookie counts the
    trigger dropped to edit the event, and put back) still tells the file changed."""
    st = os.stat(warm.db)
    tamper(warm.db, "UPDATE events SET data = replace(data, '4-5-5', '3-4-5') "
                    "WHERE match = 2 AND seq = 3;" + TRIGGERS)
    os.utime(warm.db, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(warm.db).st_size == st.st_size
    for args in (("show",), ("check", "draw"), ("score",)):
        r = warm(*args, code=2)
        assert "event 3 breaks the hash chain" in r.stderr, (args, r.stderr)


def test_a_command_after_the_referees_own_writes_still_skips_the_digest(warm):
    """The memo is rewritten after each command: a play then a show digest nothing again."""
    assert _digested(warm, "play", "draw") == []
    assert _digested(warm, "show") == []
    assert _digested(warm, "undo") == []


def test_verify_hashes_every_event_whatever_the_memo_says(warm):
    """A memo that vouches for an edited file (as if written after the edit) fools `show`, by
    design, but never `referee verify`."""
    tamper(warm.db, "UPDATE events SET data = replace(data, '4-5-5', '3-4-5') "
                    "WHERE match = 2 AND seq = 3;")
    store = Store(warm.db)
    for match, seq, content in store.db.execute("SELECT match, seq, content FROM snapshots"):
        trust_memo.learned(store, match, seq, content)
    store.db.execute("PRAGMA busy_timeout=0")
    trust_memo.finish(store)
    store.close()
    assert warm("show", code=None).exit_code == 0  # trusted: the memo is the user's cache
    r = warm("verify", code=1)
    assert "event 3 breaks the hash chain" in r.output


def test_no_memo_is_written_when_another_connection_committed_meanwhile(referee_run):
    ref = referee_run
    ref("new", "tripple-domino", "--players", "ana,bob")
    ref("play", "start ana=5-5-5 bob=4-4-4")
    store = Store(ref.db)
    from referee import session

    session.load(store)  # a snapshot digested: a fact learned
    assert store.__dict__["_trust"].facts
    other = sqlite3.connect(ref.db)
    other.execute("INSERT INTO settings (key, value) VALUES ('another', 'program')")
    other.commit()
    memo = trust_memo._memo_path(ref.db)
    memo.unlink(missing_ok=True)
    trust_memo.finish(store)
    store.close()
    other.close()
    assert not memo.exists()


def test_redo_reads_no_state_and_still_reports_an_edit(warm):
    """redo decides from the log alone (session.checked: no snapshot unpickled before its
    append) and verifies it as every command does."""
    warm("undo")
    warm("show")  # the memo warm again after the undo
    tamper(warm.db, "UPDATE events SET data = replace(data, '4-5-5', '3-4-5') "
                    "WHERE match = 2 AND seq = 3;")
    r = warm("redo", code=2)
    assert "event 3 breaks the hash chain" in r.stderr


def test_redo_unpickles_one_state_not_two(warm, monkeypatch):
    from referee.record import state_pickle

    warm("undo")
    warm("show")  # a snapshot after the undo too: the state before the redo is at hand
    loads = []
    real = state_pickle.loads
    monkeypatch.setattr(state_pickle, "loads", lambda blob: loads.append(1) or real(blob))
    assert warm("redo").output.startswith("redone: event ")
    assert len(loads) <= 1, loads  # was 2: the state before the redo was never used


def test_the_shell_reads_the_position_once_before_its_first_prompt(warm, monkeypatch):
    from referee.record import state_pickle

    loads = []
    real = state_pickle.loads
    monkeypatch.setattr(state_pickle, "loads", lambda blob: loads.append(1) or real(blob))
    assert "ana" in warm("shell").output  # no input: the board, one prompt, then it ends
    assert len(loads) == 1, loads  # was 2: the board, then the prompt read it again


@pytest.mark.parametrize("edit", ["state = replace(state, 'ana', 'zed')",
                                  "marks = zeroblob(length(marks))"])
def test_a_snapshot_edited_after_the_memo_is_warm_is_not_trusted(warm, edit):
    """The memo also vouches for the snapshots a command checked (their bytes against their
    digest): editing one (no trigger guards the cache) changes the file, and the next command
    checks it again and passes over it."""
    shown = warm("show").output
    raw = sqlite3.connect(warm.db)
    raw.execute(f"UPDATE snapshots SET {edit}")
    raw.commit()
    raw.close()
    r = warm("show")
    assert r.output == shown and "zed" not in r.output


APPEND_AND_LEAVE = """
import sys
from referee.record.store import Store
store = Store(sys.argv[1])
store.append(int(sys.argv[2]), "rejected", {"text": "from another terminal"})
store.close()
"""


def test_a_read_keeps_its_view_while_another_terminal_appends_and_exits(tmp_path):
    """The memo's key of the file is taken while a command reads: it must not open the
    database file, since closing any file of it drops this process's POSIX locks, SQLite's
    included. Another terminal that appends and exits then believes it is the last one on the
    file: it checkpoints and deletes the -wal file under the read in progress. Seen under 8
    concurrent commands and a play: a reader found the chain head one event ahead of the
    events it read ("the last 1 event(s) ... were deleted"), and pages of two versions."""
    path = tmp_path / "m.sqlite3"
    store = Store(path)
    mid = store.create_match("tripple-domino", ["ana", "bob"], {}).id
    store.db.execute("BEGIN")  # a command's read transaction, as snapshots.fold opens it
    before = store.db.execute("SELECT count(*) FROM events").fetchone()[0]
    trust_memo.file_key(store)
    other = subprocess.run([sys.executable, "-c", APPEND_AND_LEAVE, str(path), str(mid)],
                           capture_output=True, text=True, timeout=60)
    assert other.returncode == 0, other.stderr
    assert path.with_name("m.sqlite3-wal").exists(), "the other terminal reset the log under us"
    assert store.db.execute("SELECT count(*) FROM events").fetchone()[0] == before
    assert store.db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    store.db.execute("COMMIT")
    assert store.db.execute("SELECT count(*) FROM events").fetchone()[0] == before + 1
    store.close()


def test_only_a_command_that_finds_the_wal_holding_something_checkpoints(warm, monkeypatch):
    """Every command used to end with a checkpoint; seven `check`s after a `play` then all
    checkpointed at once. SQLite before 3.51.3 has a race between checkpoints in quick
    succession and a commit that resets the WAL (its WAL-reset bug): after a write, the
    first command to finish empties the -wal file, and the rest have nothing to do."""
    checkpoints = []
    real = dbopen._connect

    def traced(*args, **kwargs):
        db = real(*args, **kwargs)
        db.set_trace_callback(lambda sql: checkpoints.append(sql) if "checkpoint" in sql else None)
        return db

    monkeypatch.setattr(dbopen, "_connect", traced)
    wal = warm.db.with_name(warm.db.name + "-wal")
    warm("play", "draw")
    warm("show")  # its snapshot of the new state is a write too
    assert checkpoints and not (wal.exists() and wal.stat().st_size)
    checkpoints.clear()
    for args in (["show"], ["score"], ["check", "draw"], ["log"]):
        warm(*args, code=None)
    assert checkpoints == []
    assert _digested(warm, "show") == []  # and the memo still stands in for the digest
