"""Coda's deduction over public information: what a hidden tile can still be, and `ask`."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine import InvalidMove, RefereeError
from referee.games.coda import deduce
from referee.games.coda.model import COLOURS, POSITION, Slot, State, colour_of, tile_of, tile_set, value_word
from referee.games.coda.notation import player_named, tile_value


def domain(state: State, slot: Slot, answers: bool = True) -> set[int]:
    if slot.tile is not None:
        return {slot.tile}
    tiles = {t for t in tile_set() if colour_of(t) == slot.colour
             and (state.advanced or not deduce.is_dash(t))}
    return tiles - set(slot.misses) if answers else tiles


def problem(state: State, answers: bool, fixed: Mapping[int, set[int]] | None = None):
    rows = []
    for p in state.players:
        rows.append([set(fixed[s.id]) & domain(state, s, answers)
                     if fixed and s.id in fixed else domain(state, s, answers)
                     for s in state.row(p)])
    loose = []
    if state.drawn is not None:
        loose.append({t for t in tile_set() if colour_of(t) == state.drawn
                      and (state.advanced or not deduce.is_dash(t))})
    return rows, loose


def fits(state: State, answers: bool, fixed: Mapping[int, int] | None = None) -> bool:
    sets = {k: {v} for k, v in (fixed or {}).items()}
    return deduce.feasible(*problem(state, answers, sets))


def can_be(state: State, slot_id: int, tiles: set[int], answers: bool) -> bool:
    if not tiles:
        return False
    return deduce.feasible(*problem(state, answers, {slot_id: tiles}))


def guesses(state: State, guesser: str) -> list[tuple[str, int, int, bool]]:
    """Every (target, position, tile, hit) a guess may announce now, as the checks judge it
    (C1: a hit the tile can have, a miss that leaves it something), from one solve per basis."""
    with_answers = deduce.possible(*problem(state, answers=True))
    without = deduce.possible(*problem(state, answers=False))
    basis = fits(state, answers=True)  # earlier answers count unless they contradict
    judged = with_answers if basis else without
    out = []
    for i, p in enumerate(state.players):
        if p == guesser or state.hidden(p) == 0:
            continue
        for k, slot in enumerate(state.row(p)):
            if slot.tile is not None:
                continue
            for tile in sorted(domain(state, slot, answers=False)):
                if tile in with_answers[i][k] or tile in without[i][k]:
                    out.append((p, k + 1, tile, True))
                if (domain(state, slot, basis) - {tile}) & judged[i][k]:
                    out.append((p, k + 1, tile, False))
    return out


def candidates(state: State, player: str, position: int) -> list[int]:
    """Every tile a player's tile (1-based position) can still be, from public info."""
    row = state.row(player)
    if not 1 <= position <= len(row):
        raise RefereeError(f"{player} has tiles 1-{len(row)}, no tile {position}")
    rows, loose = problem(state, answers=True)
    found = deduce.possible(rows, loose)
    return sorted(found[state.players.index(player)][position - 1])


def can_text(state: State, slot_id: int) -> str:
    for p in state.players:
        for i, s in enumerate(state.row(p), start=1):
            if s.id == slot_id:
                can = candidates(state, p, i)
                return ("it can be " + ", ".join(value_word(t) for t in can) if can
                        else "no tile fits it any more: an earlier answer was false")
    return ""


def query(state: State, text: str) -> str:
    """Decide a dispute from public information: `possible ben 2` lists what ben's tile 2
    can be; `possible ben 2 7` says whether it can be 7; `possible ben 2 7 miss` whether a
    miss on 7 is possible."""
    words = text.replace("?", " ").split()
    if words and words[0].lower() in ("possible", "can", "could"):
        words = words[1:]
    if len(words) < 2 or not POSITION.match(words[1]):
        raise InvalidMove("expected: possible ben 2 [7 [hit|miss]]")
    who = player_named(state, words[:1])
    pos = int(words[1])
    can = candidates(state, who, pos)
    slot = state.row(who)[pos - 1]
    where = f"{who}'s tile {pos} ({COLOURS[slot.colour]}" + (
        f", revealed {value_word(slot.tile)})" if slot.tile is not None else ", hidden)")
    listed = ", ".join(value_word(t) for t in can) or "nothing (an earlier answer was false)"
    if len(words) == 2:
        return f"{where} can be: {listed}"
    tile = tile_of(slot.colour, tile_value(words[2]))
    answer = words[3].lower() if len(words) > 3 else "hit"
    if answer not in ("hit", "miss"):
        raise InvalidMove("the answer is hit or miss: possible ben 2 7 miss")
    ok = tile in can if answer == "hit" else bool(set(can) - {tile})
    verdict = "possible" if ok else "impossible"
    return f"a {answer} on {value_word(tile)} is {verdict}: {where} can be: {listed}"
