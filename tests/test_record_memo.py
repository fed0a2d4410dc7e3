"""`log --all`, `--json`, `--script`, `export` and `score --json` print from a memo of the
record as last printed and render only the events recorded since (referee/record_memo.py):
the same bytes as a render from nothing, whatever the table did in between, and never a
record the checks refuse."""

from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner

from referee import log_text
from referee.cli import main
from referee.record import record_memo

FORMS = (["log", "--all"], ["log", "--json"], ["log", "--script"], ["export"],
         ["score", "--json"])
# what the table does between two prints: moves, a rejected attempt, undo (setting the attempt
# aside, then taking back a move), redo, a correction taken back, an early end
ACTIONS = [
    ["play", "start ana=5-5-5 bob=4-4-4"], ["play", "4-5-5 D-1,0"], ["play", "0-0-0 U40,40"],
    ["undo"], ["play", "3-5-5 D0,0"], ["undo"], ["redo"], ["play", "draw"],
    ["adjust", "bob", "+3", "--reason", "house rule"], ["undo"], ["redo"],
    ["play", "draw 4-4-5 U-1,1"], ["end", "--abandoned"],
]


@pytest.fixture
def referee(tmp_path, monkeypatch):
    """referee(*args, cache=folder): run in-process on one database with that cache folder,
    the memo kept for any match (not only for those over record_memo.SHORT events)."""
    monkeypatch.setattr(record_memo, "SHORT", 0)
    db = tmp_path / "m.sqlite3"

    def run(*args: str, cache):
        monkeypatch.setenv("REFEREE_CACHE", str(cache))
        result = CliRunner().invoke(main, ["--db", str(db), *args])
        assert result.exit_code in (0, 1), (args, result.output)  # 1: the rejected attempt
        return result.stdout_bytes

    run.db = db
    return run


@pytest.mark.parametrize("stale", [1, 100])  # the memo written again after every event, or kept
def test_the_record_from_the_memo_is_the_record_rendered_from_nothing(referee, tmp_path,
                                                                     monkeypatch, stale):
    monkeypatch.setattr(record_memo, "STALE", stale)
    kept = tmp_path / "kept"
    referee("new", "tripple-domino", "--players", "ana,bob", cache=kept)
    seen = b""
    for n, action in enumerate(ACTIONS):
        referee(*action, cache=kept)
        for form in FORMS:
            fresh = referee(*form, cache=tmp_path / f"fresh-{n}-{form[-1]}")
            assert referee(*form, cache=kept) == fresh, (action, form)
            seen += fresh
    assert b"[undone]" in seen and b"[set aside]" in seen and b"(undone)" in seen


def test_printing_again_renders_only_the_events_since(referee, tmp_path, monkeypatch):
    kept = tmp_path / "kept"
    referee("new", "tripple-domino", "--players", "ana,bob", cache=kept)
    for action in ACTIONS[:2]:
        referee(*action, cache=kept)
    rendered = []
    real = log_text.line
    monkeypatch.setattr(log_text, "line", lambda x: rendered.append(x.seq) or real(x))
    referee("log", "--all", cache=kept)
    assert rendered == [1, 2, 3]
    rendered.clear()
    referee("play", "3-5-5 D0,0", cache=kept)
    lines = referee("log", "--all", cache=kept).decode().splitlines()
    assert rendered == [4] and [int(x.split()[0]) for x in lines] == [1, 2, 3, 4]


@pytest.mark.parametrize("damage", [lambda b: b[:-10], lambda b: b"[1, 2]\n" + b,
                                    lambda b: b"\xff" * 40],
                         ids=["cut short", "another first line", "not a memo"])
def test_a_memo_cut_short_or_garbled_is_rendered_again(referee, tmp_path, damage):
    kept = tmp_path / "kept"
    referee("new", "tripple-domino", "--players", "ana,bob", cache=kept)
    for action in ACTIONS[:2]:
        referee(*action, cache=kept)
    whole = referee("log", "--all", cache=kept)
    (memo,) = kept.glob("record-*")
    memo.write_bytes(damage(memo.read_bytes()))
    assert referee("log", "--all", cache=kept) == whole


def test_an_edited_record_is_reported_though_a_memo_of_it_is_kept(referee, tmp_path):
    kept = tmp_path / "kept"
    referee("new", "tripple-domino", "--players", "ana,bob", cache=kept)
    for action in ACTIONS[:2]:
        referee(*action, cache=kept)
    referee("log", "--all", cache=kept)
    raw = sqlite3.connect(referee.db, isolation_level=None)
    raw.execute("DROP TRIGGER events_no_update")
    raw.execute("UPDATE events SET data = replace(data, 'bob=4-4-4', 'bob=4-4-3') WHERE seq = 2")
    raw.close()
    result = CliRunner().invoke(main, ["--db", str(referee.db), "log", "--all"],
                                env={"REFEREE_CACHE": str(kept)})
    assert result.exit_code == 2 and "tampered log" in result.output


def test_a_short_match_keeps_no_memo(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path / "cache"))
    runner, db = CliRunner(), str(tmp_path / "m.sqlite3")
    runner.invoke(main, ["--db", db, "new", "tripple-domino", "--players", "ana,bob"])
    assert runner.invoke(main, ["--db", db, "log", "--all"]).output.startswith("   1  new")
    assert not list((tmp_path / "cache").glob("record-*"))


@pytest.mark.parametrize("game", ["coda", "thricewise", "duplicon", "dobble-connect",
                                  "tripple-domino"])
def test_every_game_prints_the_same_record_from_the_memo(referee, tmp_path, monkeypatch, game):
    """The memo relies on each game's ledger only growing: a simulated match of each game,
    replayed move by move, prints through the memo what it prints from nothing."""
    from referee.record.store import Store

    monkeypatch.setattr(record_memo, "STALE", 1)
    played = tmp_path / "simulated.sqlite3"
    result = CliRunner().invoke(main, ["--db", str(played), "simulate", game, "--players", "3",
                                       "--games", "1", "--keep", "1", "--seed", "3"])
    assert result.exit_code == 0, result.output
    events = [s.event for s in Store(played).stamped(1)]
    start = events[0].data
    options = [x for k, v in start["options"].items() for x in ("--option", f"{k}={v}")]
    kept = tmp_path / "kept"
    referee("new", game, "--players", ",".join(start["players"]), *options, cache=kept)
    moves = [e for e in events if e.kind == "move"][:30]
    assert len(moves) >= 10
    for n, e in enumerate(moves, start=1):
        referee("play", e.data["text"], *(["--by", e.data["player"]] if e.data.get("player")
                                          else []), cache=kept)
        if n % 10 == 0:
            for form in (["log", "--json"], ["log", "--script"], ["score", "--json"]):
                fresh = referee(*form, cache=tmp_path / f"fresh-{n}-{form[-1]}")
                assert referee(*form, cache=kept) == fresh, (game, n, form)
