"""A database that is not there: a command that only reads makes nothing and says so; `new`
makes the database but not a mistyped folder. The tester's report: `--db typo/sub/x.sqlite3
standings` made the folders and an empty database and said `no matches yet`, and
`--db /nonexistent/dir/x.sqlite3` even made /nonexistent."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from referee.cli import main
from tests.test_referee_cli import one_error_line

READING = [("standings",), ("matches",), ("show",), ("log",), ("score",), ("export",),
           ("verify",), ("position",), ("playtests", "scorepad"), ("use", "1"),
           ("play", "ana", "points", "1"), ("undo",), ("adjust", "ana", "1", "--reason", "x")]


def _invoke(args, env=None):
    return CliRunner().invoke(main, list(args), env=env)


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_DB", raising=False)
    return tmp_path


@pytest.mark.parametrize("command", READING, ids=lambda c: c[0])
def test_a_command_on_a_mistyped_database_makes_nothing(here, command):
    r = _invoke(["--db", "typo/sub/x.sqlite3", *command])
    assert r.exit_code == 2 and r.stdout == ""
    assert one_error_line(r).startswith("error: no database at 'typo/sub/x.sqlite3'")
    assert one_error_line(r).endswith("(--db)")
    assert list(here.iterdir()) == []


def test_the_environment_variable_is_named_when_it_names_no_database(here):
    r = _invoke(["standings"], env={"REFEREE_DB": str(here / "nope.sqlite3")})
    assert one_error_line(r).endswith("($REFEREE_DB)") and r.exit_code == 2
    assert list(here.iterdir()) == []


@pytest.mark.parametrize("folder", ["typo/sub", "a-file"])
def test_new_in_a_folder_that_is_not_there_names_the_folder_and_makes_nothing(here, folder):
    (here / "a-file").write_text("not a folder")
    r = _invoke(["--db", f"{folder}/x.sqlite3", "new", "scorepad", "--players", "ana,bob"])
    why = "does not exist" if folder == "typo/sub" else "is a file"
    assert one_error_line(r) == (f"error: the folder '{folder}' of the database {why}: make "
                                 "it first, or pick another path (--db)")
    assert r.exit_code == 2 and sorted(p.name for p in here.iterdir()) == ["a-file"]


def test_with_no_database_yet_the_default_one_is_made_only_by_new(here, monkeypatch):
    """First run, no --db and no $REFEREE_DB: reading says there is nothing yet and makes no
    file; `new` makes the database in the data folder."""
    monkeypatch.setenv("HOME", str(here))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert _invoke(["matches"]).stdout.startswith("no matches yet")
    assert _invoke(["standings"]).stdout == "no matches yet\n"
    assert "no current match" in one_error_line(_invoke(["show"]))
    assert "no current match" in one_error_line(_invoke(["play", "ana", "points", "1"]))
    assert list(here.rglob("*.sqlite3*")) == []
    assert _invoke(["new", "scorepad", "--players", "ana,bob"]).exit_code == 0
    assert [p.name for p in here.rglob("*.sqlite3")] == ["referee.sqlite3"]
    assert "scorepad" in _invoke(["matches"]).stdout
