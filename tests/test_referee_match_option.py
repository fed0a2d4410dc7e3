"""Two terminals at one database: `--match N` acts on match N whatever is current, and every
verdict names the match it went to (a `new` elsewhere switches the current match)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from referee.cli import main


@pytest.fixture
def ref(tmp_path):
    db = str(tmp_path / "m.sqlite3")

    def invoke(*args, code=0):
        r = CliRunner().invoke(main, ["--db", db, *args])
        assert r.exit_code == code, (args, r.output)
        return r

    invoke("new", "tripple-domino", "--players", "ana,bob")  # terminal A's match 1
    invoke("new", "coda", "--players", "cy,dee")  # terminal B starts match 2: now current
    return invoke


def moves(ref, match: int) -> list[str]:
    events = json.loads(ref("log", "--match", str(match), "--json").output)["events"]
    return [e["text"] for e in events if e["kind"] == "move" and not e["retracted"]]


def test_every_command_acting_on_a_match_takes_match(ref):
    out = ref("play", "start ana=5-5-5 bob=4-4-4", "--match", "1").output
    assert out.startswith("ok (event 2): ana: start") and "(match 1)" in out.splitlines()[0]
    assert "(match 1)" in ref("check", "draw", "--match", "1").output.splitlines()[0]
    ref("play", "draw", "--match", "1")
    undone = ref("undo", "--match", "1").output
    assert undone.startswith("undone: event 3 draw") and "(match 1, event 4)" in undone
    r = ref("play", "7-7-7 U9,9", "--match", "1", code=2)
    assert "match 1: " in r.stderr
    assert len(moves(ref, 1)) == 1 and moves(ref, 2) == []  # nothing went to match 2
    assert "match 2" in ref("show").output  # the current match is still B's
    assert ref("redo", "--match", "1").output.startswith("redone: event 3 draw")
    assert "(match 1" in ref("adjust", "ana", "+2", "--reason", "miscount", "--match", "1").output
    assert "match 1 ended" in ref("end", "--abandoned", "--match", "1").output
    assert len(moves(ref, 1)) == 2 and moves(ref, 2) == []


def test_a_verdict_names_the_match_it_went_to(ref):
    r = ref("play", "row cy black black white white")  # A types, but match 2 is current
    assert r.output.splitlines()[0].endswith("(match 2)")
    r = ref("play", "start ana=5-5-5 bob=4-4-4", code=2)  # not a coda move: says where it went
    assert r.stderr.startswith("error: match 2: ")
