"""The five games as OpenSpiel games (referee/openspiel, the extra `ai`): OpenSpiel's own
consistency checks, the deals our simulator deals, and information states that hold what the
player may see and nothing more."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from referee import registry  # noqa: E402
from referee import simulate as sim  # noqa: E402
from referee.openspiel import GAMES  # noqa: E402


@pytest.mark.parametrize("game", GAMES)
def test_passes_openspiels_random_simulation_test_with_serialisation(game):
    # one round keeps the quadratic replay of serialize=True to seconds
    loaded = pyspiel.load_game("pnp_" + game.replace("-", "_"), {"max_rounds": 1})
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("game", ["tripple-domino", "thricewise", "coda", "duplicon"])
def test_deal_k_is_the_simulators_game_k(game):
    """The table's first moves come from the deal alone: the same text for deal k of seed 7
    as in game k of `referee simulate --seed 7`."""
    loaded = pyspiel.load_game("pnp_" + game.replace("-", "_"), {"seed": 7})
    rules = registry.game(game)
    for k in (0, 5):
        plan = sim.Plan(rules.name, ("ana", "bob"), {}, "random", 7, keep=k + 1)
        kept = sim.play_one(rules, plan, k).log
        first = _first_move(loaded, k)
        assert first == kept[0][0]
        assert _first_move(loaded, k + 1) != first


def _dealt(loaded, deal: int):
    """The state after deal `deal` and the draws that follow it, as its shuffle has them."""
    state = loaded.new_initial_state()
    state.apply_action(deal)
    _draw(state)
    return state


def _draw(state) -> None:
    while state.is_chance_node():
        state.apply_action(state.dealer_outcome())


def _first_move(loaded, deal: int) -> str:
    """The table's first move after the deal."""
    state = _dealt(loaded, deal)
    return next(public for _seers, public, private in state.seen if private is None)


def test_a_player_sees_their_own_hand_and_pick_never_the_others():
    state = _dealt(pyspiel.load_game("pnp_thricewise"), 3)
    ana, bob = state.information_state_string(0), state.information_state_string(1)
    ana_hand = ana.splitlines()[-1]
    assert ana_hand.startswith("hand: ") and ana_hand not in bob
    assert bob.splitlines()[-1] not in ana
    picked = state.legal_actions()[0]
    state.apply_action(picked)  # ana picks a card face down
    _draw(state)
    ana, bob = state.information_state_string(0), state.information_state_string(1)
    card = ana.splitlines()[-1].split("picked: ")[1]
    assert "ana decides in secret" in bob and card not in bob


def test_the_information_state_does_not_depend_on_the_opponents_hidden_tiles():
    """Swap a tile of bob's hand with one in the reserve: ana's view is unchanged, bob's is
    not (the hidden side is changed directly: no legal play can do it)."""
    state = pyspiel.load_game("pnp_tripple_domino").new_initial_state()
    state.apply_action(11)
    other = state.clone()
    dealer = other.hidden.dealer
    dealer.hands[1][0], dealer.reserve[0] = dealer.reserve[0], dealer.hands[1][0]
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other.information_state_string(1) != state.information_state_string(1)


def test_random_play_ends_with_returns_from_our_scores():
    loaded = pyspiel.load_game("pnp_tripple_domino")
    rng = random.Random(3)
    state = loaded.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    scores = state.scores()
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0)
    best = max(scores)
    assert [r > 0 for r in returns] == [s == best for s in scores]


@pytest.mark.parametrize("game", ["tripple-domino", "thricewise"])
def test_a_determinisation_keeps_what_the_player_sees_and_deals_the_rest_again(game):
    """What search bots look into: the player's view unchanged, the opponent's hand new."""
    state = _dealt(pyspiel.load_game("pnp_" + game.replace("-", "_")), 2)
    rng = random.Random(1)
    me = state.current_player()
    again = state.resampled(me, rng)
    assert again.information_state_string(me) == state.information_state_string(me)
    assert again.information_state_string(1 - me) != state.information_state_string(1 - me)
    assert again.legal_actions() == state.legal_actions()


def _midgame(game: str, deal: int, steps: int):
    """Deal `deal`, then `steps` random choices (fewer if the game ends first)."""
    state = _dealt(pyspiel.load_game("pnp_" + game.replace("-", "_")), deal)
    rng = random.Random(deal)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
        _draw(state)
    return state


def _cards(state) -> dict:
    """Where the dealer has every card: hands, piles, decks, face-down cards."""
    dealer = state.hidden.dealer
    kept = {k: v for k, v in vars(dealer).items() if k not in ("rules", "rng", "deck")}
    if isinstance(getattr(dealer, "deck", None), list):
        kept["deck"] = dealer.deck
    return kept


def _hidden_side(state) -> dict:
    """The cards, the dealer's random stream and the choices on offer with their answers
    (a guess's hit, a flipped card)."""
    return {**_cards(state), "rng": state.hidden.dealer.rng.getstate(),
            "choices": state.choices}


@pytest.mark.parametrize("game", ["coda", "duplicon", "dobble-connect"])
def test_a_mid_game_determinisation_agrees_with_the_player_and_deals_the_rest_again(game):
    """Mid-game, the re-dealt state shows the player exactly what they saw (their
    information state, their choices), and in some deals the others' hidden cards differ."""
    changed = answered = 0
    for deal in range(4):
        state = _midgame(game, deal, 13)  # mid-turn: a guess, a flip
        if state.is_terminal():
            continue
        me = state.current_player()
        again = state.resampled(me, random.Random(deal))
        assert again.information_state_string(me) == state.information_state_string(me)
        assert again.legal_actions() == state.legal_actions()
        changed += _cards(again) != _cards(state)
        answered += again.choices != state.choices  # a guess's hit, a flip: the new cards'
    assert changed >= 2
    if game != "dobble-connect":  # its choices carry no answer: where the top card goes
        assert answered >= 1


@pytest.mark.parametrize("game", ["coda", "duplicon", "dobble-connect"])
def test_a_determinisation_depends_on_what_the_player_saw_never_on_the_true_cards(game):
    """Two tables the player cannot tell apart (the real one, and one where the unseen cards
    were dealt differently) give the same determinisation for the same random stream: a
    search bot learns nothing from the true cards, a guess's answer or a flip included."""
    for deal in range(3):
        state = _midgame(game, deal, 10)
        if state.is_terminal():
            continue
        me = state.current_player()
        other = state.resampled(me, random.Random(100 + deal))  # another possible truth
        assert _cards(other) != _cards(state)
        a = state.resampled(me, random.Random(7))
        b = other.resampled(me, random.Random(7))
        assert _hidden_side(a) == _hidden_side(b)


def test_options_reach_the_rules():
    """Thricewise's any-turn mode, asked for through the parameters, is the one played."""
    loaded = pyspiel.load_game("pnp_thricewise", {"options": "deferred:any-turn"})
    state = _dealt(loaded, 0)
    assert state.table.mode == "any-turn"
    assert state.clone().table.mode == "any-turn"  # a clone rebuilds the game from its string
    default = _dealt(pyspiel.load_game("pnp_thricewise"), 0)
    assert default.table.mode == "final"
