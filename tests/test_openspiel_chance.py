"""Draws as chance nodes in the OpenSpiel adapter (referee/openspiel): at every draw of an
unseen card the field's algorithms see the cards that can come, the drawer alone learns which
came, and resolved by the deal's shuffle the adapter plays our simulator's very game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

pyspiel = pytest.importorskip("pyspiel")

from referee import registry  # noqa: E402
from referee import simulate as sim  # noqa: E402
from referee.games.tripple_domino.model import rotations, tiles  # noqa: E402
from referee.openspiel import GAMES  # noqa: E402


def _load(game: str, **params):
    return pyspiel.load_game("pnp_" + game.replace("-", "_"), params)


def _draws(game: str, deal: int, wanted: int, seen_by_one: bool = False):
    """The first `wanted` draws after deal `deal` (random choices, the shuffle's cards)."""
    state = _load(game, max_rounds=2).new_initial_state()
    state.apply_action(deal)
    rng = random.Random(deal)
    found = []
    while not state.is_terminal() and len(found) < wanted:
        if state.is_chance_node():
            if not seen_by_one or len(state.pending[0][0].seen_by) == 1:
                found.append(state.clone())
            state.apply_action(state.dealer_outcome())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(found) == wanted, f"{game}: only {len(found)} draws"
    return found


@pytest.mark.parametrize("game", GAMES)
def test_a_draw_is_a_chance_node_over_the_cards_of_its_pile(game):
    """The outcomes are the cards still in the pile (of the colour asked for, in Coda), each
    as likely as its copies there, and none of them in anybody's hand."""
    for state in _draws(game, 1, 12):
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        names = Counter()
        for action, p in outcomes:
            names[state.action_to_string(pyspiel.PlayerId.CHANCE, action)] = p
        take, depth = state.pending[0]
        dealer = state.hidden.dealer
        pile = dealer.pile(take)
        can = [c for c in pile[:len(pile) - depth] if dealer.fits(take, c)]
        expected = {f"draw {dealer.card_text(c)}": n / len(can) for c, n in Counter(can).items()}
        assert names == pytest.approx(expected)
        hands = getattr(dealer, "hands", {})
        held = [c for h in (hands.values() if isinstance(hands, dict) else hands) for c in h]
        if game != "duplicon":  # its cards are types with copies: a copy may be in a hand
            assert not set(can) & set(held)


def test_tripple_domino_draws_are_the_tiles_neither_on_the_board_nor_in_a_hand():
    """Checked against the public board and the hands, not the dealer's reserve."""
    for state in _draws("tripple-domino", 4, 6):
        dealer, table = state.hidden.dealer, state.table
        placed = set(table.board.values())
        on_board = {t for t in tiles() if placed & set(rotations(t))}
        held = {t for h in dealer.hands for t in h}
        drawable = {state.action_to_string(pyspiel.PlayerId.CHANCE, a)
                    for a, _ in state.chance_outcomes()}
        unseen = set(tiles()) - on_board - held
        assert drawable == {f"draw {dealer.card_text(t)}" for t in unseen}
        assert all(p == pytest.approx(1 / len(unseen)) for _, p in state.chance_outcomes())


@pytest.mark.parametrize("game", GAMES)
def test_the_drawer_sees_the_card_drawn_and_the_rival_does_not(game):
    """Two different cards drawn at the same chance node: the drawer's information state
    tells them apart, the rival's is the same for both."""
    for state in _draws(game, 2, 3, seen_by_one=True):
        drawer = state._game.players.index(state.pending[0][0].seen_by[0])
        rival = 1 - drawer
        outcomes = state.chance_outcomes()
        assert len(outcomes) >= 2
        a, b = state.clone(), state.clone()
        a.apply_action(outcomes[0][0])
        b.apply_action(outcomes[-1][0])
        card = state.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0])
        assert card in a.information_state_string(drawer)
        assert a.information_state_string(drawer) != b.information_state_string(drawer)
        assert a.information_state_string(rival) == b.information_state_string(rival)


def _scripted(n: int, legal: list) -> int:
    """The same choice on both sides: from a position that moves with the decision number,
    the first legal choice in the dealer's list."""
    return legal[(n * 7 + 3) % len(legal)]


@pytest.mark.parametrize("game", GAMES)
def test_the_adapter_with_the_shuffles_cards_plays_simulates_game(game, monkeypatch):
    """A game through the adapter, every chance node resolved by the deal's shuffle, equals
    `referee simulate`'s game of that number (the same seed, the same choices): the same
    moves in the same order, the same scores and winners."""
    decisions = []

    def bot(rules, state, player, choices, legal, rng):
        ok = [c for c in choices if legal(c)]
        decisions.append(len(ok))
        return _scripted(len(decisions) - 1, ok)

    monkeypatch.setitem(sim.BOTS, "scripted", bot)
    rules = registry.game(game)
    index, rounds = 3, 2
    plan = sim.Plan(rules.name, ("ana", "bob"), {}, "scripted", 11, keep=index + 1,
                    max_rounds=rounds)
    kept = sim.play_one(rules, plan, index)

    state = _load(game, seed=11, max_rounds=rounds).new_initial_state()
    state.apply_action(index)
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.dealer_outcome())
        else:
            state.apply_action(_scripted(n, state.legal_actions()))
            n += 1
    moves = [public for seers, public, private in state.seen
             if private is None]
    assert n == len(decisions) > 10
    assert moves == [rules.redact(text) for text, _who in kept.log]
    assert state.scores() == kept.scores and state.winners() == kept.winners


def _after_an_exchange(deal: int):
    """Duplicon: ana exchanges her hand; bob turns two grid cards that do not match (nothing
    drawn, nothing refilled); ana is to act again."""
    from referee.games.duplicon.model import Exchange, Reveal

    state = _load("duplicon").new_initial_state()
    state.apply_action(deal)
    while state.is_chance_node():
        state.apply_action(state.dealer_outcome())
    assert state.current_player() == 0
    given_back = list(state.hidden.dealer.hands["ana"])
    for wanted in (lambda m: isinstance(m, Exchange),
                   lambda m: isinstance(m, Reveal) and m.flips[0][1] != m.flips[1][1]):
        state.apply_action(next(k for k, (move, _) in enumerate(state.choices)
                                if wanted(move)))
        while state.is_chance_node():
            state.apply_action(state.dealer_outcome())
    assert state.current_player() == 0
    return state, Counter(given_back)


def test_a_duplicon_determinisation_keeps_the_exchanged_cards_out_of_older_places():
    """Ana gave her hand back into the deck and bob has drawn nothing since: her
    determinisations deal bob's hand and the grid cards laid before from the other unseen
    cards only. Measured on the types she gave back: their mean count there is what a deal
    without her cards gives (a deal from all unseen cards gives about a tenth more)."""
    from referee.games.duplicon.model import POSITIONS, UNKNOWN

    for deal in range(2):
        state, given_back = _after_an_exchange(deal)
        dealer = state.hidden.dealer
        hidden = [pos for pos in POSITIONS if state.table.grid[pos] == UNKNOWN]
        unseen = Counter(dealer.deck + dealer.hands["bob"] + [dealer.grid[p] for p in hidden])
        places = len(dealer.hands["bob"]) + len(hidden)
        kinds = set(given_back)
        left = sum(unseen[k] - given_back[k] for k in kinds)
        without = places * left / (unseen.total() - given_back.total())
        anywhere = places * sum(unseen[k] for k in kinds) / unseen.total()
        counts = []
        for k in range(800):
            again = state.resampled(0, random.Random(k)).hidden.dealer
            older = again.hands["bob"] + [again.grid[p] for p in hidden]
            counts.append(sum(c in kinds for c in older))
            assert not given_back - Counter(again.deck)  # never more than could have gone
        mean = sum(counts) / len(counts)
        spread = (sum((c - mean) ** 2 for c in counts) / len(counts) / len(counts)) ** 0.5
        assert abs(mean - without) < 3 * spread < abs(anywhere - without)


@pytest.mark.parametrize(("game", "options"), [("tripple-domino", ""), ("coda", "rounds:3"),
                                               ("duplicon", "")])
def test_a_later_rounds_deal_is_drawn_at_chance_nodes(game, options):
    """A new round's hands (Coda: rows; Duplicon: the grid too) are drawn at chance nodes,
    sampled freely; the game replays from its history, as OpenSpiel's serialisation does."""
    loaded = _load(game, max_rounds=2, options=options)
    state = loaded.new_initial_state()
    state.apply_action(0)
    rng, rounds = random.Random(0), set()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert max(a for a, _ in outcomes) < loaded.max_chance_outcomes()
            rounds.add(state.hidden.dealer.round_of(state.table))
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert 2 in rounds
    again = loaded.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.returns() == state.returns()
    assert [again.information_state_string(p) for p in (0, 1)] == \
        [state.information_state_string(p) for p in (0, 1)]
