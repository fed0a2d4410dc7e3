"""CSV exports open safely in a spreadsheet: no cell is read as a formula."""

from __future__ import annotations

import csv
import io

import pytest
from click.testing import CliRunner

from referee.cli import main


@pytest.fixture
def ref(tmp_path):
    """A referee command on a database of one match between players named like formulas."""
    db = str(tmp_path / "m.sqlite3")

    def invoke(*args):
        r = CliRunner().invoke(main, ["--db", db, *args])
        assert r.exit_code == 0, r.output
        return r

    def played(*players: str):
        invoke("new", "tripple-domino", "--players", ",".join(players))
        invoke("play", "start " + " ".join(f"{p}={5 - i}-{5 - i}-{5 - i}"
                                           for i, p in enumerate(players)))
        invoke("play", "draw")

    invoke.played = played
    return invoke


def test_names_that_look_like_formulas_are_exported_as_text(ref):
    ref.played("@SUM(1+1)", "+cmd|x")
    rows = list(csv.DictReader(io.StringIO(ref("export", "--format", "csv").output)))
    players = {r["player"] for r in rows}
    assert players == {"'@SUM(1+1)", "'+cmd|x"}
    assert not any(v.startswith(("=", "+", "-", "@")) and not v.lstrip("+-").isdigit()
                   for r in rows for v in r.values())
    assert sorted(int(r["points"]) for r in rows) == [-5, 5, 15]  # numbers stay numbers


def test_playtests_csv_guards_names_that_look_like_formulas(ref):
    """`referee playtests --csv` writes through the same writer as `export --format csv`
    (pnp_shared/csv_text.py): a player named like a formula is a text cell, numbers stay
    numbers."""
    ref.played("@SUM(1+1)", "+1+1", "-2+3")
    rows = list(csv.DictReader(io.StringIO(ref("playtests", "tripple-domino", "--csv").output)))
    assert [r["player"] for r in rows] == ["'@SUM(1+1)", "'+1+1", "'-2+3"]
    assert not any(v.startswith(("=", "+", "-", "@", "\t", "\r")) and not v.lstrip("-").isdigit()
                   for r in rows for v in r.values())
    assert all(r["total"].lstrip("-").isdigit() for r in rows)  # numbers stay numbers
