"""Issue 41 item 4, real play: `referee playtests` gives per card the win rate of the player
who played it against those who did not, counted from the moves of the real matches, and
with --simulate the simulated table beside it. Kept games (`simulate --keep`) are real matches
of known games: their table must be the simulation's own, figure for figure."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from referee.cli import main

GAMES = "30"


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    """30 greedy games of Tripple Domino kept as matches, and what simulate said of them."""
    db = tmp_path_factory.mktemp("cards") / "m.sqlite3"

    def run(*args: str):
        done = CliRunner().invoke(main, ["--db", str(db), *args])
        assert done.exit_code == 0, done.output
        return done

    simulated = json.loads(run("simulate", "tripple-domino", "--players", "2", "--games", GAMES,
                               "--keep", GAMES, "--bot", "greedy", "--workers", "1",
                               "--json").stdout)
    return run, simulated


def test_real_matches_give_the_simulations_card_table(kept):
    run, simulated = kept
    real = json.loads(run("playtests", "tripple-domino", "--json").stdout)
    assert real["finished"] == int(GAMES)
    (size,) = real["by_players"]
    assert len(size["card_win_rates"]) == 56
    assert size["card_win_rates"] == simulated["card_win_rates"]
    out = run("playtests", "tripple-domino").stdout
    top = size["card_win_rates"][0]
    assert f"  {top['card']}  {top['played']:>6}  {100 * top['win_rate']:>3.0f} %" in out


def test_simulated_cards_stand_beside_the_real_ones(kept):
    """--simulate 30 plays the same 30 deals (seed 0, greedy): the two columns agree."""
    run, simulated = kept
    real = json.loads(run("playtests", "tripple-domino", "--simulate", GAMES, "--json").stdout)
    (size,) = real["by_players"]
    assert size["simulated_card_win_rates"] == simulated["card_win_rates"]
    out = run("playtests", "tripple-domino", "--simulate", GAMES).stdout
    head = next(line for line in out.splitlines() if line.lstrip().startswith("card "))
    assert head.rstrip().endswith("simulated: wins  difference")
    for row in size["card_win_rates"][:5]:
        line = next(x for x in out.splitlines() if x.startswith(f"  {row['card']} "))
        real_pct = f"{100 * row['win_rate']:.0f} %"
        assert line.count(real_pct) == 2, line  # the real figure, then the same simulated
