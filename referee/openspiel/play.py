"""A simulated game through the OpenSpiel adapter, for seats with search bots: the same
deal as simulate's game of that number, a GameRecord for the same report."""

from __future__ import annotations

import random

import pyspiel

from referee import registry
from referee.openspiel import adapter, search
from referee.simulate import MAX_STEPS, DealerError, GameRecord, Plan, game_seed, seat_bots


def play_batch(plan: Plan, indices) -> list[GameRecord]:
    """simulate.run's `player` for search bots: these games, in order."""
    seat = seat_bots(plan)
    return [play_one(plan, seat, i) for i in indices]


def play_one(plan: Plan, seat_bots: tuple[str, ...], index: int) -> GameRecord:
    """Random seats pick uniformly among the legal actions; search seats search."""
    seed = game_seed(plan.seed, index)
    rules = registry.game(plan.game)
    game = pyspiel.load_game(adapter.short_name(rules.name),
                             {"players": len(plan.players), "seed": plan.seed,
                              "deals": index + 1, "max_rounds": plan.max_rounds,
                              "options": ";".join(f"{k}:{v}" for k, v in plan.options.items())})
    rng = random.Random(seed)
    bots = [search.bot(spec, game, seat, seed) if (spec := search.parse(b)) else None
            for seat, b in enumerate(seat_bots)]
    state = game.new_initial_state()
    state.apply_action(index)
    record = GameRecord(index, seed, plan.players, (), (), 0, 0, 1, 0)
    last = None
    for _step in range(MAX_STEPS):
        if state.is_terminal():
            break
        if state.is_chance_node():  # a draw: the card the deal's shuffle puts there
            state.apply_action(state.dealer_outcome())
            continue
        seat = state.current_player()
        found = bots[seat]
        action = found.step(state) if found else rng.choice(state.legal_actions())
        record.turns += seat != last
        record.moves += 1
        last = seat
        state.apply_action(action)
    else:
        raise DealerError(f"{rules.name}: no end after {MAX_STEPS} steps",
                          f"simulated game {index}, seed {seed}")
    record.winners = state.winners()
    record.scores = state.scores()
    record.capped = state.capped
    record.rounds = plan.max_rounds if state.capped else state.hidden.dealer.round_of(state.table)
    return record
