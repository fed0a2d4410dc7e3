"""The engine and CLI are generic: a game that only writes the required hooks of engine.Rules
(here a tiny counting game, without the optional parts) plugs in and gets every command."""

from __future__ import annotations

import json
import sys
import types
from dataclasses import dataclass, replace

import pytest
from click.testing import CliRunner

from referee import engine, registry
from referee.cli import main
from referee.engine import (
    Event,
    InvalidMove,
    Option,
    Outcome,
    RefereeError,
    RuleRef,
    Rules,
    ScoreItem,
    Violation,
)


@dataclass(frozen=True)
class Count:
    players: tuple[str, ...]
    turn: int = 0
    ledger: tuple[ScoreItem, ...] = ()


class CountingGame(Rules):
    """Each player in turn adds 1, 2 or 3 to their score; 10 wins. No load_position."""

    name = "count-to-ten"
    title = "Count to Ten"
    min_players = 2
    max_players = 3
    options = (Option("step", "3", "largest step", ("2", "3")),)
    rules = {"C1": RuleRef("C1", "add 1 up to the largest step")}

    def setup(self, players, options):
        return Count(tuple(players))

    def parse(self, state, text, player=None):
        if not text.isdigit():
            raise InvalidMove(f"expected a number, got {text!r}")
        return (player, int(text))

    def format(self, state, move):
        return str(move[1])

    def violations(self, state, move):
        if not 1 <= move[1] <= 3:
            return [Violation(self.rules["C1"], f"{move[1]} is not 1-3")]
        return []

    def transition(self, state, move):
        return replace(state, turn=(state.turn + 1) % len(state.players),
                       ledger=state.ledger + (ScoreItem(move[0], move[1], "step"),)), ()

    def show(self, state):
        return f"to move: {self.to_move(state)}"

    def to_move(self, state):
        return state.players[state.turn]

    def legal_moves(self, state):
        return [(self.to_move(state), k) for k in (1, 2, 3)]

    def ledger(self, state):
        return state.ledger

    def outcome(self, state):
        tot = engine.totals(state.ledger, state.players)
        best = max(tot.values())
        return Outcome(tuple(p for p, v in tot.items() if v == best), "10") if best >= 10 \
            else None


@pytest.fixture
def counting(monkeypatch):
    module = types.ModuleType("referee.games.count_to_ten")
    module.GAME = CountingGame()
    monkeypatch.setitem(sys.modules, "referee.games.count_to_ten", module)
    return module.GAME


def test_a_protocol_only_game_gets_every_command(counting, tmp_path):
    db = str(tmp_path / "c.sqlite3")

    def run(*args, code=0):
        r = CliRunner().invoke(main, ["--db", db, *args])
        assert r.exit_code == code, r.output
        return r

    run("new", "count-to-ten", "--players", "ana,bob", "--option", "step=2")
    for n in ("3", "2", "3", "3", "3", "1"):
        run("play", n)
    assert "game over: ana" in run("play", "1").output
    assert "C1: 7 is not 1-3" in run("play", "7", code=1).output
    assert "expected a number" in run("play", "x", code=2).stderr
    assert json.loads(run("score", "--json").output)["totals"] == {"ana": 10, "bob": 6}
    assert run("undo").output.startswith("undone: event 8")
    assert "cannot write its position as text" in run("position", code=2).stderr
    rows = json.loads(run("standings", "--json").output)
    assert {r["player"] for r in rows} == {"ana", "bob"}


def test_a_game_without_load_position_refuses_a_position_file(counting, tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("whatever")
    r = CliRunner().invoke(main, ["--db", str(tmp_path / "c.sqlite3"), "new", "count-to-ten",
                                  "--players", "a,b", "--position", str(f)])
    assert r.exit_code == 2 and "cannot set up a position directly" in r.stderr


def test_options_are_checked_against_the_game(counting):
    assert engine.check_options(counting, {}) == {"step": "3"}
    with pytest.raises(RefereeError, match="unknown option 'steps'"):
        engine.check_options(counting, {"steps": "2"})
    with pytest.raises(RefereeError, match="not one of 2, 3"):
        engine.check_options(counting, {"step": "9"})


def test_unknown_and_odd_game_names_are_user_errors():
    for name in ("chess", "../etc", "_tripple_board", ""):
        with pytest.raises(RefereeError, match="unknown game"):
            registry.game(name)
    assert registry.game("Tripple-Domino").name == "tripple-domino"


def test_fold_skips_rejected_and_retracted_moves(counting):
    events = [Event(1, "new", {"players": ["a", "b"], "options": {}}),
              Event(2, "move", {"text": "3", "player": "a"}),
              Event(3, "rejected", {"text": "9", "player": "b"}),
              Event(4, "move", {"text": "2", "player": "b"}),
              Event(5, "undo", {"seq": 4})]
    state = engine.fold(counting, events)
    assert engine.totals(state.ledger, ("a", "b")) == {"a": 3, "b": 0}
    assert engine.last_move(events).seq == 2
    assert [s.turn for _, s in engine.steps(counting, events)] == [0, 1, 1, 1, 1]


def test_a_game_is_found_by_its_name_not_its_file_name(tmp_path, monkeypatch):
    """set_game.py defining `set` is listed by `referee games` and `referee new set` starts it."""
    from referee import games as pkg

    (tmp_path / "set_game.py").write_text(
        "from tests.test_referee_engine import CountingGame\n\n"
        "class SetGame(CountingGame):\n    name = 'set'\n    title = 'Set'\n\n"
        "GAME = SetGame()\n")
    monkeypatch.setattr(pkg, "__path__", [*pkg.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, "referee.games.set_game", raising=False)
    assert "set" in registry.games()
    assert registry.game("SET").name == "set"
    db = str(tmp_path / "s.sqlite3")
    r = CliRunner().invoke(main, ["--db", db, "new", "set", "--players", "ana,bob"])
    assert r.exit_code == 0 and r.output.startswith("match 1: set"), r.output
