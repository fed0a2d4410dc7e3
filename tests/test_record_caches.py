"""No cache can lie: an edit of the database file alone (any SQLite tool, any column of a cache
table, a digest recomputed) never makes `show`, `score`, `matches` or `standings` print a value
the fold of the events would not give, never gives a traceback, and `referee verify` reports it
naming the match and the cache (exit 1). The key of the caches' MACs lives outside the database
(tests: $REFEREE_KEY, set in conftest)."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sqlite3
import stat
import subprocess
import sys

import pytest

from referee.record import key
from tests.test_referee_integrity import ref  # noqa: F401 - the fixture

PRINTERS = [("show",), ("score",), ("matches",), ("standings",), ("matches", "--json"),
            ("score", "--json")]


@pytest.fixture
def cached(ref):  # noqa: F811 - the fixture imported above
    """Two matches (match 2 the current one, with points scored), a snapshot and the summaries
    kept, and what the commands print of them now: the truth."""
    for args in (("show",), ("matches",)):
        assert ref(*args).exit_code == 0
    assert _rows(ref.db, "SELECT count(*) FROM snapshots WHERE match = 2")[0][0] >= 1
    assert _rows(ref.db, "SELECT count(*) FROM summaries")[0][0] == 2
    ref.truth = {args: ref(*args).output for args in PRINTERS}
    assert ref("verify", "--all").exit_code == 0
    return ref


def _rows(db, sql: str, params=()) -> list[tuple]:
    raw = sqlite3.connect(db)
    try:
        return raw.execute(sql, params).fetchall()
    finally:
        raw.close()


def edit(db, sql: str, params=()) -> None:
    """An edit behind the referee's back (another program on the same file)."""
    raw = sqlite3.connect(db)
    raw.execute(sql, params)
    raw.commit()
    raw.close()


def _no_traceback(r) -> None:
    assert r.exception is None or isinstance(r.exception, SystemExit), (r.output, r.exception)
    assert "Traceback" not in r.output


def assert_truth_printed(run) -> None:
    for args in PRINTERS:
        r = run(*args)
        _no_traceback(r)
        assert (r.exit_code, r.output) == (0, run.truth[args]), (args, r.output)


def assert_verify_reports(run, table: str, match: int = 2) -> None:
    for args in (("verify", "--all"), ("verify", "--match", str(match))):
        r = run(*args)
        _no_traceback(r)
        assert r.exit_code == 1, (args, r.output)
        assert f"match {match} " in r.output and f"table {table}" in r.output, (args, r.output)


def _summary(db, match: int) -> dict:
    return json.loads(_rows(db, "SELECT data FROM summaries WHERE match = ?", (match,))[0][0])


def test_a_forged_summary_is_not_printed_and_verify_reports_it(cached):
    """The issue's first tamper: a final score multiplied and the winner changed in the
    summaries table (no hash to redo): `matches` and `standings` printed the forgery and
    `verify --all` said ok."""
    data = _summary(cached.db, 2)
    data["totals"] = {p: t * 100 + 3800 for p, t in data["totals"].items()}
    data["winners"], data["status"] = ["bob"], "won by bob"
    edit(cached.db, "UPDATE summaries SET data = ? WHERE match = 2", (json.dumps(data),))
    assert_verify_reports(cached, "summaries")
    assert_truth_printed(cached)
    assert cached("verify", "--all").exit_code == 0  # the edited row was made again


def test_a_summary_that_is_not_json_is_ignored_without_a_traceback(cached):
    edit(cached.db, "UPDATE summaries SET data = '{not json' WHERE match = 2")
    assert_verify_reports(cached, "summaries")
    assert_truth_printed(cached)


def test_a_summary_row_is_made_again_after_an_edit(cached):
    edit(cached.db, "UPDATE summaries SET data = '{not json' WHERE match = 2")
    assert cached("matches").output == cached.truth[("matches",)]  # ignored and rebuilt
    assert cached("verify", "--all").exit_code == 0
    assert _summary(cached.db, 2)["status"] == "in play"


def _forge_newest_snapshot(db, match: int, points: int, with_key: bool = False) -> None:
    """The issue's second tamper: points added to the newest snapshot's state, and its check
    column recomputed as the plain SHA-256 digest it used to be (an attacker has the code);
    `with_key`: its MAC recomputed under the user's key (what a bug in the rules that changed
    their results but not their code could leave, or someone holding the key)."""
    seq, head, code, gone, content, marks, blob = _rows(
        db, "SELECT seq, hash, code, gone, content, marks, state FROM snapshots WHERE match = ? "
        "ORDER BY seq DESC LIMIT 1", (match,))[0]
    shell, ledgers = pickle.loads(blob)  # the test's own database: safe to unpickle here
    forged = {}
    for name, (as_list, columns, sums) in ledgers.items():
        players, pts, *rest = columns
        forged[name] = (as_list, (players, (pts[0] + points, *pts[1:]), *rest),
                        {p: s + points * (p == players[0]) for p, s in sums.items()})
    assert forged, "the state keeps no ledger: the forgery would change nothing"
    state = pickle.dumps((shell, forged), protocol=pickle.DEFAULT_PROTOCOL)
    if with_key:
        check = key.mac("snapshot", match, seq, head, code, gone, content, marks, state)
        edit(db, "UPDATE snapshots SET state = ?, mac = ? WHERE match = ? AND seq = ?",
             (state, check, match, seq))
        return
    h = hashlib.sha256(state)
    h.update(marks)
    h.update(f"|{head}|{content}".encode())
    column = "digest" if "digest" in _columns(db, "snapshots") else "mac"
    edit(db, f"UPDATE snapshots SET state = ?, {column} = ? WHERE match = ? AND seq = ?",
         (state, h.hexdigest(), match, seq))


def _columns(db, table: str) -> list[str]:
    return [r[1] for r in _rows(db, f"PRAGMA table_info({table})")]


def test_a_forged_snapshot_with_its_digest_recomputed_is_not_shown(cached):
    _forge_newest_snapshot(cached.db, 2, 1000)
    assert_verify_reports(cached, "snapshots")
    assert_truth_printed(cached)
    assert "1000" not in cached("score").output
    assert cached("verify", "--all").exit_code == 0  # the edited row was dropped, made again


def test_verify_full_replays_from_the_first_event_and_finds_a_wrong_state_under_the_key(cached):
    """A cached state that passes its MAC but is not what the events give: plain `verify`
    trusts the MAC; `verify --full` folds every event again and names the match and table."""
    _forge_newest_snapshot(cached.db, 2, 1000, with_key=True)
    r = cached("verify", "--all", "--full")
    _no_traceback(r)
    assert r.exit_code == 1, r.output
    assert "match 2 " in r.output and "table snapshots" in r.output, r.output
    assert "differs from the fold" in r.output, r.output
    assert cached("verify", "--match", "1", "--full").exit_code == 0  # match 1 is untouched


SNAPSHOT_COLUMNS = ["match", "seq", "hash", "code", "gone", "content", "marks", "state",
                    "digest", "mac"]
SUMMARY_COLUMNS = ["match", "head", "code", "content", "data", "mac"]


def _edit_column(db, table: str, column: str, match: int) -> None:
    if column not in _columns(db, table):
        pytest.skip(f"no column {column} in {table} here")
    if column == "seq":
        edit(db, f"UPDATE {table} SET seq = seq - 1 WHERE match = ? AND seq = (SELECT max(seq) "
                 f"FROM {table} WHERE match = ?)", (match, match))
    else:
        edit(db, f"UPDATE {table} SET {column} = CAST({column} AS BLOB) || X'20' WHERE match = ?",
             (match,))


@pytest.mark.parametrize("column", SNAPSHOT_COLUMNS)
def test_an_edit_of_any_snapshot_column_is_reported_and_never_shown(cached, column):
    if column == "match":  # match 2's snapshots put on match 1
        edit(cached.db, "UPDATE snapshots SET match = 1 WHERE match = 2")
        assert_verify_reports(cached, "snapshots", match=1)
    else:
        _edit_column(cached.db, "snapshots", column, 2)
        assert_verify_reports(cached, "snapshots")
    assert_truth_printed(cached)


@pytest.mark.parametrize("column", SUMMARY_COLUMNS)
def test_an_edit_of_any_summary_column_is_reported_and_never_printed(cached, column):
    if column == "match":  # match 1's row put in place of match 2's
        edit(cached.db, "DELETE FROM summaries WHERE match = 2")
        edit(cached.db, "UPDATE summaries SET match = 2 WHERE match = 1")
    else:
        _edit_column(cached.db, "summaries", column, 2)
    assert_verify_reports(cached, "summaries")
    assert_truth_printed(cached)


@pytest.mark.parametrize("where", ["", " WHERE key = 'current'"])
def test_junk_in_settings_is_one_line_not_a_traceback(cached, where):
    edit(cached.db, f"UPDATE settings SET value = '1; drop table events'{where}")
    for args in ("show",), ("matches",), ("standings",), ("score",), ("verify", "--all"):
        r = cached(*args)
        _no_traceback(r)
        assert r.exit_code in (0, 1, 2), (args, r.output)
        if r.exit_code == 2:
            assert len(r.output.strip().splitlines()) == 1 and "error:" in r.output, r.output
    if where:  # only the current match's number: the list of matches still reads
        assert cached("matches").exit_code == 0
        assert cached("show").exit_code == 2 and "referee use" in cached("show").output


def test_the_key_is_outside_the_database_and_private(cached):
    key = os.environ["REFEREE_KEY"]
    assert os.path.exists(key)
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    with open(key, "rb") as f:
        secret = f.read()
    assert secret not in cached.db.read_bytes()


def test_a_cli_run_makes_its_key_in_the_folder_asked(tmp_path):
    """A fresh key file made by the program as users run it, mode 0600."""
    env = {**os.environ, "REFEREE_DB": str(tmp_path / "m.sqlite3"),
           "REFEREE_KEY": str(tmp_path / "data" / "referee.key"),
           "REFEREE_CACHE": str(tmp_path / "cache")}
    for args in (["new", "tripple-domino", "--players", "a,b"], ["show"]):
        done = subprocess.run([sys.executable, "-m", "referee.cli", *args], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    key = tmp_path / "data" / "referee.key"
    assert key.exists() and stat.S_IMODE(key.stat().st_mode) == 0o600


def test_caches_made_under_another_key_are_not_used_and_verify_says_so(cached, tmp_path,
                                                                       monkeypatch):
    """A key lost (or a database copied from another user): every cache fails its MAC, is
    reported by verify and made again by the commands, which print the truth."""
    from referee.record import key

    monkeypatch.setenv("REFEREE_KEY", str(tmp_path / "other.key"))
    key._key.cache_clear()
    try:
        r = cached("verify", "--all")
        assert r.exit_code == 1 and "another key" in r.output, r.output
        assert_truth_printed(cached)
    finally:
        key._key.cache_clear()


def test_an_unusable_key_file_is_named_by_verify_once_not_as_broken_caches(cached, tmp_path,
                                                                           monkeypatch):
    """A key file damaged (`echo garbage > referee.key`) made verify fail on every cache row
    ("fails its MAC: edited, or made under another key") without naming the file, for good:
    it now names the key once and how to get a new one, the commands print the truth, and
    with the file deleted the next command makes a new key (the caches made under the old
    one are then reported as made under another key, and made again)."""
    from referee.record import key

    bad = tmp_path / "damaged.key"
    bad.write_text("garbage\n")
    monkeypatch.setenv("REFEREE_KEY", str(bad))
    key._key.cache_clear()
    try:
        r = cached("verify", "--all")
        assert r.exit_code == 1 and str(bad) in r.output, r.output
        assert "fails its MAC" not in r.output and "delete the file" in r.output
        assert_truth_printed(cached)
        bad.unlink()
        key._key.cache_clear()
        assert cached("show").exit_code == 0
        assert len(bad.read_bytes()) == key.SIZE
        assert str(bad) not in cached("verify", "--all").output
    finally:
        key._key.cache_clear()


def test_an_event_edited_in_place_with_its_time_set_back_is_still_found(cached):
    """The memo of what was checked (outside the database) is keyed by the file's state: bytes
    edited in place, same size, with the modification time set back (`touch -d`), used to
    keep that key, so the edited event under the snapshot was printed by `log` unchecked. The
    change time, which nobody can set back, is in the key now."""
    for _ in range(2):  # the second command finds the memo the first one wrote
        assert cached("show").exit_code == 0
    path = cached.db
    before = os.stat(path)
    raw = path.read_bytes()
    old, new = b'"text":"4-5-5 D-1,0 as 5-4-5"', b'"text":"3-4-5 D-1,0 as 5-4-5"'
    wal = path.with_name(path.name + "-wal")
    assert raw.count(old) == 1 and not (wal.exists() and wal.stat().st_size)  # all in the file
    path.write_bytes(raw.replace(old, new))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    for args in (("log",), ("show",)):
        r = cached(*args)
        assert r.exit_code == 2 and "event 3 breaks the hash chain" in r.output, (args, r.output)
    assert cached("verify").exit_code == 1
