"""CSV exports open safely in a spreadsheet: no cell is read as a formula."""

from __future__ import annotations

import csv
import io

from click.testing import CliRunner

from referee.cli import main


def test_names_that_look_like_formulas_are_exported_as_text(tmp_path):
    db = str(tmp_path / "m.sqlite3")

    def ref(*args):
        r = CliRunner().invoke(main, ["--db", db, *args])
        assert r.exit_code == 0, r.output
        return r

    ref("new", "tripple-domino", "--players", "@SUM(1+1),+cmd|x")
    ref("play", "start @SUM(1+1)=5-5-5 +cmd|x=4-4-4")
    ref("play", "draw")
    rows = list(csv.DictReader(io.StringIO(ref("export", "--format", "csv").output)))
    players = {r["player"] for r in rows}
    assert players == {"'@SUM(1+1)", "'+cmd|x"}
    assert not any(v.startswith(("=", "+", "-", "@")) and not v.lstrip("+-").isdigit()
                   for r in rows for v in r.values())
    assert sorted(int(r["points"]) for r in rows) == [-5, 5, 15]  # numbers stay numbers


def test_playtests_csv_guards_names_that_look_like_formulas(tmp_path):
    """`referee playtests --csv` writes through the same writer as `export --format csv`
    (pnp_shared/csv_text.py): a player named like a formula is a text cell, numbers stay
    numbers."""
    db = str(tmp_path / "m.sqlite3")

    def ref(*args):
        r = CliRunner().invoke(main, ["--db", db, *args])
        assert r.exit_code == 0, r.output
        return r

    ref("new", "tripple-domino", "--players", "@SUM(1+1),+1+1,-2+3")
    ref("play", "start @SUM(1+1)=5-5-5 +1+1=4-4-4 -2+3=3-3-3")
    ref("play", "draw")
    rows = list(csv.DictReader(io.StringIO(ref("playtests", "tripple-domino", "--csv").output)))
    assert [r["player"] for r in rows] == ["'@SUM(1+1)", "'+1+1", "'-2+3"]
    assert not any(v.startswith(("=", "+", "-", "@", "\t", "\r")) and not v.lstrip("-").isdigit()
                   for r in rows for v in r.values())
    assert all(r["total"].lstrip("-").isdigit() for r in rows)  # numbers stay numbers
