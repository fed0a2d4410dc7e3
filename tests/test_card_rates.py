"""Which card is the problem: per card, the win rate of the player who played it against
those who did not, with intervals, the outliers named (referee/card_rates.py)."""

from __future__ import annotations

import json
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
