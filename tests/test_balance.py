"""pnp verify --balance: [balance] targets in game.toml checked by simulating with the referee."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from pnp_model.balance import parse_target
from pnp_model.errors import PnpError
from referee import registry
from tests.rigged_game import GAME as RIGGED

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


def _game(tmp_path: Path, balance: str) -> Path:
    folder = tmp_path / "tripple-domino"
    shutil.copytree(TEMPLATES / "tripple-domino", folder)
    kept, skipping = [], False
    for line in (folder / "game.toml").read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            skipping = line.strip() == "[balance]"  # the template's own targets go
        if not skipping:
            kept.append(line)
    text = "\n".join(kept) + "\n\n[balance]\n" + balance
    (folder / "game.toml").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("text,inside,outside", [
    ("40%..60%", [0.4, 0.5, 0.6], [0.39, 0.61]),
    ("<5%", [0.0, 0.0499], [0.05, 0.2]),
    ("<=5%", [0.05], [0.051]),
    (">=50%", [0.5, 1.0], [0.49]),
])
def test_rate_targets(text, inside, outside):
    t = parse_target("first_seat_win", text, "here")
    assert all(t.met(v) for v in inside) and not any(t.met(v) for v in outside)


def test_count_targets_and_mistakes():
    t = parse_target("turns_p95", "<60", "here")
    assert t.met(59.9) and not t.met(60)
    for key, text in (("first_seat_win", "0.4..0.6"), ("turns_p95", "<60%"),
                      ("first_seat_win", "60%..40%"), ("turns_p95", "about 60")):
        with pytest.raises(PnpError):
            parse_target(key, text, "here")


def test_targets_met_exit_0_missed_exit_1_with_the_figures(tmp_path):
    met = _game(tmp_path / "a", 'players = 3\ngames = 20\noptions = { target = "60" }\n'
                                'first_seat_win = "0%..100%"\nturns_p95 = "<100000"\n')
    r = CliRunner().invoke(main, ["verify", str(met), "--balance"])
    assert r.exit_code == 0, r.output
    assert "balance (tripple-domino, 20 games, 3 players, random bot, seed 0" in r.output
    assert "✓ first_seat_win: first seat's win rate" in r.output and "95% CI" in r.output
    missed = _game(tmp_path / "b", 'players = 3\ngames = 20\noptions = { target = "60" }\n'
                                   'turns_p95 = "<2"\nfirst_seat_win = "0%..100%"\n')
    r = CliRunner().invoke(main, ["verify", str(missed), "--balance"])
    assert r.exit_code == 1
    assert "FAILED — 1 of 2 target(s) missed" in r.output
    assert "✗ turns_p95: game length, 95th percentile of turns" in r.output
    assert "outside <2" in r.output
    r = CliRunner().invoke(main, ["verify", str(missed), "--balance", "--json"])
    data = json.loads(r.stdout)  # stderr: progress lines when the run takes over a second
    assert r.exit_code == 1 and data["balance"]["ok"] is False
    assert {t["target"]: t["ok"] for t in data["balance"]["targets"]} == {
        "turns_p95": False, "first_seat_win": True}


def test_without_balance_flag_nothing_is_simulated(tmp_path):
    folder = _game(tmp_path, 'players = 3\nturns_p95 = "<2"\n')
    r = CliRunner().invoke(main, ["verify", str(folder)])
    assert r.exit_code == 0 and "balance" not in r.output


@pytest.mark.parametrize("table,needle", [
    ('first_seat_wins = "40%..60%"\n', "unknown key 'first_seat_wins' in [balance]"),
    ('first_seat_win = "0.4..0.6"\n', "first_seat_win is a rate"),
    ('players = "three"\n', "[balance] players must be a whole number"),
    ('game = "no-such-game"\nfirst_seat_win = "<50%"\n', "unknown game"),
    ('players = 9\ngame = "coda"\nfirst_seat_win = "<50%"\n', "players"),
    ('players = 3\n', "sets no target"),
])
def test_mistakes_are_one_line(tmp_path, table, needle):
    folder = _game(tmp_path, table)
    r = CliRunner().invoke(main, ["verify", str(folder), "--balance"])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], lines


def test_no_balance_table(tmp_path):
    r = CliRunner().invoke(main, ["verify", "coda", "--balance"])
    assert r.exit_code == 2 and "no [balance] table" in r.output


def test_rigged_game_misses_an_even_first_seat(tmp_path):
    registry.register(RIGGED)
    try:
        folder = _game(tmp_path, 'game = "seat-one"\nplayers = 2\ngames = 200\n'
                                 'first_seat_win = "40%..60%"\n')
        r = CliRunner().invoke(main, ["verify", str(folder), "--balance"])
    finally:
        registry.unregister(RIGGED.name)
    assert r.exit_code == 1
    assert "first seat's win rate 100.0% (95% CI 98.1%-100.0%), outside 40%..60%" in r.output
