"""Issue 30 item 5: pnp and the referee agree on the basics: -o is --output in both, both have
--version, every mistake click finds is one line in our words (no click stock sentence), and
"did you mean" covers commands, options and player names."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from generator.cli import main as pnp
from referee.cli import main as referee

STOCK = re.compile(r"No such (command|option)|Missing (option|argument)|Invalid value|"
                   r"Did you mean|Got unexpected|requires an argument|does not take a value|"
                   r"is not a valid|^Error:|Usage:", re.M)


def one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert not STOCK.search(result.stderr), result.stderr
    return lines[0]


@pytest.fixture
def ref(tmp_path):
    def run(*args: str):
        return CliRunner().invoke(referee, ["--db", str(tmp_path / "db.sqlite3"), *args])
    return run


def test_both_tools_print_the_same_version():
    got = {}
    for tool, module in (("pnp", "generator"), ("referee", "referee.cli")):
        done = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        name, _, version = done.stdout.strip().partition(", version ")
        got[tool] = version
        assert version and name in (tool, "python -m generator", "python -m referee.cli")
    assert got["pnp"] == got["referee"]


def test_dash_o_is_output_in_both_tools(ref, tmp_path):
    ref("new", "tripple-domino", "--players", "ana,bob", "--option", "target=300")
    out = tmp_path / "plays.json"
    assert ref("export", "-o", str(out)).exit_code == 0 and out.exists()
    line = one_line(ref("new", "tripple-domino", "--players", "ana,bob", "-o", "target=300"))
    assert line == "error: unknown option -o: did you mean --option? (referee new)"
    assert "--option" in one_line(ref("simulate", "coda", "--players", "2", "-o", "x=1"))
    for tool, args in ((pnp, ["build", "--help"]), (referee, ["export", "--help"])):
        assert "-o, --output" in CliRunner().invoke(tool, args).output


@pytest.mark.parametrize("tool, args, expected", [
    (pnp, ["biuld"], "error: unknown command 'biuld': did you mean build? (pnp)"),
    (referee, ["shwo"], "error: unknown command 'shwo': did you mean show? (referee)"),
    (pnp, ["list", "--jsn"], "error: unknown option --jsn: did you mean --json? (pnp list)"),
    (referee, ["games", "--jsn"],
     "error: unknown option --jsn: did you mean --json? (referee games)"),
    (pnp, ["build", "tripple-domino", "--paper", "a9"],
     "error: unknown paper 'a9': use one of a4, letter, a3, a5, legal, tabloid, ledger, or "
     "WIDTHxHEIGHT such as 300x200mm or 11x17in (pnp build --paper)"),
    (referee, ["export", "--format", "yaml"],
     "error: 'yaml' is not one of json, csv, bgstats (referee export --format)"),
    (referee, ["simulate", "coda", "--players", "two"],
     "error: 'two' is not a whole number (referee simulate --players)"),
    (referee, ["new", "coda"], "error: missing option --players: player names in seating order: "
                               "ana,bob,cara (referee new)"),
    (referee, ["play"], "error: missing argument MOVE (referee play)"),
    (referee, ["export", "--output"], "error: --output needs a value (referee export)"),
    (referee, ["games", "--json=yes"], "error: --json takes no value (referee games)"),
    (referee, ["rule", "coda", "C1", "C2"],
     "error: unexpected extra argument 'C2': quote a value with spaces (referee rule)"),
])
def test_click_mistakes_are_one_line_in_our_words(tool, args, expected, tmp_path):
    r = CliRunner().invoke(tool, ["--db", str(tmp_path / "db"), *args] if tool is referee
                           else args)
    assert one_line(r) == expected


def test_a_mistyped_player_name_gets_did_you_mean(ref):
    ref("new", "tripple-domino", "--players", "ana,bob")
    line = one_line(ref("play", "draw", "--by", "anna"))
    assert "unknown player 'anna' (did you mean ana?), the players are ana, bob (--by)" in line
    line = one_line(ref("adjust", "bbo", "+5", "--reason", "bridge"))
    assert "did you mean bob?" in line
