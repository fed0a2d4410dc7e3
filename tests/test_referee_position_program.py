"""The position reader and writer, imported only by `position` and `new --position`, still
write a position and read it back through the program."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from test_referee_startup import imported_by

from referee.cli import main


@pytest.fixture
def env(tmp_path):
    db = str(tmp_path / "m.sqlite3")
    for args in (["new", "tripple-domino", "--players", "ana,bob"],
                 ["play", "start ana=5-5-5 bob=4-4-4"]):
        assert CliRunner().invoke(main, ["--db", db, *args]).exit_code == 0
    return {**os.environ, "REFEREE_DB": db, "REFEREE_CACHE": str(tmp_path / "cache")}


def test_position_still_writes_and_reads_a_position(env, tmp_path):
    out, _ = imported_by(["position"], env)
    assert "U0,0 5-5-5" in out
    board = tmp_path / "board.txt"
    board.write_text(out)
    made = CliRunner().invoke(main, ["--db", env["REFEREE_DB"], "new", "tripple-domino",
                                     "--players", "ana,bob", "--position", str(board)])
    assert made.exit_code == 0, made.output
    again, _ = imported_by(["position"], env)
    assert again == out
