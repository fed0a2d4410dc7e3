"""Issue 30 item 4: the simulation report in plain words (a verdict per figure, the terms
explained, what the bots can and cannot show), progress lines when stderr is not a terminal,
and a wrong --deck named by what is wrong with the definition."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.report import summarise, text
from referee.simulate import Plan, run, seats
from tests.test_simulate import rigged  # noqa: F401, F811  (the rigged game, registered)

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


def _cli(tmp_path, *args):
    return CliRunner().invoke(main, ["--db", str(tmp_path / "db.sqlite3"), *args])


def test_a_rigged_seat_is_called_beyond_noise_in_plain_words(rigged):  # noqa: F811
    s = summarise(run(Plan(rigged.name, seats(3), {}, "random", 5), 200, workers=1),
                  rigged.name, "random", 5, {})
    report = text(s)
    assert ("seat 1 wins 100.0 %, fair is 33.3 %: more than fair, beyond noise "
            "(95 % CI 98.1-100.0 %)") in report
    assert "seat 2 wins 0.0 %, fair is 33.3 %: less than fair, beyond noise" in report
    assert "first seat: +66.7 percentage points against a fair share: an edge beyond noise" \
        in report
    assert s["verdicts"][0].startswith("seat 1 wins 100.0 %")  # --json carries them too


def test_the_report_explains_its_words_and_what_random_bots_cannot_show(tmp_path):
    res = _cli(tmp_path, "simulate", "tripple-domino", "--players", "3", "--games", "12",
               "--workers", "1", "--option", "target=80")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "within noise (95 % CI " in out  # 12 games: no seat is beyond noise
    assert "12 games cannot tell differences smaller than about" in out
    assert "percentage points (12 games" in out and not re.search(r"\d points", out)
    assert "a turn is one player's go" in out and "a move is one entry the referee" in out
    assert "rounds with no winner: " in out and "an artefact of random bots" in out
    assert "they cannot show: how people play" in out
    greedy = _cli(tmp_path, "simulate", "tripple-domino", "--players", "3", "--games", "4",
                  "--workers", "1", "--bot", "greedy", "--option", "target=80").output
    assert "greedy bots take the move with the best immediate score" in greedy
    assert "an artefact of random bots" not in greedy


def test_progress_lines_from_the_first_second_on():
    from referee.simulate import ProgressLines

    now = [0.0]
    written: list[str] = []
    lines = ProgressLines("coda", 1000, written.append, clock=lambda: now[0])
    lines.update(100)  # 10 % within the first second: quiet
    now[0] = 2.0
    lines.update(150)  # 25 %
    lines.update(10)  # still the same tenth
    now[0] = 9.0
    lines.update(740)  # all done: the last line says so
    lines.done()
    assert written == ["simulating coda: 250 of 1,000 games (25 %), 2 s\n",
                       "simulated 1,000 games of coda in 9 s\n"]
    quick: list[str] = []
    short = ProgressLines("coda", 10, quick.append, clock=lambda: 0.0)
    short.update(10)
    short.done()
    assert quick == []


def test_simulate_piped_prints_progress_lines_on_stderr(tmp_path):
    env = {**os.environ, "REFEREE_DB": str(tmp_path / "db.sqlite3")}
    done = subprocess.run([sys.executable, "-m", "referee.cli", "simulate", "tripple-domino",
                           "--players", "2", "--games", "60", "--workers", "1"],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "simulated 60 games of tripple-domino in" in done.stderr
    assert "simulating tripple-domino: " in done.stderr  # at least one tenth after 1 s
    assert "simulat" not in done.stdout.split("\n", 1)[1]  # stdout is the report alone


def test_a_deck_without_black_cards_is_named_as_such(tmp_path):
    folder = tmp_path / "no-black"
    shutil.copytree(TEMPLATES / "dobble-connect", folder)
    toml = folder / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8")
                    .replace('{ color = "black", count = 10 }', '{ color = "grey", count = 10 }')
                    .replace('black = "#1a1a1a"', 'grey = "#888888"'), encoding="utf-8")
    res = _cli(tmp_path, "simulate", "dobble-connect", "--players", "2", "--games", "2",
               "--deck", str(folder))
    assert res.exit_code == 2
    line = res.output.strip()
    assert "\n" not in line and line.startswith(f"error: the cards in {folder} do not make a "
                                                "dobble-connect deck: no card with color = black")
    assert "color = grey is not a value of the bundled dobble-connect" in line
    assert line.endswith("(--deck)")


@pytest.mark.parametrize("game", ["thricewise", "tripple-domino", "duplicon"])
def test_a_deck_of_another_game_names_the_missing_columns(tmp_path, game):
    res = _cli(tmp_path, "simulate", game, "--players", "2", "--games", "2", "--deck",
               str(TEMPLATES / "dobble"))
    assert res.exit_code == 2, res.output
    line = res.output.strip()
    assert "\n" not in line and "Traceback" not in line  # thricewise crashed in a worker
    assert "do not make a" in line and "no card has column" in line


def test_the_json_report_carries_the_verdicts(tmp_path):
    res = _cli(tmp_path, "simulate", "thricewise", "--players", "2", "--games", "6",
               "--workers", "1", "--json")
    data = json.loads(res.output)
    assert data["verdicts"][0].startswith("seat 1 wins ")
    assert any(v.startswith("a game lasts ") for v in data["verdicts"])
