"""The referee command line as a player uses it: answers, exit codes, one-line errors, exports."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from tests.programs import with_programs

SCRIPT = [
    "start ana=5-5-5 bob=4-4-4", "4-5-5 D-1,0", "3-5-5 D0,0", "draw", "draw 4-4-5 U-1,1",
]


@pytest.fixture
def run(referee_run):
    return referee_run


@pytest.fixture
def match(run):
    run("new", "tripple-domino", "--players", "ana,bob")
    for move in SCRIPT:
        run("play", move)
    return run


def one_error_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


def test_help_lists_every_command(run):
    out = run("--help").output
    for cmd in ("games", "new", "matches", "use", "play", "check", "undo", "show", "score",
                "log", "replay", "rule", "standings", "export", "position"):
        assert f"  {cmd} " in out


def test_games_lists_options_and_notation(run):
    out = run("games").output
    assert "tripple-domino" in out and "variant=standard [standard|pressman]" in out
    data = json.loads(run("games", "--json").output)
    td = next(g for g in data if g["name"] == "tripple-domino")
    assert td["players"] == [1, 6] and "start" in td["notation"]


@pytest.mark.parametrize("args, expected", [
    (("new", "chess", "--players", "a,b"), "error: unknown game 'chess' (games: "),
    (("new", "tripple-domino", "--players", "a,b,c,d,e,f,g"),
     "takes 1-6 players, not 7 (--players)"),
    (("new", "tripple-domino", "--players", "ana,ana"), "appears twice"),
    (("new", "coda", "--players", "ana maria,bob"),
     "player name 'ana maria' cannot be written in moves: use one word"),
    (("new", "dobble-connect", "--players", "ana:x,bob"), "'ana:x' cannot be written in moves"),
    (("new", "thricewise", "--players", "ana,Ana"), "ana and Ana differ only in case"),
    (("new", "tripple-domino", "--players", "ana,vs"), "it is a word of the notation"),
    # a Duplicon player named `steal` could never be stolen from (`steal steal ...`)
    (("new", "duplicon", "--players", "ana,Steal"), "'Steal' cannot be written in moves: it "
                                                      "is a word of the notation"),
    (("new", "coda", "--players", "ana,unseal"), "it is a word of the notation"),
    (("new", "tripple-domino", "--players", "a,b", "--option", "target=300", "--option", "target=400"),
     "option target is given twice: '300' and '400' (--option)"),
    (("new", "tripple-domino", "--players", "a,b", "--option", "colour=red"),
     "unknown option 'colour' for tripple-domino"),
    (("new", "tripple-domino", "--players", "a,b", "--option", "variant=tri"),
     "is not one of standard, pressman for tripple-domino (--option variant)"),
    (("new", "tripple-domino", "--players", "a,b", "--option", "variant"), "key=value"),
    (("show",), "no current match"),
    (("use", "7"), "no match 7"),
    (("rule", "tripple-domino", "D9"), "no rule 'D9' in tripple-domino"),
    (("shwo",), "unknown command 'shwo': did you mean show?"),
    (("replay",), "missing option --to"),
])
def test_user_mistakes_are_one_line_with_exit_code_2(run, args, expected):
    from referee.record import Store

    Store(run.db).close()  # a database with no match yet (none at all: test_no_database_*)
    line = one_error_line(run(*args, code=2))
    assert expected in line



def test_new_refuses_every_move_word_of_every_game_as_a_player_name(run):
    """Each game declares the words of its notation (Rules.move_words); none is a name."""
    from referee import registry

    checked = 0
    for name, game in registry.games().items():
        for word in sorted(game.move_words):
            players = ",".join(["ana", word.upper(), "cy"][:max(2, game.min_players)])
            line = one_error_line(run("new", name, "--players", players, code=2))
            assert f"{word.upper()!r} cannot be written in moves" in line, (name, line)
            checked += 1
    assert checked >= 15  # Tripple Domino, Duplicon and Coda name theirs


def test_a_legal_move_is_recorded_and_says_what_it_scored(run):
    run("new", "tripple-domino", "--players", "ana,bob")
    out = run("play", "start", "ana=5-5-5", "bob=4-4-4").output
    assert "ok (event 2): ana: start ana=5-5-5 vs bob=4-4-4" in out
    assert "ana +15 opening tile 5-5-5, ana +5 start bonus" in out and "next: bob" in out


def test_an_illegal_move_exits_1_with_rule_text_and_reason_and_is_kept(match):
    r = match("play", "5-5-5 D1,-1", code=1)
    assert "D5: 5-5-5 is already on the table" in r.output
    assert "rule D5: one tile per turn; a tile exists once" in r.output
    log = json.loads(match("log", "--json").output)["events"]
    assert log[-1]["kind"] == "rejected" and "5-5-5 D1,-1" in log[-1]["text"]


def test_an_unreadable_move_exits_2_on_one_line_and_is_kept(match):
    line = one_error_line(match("play", "7-7-7", "U9,9", code=2))
    assert "unexpected '7-7-7'" in line and "(move '7-7-7 U9,9')" in line
    assert "kept in the log" in line
    assert json.loads(match("log", "--json").output)["events"][-1]["kind"] == "rejected"


def test_check_is_a_dry_run(match):
    before = match("log").output
    r = match("check", "3-4-5", "U1,0")
    assert r.output.startswith("legal: ana: 3-4-5 U1,0 as 3-4-5")
    assert match("check", "draw", "--by", "bob", code=1).output.startswith("illegal")
    assert match("log").output == before
    data = json.loads(match("check", "3-4-5 U1,0", "--json").output)
    assert data["legal"] and data["score"][0]["points"] == 12


def test_show_draws_the_board_whose_turn_and_scores(match):
    out = match("show").output
    assert "U-1,1" in out and "D0,0" in out and "to move: ana" in out
    assert "ana          33 points" in out
    data = json.loads(match("show", "--json").output)
    assert data["to_move"] == "ana" and data["totals"] == {"ana": 33, "bob": 17}


def test_score_itemises_every_bonus_and_penalty_per_round(match):
    out = match("score").output
    assert out.splitlines()[0] == "round 1"
    assert "bob    -5  draw 2" in out and "ana    +5  start bonus" in out
    assert out.strip().endswith("total: ana 33, bob 17")


def test_undo_equals_never_having_played(run, tmp_path):
    run("new", "tripple-domino", "--players", "ana,bob")
    for move in SCRIPT:
        run("play", move)
    run("play", "3-4-5 U1,0")
    assert "undone: event 7 3-4-5 U1,0 as 3-4-5" in run("undo").output
    undone = json.loads(run("show", "--json").output)
    log = run("log").output
    assert "[undone]" in log
    other = CliRunner()
    db2 = str(tmp_path / "other.sqlite3")
    other.invoke(main, ["--db", db2, "new", "tripple-domino", "--players", "ana,bob"])
    for move in SCRIPT:
        other.invoke(main, ["--db", db2, "play", move])
    never = json.loads(other.invoke(main, ["--db", db2, "show", "--json"]).output)
    for key in ("position", "totals", "to_move", "board"):
        assert undone[key] == never[key]


def test_nothing_to_undo_is_a_user_error(run):
    run("new", "tripple-domino", "--players", "ana,bob")
    assert "nothing to undo" in one_error_line(run("undo", code=2))


def test_replay_shows_the_position_after_event_n(match):
    at3 = json.loads(match("replay", "--to", "3", "--json").output)
    assert at3["totals"] == {"ana": 20, "bob": 14} and at3["to_move"] == "ana"
    assert "no event 99" in one_error_line(match("replay", "--to", "99", code=2))


def test_log_is_readable_and_replayable(match):
    lines = match("log").output.splitlines()
    assert lines[0].split() == ["1", "new", "new", "tripple-domino", "players", "ana,bob",
                                "draw-cap=none", "target=auto", "variant=standard"]
    assert "bob: draw 4-4-5 U-1,1 as 4-5-4" in lines[5] and "bob -5 draw 2" in lines[5]


def test_log_script_replays_the_match_into_a_new_one(match, tmp_path):
    match("play", "2-2-2 U9,9", code=1)
    match("play", "3-4-5 U1,0")
    match("undo")
    script = match("log", "--script").output
    assert "# 7 rejected" in script and "(undone)" in script
    db = str(tmp_path / "replayed.sqlite3")
    env = with_programs({**os.environ, "REFEREE_DB": db})
    done = subprocess.run(["bash", "-e", "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    mine = json.loads(match("show", "--json").output)
    again = json.loads(CliRunner().invoke(main, ["--db", db, "show", "--json"]).output)
    for key in ("position", "totals", "to_move", "board"):
        assert mine[key] == again[key]


def test_position_setup_settles_a_dispute(run, tmp_path):
    f = tmp_path / "dispute.txt"
    f.write_text("turn ana\nD1,0 2-3-2\nU1,2 0-0-1\n")
    run("new", "tripple-domino", "--players", "ana,bob", "--position", str(f))
    out = run("check", "1-2-3 U1,1").output
    assert "ana +6 tile 1-2-3 at U1,1, ana +30 bridge" in out
    text = run("position").output
    f2 = tmp_path / "again.txt"
    f2.write_text(text)
    run("new", "tripple-domino", "--players", "ana,bob", "--position", str(f2))
    assert run("position").output == text
    f.write_text("turn ana\nU0,0 3-2-1\n")
    line = one_error_line(run("new", "tripple-domino", "--players", "ana,bob", "--position",
                              str(f), code=2))
    assert "mirror image" in line and "position line 2" in line


def test_matches_use_and_standings(run):
    run("new", "tripple-domino", "--players", "ana,bob", "--option", "target=40")
    for move in ["start ana=5-5-5 bob=4-4-4", "4-5-5 D-1,0", "3-5-5 D0,0"]:
        run("play", move)
    run("new", "tripple-domino", "--players", "bob,cy")
    listing = run("matches").output.splitlines()
    assert listing[0].startswith("    1") and listing[1].startswith("*   2")
    run("use", "1")
    assert json.loads(run("show", "--json").output)["match"] == 1
    run("end", "--winner", "ana")  # the best total is of finished matches
    rows = {r["player"]: r for r in json.loads(run("standings", "--json").output)}
    assert rows["bob"]["played"] == 2 and rows["ana"]["best"] == 33
    assert rows["cy"]["won"] == 0


def test_a_finished_game_is_reported_and_counted(run, tmp_path):
    f = tmp_path / "late.txt"
    f.write_text("turn ana\nhands ana=1 bob=1\nscores ana=290 bob=100\nU0,0 5-5-5\n")
    run("new", "tripple-domino", "--players", "ana,bob", "--position", str(f))
    run("play", "4-5-5 D0,0")
    out = run("play", "end bob=0-0-1").output
    assert "game over: ana" in out
    assert "the game is over" in run("play", "draw", "--by", "bob", code=1).output
    assert json.loads(run("standings", "--json").output) == []  # a typed-in position: scratch
    run("keep")
    rows = {r["player"]: r for r in json.loads(run("standings", "--json").output)}
    assert rows["ana"]["won"] == 1 and rows["ana"]["finished"] == 1


def test_export_json_csv_and_bgstats(match):
    full = json.loads(match("export", "--format", "json").output)
    assert full[0]["totals"] == {"ana": 33, "bob": 17} and len(full[0]["events"]) == 6
    rows = list(csv.DictReader(io.StringIO(match("export", "--format", "csv").output)))
    assert sum(int(r["points"]) for r in rows if r["player"] == "bob") == 17
    bg = json.loads(match("export", "--format", "bgstats").output)
    assert bg["games"] == [{"id": 1, "name": "Tripple Domino", "highestWins": True,
                            "noPoints": False, "cooperative": False}]  # no BGG id: omitted
    names = {p["id"]: p["name"] for p in bg["players"]}
    play = bg["plays"][0]
    assert play["gameRefId"] == 1 and play["ignored"] is True  # not finished yet
    scores = {names[s["playerRefId"]]: s for s in play["playerScores"]}
    assert scores["ana"]["score"] == "33" and scores["bob"]["score"] == "17"
    assert scores["ana"]["startPlayer"] and not scores["bob"]["startPlayer"]
    assert scores["ana"]["rank"] == 1 and scores["bob"]["seatOrder"] == 2



def _bgstats_places(run) -> dict[str, tuple[bool, int]]:
    """Each player's (winner, rank) in the BG Stats export of the current match."""
    bg = json.loads(run("export", "--format", "bgstats").output)
    names = {p["id"]: p["name"] for p in bg["players"]}
    return {names[s["playerRefId"]]: (s["winner"], s["rank"])
            for s in bg["plays"][0]["playerScores"]}


def test_bgstats_ranks_a_declared_winner_first_whatever_the_totals(run):
    """The tester's report: `end --winner ana` with ana behind on points exported ana as the
    winner in rank 2 and bob in rank 1; the rank follows the winner every command names."""
    run("new", "tripple-domino", "--players", "ana,bob,cy")
    run("play", "start ana=1-1-1 bob=5-5-5 cy=0-0-0")
    run("end", "--winner", "ana")
    assert _bgstats_places(run) == {"ana": (True, 1), "bob": (False, 2), "cy": (False, 3)}


def test_bgstats_ranks_the_rules_winner_first_after_an_adjustment(run):
    """In Coda the last player with hidden tiles wins, whatever an adjustment does to the
    totals: ben won with 42, ana was corrected to 100 and was exported in rank 1."""
    from tests import table_matches

    table_matches.sealed_coda(run.db)
    table_matches.finish_coda(run.db)
    run("adjust", "ana", "+100", "--reason", "a late bonus")
    assert "game over: ben" in run("show").output
    assert _bgstats_places(run) == {"ben": (True, 1), "ana": (False, 2)}


def test_json_is_indented_text_as_typed_and_keeps_any_whole_number(run):
    """--json and export print the standard library's layout (two-space indent, "zoë" as
    typed, not \\u-escaped), and the largest correction is printed exactly (one too big for
    64 bits, which the fast encoder refuses, is no correction since `adjust` takes at most
    9 digits)."""
    run("new", "coda", "--players", "zoë,bob")
    huge = 999_999_999
    run("adjust", "zoë", f"+{huge}", "--reason", "bet")
    for args in (("score", "--json"), ("log", "--json"), ("export",)):
        out = run(*args).output
        data = json.loads(out)
        assert out == json.dumps(data, indent=2, ensure_ascii=False) + "\n", args
        assert f'"points": {huge},' in out and '"zoë"' in out, args


def test_export_to_a_file(match, tmp_path):
    target = tmp_path / "plays.json"
    assert "wrote" in match("export", "--format", "bgstats", "-o", str(target)).output
    assert json.loads(target.read_text())["plays"]


@pytest.mark.parametrize("command", [("export",), ("playtests", "tripple-domino")])
def test_a_file_in_a_folder_that_is_not_there_is_one_line_and_makes_no_folder(
        match, tmp_path, command):
    """The tester's report: `export -o /nonexistent/x.json` said `wrote ...`, having made
    the folder (a typo of a folder took the export somewhere nobody looks)."""
    target = tmp_path / "typo" / "plays.json"
    line = one_error_line(match(*command, "-o", str(target), code=2))
    assert line == (f"error: cannot write {target}: the folder {str(target.parent)!r} does "
                    "not exist (--output)")
    assert not target.parent.exists()


def test_rule_prints_the_rule_text(run):
    out = run("rule", "tripple-domino", "d3").output
    assert out.startswith("D3: every corner of the new tile")
    assert len(run("rule", "tripple-domino").output.splitlines()) == 10


def test_a_tampered_log_is_an_error_naming_the_match(match):
    import sqlite3

    raw = sqlite3.connect(match.db)
    raw.executescript("DROP TRIGGER events_no_update; UPDATE events SET data = "
                      "replace(data, 'D0,0', 'D9,9') WHERE seq = 4;")
    raw.close()
    line = one_error_line(match("show", code=2))
    assert "tampered log: event 4" in line and "match 1, event 4" in line


def test_matches_still_lists_every_match_when_one_is_tampered(match):
    import sqlite3

    match("new", "coda", "--players", "ana,ben")
    raw = sqlite3.connect(match.db)
    raw.executescript("DROP TRIGGER events_no_update; UPDATE events SET data = "
                      "replace(data, 'D0,0', 'D9,9') WHERE match = 1 AND seq = 4;")
    raw.close()
    lines = match("matches").output.splitlines()
    assert "unreadable: tampered log: event 4" in lines[0] and lines[1].startswith("*   2  coda")
    data = json.loads(match("matches", "--json").output)
    assert data[0]["error"].startswith("tampered log") and data[1]["error"] is None


def test_the_referee_never_imports_reportlab_or_pillow(tmp_path):
    """Run the commands in one fresh interpreter (components read afresh, no memo) and look."""
    code = """
import sys
from referee.cli import main
for args in (["new", "tripple-domino", "--players", "ana,bob"], ["play", "start ana=5-5-5"],
             ["play", "4-5-5 D0,0"], ["show"], ["score"], ["log"], ["games"], ["standings"],
             ["export", "--format", "bgstats"], ["rule", "tripple-domino"]):
    main(args, standalone_mode=False)
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("reportlab", "PIL"))
print("HEAVY", heavy)
"""
    env = {**os.environ, "REFEREE_DB": str(tmp_path / "x.sqlite3"),
           "REFEREE_CACHE": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.returncode == 0, out.stderr
    assert "HEAVY []" in out.stdout
    assert (tmp_path / "cache" / "cards-tripple-domino.json").exists()


# What a table of first-time users typed, and what they must see: one line, exit code 2.


def test_a_user_error_without_a_place_names_the_command(run):
    run("new", "thricewise", "--players", "ana,ben")
    assert one_error_line(run("ask", "nonsense", code=2)).endswith("(referee ask)")
    line = one_error_line(run("new", "duplicon", "--players", "ana,bob", "--option", "target=0",
                              code=2))
    assert line == "error: target must be at least 1, not '0' (--option target)"


def test_export_to_a_place_that_cannot_hold_a_file_is_one_line(match, tmp_path):
    (tmp_path / "plain").write_text("a file, not a folder")
    line = one_error_line(match("export", "-o", str(tmp_path / "plain" / "x.json"), code=2))
    assert "cannot write" in line and line.endswith("(--output)")


def test_an_export_is_an_ordinary_readable_file(match, tmp_path):
    old = os.umask(0o022)
    try:
        match("export", "-o", str(tmp_path / "plays.json"))
    finally:
        os.umask(old)
    assert (tmp_path / "plays.json").stat().st_mode & 0o777 == 0o644  # not mkstemp's 0600


def test_a_position_file_that_is_not_text_or_is_empty_is_one_line(run, tmp_path):
    binary = tmp_path / "board.bin"
    binary.write_bytes(bytes(range(128, 256)))
    line = one_error_line(run("new", "tripple-domino", "--players", "ana,bob", "--position",
                              str(binary), code=2))
    assert "is not a text file" in line and line.endswith("(--position)")
    empty = tmp_path / "board.txt"
    empty.write_text("\n")
    for game in ("tripple-domino", "duplicon", "dobble-connect"):
        line = one_error_line(run("new", game, "--players", "ana,bob", "--position", str(empty),
                                  code=2))
        assert line.startswith("error: the position is empty")
    assert "no matches yet" in run("matches").output  # nothing was created


def test_a_damaged_database_is_one_line_for_every_command(match):
    import random
    import sqlite3

    raw = sqlite3.connect(match.db)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    data = bytearray(match.db.read_bytes())
    rng = random.Random(7)
    for i in range(4096, len(data)):  # page 1 (the header and schema) survives, the rest not
        data[i] = rng.randrange(256)
    match.db.write_bytes(bytes(data))
    for args in (["show"], ["matches"], ["log"], ["play", "draw"], ["export"], ["standings"]):
        line = one_error_line(match(*args, code=2))
        assert "the match database is damaged" in line, args


def test_random_bytes_are_not_a_database(run):
    run.db.write_bytes(bytes(range(256)) * 32)
    line = one_error_line(run("show", code=2))
    assert line.startswith("error: cannot open the match database: file is not a database")


def test_by_and_as_take_a_name_in_any_case(match):
    assert match("check", "draw", "--by", "ANA").output.startswith("legal: ana: draw")
    assert "to move: ana" in match("show", "--as", "Bob").output
    line = one_error_line(match("play", "draw", "--by", "zed", code=2))
    assert "unknown player 'zed', the players are ana, bob (--by)" in line
    assert "kept in the log" in line
    line = one_error_line(match("show", "--as", "zed", code=2))
    assert line == "error: unknown player 'zed', the players are ana, bob (--as)"


def test_a_move_may_start_with_its_player_in_any_game(match):
    """Dobble Connect's `ana: ...` works everywhere: it says who acts, as --by does."""
    assert match("check", "ana: draw").output.startswith("legal: ana: draw")
    assert "turn: it is ana's turn, not bob's" in match("check", "Bob: draw", code=1).output
    line = one_error_line(match("check", "ana: draw", "--by", "bob", code=2))
    assert "the move says ana but --by says bob" in line


def test_standings_of_a_misspelt_game_is_an_error_even_with_no_matches(run):
    from referee.record import Store

    Store(run.db).close()
    line = one_error_line(run("standings", "--game", "tripple-domno", code=2))
    assert line.startswith("error: unknown game 'tripple-domno' (games: ")


def test_a_position_saved_by_a_windows_editor_reads(run, tmp_path):
    board = tmp_path / "board.txt"
    board.write_bytes("\ufeffturn ana\r\nU0,0 5-5-5\r\n".encode("utf-8"))
    out = run("new", "tripple-domino", "--players", "ana,bob", "--position", str(board)).output
    assert "U0,0" in out and "to move: ana" in out
