"""`standings` and `matches` on kept summaries answer without importing any game's rules (the
summary is checked against the rules' source read from the game's folder), and still refuse a
summary made by other rules."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from test_referee_startup import imported_by

from referee import registry
from referee.cli import main
from referee.record import snapshots


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "m.sqlite3")
    for players, start in (("ana,bob", "start ana=5-5-5 bob=4-4-4"), ("cy,ana", "start cy=3-3-3 ana=4-4-4")):
        assert CliRunner().invoke(main, ["--db", path, "new", "tripple-domino", "--players",
                                         players]).exit_code == 0
        assert CliRunner().invoke(main, ["--db", path, "play", start]).exit_code == 0
    return path


def test_standings_on_kept_summaries_prints_what_it_printed(db, tmp_path):
    env = {**os.environ, "REFEREE_DB": db, "REFEREE_CACHE": str(tmp_path / "cache")}
    first, _ = imported_by(["standings"], env)  # makes the summaries
    out, _ = imported_by(["standings"], env)
    assert out == first and "tripple-domino" in out and "ana" in out


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_the_rules_fingerprint_read_from_the_folder_is_the_loaded_rules_one(name):
    """Otherwise every kept summary would be rebuilt on every `standings`. A game registered
    in memory (tests/example_game.py) has no folder to read: its rules are asked instead."""
    found = snapshots.code_fingerprint_by_name(name)
    if any(g.name == name for g in registry.added()):
        assert found is None
    else:
        assert found == snapshots.code_fingerprint(type(registry.game(name)))


def test_a_summary_made_by_other_rules_is_rebuilt(db, monkeypatch):
    first = CliRunner().invoke(main, ["--db", db, "standings"]).output
    loads = []
    from referee.record import summaries

    real = summaries._load  # a match folded again to make its summary
    monkeypatch.setattr(summaries, "_load", lambda *a, **k: loads.append(a) or real(*a, **k))
    monkeypatch.setattr(snapshots, "code_fingerprint_by_name", lambda name: "other rules")
    assert CliRunner().invoke(main, ["--db", db, "standings"]).output == first
    assert len(loads) == 2  # both matches loaded again, not read from their summaries
