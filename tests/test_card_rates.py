"""Which card is the problem: per card, the win rate of the player who played it against
those who did not, with intervals, the outliers named (referee/card_rates.py)."""

from __future__ import annotations

import json
import re
from statistics import mean

from click.testing import CliRunner

from referee.cli import main


def test_heavy_tiles_win_more_and_the_outliers_are_named(tmp_path):
    """In Tripple Domino a tile scores its pips: the players who played the heavy tiles win
    more often, and the report names the strongest ones as outliers."""
    args = ["simulate", "tripple-domino", "--players", "2", "--games", "300", "--workers", "1",
            "--bot", "greedy"]
    env = {"REFEREE_DB": str(tmp_path / "m.sqlite3")}
    rows = json.loads(CliRunner().invoke(main, [*args, "--json"], env=env).stdout)[
        "card_win_rates"]
    assert len(rows) == 56
    pips = {r["card"]: sum(map(int, r["card"].split("-"))) for r in rows}
    quarter = len(rows) // 4
    assert mean(pips[r["card"]] for r in rows[:quarter]) > \
        mean(pips[r["card"]] for r in rows[-quarter:]) + 2
    for r in rows:
        lo, hi = r["ci95"]
        assert lo <= r["win_rate"] <= hi
    out = CliRunner().invoke(main, args, env=env).stdout
    named = [line for line in out.splitlines() if line.startswith("  outlier: ")]
    assert named and all("stronger than the rest" in line for line in named)
    assert any(line.startswith("  outlier: 5-5-5 ") for line in named)


def _intervals(text: str) -> list[tuple[int, int]]:
    """Every interval of a difference printed, in percentage points."""
    return [(int(lo), int(hi)) for lo, hi in re.findall(r"\(([+-]\d+) to ([+-]\d+)", text)]


def test_a_few_games_name_no_card_and_no_interval_passes_100_points(tmp_path):
    """The tester's report: 3 games named 20 outliers, `1-1-4 wins 100 % ... (+100 to +100
    percentage points)` and `0-0-3 ... (+33 to +117)`; 1 game, 10 at +100 to +100. A card won
    once by the one player who played it had an interval of no width, so it always passed;
    and a difference of two win rates cannot pass 100 points either way."""
    env = {"REFEREE_DB": str(tmp_path / "m.sqlite3")}
    for games in (1, 3):
        args = ["simulate", "tripple-domino", "--players", "2", "--games", str(games),
                "--workers", "1"]
        out = CliRunner().invoke(main, args, env=env).stdout
        assert "outlier:" not in out and "no card stands out beyond noise" in out, out
        rows = json.loads(CliRunner().invoke(main, [*args, "--json"], env=env).stdout)[
            "card_win_rates"]
        assert rows and not [r["card"] for r in rows if r["outlier"]]
        for r in rows:
            lo, hi = r["difference_ci95"]
            assert -1 <= lo <= r["difference"] <= hi <= 1, r


def test_a_few_real_matches_name_no_card_and_keep_within_100_points(tmp_path):
    """`referee playtests` reads the same table from real matches: 4 of them named `Savage`
    at +45 to +115. Here 4 kept matches stand in for them."""
    env = {"REFEREE_DB": str(tmp_path / "m.sqlite3")}
    kept = CliRunner().invoke(main, ["simulate", "tripple-domino", "--players", "2", "--games",
                                     "4", "--keep", "4", "--workers", "1"], env=env)
    assert kept.exit_code == 0, kept.output
    out = CliRunner().invoke(main, ["playtests", "tripple-domino"], env=env).stdout
    assert "outlier:" not in out
    found = _intervals(out)
    assert found and all(-100 <= lo <= hi <= 100 for lo, hi in found), found
