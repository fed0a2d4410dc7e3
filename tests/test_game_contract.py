"""The game contract, checked for every registered game from its sample opening.

A new game gets these tests by being registered (a module in referee/games with GAME and a
`sample`); tests/example_game.py is registered here as the minimal example. Playouts are
seeded and bounded.
"""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from referee import engine, registry
from referee.engine import Event, RefereeError, Rules
from tests import example_game

registry.register(example_game.GAME)
GAMES = sorted(registry.games())


def opening(g: Rules):
    """The sample's states and events: [(state, move, canonical text, player)], events, last."""
    s = g.sample
    opts = engine.check_options(g, dict(s.options))
    state = g.setup(s.players, opts)
    events = [Event(1, "new", {"players": list(s.players), "options": opts})]
    steps = []
    for text in s.moves:
        said, colon, rest = text.partition(":")
        who = said.strip() if colon and said.strip() in s.players else g.to_move(state)
        move = g.parse(state, rest.strip() if colon and said.strip() in s.players else text, who)
        who = who or g.mover(move)
        verdict, after = g.judge(state, move)
        assert verdict.legal, (text, verdict.violations)
        canonical = g.format(state, move)
        steps.append((state, move, canonical, who))
        events.append(Event(len(events) + 1, "move", {"text": canonical, "player": who}))
        state = after
    return steps, events, state


@pytest.fixture(params=GAMES)
def game(request) -> Rules:
    g = registry.game(request.param)
    assert g.sample is not None, f"{g.name} has no sample opening"
    return g


def test_every_game_is_a_rules_with_its_name(game):
    assert isinstance(game, Rules) and registry.game(game.name) is game
    assert game.rules and game.title and game.min_players <= len(game.sample.players)


def test_notation_round_trips_for_the_sample_and_the_legal_moves(game):
    steps, _, last = opening(game)
    rng = random.Random(1)
    for state, move, text, who in steps + [(last, None, None, game.to_move(last))]:
        if move is not None:
            assert game.parse(state, text, who) == move
        legal = game.legal_moves(state)
        for m in rng.sample(legal, min(len(legal), 25)):
            assert dataclasses.is_dataclass(m) and not hasattr(m, "by")  # a class, with player
            assert game.check(state, m).legal, game.format(state, m)  # listed means accepted
            again = game.parse(state, game.format(state, m), game.mover(m))
            assert again == m and game.format(state, again) == game.format(state, m)


def test_the_fold_equals_the_game_played_move_by_move(game):
    _, events, last = opening(game)
    assert engine.fold(game, events) == last
    assert game.show(engine.fold(game, events)) == game.show(last)


def test_judging_and_applying_change_no_state(game):
    steps, _, last = opening(game)
    for state, move, _, _ in steps:
        before = copy.deepcopy(state)
        verdict, after = game.judge(state, move)
        assert state == before and verdict.legal
        assert game.apply(state, move) == after and state == before
        assert verdict.score == game.ledger(after)[len(game.ledger(state)):]  # from the ledger


def test_state_is_a_frozen_value_without_notes(game):
    """One state style: frozen dataclasses changed with replace; notes are returned by the
    move (Verdict.notes), never kept in the state."""
    _, _, last = opening(game)
    assert dataclasses.is_dataclass(last) and last.__dataclass_params__.frozen
    assert "notes" not in {f.name for f in dataclasses.fields(last)}
    with pytest.raises(dataclasses.FrozenInstanceError):
        last.round = 99


def test_the_position_reads_back(game):
    _, _, last = opening(game)
    text = game.position(last)
    if text is None:
        pytest.skip(f"{game.name} does not write positions")
    fresh = game.setup(game.sample.players, engine.check_options(game, dict(game.sample.options)))
    back = game.load_position(fresh, text)
    assert game.position(back) == text and game.to_move(back) == game.to_move(last)


@pytest.mark.parametrize("seed", [3, 11])
def test_random_legal_playouts_are_accepted_undone_and_replayed(game, seed):
    rng = random.Random(seed)
    _, events, state = opening(game)
    states = [state]
    for _ in range(12):
        legal = game.legal_moves(state)
        if not legal:
            break
        move = rng.choice(legal)
        verdict, after = game.judge(state, move)
        assert verdict.legal, (game.format(state, move), verdict.violations)
        text = game.format(state, move)
        events.append(Event(len(events) + 1, "move", {"text": text, "player": game.mover(move)
                                                      or game.to_move(state)}))
        state = after
        states.append(state)
    assert engine.fold(game, events) == state  # replay from the log
    last = engine.last_move(events)
    undone = events + [Event(len(events) + 1, "undo", {"seq": last.seq})]
    assert engine.fold(game, undone) == states[-2] if len(states) > 1 else True


def test_some_legal_moves_exist_after_the_sample(game):
    _, _, last = opening(game)
    assert game.legal_moves(last), f"{game.name} lists no move after its sample"


def test_the_example_game_reports_position_lines():
    g = example_game.GAME
    s = g.setup(("ana", "bob"), {"step": "3"})
    with pytest.raises(RefereeError) as e:
        g.load_position(s, "turn ana\n\nscore bob ten")
    assert e.value.where == "position line 3" and "'ten'" in e.value.what
    with pytest.raises(RefereeError) as e:
        g.load_position(s, "turn zed")
    assert e.value.where == "position line 1" and "unknown player 'zed'" in e.value.what


# One shape for every game folder: the same module for the same role, so a reader who knows one
# game finds their way in the next, and a sixth game is one more folder like these.
SHAPE = {
    "model": ("State",),
    "rules": ("GAME",),
    "notation": ("parse_move", "format_move"),
    "position": ("write_position", "read_position"),
    "view": ("show",),
    "picture": ("picture",),
    "dealer": (),
}


def _folders():
    from pathlib import Path

    import referee.games

    return sorted(p.name for p in Path(referee.games.__file__).parent.iterdir()
                  if (p / "__init__.py").exists())


@pytest.mark.parametrize("folder", _folders())
def test_every_game_folder_has_the_same_modules_in_the_same_roles(folder):
    import importlib
    import inspect

    from referee.dealing import Dealer

    for role, names in SHAPE.items():
        module = importlib.import_module(f"referee.games.{folder}.{role}")
        missing = [n for n in names if not hasattr(module, n)]
        assert not missing, f"referee/games/{folder}/{role}.py lacks {missing}"
    dealers = [c for _, c in inspect.getmembers(importlib.import_module(f"referee.games.{folder}.dealer"),
                                                inspect.isclass) if issubclass(c, Dealer) and c is not Dealer]
    assert dealers, f"referee/games/{folder}/dealer.py defines no Dealer"
    game = importlib.import_module(f"referee.games.{folder}").GAME
    assert game is importlib.import_module(f"referee.games.{folder}.rules").GAME
