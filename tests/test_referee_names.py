"""Player names that look alike are refused, naming both (issue 36 item 8)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from referee.cli import main


@pytest.mark.parametrize("first, second", [
    ("ana", "\u0430na"),  # Cyrillic a
    ("ana", "\uff41na"),  # fullwidth a
    ("\u00e1na", "a\u0301na"),  # a with its accent composed, and a + combining accent
    ("Ana", "\u0410na"),  # Cyrillic capital A
    ("bill", "bi1l"),  # digit one for l
    ("Il", "ll"),  # capital I for l
    ("rnia", "mia"),  # r n for m
])
def test_a_look_alike_of_a_player_is_refused_naming_both(tmp_path, first, second):
    r = CliRunner().invoke(main, ["--db", str(tmp_path / "m.sqlite3"), "new", "coda",
                                  "--players", f"{first},{second},cy"])
    assert r.exit_code == 2 and r.stdout == ""
    line = r.stderr.strip()
    assert line.startswith("error: player names") and "look alike" in line
    assert repr(first) in line and repr(second) in line and "\n" not in line
    assert CliRunner().invoke(main, ["--db", str(tmp_path / "m.sqlite3"), "matches",
                                     "--json"]).output.strip() == "[]"  # no match made


@pytest.mark.parametrize("names", ["ana,ben,cy", "zoe,zoë", "ana,anna", "ivan,иван"])
def test_names_that_only_resemble_are_two_players(tmp_path, names):
    r = CliRunner().invoke(main, ["--db", str(tmp_path / "m.sqlite3"), "new", "coda",
                                  "--players", names])
    assert r.exit_code == 0, r.output + r.stderr


NFC, NFD = "Jos\u00e9", "Jose\u0301"  # é typed as one letter, or as e and a combining accent


def _referee(db, *args):
    r = CliRunner().invoke(main, ["--db", str(db), *args])
    assert r.exit_code == 0, r.output + r.stderr
    return r.stdout


def test_a_name_typed_with_or_without_a_composed_accent_is_one_player(tmp_path):
    """The tester's report: `José` typed as NFC and as NFD were two players (`unknown player
    'José' (did you mean José?)`), and standings had two rows reading José."""
    db = tmp_path / "m.sqlite3"
    _referee(db, "new", "scorepad", "--players", f"{NFD},bob")
    assert "ok (event 2)" in _referee(db, "play", NFC, "points", "5")
    _referee(db, "play", "--by", NFD, "points", "1")
    _referee(db, "adjust", NFC, "2", "--reason", "miscounted")
    _referee(db, "new", "scorepad", "--players", f"{NFC},bob")
    _referee(db, "play", NFD, "points", "4")
    _referee(db, "end", "--winner", NFD)
    shown = _referee(db, "show", "--match", "1", "--json")
    assert NFC + '": 8' in shown  # 5 + 1 + 2, one player
    table = _referee(db, "standings").splitlines()
    rows = [line for line in table if "José" in line and "played" not in line.split()[0]]
    assert len([line for line in rows if line.startswith("  José ")]) == 1, table


@pytest.mark.parametrize("name", [NFD, "美咲", "Zoë"])
def test_columns_line_up_whatever_the_letters_of_a_name(tmp_path, name):
    """Standings, the score sheet and the ledger pad names by the cells a terminal draws
    (a wide letter takes two, a combining accent none), so the columns stay in line."""
    from pnp_shared.columns import width

    db = tmp_path / "m.sqlite3"
    _referee(db, "new", "scorepad", "--players", f"{name},bob")
    _referee(db, "play", name, "points", "12")
    _referee(db, "play", "bob", "points", "3")
    _referee(db, "end", "--winner", "bob")
    standings = _referee(db, "standings").splitlines()[1:4]
    assert len({width(line) for line in standings}) == 1, standings
    sheet = _referee(db, "show").splitlines()[2:5]
    assert len({width(line) for line in sheet}) == 1, sheet
    ledger = [line for line in _referee(db, "score").splitlines() if line.endswith("points")]
    assert len(ledger) == 2 and len({width(line) for line in ledger}) == 1, ledger
