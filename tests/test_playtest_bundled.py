"""`referee playtests` and `referee note` on the bundled games, as a tester met them: the
per-player table sums scores by kind (not one column per move described), a Thricewise note
finds the Decktet, and a Tripple Domino note names the tile as every report does."""

from __future__ import annotations

import json

import pytest

from tests.test_referee_cli import one_error_line

TRIPPLE_KINDS = {"opening", "start bonus", "draws", "third draw", "pass", "tiles", "hexagons",
                 "double match", "bridge", "going out", "others' hands", "blocked round"}
THRICEWISE_KINDS = {"set", "straight", "flush"}
CODA_KINDS = {"correct guesses", "last tiles", "rounds won", "hidden tiles"}


def _table(out: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("per player"))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


@pytest.mark.parametrize(("game", "kinds"), [("tripple-domino", TRIPPLE_KINDS),
                                             ("thricewise", THRICEWISE_KINDS),
                                             ("coda", CODA_KINDS),
                                             ("dobble-connect", {"lines"})])
def test_the_per_player_table_has_a_column_per_kind_of_score(referee_run, game, kinds):
    run = referee_run
    run("simulate", game, "--players", "2", "--games", "3", "--keep", "3")
    out = run("playtests", game).output
    table = _table(out)
    assert max(len(line) for line in out.splitlines()) <= 200, table[1][:200]
    columns = table[1].split("95% CI", 1)[1]
    for kind in sorted(kinds, key=len, reverse=True):
        columns = columns.replace(kind, "")
    assert not columns.strip(), f"columns that are no kind: {columns.strip()!r}"
    found = json.loads(run("playtests", game, "--json").output)
    assert set(found["categories"]) <= kinds and found["categories"]
    assert all(set(p["categories"]) <= kinds for p in found["players"])


def test_duplicon_sums_its_round_scores_by_kind_whatever_the_count():
    from referee import registry
    from referee.engine import ScoreItem

    rules = registry.game("duplicon")
    labels = {"3 won": "won", "12 won": "won", "2 in hand (−2 each)": "in hand",
              "1 in play zone (−3 each)": "in play zone"}
    assert {k: rules.score_kind(ScoreItem("ana", 1, k)) for k in labels} == labels


def test_a_thricewise_note_finds_the_decktet(referee_run):
    run = referee_run
    run("new", "thricewise", "--players", "ana,bob")
    assert run("note", "too strong", "--card", "desert").output.startswith(
        "note [Desert]: too strong (match 1, event 2)")
    assert "Desert: 1" in run("playtests", "thricewise").output


@pytest.mark.parametrize("game", ["dobble-connect", "duplicon", "coda"])
def test_every_bundled_game_takes_a_note_on_a_card_by_its_id(referee_run, game):
    """A note on Dobble Connect's card 5 failed: 'File name too long (DeckInfo(...))', the
    game's own deck data taken for the name of a bundled template."""
    run = referee_run
    run("new", game, "--players", "ana,bob")
    assert run("note", "too good", "--card", "5").output.startswith("note [")


def test_a_tile_is_noted_by_its_name_in_any_order(referee_run):
    run = referee_run
    run("new", "tripple-domino", "--players", "ana,bob")
    assert run("note", "x", "--card", "5-5-5").output.startswith("note [5-5-5]: x")
    assert run("note", "y", "--card", "5-3-1").output.startswith("note [1-3-5]: y")
    assert run("note", "z", "--card", "56").output.startswith("note [5-5-5]: z")
    out = run("playtests", "tripple-domino").output
    assert "  5-5-5: 2" in out and "  1-3-5: 1" in out and "card 56" not in out
    assert "about 5-5-5 v1, the card as it is now" in out and "gone" not in out
    line = one_error_line(run("note", "w", "--card", "6-6-6", code=2))
    assert "no card '6-6-6'" in line and "0-0-0" in line and "card 1" not in line


def test_playtests_without_a_game_reports_the_current_matchs(referee_run):
    from referee.record import Store

    run = referee_run
    Store(run.db).close()  # no match yet
    assert "name the GAME" in one_error_line(run("playtests", code=2))
    run("new", "thricewise", "--players", "ana,bob")
    run("note", "too strong", "--card", "desert")
    assert run("playtests").output == run("playtests", "thricewise").output


def test_a_scratch_match_is_left_out_until_it_is_kept(referee_run, tmp_path):
    """The tester's report: a match typed in from a position to settle a dispute counted in
    playtests, which standings and exports leave out (the docs: "not counted")."""
    run = referee_run
    run("new", "scorepad", "--players", "ana,bob")
    run("play", "ana", "points", "5")
    run("play", "bob", "points", "3")
    (tmp_path / "p.txt").write_text(run("position").stdout)
    run("new", "scorepad", "--players", "ana,bob", "--position", str(tmp_path / "p.txt"))
    run("play", "bob", "points", "40")  # the dispute's what-if: bob would have won
    run("play", "--match", "1", "finish")
    summary = json.loads(run("playtests", "scorepad", "--json").stdout)
    assert (summary["matches"], summary["scratch_left_out"]) == (1, [2])
    assert [p["match"] for p in summary["plays"]] == [1]
    out = run("playtests", "scorepad").stdout
    assert out.startswith("scorepad: 1 match(es)") and "scratch match(es) 2" in out
    rows = run("playtests", "scorepad", "--csv").stdout.splitlines()[1:]
    assert {row.split(",")[1] for row in rows} == {"1"}  # the match column
    run("keep", "--match", "2")
    summary = json.loads(run("playtests", "scorepad", "--json").stdout)
    assert (summary["matches"], summary["scratch_left_out"]) == (2, [])
