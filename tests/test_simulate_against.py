"""`referee simulate --deck NEW --against OLD`: the same seeds on both decks, the per-seat
differences with 95 % intervals, and a plain verdict."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from referee.cli import main

TEMPLATE = Path(__file__).resolve().parents[1] / "templates" / "tripple-domino"


def against(tmp_path, new: Path, old: Path, *more: str):
    return CliRunner().invoke(main, [
        "simulate", "tripple-domino", "--players", "2", "--games", "60", "--workers", "1",
        "--bot", "greedy", "--deck", str(new), "--against", str(old), *more],
        env={"REFEREE_DB": str(tmp_path / "m.sqlite3")})


def copy(tmp_path, name: str, max_corner: int = 5) -> Path:
    folder = tmp_path / name
    shutil.copytree(TEMPLATE, folder)
    toml = folder / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        "options = { max = 5 }", f"options = {{ max = {max_corner} }}"), encoding="utf-8")
    return folder


def test_an_unchanged_copy_shows_no_difference(tmp_path):
    done = against(tmp_path, copy(tmp_path, "same"), TEMPLATE, "--json")
    assert done.exit_code == 0, done.output
    rows = json.loads(done.stdout)["differences"]
    assert len(rows) == 4 and not any(r["significant"] for r in rows)


def test_smaller_tiles_show_as_a_significant_shift_with_its_interval(tmp_path):
    """Corners 0-4 instead of 0-5: fewer points to score, beyond noise on the same seeds."""
    done = against(tmp_path, copy(tmp_path, "small", 4), copy(tmp_path, "old"))
    assert done.exit_code == 0, done.output
    shifted = [line for line in done.stdout.splitlines() if "points less (" in line]
    assert shifted, done.stdout
    low, high = shifted[0].split("(")[1].split(")")[0].split(" to ")
    assert float(low) < float(high) < 0


def test_against_needs_the_new_deck(tmp_path):
    done = CliRunner().invoke(main, ["simulate", "tripple-domino", "--players", "2",
                                     "--against", str(TEMPLATE)],
                              env={"REFEREE_DB": str(tmp_path / "m.sqlite3")})
    assert done.exit_code == 2
    assert done.output.strip() == ("error: --against compares with --deck: give the new deck "
                                   "too (--against)")
