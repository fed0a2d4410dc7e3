"""Issue 30, at the table: the natural move is accepted, one total per player in every view,
and a position typed in to settle a dispute leaves no trace unless the table keeps it."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

import pytest

PLAYERS = "ana,bob,cy"
OPENING = "start ana=5-5-5 bob=4-4-4 cy=3-3-3"


@pytest.fixture
def run(referee_run):
    return referee_run


@pytest.fixture
def three(run):
    """A 3-player Tripple Domino match, opened: bob to move."""
    run("new", "tripple-domino", "--players", PLAYERS)
    run("play", OPENING)
    return run


# 1. draw, then place


def test_a_placement_after_draw_names_and_places_the_drawn_tile(three):
    drew = three("play", "draw").output
    assert "bob drew 1: place the drawn tile by naming it" in drew
    out = three("play", "4-5-5", "D0,0").output  # refused before: "only the tile just drawn"
    assert out.startswith("ok (event 4): bob: 4-5-5 D0,0") and "next: cy" in out
    assert "bob +14 tile 4-5-5 at D0,0" in out
    shown = json.loads(three("show", "--json").output)
    assert shown["totals"]["bob"] == -5 + 14 and shown["to_move"] == "cy"
    assert "hands ana=7 bob=8 cy=8" in shown["position"]  # drawn in, placed out


# 2. one total per player


def test_an_adjusted_total_is_the_one_total_in_every_view(three):
    three("play", "4-5-5 D0,0")  # bob 14
    three("play", "3-5-5 D-1,0")  # cy 13
    three("adjust", "cy", "+5", "--reason", "bridge missed")
    named = "cy 18 (13 + 5 adjusted)"
    shown = three("show").output
    assert "cy           18 points" in shown and " 13 points" not in shown
    assert f"adjusted: {named}" in shown
    assert three("score").output.strip().endswith(f"total: ana 20, bob 14, {named}")
    assert f"ana 20, bob 14, {named}" in three("matches").output
    three("end", "--winner", "cy")  # standings average finished matches only
    standings = three("standings").output
    assert "cy           1         1    1     18.0    18" in standings
    assert "totals include the table's adjustments: cy +5" in standings
    data = json.loads(three("show", "--json").output)
    assert data["totals"]["cy"] == 18 and data["adjusted"]["cy"] == 5
    listed = json.loads(three("matches", "--json").output)[0]
    assert listed["totals"]["cy"] == 18 and listed["adjusted"]["cy"] == 5
    by_player = {s["player"]: s for s in json.loads(three("standings", "--json").output)}
    assert by_player["cy"]["adjusted"] == 5 and by_player["ana"]["adjusted"] == 0
    exported = json.loads(three("export").output)[0]
    assert exported["totals"]["cy"] == 18 and exported["adjusted"]["cy"] == 5


def test_the_shell_redraws_the_board_with_the_adjusted_total(three):
    three("play", "4-5-5 D0,0")
    three("play", "3-5-5 D-1,0")
    env = {**os.environ, "REFEREE_DB": str(three.db)}
    done = subprocess.run([sys.executable, "-m", "referee.cli", "shell"], env=env, text=True,
                          input="adjust cy +5 --reason 'bridge missed'\nquit\n",
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    after = done.stdout.split("adjusted: cy +5 (bridge missed)")[1]  # the redraw
    assert "cy           18 points" in after and "adjusted: cy 18 (13 + 5 adjusted)" in after


def test_the_winner_is_read_from_the_corrected_totals(run, tmp_path):
    position = tmp_path / "near-the-end.txt"
    position.write_text("turn ana\nscores ana=290 bob=250\nhands ana=1 bob=3\nU0,0 5-5-5\n")
    run("new", "tripple-domino", "--players", "ana,bob", "--position", str(position))
    run("adjust", "bob", "+100", "--reason", "round 1 counted twice short")
    assert "ana went out" in run("play", "4-5-5 D0,0").output
    run("play", "end bob=1-1-1,1-1-2,0-0-0")  # ana passes the target: the game is over
    shown = json.loads(run("show", "--json").output)
    ana = 290 + 14 + 20 + 7  # tile, going out, bob's tiles left
    assert shown["totals"] == {"ana": ana, "bob": 350}
    assert shown["outcome"]["winners"] == ["bob"] and "350 points" in shown["outcome"]["reason"]


# 3. a dispute's position is scratch


def test_a_dispute_position_stays_out_of_standings_and_exports_unless_kept(three, tmp_path):
    dispute = tmp_path / "dispute.txt"
    dispute.write_text("turn ana\nD1,0 2-3-2\nU1,2 0-0-1\n")
    out = three("new", "tripple-domino", "--players", PLAYERS, "--position", str(dispute)).output
    assert "scratch match" in out and "`referee keep`" in out
    assert "`referee use 1` goes back to match 1" in out
    assert "ana +30 bridge" in three("check", "1-2-3 U1,1").output
    three("use", "1")
    ended = three("end", "--abandoned", "--match", "2").output
    assert "`referee undo --match 2` takes it back" in ended
    assert "(abandoned, scratch)" in three("matches").output
    standing = json.loads(three("standings", "--json").output)
    assert [s["played"] for s in standing] == [1, 1, 1]  # match 1 only
    assert [m["match"] for m in json.loads(three("export").output)] == [1]
    rows = csv.DictReader(io.StringIO(three("export", "--format", "csv").output))
    assert {r["match"] for r in rows} == {"1"}
    assert "kept" in three("keep", "--match", "2").output
    assert [s["played"] for s in json.loads(three("standings", "--json").output)] == [2, 2, 2]
    assert [m["match"] for m in json.loads(three("export").output)] == [1, 2]
    assert "referee keep" in three("log", "--script", "--match", "2").output


def test_keep_refuses_a_match_that_counts_already(three):
    err = three("keep", code=2).stderr
    assert "error: match 1 is no scratch match" in err


def test_the_shell_runs_keep_as_a_command(run, tmp_path):
    dispute = tmp_path / "dispute.txt"
    dispute.write_text("turn ana\nD1,0 2-3-2\nU1,2 0-0-1\n")
    run("new", "tripple-domino", "--players", PLAYERS, "--position", str(dispute))
    env = {**os.environ, "REFEREE_DB": str(run.db)}
    done = subprocess.run([sys.executable, "-m", "referee.cli", "shell"], env=env, text=True,
                          input="keep\nquit\n", capture_output=True, timeout=60)
    assert "match 1 kept: it counts in standings, playtests and exports" in done.stdout, done.stderr
