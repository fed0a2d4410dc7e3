"""Coda's effects: the state after a legal move, with the notes for the table."""

from __future__ import annotations

from dataclasses import replace

from referee.engine import ScoreItem
from referee.games.coda.deduction import can_be
from referee.games.coda.model import (
    Asked,
    Deal,
    Draw,
    Expose,
    Guess,
    Place,
    Seal,
    Slot,
    State,
    Stop,
    Tally,
    Unseal,
    inserted,
    maybe_start,
    new_round,
    set_slot,
    tile_name,
    tile_of,
    value_word,
)
from referee.games.coda.sealing import seal_row, unseal_row


def transition(state: State, move) -> tuple[State, list[str]]:
    notes: list[str] = []
    score: list[ScoreItem] = []
    me = state.to_play
    if isinstance(move, Deal):
        state = deal_row(state, move, notes)
    elif isinstance(move, Seal):
        state = seal_row(state, move, notes)
    elif isinstance(move, Unseal):
        state = unseal_row(state, move, notes)
    elif isinstance(move, Draw):
        pool = list(state.pool)
        pool[move.colour] -= 1
        state = replace(state, pool=tuple(pool), drawn=move.colour, phase="guess")
    elif isinstance(move, Guess):
        state = guess(state, move, score, notes)
    elif isinstance(move, Stop):
        if move.position is not None:
            state = inserted(state, move.position, None)
            if move.seal:
                state = set_slot(state, me, move.position, seal=move.seal)
        state = end_turn(state, notes)
    elif isinstance(move, Place):
        tile = tile_of(state.drawn, move.value)
        state = inserted(state, move.position, tile)
        state = end_turn(state, notes)
    elif isinstance(move, Expose):
        slot = state.row(me)[move.position - 1]
        tile = tile_of(slot.colour, move.value)
        hindsight(state, slot, tile, notes)
        state = set_slot(state, me, move.position, tile=tile)
        if state.hidden(me) == 0:
            notes.append(f"{me} is out: every tile revealed")
        state = end_turn(state, notes)
    elif isinstance(move, Tally):
        state = tally(state, move, score, notes)
    return state, notes


def deal_row(state: State, move: Deal, notes: list[str]) -> State:
    if state.phase == "closed":
        state = new_round(state, state.round + 1)
        notes.append(f"round {state.round} begins")
    i = state.players.index(move.player)
    rows = list(state.rows)
    ids = range(state.next_id, state.next_id + len(move.colours))
    rows[i] = tuple(Slot(k, c) for k, c in zip(ids, move.colours, strict=True))
    pool = tuple(state.pool[c] - move.colours.count(c) for c in (0, 1))
    dealt = tuple(d or j == i for j, d in enumerate(state.dealt))
    state = replace(state, rows=tuple(rows), pool=pool, dealt=dealt,
                    next_id=state.next_id + len(move.colours))
    return maybe_start(state, notes)


def guess(state: State, move: Guess, score: list[ScoreItem], notes: list[str]) -> State:
    me, r = state.to_play, state.round
    slot = state.row(move.target)[move.position - 1]
    tile = tile_of(slot.colour, move.value)
    asked = Asked(me, move.target, slot.id, move.position, tile, move.hit,
                  len(state.asked) + 1)
    state = replace(state, asked=state.asked + (asked,))
    if not move.hit:
        state = set_slot(state, move.target, move.position,
                               misses=slot.misses + (tile,))
        if state.drawn is not None:
            return replace(state, phase="place")
        return replace(state, phase="expose")
    hindsight(state, slot, tile, notes)
    state = set_slot(state, move.target, move.position, tile=tile)
    score.append(ScoreItem(me, 1, f"correct guess: {move.target}'s tile {move.position} "
                                  f"is {tile_name(tile)}", r))
    if state.hidden(move.target) == 0:
        notes.append(f"{move.target} is out: every tile revealed")
        score.append(ScoreItem(me, 3, f"revealed {move.target}'s last hidden tile", r))
    state = replace(state, hits=state.hits + 1, ledger=state.ledger + tuple(score))
    if len(state.alive()) == 1:
        state = replace(state, winner=me)
        notes.append(f"{me} wins round {r}: the last player with hidden tiles")
        if state.drawn is None:
            return replace(state, phase="tally")
        return replace(state, phase="stop")
    return replace(state, phase="guess")


def hindsight(state: State, slot: Slot, tile: int, notes: list[str]) -> None:
    """A revealed tile that contradicts earlier answers: say which answers were false."""
    if can_be(state, slot.id, {tile}, answers=True):
        return
    same = [a for a in state.asked if a.slot == slot.id and a.tile == tile and not a.hit]
    if same:
        for a in same:
            notes.append(f"false answer found: {a.target} said miss to {a.guesser}'s guess "
                         f"{value_word(a.tile)} (guess {a.seq}) on this tile")
    else:
        notes.append(f"false answer found: {tile_name(tile)} contradicts an earlier 'miss' "
                     "in this round")


def end_turn(state: State, notes: list[str]) -> State:
    state = replace(state, drawn=None, hits=0)
    alive = state.alive()
    if len(alive) == 1:
        if state.winner is None:
            notes.append(f"{alive[0]} wins round {state.round}: the last player with "
                         "hidden tiles")
        return replace(state, winner=alive[0], phase="tally")
    n = len(state.players)
    nxt = state.current
    for _ in range(n):
        nxt = (nxt + 1) % n
        if state.hidden(state.players[nxt]):
            break
    phase = "draw" if sum(state.pool) else "guess"
    return replace(state, current=nxt, phase=phase)


def tally(state: State, move: Tally, score: list[ScoreItem],
           notes: list[str]) -> State:
    win, r = state.winner, state.round
    hidden = [(i, s) for i, s in enumerate(state.row(win), start=1) if s.tile is None]
    for (i, s), v in zip(hidden, move.values, strict=True):
        tile = tile_of(s.colour, v)
        hindsight(state, s, tile, notes)
        state = set_slot(state, win, i, tile=tile)
    values = [0 if v == "dash" else int(v) for v in move.values]
    score.append(ScoreItem(win, 5, f"won round {r}", r))
    score.append(ScoreItem(win, sum(values), "tiles still hidden: "
                                             + "+".join(str(v) for v in values), r))
    phase = "over" if r >= state.rounds else "closed"
    if phase == "closed":
        notes.append(f"round {r} is over: deal round {r + 1} (row <player> <colours>)")
    return replace(state, ledger=state.ledger + tuple(score), phase=phase,
                   round_winners=state.round_winners + (win,))
