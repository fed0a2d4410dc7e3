"""At the table (issue 16 §2): undo and redo, score corrections, ending a match early, game-name
suggestions, standings per game and BG Stats exports, through the CLI as players use it."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from referee.cli import main
from tests.programs import with_programs
from tests.test_referee_cli import one_error_line

OPENING = ["start ana=5-5-5 bob=4-4-4", "4-5-5 D-1,0"]  # ana opens (+20), bob places (+14)


@pytest.fixture
def run(referee_run):
    return referee_run


@pytest.fixture
def match(run):
    run("new", "tripple-domino", "--players", "ana,bob")
    for move in OPENING:
        run("play", move)
    return run


def state(run) -> dict:
    return json.loads(run("show", "--json").output)


# undo and redo


def test_undo_after_a_rejected_attempt_keeps_the_previous_players_move(match):
    before = state(match)
    assert before["to_move"] == "ana"
    match("play", "2-2-2 U9,9", code=1)  # ana's attempt is rejected: not a move
    out = match("undo").output
    assert "nothing taken back" in out and "ana's '2-2-2 U9,9'" in out
    assert "still in force: event 3 4-5-5 D-1,0" in out and "bob's move" in out
    assert "now: ana's turn" in out
    after = state(match)
    assert after["position"] == before["position"] and after["totals"] == before["totals"]
    log = match("log").output
    assert "[set aside]" in log and "[undone]" not in log
    out = match("undo").output  # now bob's move goes
    assert out.startswith("undone: event 3 4-5-5 D-1,0") and "bob's move" in out
    assert "now: bob's turn" in out
    assert state(match)["totals"] == {"ana": 20, "bob": 0}


def test_redo_puts_back_what_undo_took_and_a_new_move_ends_redo(match):
    before = state(match)
    match("undo")
    out = match("redo").output
    assert out.startswith("redone: event 3 4-5-5 D-1,0") and "now: ana's turn" in out
    assert state(match) | {"event": 0} == before | {"event": 0}
    assert "nothing to redo" in one_error_line(match("redo", code=2))
    match("undo")
    match("play", "4-5-5 D-1,0")  # bob plays again: what was undone cannot come back
    assert "nothing to redo" in one_error_line(match("redo", code=2))
    log = match("log", "--json").output
    kinds = [e["kind"] for e in json.loads(log)["events"]]
    assert kinds == ["new", "move", "move", "undo", "redo", "undo", "move"]  # append-only


# score corrections


def test_adjust_corrects_a_score_in_score_log_show_and_exports(match):
    out = match("adjust", "ana", "-5", "--reason", "counted a tile twice").output
    assert "adjusted: ana -5 (counted a tile twice)" in out
    assert "total: ana 15 (20 - 5 adjusted), bob 14" in out  # one total, the correction named
    match("adjust", "bob", "+3", "--reason", "missed bridge")
    score = match("score").output
    assert "ana    -5  adjusted: counted a tile twice" in score
    assert score.strip().endswith("total: ana 15 (20 - 5 adjusted), bob 17 (14 + 3 adjusted)")
    assert "ana: adjust -5: counted a tile twice" in match("log").output
    assert state(match)["totals"] == {"ana": 15, "bob": 17}
    shown = match("show").output
    assert "ana          15 points" in shown and "bob          17 points" in shown
    assert "adjusted: ana 15 (20 - 5 adjusted), bob 17 (14 + 3 adjusted)" in shown
    full = json.loads(match("export", "--format", "json").output)[0]
    assert full["totals"] == {"ana": 15, "bob": 17}
    rows = list(csv.DictReader(io.StringIO(match("export", "--format", "csv").output)))
    assert ["ana", "-5", "adjusted: counted a tile twice"] in [
        [r["player"], r["points"], r["label"]] for r in rows]
    match("undo")  # an adjustment is an entry like a move
    assert state(match)["totals"] == {"ana": 15, "bob": 14}


@pytest.mark.parametrize("args, expected", [
    (("adjust", "zed", "+5", "--reason", "x"), "unknown player 'zed', the players are ana, bob"),
    (("adjust", "ana", "five", "--reason", "x"), "a whole number such as +5 or -3, not 'five'"),
    (("adjust", "ana", "0", "--reason", "x"), "0 points changes nothing"),
    (("adjust", "ana", "+5", "--reason", " "), "say why the score is corrected (--reason)"),
    (("adjust", "ana", "+5"), "missing option --reason"),
    # the tester's: accepted, and standings then showed an average of 99999999999999991433...
    (("adjust", "ana", "99999999999999999999999999999", "--reason", "x"),
     "at most 9 digits (up to 999,999,999), not the 29 of 999999999999... (POINTS)"),
    (("adjust", "bob", "-1000000000", "--reason", "x"), "not the 10 of -1000000000 (POINTS)"),
])
def test_bad_adjustments_are_one_line_errors_and_record_nothing(match, args, expected):
    before = match("log", "--json").output
    assert expected in one_error_line(match(*args, code=2))
    assert match("log", "--json").output == before


def test_a_correction_takes_the_points_a_score_sheet_entry_takes(run):
    """`adjust` and `play` on a score sheet take the same points: up to 999,999,999."""
    run("new", "scorepad", "--players", "ana,bob")
    assert "9 digits" in one_error_line(run("play", "ana", "points", "1000000000", code=2))
    run("play", "ana", "points", "999999999")
    run("adjust", "bob", "-999999999", "--reason", "x")
    assert state(run)["totals"] == {"ana": 999999999, "bob": -999999999}


# ending a match early


def test_an_abandoned_match_is_no_longer_in_play_and_exports_as_abandoned(match):
    out = match("end", "--abandoned", "--reason", "bus to catch").output
    assert "match 1 ended: abandoned" in out
    assert "(abandoned)" in match("matches").output
    assert json.loads(match("matches", "--json").output)[0]["status"] == "abandoned"
    line = one_error_line(match("play", "draw", code=2))
    assert "match 1 was ended (abandoned)" in line and "undo" in line
    assert "kept in the log as rejected" in line  # typed all the same: nothing lost
    assert "game over: nobody — abandoned: bus to catch" in match("show").output
    play = json.loads(match("export", "--format", "bgstats").output)["plays"][0]
    assert play["ignored"] is True and "abandoned" in play["comments"]
    assert not any(s["winner"] for s in play["playerScores"])
    assert "end: abandoned: bus to catch" in match("log").output
    rows = {r["player"]: r for r in json.loads(match("standings", "--json").output)}
    assert rows["ana"]["played"] == 1 and rows["ana"]["finished"] == 0


def test_a_declared_result_ends_the_match_with_its_winner(match):
    match("end", "--winner", "Bob", "--reason", "ana conceded")
    assert "won by bob (declared)" in match("matches").output
    play = json.loads(match("export", "--format", "bgstats").output)["plays"][0]
    winners = [s for s in play["playerScores"] if s["winner"]]
    assert play["ignored"] is False and len(winners) == 1 and play["manualWinner"] is True
    rows = {r["player"]: r for r in json.loads(match("standings", "--json").output)}
    assert rows["bob"]["won"] == 1 and rows["ana"]["finished"] == 1
    assert "already over" in one_error_line(match("end", "--abandoned", code=2))
    match("undo")  # the end is taken back: play on
    assert "(in play)" in match("matches").output
    match("play", "draw")


@pytest.mark.parametrize("args, expected", [
    (("end",), "either --abandoned or with --winner NAME"),
    (("end", "--abandoned", "--winner", "ana"), "either --abandoned or with --winner NAME"),
    (("end", "--winner", "zed"), "unknown player 'zed'"),
])
def test_bad_ends_are_one_line_errors(match, args, expected):
    assert expected in one_error_line(match(*args, code=2))
    assert "(in play)" in match("matches").output


# names, standings, exports


def test_a_misspelt_game_name_gets_a_suggestion(run):
    line = one_error_line(run("new", "triple-domino", "--players", "a,b", code=2))
    assert "unknown game 'triple-domino'" in line and "did you mean tripple-domino?" in line
    assert "did you mean" not in one_error_line(run("new", "chess", "--players", "a,b", code=2))


def test_standings_keep_each_games_points_apart(run):
    run("new", "tripple-domino", "--players", "ana,bob")
    for move in OPENING:
        run("play", move)  # ana 20, bob 14
    run("end", "--winner", "ana")  # finished: averages count finished matches only
    run("new", "count-down", "--players", "ana,bob", code=2)  # (no such game: nothing made)
    run("new", "thricewise", "--players", "ana,bob")  # ana 0, bob 0
    run("end", "--winner", "bob")
    rows = json.loads(run("standings", "--json").output)
    ana = {r["game"]: r for r in rows if r["player"] == "ana"}
    assert ana["tripple-domino"]["average"] == 20 and ana["thricewise"]["average"] == 0
    out = run("standings").output
    assert out.index("thricewise") < out.index("tripple-domino")
    only = json.loads(run("standings", "--game", "thricewise", "--json").output)
    assert {r["game"] for r in only} == {"thricewise"}


def test_bgstats_export_has_real_ids_and_rounds(run):
    run("new", "coda", "--players", "ana,bob")
    run("new", "tripple-domino", "--players", "Bob,cy")
    for move in ["start Bob=5-5-5 cy=4-4-4", "4-5-5 D-1,0"]:
        run("play", move)
    bg = json.loads(run("export", "--format", "bgstats").output)
    games = {g["name"]: g for g in bg["games"]}
    assert games["Coda"]["bggId"] == 8946  # boardgamegeek.com/boardgame/8946
    assert "bggId" not in games["Tripple Domino"]  # none known: omitted, never 0
    rounds = {p["gameRefId"]: p["rounds"] for p in bg["plays"]}
    assert rounds[games["Coda"]["id"]] == 0 and rounds[games["Tripple Domino"]["id"]] == 1
    ids = {p["name"]: p["id"] for p in bg["players"]}
    assert set(ids) == {"ana", "bob", "cy"}  # Bob and bob are one person
    alone = json.loads(run("export", "--format", "bgstats", "--match", "2").output)
    assert {p["name"]: p["id"] for p in alone["players"]} == {"Bob": ids["bob"], "cy": ids["cy"]}
    seat = {s["playerRefId"] for s in alone["plays"][0]["playerScores"]}
    assert seat == {ids["bob"], ids["cy"]}


def test_log_script_replays_adjustments_and_an_early_end(match, tmp_path):
    import os
    import subprocess

    match("adjust", "bob", "+2", "--reason", "bridge missed")
    match("adjust", "ana", "-1", "--reason", "taken back")
    match("undo")  # the -1 goes: the script leaves it out
    match("end", "--winner", "bob", "--reason", "ana's bus")
    script = match("log", "--script").output
    assert "referee adjust bob +2 --reason 'bridge missed'" in script
    assert "referee end --winner bob --reason \"ana's bus\"" in script or \
        "referee end --winner bob --reason 'ana'\"'\"'s bus'" in script
    env = with_programs({**os.environ, "REFEREE_DB": str(tmp_path / "again.sqlite3")})
    done = subprocess.run(["bash", "-e", "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    again = CliRunner().invoke(main, ["--db", env["REFEREE_DB"], "show", "--json"]).output
    mine = state(match)
    for key in ("totals", "status", "outcome", "position"):
        assert json.loads(again)[key] == mine[key]


def test_totals_after_a_correction_on_a_match_read_from_its_snapshot(tmp_path):
    """A state read back from a snapshot keeps its ledger's sums (state_pickle); the totals with
    the table's corrections added to them are those of every item, as summed one by one."""
    from referee import engine, session, table_session
    from referee.record.store import Store

    store = Store(tmp_path / "m.sqlite3")
    session.new_match(store, "tripple-domino", ["ana", "bob"], {})
    for move in ("start ana=5-5-5 bob=4-4-4", "4-5-5 D-1,0", "3-5-5 D0,0", "draw"):
        session.play(store, move)
    session.load(store)  # saves a snapshot
    cur = table_session.adjust(store, "bob", "+7", "recount").cur
    cur = table_session.adjust(store, "ana", "-3", "recount").cur
    assert isinstance(cur.game.ledger(cur.state), engine.SummedLedger)  # else this proves nothing
    by_hand = {p: sum(i.points for i in cur.ledger() if i.player == p) for p in ("ana", "bob")}
    assert cur.totals() == by_hand and by_hand["bob"] >= 7
