"""Issue 30, "the game the designer is printing": a designer's game made by `pnp new --blank`,
its [scoring] table switched on, playtested at the referee: three matches, notes on cards, a
score correction and an abandoned match; `standings` and `playtests` checked against figures
worked out by hand below (not by the code under test)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_referee_cli import one_error_line

BALANCE = """
[balance]
game = "scorepad"
players = 3
games = 40
seed = 7
options = { categories = "coins,wonders", rounds = "2" }
first_seat_win = "20%..50%"
rounds_mean = "<3"
"""


def pnp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True, check=False)


@pytest.fixture
def mygame(tmp_path) -> Path:
    """The blank starter with its commented [scoring] example switched on, 2 rounds."""
    folder = tmp_path / "mygame"
    done = pnp("new", str(folder), "--blank")
    assert done.returncode == 0, done.stderr
    toml = folder / "game.toml"
    lines = []
    on = False
    for line in toml.read_text().splitlines():
        if line.startswith("# [scoring]"):
            on = True
        if on and line.startswith("# "):
            line = line[2:]
        elif on:
            on = False
        lines.append(line)
    text = "\n".join(lines).replace("rounds = 3 ", "rounds = 2 ") + "\n" + BALANCE
    toml.write_text(text)
    return folder


def play(run, *moves: str) -> None:
    for m in moves:
        run("play", m)


@pytest.fixture
def played(referee_run, mygame):
    run = referee_run
    # match 1: ana 3+6 = 9, bob 5+1 = 6, cy 4-2 = 2, corrected +5 = 7; ana wins (seat 1)
    out = run("new", str(mygame), "--players", "ana,bob,cy").output
    assert "match 1: scorepad" in out and "mygame: score sheet, round 1 of 2" in out
    play(run, "ana coins 3", "bob: coins 5", "cy wonders 4", "round")
    run("note", "Scout too strong", "--card", "scout")
    run("note", "nobody played it", "--card", "Ambush", "--by", "bob")
    run("note", "setup took ten minutes")
    run("note", "typo", "--card", "guard")
    assert run("undo").output.startswith("undone: event 9 note [Guard]: typo")
    run("adjust", "cy", "+5", "--reason", "forgot the wonder bonus")
    play(run, "ana military 6", "bob coins 1", "cy military -2", "round")
    # match 2: every total 6; coins break the tie: bob 4 > ana 2 > cy 0 (seat 2)
    run("new", str(mygame), "--players", "ana,bob,cy")
    play(run, "ana coins 2", "bob coins 4", "cy wonders 6", "round")
    run("play", "cy military 20", code=1)  # S1: at most 18; rejected, changes nothing
    play(run, "ana wonders 4", "bob wonders 2", "cy coins 0", "round")
    # match 3: ended after round 1 by `finish`: ana 1, bob 3, cy 5; cy wins (seat 3)
    run("new", str(mygame), "--players", "ana,bob,cy")
    play(run, "ana coins 1", "bob military 3", "cy coins 5", "finish")
    # match 4: abandoned after one entry: played, not finished
    run("new", str(mygame), "--players", "ana,bob")
    play(run, "ana coins 2")
    run("end", "--abandoned", "--reason", "the cat sat on the cards")
    return run


def test_the_scorepad_keeps_score_and_decides_the_winner(played):
    run = played
    show = [json.loads(run("show", "--match", str(i), "--json").output) for i in (1, 2, 3, 4)]
    assert [s["totals"] for s in show] == [{"ana": 9, "bob": 6, "cy": 7},
                                           {"ana": 6, "bob": 6, "cy": 6},
                                           {"ana": 1, "bob": 3, "cy": 5},
                                           {"ana": 2, "bob": 0}]
    assert [s["outcome"]["winners"] if s["outcome"] else None for s in show] == [
        ["ana"], ["bob"], ["cy"], []]
    assert show[1]["outcome"]["reason"] == "highest total 6, tie broken on coins"
    assert show[3]["status"] == "abandoned"
    assert run("verify", "--all").output.startswith("ok: 4 match(es)")


def test_standings_of_the_designers_game_match_the_hand_count(played):
    rows = json.loads(played("standings", "--game", "mygame", "--json").output)
    by = {r["player"]: r for r in rows}
    assert {r["game"] for r in rows} == {"mygame"}
    # ana: 9, 6, 1 and 2 (abandoned after one entry: played, not finished, so it stays out
    # of the average and best); bob 6, 6, 3 and 0; cy 7, 6, 5
    assert (by["ana"]["played"], by["ana"]["finished"], by["ana"]["won"]) == (4, 3, 1)
    assert by["ana"]["average"] == pytest.approx(16 / 3) and by["ana"]["best"] == 9
    assert (by["bob"]["played"], by["bob"]["won"]) == (4, 1)
    assert by["bob"]["average"] == pytest.approx(15 / 3) and by["bob"]["best"] == 6
    assert (by["cy"]["played"], by["cy"]["won"]) == (3, 1)
    assert by["cy"]["average"] == pytest.approx(18 / 3) and by["cy"]["best"] == 7
    text = played("standings").output
    assert text.startswith("mygame\n")
    assert "  ana          4         3    1      5.3     9\n" in text
    assert "average and best are of finished matches; left out, unfinished (abandoned or in " \
           "play): ana 1, bob 1" in text


def test_standings_before_any_match_finished_show_no_average(referee_run):
    referee_run("new", "scorepad", "--players", "ana,bob", "--option", "categories=points")
    referee_run("play", "ana points 1")
    (ana, bob) = json.loads(referee_run("standings", "--json").output)
    assert (ana["played"], ana["finished"], ana["average"], ana["best"]) == (1, 0, None, None)
    text = referee_run("standings").output
    assert "  ana          1         0    0        -     -" in text
    assert "left out, unfinished (abandoned or in play): ana 1, bob 1" in text


def test_playtests_figures_match_the_hand_count(played, mygame):
    s = json.loads(played("playtests", "mygame", "--json").output)
    assert (s["game"], s["matches"], s["finished"], s["abandoned"], s["in_play"]) == (
        "mygame", 4, 3, 1, 0)
    (three,) = s["by_players"]  # the abandoned 2-player match has no result
    assert three["players"] == 3 and three["games"] == 3
    # each seat won once in 3: Wilson 95% by hand, p = 1/3, n = 3, z = 1.96:
    # centre (1/3 + z²/6) / (1 + z²/3) = 0.4269, half-width 0.3654 -> 6.15% .. 79.23%
    for seat in three["seats"]:
        assert seat["wins"] == 1 and seat["rate"] == pytest.approx(1 / 3)
        assert seat["ci95"] == pytest.approx([0.0615, 0.7923], abs=5e-4)
    assert [seat["score"]["mean"] for seat in three["seats"]] == pytest.approx(
        [16 / 3, 15 / 3, 18 / 3])
    # totals of every seat: 9 6 7 | 6 6 6 | 1 3 5; winners' 9, 6, 5; moves (entries and
    # round/finish) 8, 8, 4 (the rejected attempt is not a move); rounds 2, 2, 1
    assert three["scores"]["mean"] == pytest.approx(49 / 9)
    assert three["winning_scores"]["mean"] == pytest.approx(20 / 3)
    assert [three["moves"][k] for k in ("min", "p50", "max")] == [4, 8, 8]
    assert three["rounds"]["mean"] == pytest.approx(5 / 3)
    # category averages per player and game, before corrections, of the 3 finished matches:
    # coins 3+6+0 + 2+4+0 + 1+0+5 = 21, wonders 4 + 4+2+6 = 16, military 6-2 + 3 = 7
    assert s["categories"] == pytest.approx({"coins": 21 / 9, "wonders": 16 / 9,
                                             "military": 7 / 9})
    # the same per player, by name: ana coins 3+2+1, wonders 4, military 6; bob coins 6+4,
    # wonders 2, military 3; cy coins 5, wonders 4+6, military -2; each won once in 3
    players = {r["player"]: r for r in s["players"]}
    assert players["ana"]["categories"] == pytest.approx(
        {"coins": 6 / 3, "wonders": 4 / 3, "military": 6 / 3})
    assert players["bob"]["categories"] == pytest.approx(
        {"coins": 10 / 3, "wonders": 2 / 3, "military": 3 / 3})
    assert players["cy"]["categories"] == pytest.approx(
        {"coins": 5 / 3, "wonders": 10 / 3, "military": -2 / 3})
    for r in players.values():
        assert (r["games"], r["wins"]) == (3, 1) and r["rate"] == pytest.approx(1 / 3)
        assert r["ci95"] == pytest.approx([0.0615, 0.7923], abs=5e-4)
    assert s["adjustments"] == [{"match": 1, "player": "cy", "points": 5,
                                 "reason": "forgot the wonder bonus"}]
    notes = {g["card"]: [n["text"] for n in g["notes"]] for g in s["notes"]}
    assert notes == {"Ambush": ["nobody played it"], "Scout": ["Scout too strong"],
                     None: ["setup took ten minutes"]}  # the undone Guard note is gone
    # [balance]: real play (first seat 1 of 3, rounds 5/3) beside the simulation's figures
    b = {t["target"]: t for t in s["balance"]["targets"]}
    assert b["first_seat_win"]["real"] == pytest.approx(1 / 3)
    assert b["rounds_mean"]["real"] == pytest.approx(5 / 3)
    assert 0 <= b["first_seat_win"]["simulated"] <= 1
    assert b["rounds_mean"]["simulated"] == pytest.approx(2)  # a 2-round sheet, always
    text = played("playtests", str(mygame)).output  # by folder too
    assert "with 3 players: 3 finished game(s)" in text
    assert "first seat wins 33.3% (95% CI 6.1%-79.2%)" in text
    assert "Scout: 1" in text and "match 1: Scout too strong" in text
    table = text.split("per player, in finished games")[1].splitlines()
    assert table[1].split() == ["player", "games", "wins", "rate", "95%", "CI", "coins",
                                "wonders", "military"]
    assert table[2].split() == ["ana", "3", "1", "33.3%", "6.1%-79.2%", "2.0", "1.3", "2.0"]
    assert table[4].split() == ["cy", "3", "1", "33.3%", "6.1%-79.2%", "1.7", "3.3", "-0.7"]
    assert table[5].split() == ["all", "players", "2.3", "1.8", "0.8"]  # pooled, 21/9 ...
    rows = played("playtests", "mygame", "--csv").output.splitlines()
    assert rows[0] == "game,match,created,status,players,seat,player,total,won,play_seconds," \
                      "player_seconds,coins,wonders,military"
    assert len(rows) == 1 + 3 * 3 + 2
    first = rows[1].split(",")
    assert rows[1].startswith("mygame,1,") and first[3:9] == ["won by ana", "3", "1", "ana", "9",
                                                              "1"]
    assert first[11:] == ["3", "0", "6"]
    assert 0 <= float(first[10]) <= float(first[9])  # ana's time on turn within the play's


def test_the_match_replays_the_same_after_the_game_toml_changes(played, mygame):
    before = played("show", "--match", "1").output
    toml = mygame / "game.toml"
    toml.write_text(toml.read_text().replace('categories = ["coins", "wonders", "military"]',
                                             'categories = ["gold"]'))
    assert played("show", "--match", "1").output == before
    assert played("verify", "--all").exit_code == 0


def test_mistakes_at_the_scorepad_are_one_line(played, mygame, tmp_path):
    run = played
    run("new", str(mygame), "--players", "ana,bob")
    line = one_error_line(run("play", "ana coin 5", code=2))
    assert "unknown category 'coin'" in line and "did you mean coins?" in line
    line = one_error_line(run("note", "hmm", "--card", "scuot", code=2))
    assert "no card 'scuot'" in line and "did you mean Scout?" in line and "(--card)" in line
    out = run("play", "ana military 19", code=1).output
    assert "S1: military is at most 18, not 19" in out
    out = run("play", "round", code=1).output
    assert "S2: round 1: no entry yet for ana, bob" in out
    line = one_error_line(run("new", str(mygame), "--players", "a,b,c,d,e,f", code=2))
    assert "mygame takes 2-5 players, not 6" in line
    plain = tmp_path / "plain"
    assert pnp("new", str(plain), "--blank").returncode == 0
    line = one_error_line(run("new", str(plain), "--players", "ana,bob", code=2))
    assert "has no [scoring] table" in line
    assert pnp("verify", str(mygame)).returncode == 0  # [scoring] is part of the definition
    toml = mygame / "game.toml"
    toml.write_text(toml.read_text().replace("tie_breaks =", "tie_break ="))
    line = one_error_line(run("new", str(mygame), "--players", "ana,bob", code=2))
    assert "unknown key 'tie_break' (did you mean tie_breaks?)" in line
    assert "[scoring].tie_break" in line
    built = pnp("verify", str(mygame))  # the printing side reads the same table
    assert built.returncode == 2 and "tie_break" in built.stderr


def test_a_scorepad_without_a_folder_takes_its_sheet_as_options(referee_run):
    run = referee_run
    run("new", "scorepad", "--players", "ana,bob", "--option", "categories=points",
        "--option", "target=10", "--option", "lowest-wins=yes")
    play(run, "ana points 4", "bob points 11", "round")
    s = json.loads(run("show", "--json").output)
    assert s["outcome"] == {"winners": ["ana"], "reason": "lowest total 4"}
    assert run("log", "--script").output.count("referee play") == 3


def test_exports_carry_the_notes_and_the_designers_game(played):
    (record,) = json.loads(played("export", "--match", "1").output)
    notes = [e for e in record["events"] if e["kind"] == "note"]
    assert [n["data"]["text"] for n in notes] == ["Scout too strong", "nobody played it",
                                                  "setup took ten minutes", "typo"]
    (scout,) = notes[0]["data"]["cards"]
    assert (scout["name"], scout["ids"]) == ("Scout", [1, 2, 3])
    assert scout["fields"]["cost"] == "1"  # the card as it was: a later edit shows (issue 41)
    assert record["options"]["categories"] == "coins,wonders,military"
    plays = json.loads(played("export", "--format", "bgstats").output)
    assert [g["name"] for g in plays["games"]] == ["mygame"]
    assert [p["ignored"] for p in plays["plays"]] == [False, False, False, True]
    script = played("log", "--match", "1", "--script").output
    assert "referee note 'Scout too strong' --card Scout" in script
    assert "referee note 'nobody played it' --card Ambush --by bob" in script
    assert "# 9 note: note [Guard]: typo (undone)" in script


def test_the_log_names_the_player_of_an_entry_once(played):
    log = played("log", "--match", "3").output
    assert "   2  move     ana: coins 1   (ana +1 coins)" in log
    assert "ana: ana:" not in log


def test_notes_and_playtests_work_for_a_bundled_game_too(referee_run):
    run = referee_run
    run("new", "tripple-domino", "--players", "ana,bob")
    run("play", "start ana=5-5-5 bob=4-4-4")
    assert run("note", "the start is slow", "--card", "3").output.startswith(
        "note [0-0-2]: the start is slow (match 1, event 3)")
    run("new", "thricewise", "--players", "ana,bob")
    assert "[Ace of Suns]" in run("note", "x", "--card", "2").output
    assert "[Ace of Suns]" in run("note", "x", "--card", "2", "--deck", "decktet").output
    out = run("playtests", "Tripple_Domino").output
    assert out.startswith("tripple-domino: 1 match(es): 0 finished, 0 abandoned, 1 in play")
    assert "0-0-2: 1" in out
    line = one_error_line(run("playtests", "tripledomino", code=2))
    assert "did you mean tripple-domino?" in line


def test_a_note_needs_no_quotes_and_the_shell_runs_it(played):
    from referee.commands.shell import argv_for

    out = played("note", "Scout", "is", "fine", "now", "--card", "scout").output
    assert out.startswith("note [Scout]: Scout is fine now (match 4,")
    assert argv_for('note "too slow" --card scout') == ["note", "too slow", "--card", "scout"]
    assert argv_for("playtests mygame") == ["playtests", "mygame"]


def test_a_lowest_wins_sheet_is_exported_to_bg_stats_as_one(referee_run):
    run = referee_run
    run("new", "scorepad", "--players", "ana,bob,cy", "--option", "categories=points",
        "--option", "rounds=1", "--option", "lowest-wins=yes", "--option", "game-name=hearts")
    play(run, "ana points 4", "bob points 11", "cy points 7", "round")
    bg = json.loads(run("export", "--format", "bgstats").output)
    assert [(g["name"], g["highestWins"]) for g in bg["games"]] == [("hearts", False)]
    (scores,) = [p["playerScores"] for p in bg["plays"]]
    assert [(s["score"], s["rank"], s["winner"]) for s in scores] == [
        ("4", 1, True), ("11", 3, False), ("7", 2, False)]


def test_a_seat_that_never_won_has_a_lower_bound_of_exactly_0(referee_run):
    run = referee_run
    for _ in range(3):  # ana wins all three; bob never
        run("new", "scorepad", "--players", "ana,bob", "--option", "categories=points",
            "--option", "rounds=1")
        play(run, "ana points 5", "bob points 1", "round")
    text = run("playtests", "scorepad", "--json").output
    assert "e-1" not in text  # printed 5.551115123125783e-17 for 0 wins of 3
    s = json.loads(text)
    (size,) = s["by_players"]
    assert [r["ci95"][0] for r in size["seats"]][1] == 0
    assert size["seats"][0]["ci95"][1] == 1
    bob = next(r for r in s["players"] if r["player"] == "bob")
    assert (bob["wins"], bob["ci95"][0]) == (0, 0)
