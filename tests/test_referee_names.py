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
