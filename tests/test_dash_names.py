"""A player whose name starts with a dash (`-2+3`, as the playtest tutorial's names go) scores
at `referee play`: typed as it is, as one quoted move, or after `--`."""

from __future__ import annotations

import json

import pytest

from tests.test_referee_cli import one_error_line


@pytest.fixture
def dash_named(referee_run, tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.toml").write_text('[game]\nname = "g"\n\n[scoring]\ncategories = ["coins"]\n')
    (folder / "cards.csv").write_text("name\nAmbush\n")
    referee_run("new", str(folder), "--players", "ana,-2+3")
    return referee_run


@pytest.mark.parametrize("typed", [("--", "-2+3", "coins", "3"), ("-2+3 coins 3",),
                                   ("-2+3", "coins", "3")])
def test_a_player_named_like_a_sum_scores(dash_named, typed):
    out = dash_named("play", *typed).output
    assert out.startswith("ok (event 2): -2+3: coins 3"), out
    assert json.loads(dash_named("show", "--json").output)["totals"] == {"ana": 0, "-2+3": 3}


def test_a_mistyped_option_after_a_move_is_still_one(dash_named):
    line = one_error_line(dash_named("play", "ana", "coins", "3", "--jsn", code=2))
    assert "unknown option --jsn" in line and "--json" in line
