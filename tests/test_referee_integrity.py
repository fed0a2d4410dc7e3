"""Tampering with the match database is reported by every command that reads it, and by
`referee verify` (exit 1, what broke and where): a cut tail, a dropped match, edited options
or creation time, an edited event in the middle."""

from __future__ import annotations

import json
import sqlite3

import pytest
from click.testing import CliRunner

from referee.cli import main

MOVES = ["start ana=5-5-5 bob=4-4-4", "4-5-5 D-1,0", "3-5-5 D0,0", "draw"]

READERS = [("show",), ("score",), ("log",), ("log", "--script"), ("position",),
           ("replay", "--to", "2"), ("export",), ("export", "--format", "csv"), ("standings",),
           ("check", "draw"), ("play", "draw"), ("undo",), ("ask", "hand"),
           ("adjust", "ana", "+1", "--reason", "recount"), ("end", "--abandoned")]


@pytest.fixture
def ref(tmp_path):
    db = tmp_path / "m.sqlite3"

    def invoke(*args: str):
        return CliRunner().invoke(main, ["--db", str(db), *args])

    invoke.db = db
    for players in ("cy,dee", "ana,bob"):  # match 1 stays short; match 2 is the current one
        r = invoke("new", "tripple-domino", "--players", players, "--option", "target=150")
        assert r.exit_code == 0, r.output
    for move in MOVES:
        assert invoke("play", move).exit_code == 0, move
    return invoke


def tamper(db, sql: str) -> None:
    raw = sqlite3.connect(db)
    raw.executescript("DROP TRIGGER IF EXISTS events_no_update; "
                      "DROP TRIGGER IF EXISTS events_no_delete;" + sql)
    raw.commit()
    raw.close()


CASES = {
    "last event deleted": ("DELETE FROM events WHERE match = 2 AND seq = 5;",
                           "the last 1 event(s) of match 2 were deleted"),
    "last two events deleted": ("DELETE FROM events WHERE match = 2 AND seq >= 4;",
                                "the last 2 event(s) of match 2 were deleted"),
    "options edited": ("UPDATE matches SET options = replace(options, '150', '10') WHERE id = 2;",
                       "the header of match 2 (game, players, options or creation time) was "
                       "changed"),
    "creation time edited": ("UPDATE matches SET created = '2020-01-01T00:00:00.000000Z' "
                             "WHERE id = 2;", "the header of match 2"),
    "middle event edited": ("UPDATE events SET data = replace(data, '4-5-5', '3-4-5') "
                            "WHERE match = 2 AND seq = 3;", "event 3 breaks the hash chain"),
    "event numbered with text": ("UPDATE events SET seq = 'two' WHERE match = 2 AND seq = 2;",
                                 "event 2 is missing"),
    "other match dropped": ("DELETE FROM events WHERE match = 1; DELETE FROM matches WHERE id = 1;",
                            "match(es) 1 were deleted"),
    "other match dropped with its head": (
        "DELETE FROM events WHERE match = 1; DELETE FROM matches WHERE id = 1; "
        "DELETE FROM heads WHERE match = 1;", "the manifest disagrees"),
}


def test_options_are_in_the_match_header_the_tamperer_changes(ref):
    """The case the issue found: target 150 -> 10 changed `log --script` and `export`."""
    assert "target=150" in ref("log", "--script").output


@pytest.mark.parametrize("case", list(CASES))
def test_every_command_reading_the_match_reports_the_tampering(ref, case):
    sql, message = CASES[case]
    tamper(ref.db, sql)
    for args in READERS:
        r = ref(*args)
        if args == ("standings",) and r.exit_code == 0:  # the other matches still counted,
            assert f"left out: {message}" in r.stdout or message in r.stdout.split(  # the
                "left out: ")[1], (case, r.output)  # tampered one marked
            continue
        assert r.exit_code == 2, (case, args, r.output)
        assert message in r.stderr and r.stderr.count("\n") == 1, (case, args, r.stderr)
        assert "Traceback" not in r.output
    r = ref("verify", "--all")
    assert r.exit_code == 1 and message in r.output, (case, r.output)
    assert r.output.startswith(("broken: tampered", "broken: match 2 is damaged"))
    r = ref("verify")  # the current match (and the database)
    assert r.exit_code == 1 and message in r.output, (case, r.output)


@pytest.mark.parametrize("seq", [0, -7, 2.5, 5.5])
def test_an_event_added_out_of_order_is_reported_by_every_command(ref, seq):
    """An INSERT needs no trigger dropped: rows before event 1, between two events or not
    numbered at all are found although no command counts the events any more."""
    tamper(ref.db, "INSERT INTO events (match, seq, kind, data, at, prev, hash) "
                   f"VALUES (2, {seq}, 'move', '{{}}', 'then', 'x', 'x');")
    for args in READERS:
        r = ref(*args)
        if args == ("standings",):  # the other match still counted, this one marked
            assert r.exit_code == 0 and "match 2 left out: tampered log" in r.stdout, r.output
            continue
        assert r.exit_code == 2 and "tampered log" in r.stderr, (seq, args, r.output)


def test_a_dropped_match_is_reported_by_matches_and_verify_json(ref):
    tamper(ref.db, CASES["other match dropped with its head"][0])
    r = ref("matches")
    assert r.exit_code == 2 and "the manifest disagrees" in r.stderr
    out = json.loads(ref("verify", "--all", "--json").output)
    assert not out["ok"] and "manifest" in out["problems"][0]["what"]


def test_dropping_the_current_match_is_not_just_no_match(ref):
    tamper(ref.db, "DELETE FROM events WHERE match = 2; DELETE FROM matches WHERE id = 2; "
                   "DELETE FROM heads WHERE match = 2;")
    r = ref("show")
    assert r.exit_code == 2 and "tampered database" in r.stderr


def test_an_untouched_database_verifies(ref):
    r = ref("verify", "--all")
    assert r.exit_code == 0 and r.output.startswith("ok: 2 match(es), 6 events"), r.output
    assert ref("verify", "--match", "1").exit_code == 0


def test_verify_all_names_what_verifying_each_match_alone_names(ref):
    """`verify --all` reads every match's chain in one query: a match left with no events and
    an edited event in another are both named, as verifying each alone names them."""
    tamper(ref.db, "DELETE FROM events WHERE match = 1; " + CASES["middle event edited"][0])
    problems = lambda *args: json.loads(ref("verify", "--json", *args).output)["problems"]  # noqa: E731
    every = problems("--all")
    assert every == problems("--match", "1") + problems("--match", "2"), every
    assert "match 1 has no events" in every[0]["what"] and "event 3 breaks" in every[1]["what"]


def test_a_database_from_before_heads_is_adopted_and_then_guarded(ref):
    """An old database (no heads table) is trusted as it is when first opened, then guarded."""
    old = "DROP TABLE heads; DELETE FROM settings WHERE key = 'manifest'; PRAGMA user_version = 0;"
    tamper(ref.db, old)
    assert ref("show").exit_code == 0
    tamper(ref.db, "DELETE FROM events WHERE match = 2 AND seq = 5;")
    assert "were deleted" in ref("show").stderr


def test_dropping_the_heads_table_of_a_guarded_database_is_reported(ref):
    tamper(ref.db, "DELETE FROM events WHERE match = 2 AND seq = 5; DROP TABLE heads;")
    r = ref("show")
    assert r.exit_code == 2 and "table heads) was removed" in r.stderr


@pytest.mark.parametrize("flags", [(), ("--game", "tripple-domino")])
def test_standings_with_every_match_left_out_says_so_without_a_traceback(tmp_path, flags):
    """The tester's report: one match, its one move edited; standings printed `left out` and
    then a TypeError (no player left to size the table by)."""
    db = tmp_path / "m.sqlite3"

    def invoke(*args: str):
        return CliRunner().invoke(main, ["--db", str(db), *args])

    invoke("new", "tripple-domino", "--players", "ana,bob")
    assert invoke("play", "start ana=5-5-5 bob=1-1-1").exit_code == 0
    tamper(db, "UPDATE events SET data = replace(data, '5-5-5', '4-4-4') WHERE seq = 2")
    r = invoke("standings", *flags)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == [
        "match 1 left out: tampered log: event 2 breaks the hash chain (match 1, event 2; "
        f"{db})", "no matches left to count"]
    r = invoke("standings", "--json", *flags)
    assert r.exit_code == 0 and json.loads(r.stdout) == [] and "left out" in r.stderr
