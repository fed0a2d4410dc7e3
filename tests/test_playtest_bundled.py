"""`referee note` on the bundled games, as a tester met them: a Thricewise note finds the
Decktet, and a Tripple Domino note names the tile as every report does."""

from __future__ import annotations

from tests.test_referee_cli import one_error_line


def test_a_thricewise_note_finds_the_decktet(referee_run):
    run = referee_run
    run("new", "thricewise", "--players", "ana,bob")
    assert run("note", "too strong", "--card", "desert").output.startswith(
        "note [Desert]: too strong (match 1, event 2)")
    assert "Desert: 1" in run("playtests", "thricewise").output


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
