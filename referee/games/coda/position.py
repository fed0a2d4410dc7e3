"""Coda positions as text, for disputes: the rows as the table sees them, read back and checked.

    round 1
    turn bob                   # who draws next
    scores ana=1 bob=0         # optional: points of earlier rounds
    ana b? w3 b7 w?            # a row left to right: b?/w? hidden, b7/w- revealed (- a dash)
    bob w? b? b2

Only public information is typed (the referee never knows a hidden tile), so a position is
checked the way every move is: each hidden tile must still be able to be some tile of the set
under the order rule, and every tile exists once.
"""

from __future__ import annotations

import re
from dataclasses import replace

from referee.engine import RefereeError, ScoreItem, find_player, totals
from referee.games.coda import deduction
from referee.games.coda.model import (
    COLOURS,
    Slot,
    State,
    new_round,
    tile_of,
    tile_short,
)
from referee.position import read_lines

TILE = re.compile(r"^([bw])(\?|-|\d{1,2})$")
EXPECTED = ("a position has lines round N, turn NAME, scores NAME=N ..., and a row per "
            "player: NAME b? w3 b7 (b?/w? hidden, b7/w- revealed)")


def write_position(state: State) -> str:
    """The position as text that read_position takes back."""
    out = ["# coda position: a row per player left to right, b?/w? hidden, b7/w- revealed",
           f"round {state.round}", f"turn {state.to_play}"]
    tot = totals(state.ledger, state.players)
    if any(tot.values()):
        out.append("scores " + " ".join(f"{p}={v}" for p, v in tot.items()))
    for p, row in zip(state.players, state.rows, strict=True):
        tiles = (tile_short(s.tile) if s.tile is not None else "bw"[s.colour] + "?" for s in row)
        out.append(f"{p} {' '.join(tiles)}".rstrip())
    return "\n".join(out) + "\n"


def read_position(state: State, text: str) -> State:
    """The state after set-up (`state`) with the rows typed in, ready for `turn` to draw."""
    if state.sealed:
        raise RefereeError("a sealed match starts from its deal: seals commit to the tiles "
                           "dealt, which a typed position cannot vouch for", "position")
    s = new_round(state, 1)
    rows: dict[str, tuple[Slot, ...]] = {}
    scores: dict[str, int] = {}
    turn, next_id = state.players[0], 1
    keys = {"round": 1, "turn": 1, "scores": 1}
    for line in read_lines(text, keys, EXPECTED, re.compile(r"^\S+$")):
        with line.reading():
            if line.key == "round":
                s = replace(s, round=line.number())
            elif line.key == "turn":
                turn = find_player(state.players, line.args[0], "turn")
            elif line.key == "scores":
                for pair in line.args:
                    who, _, value = pair.partition("=")
                    scores[find_player(state.players, who, "scores")] = int(value)
            else:
                who = find_player(state.players, line.args[0], "row")
                if who in rows:
                    raise RefereeError(f"{who} has two rows")
                slots = []
                for word in line.args[1:]:
                    slots.append(_slot(word.lower(), next_id))
                    next_id += 1
                rows[who] = tuple(slots)
    missing = [p for p in state.players if not rows.get(p)]
    if missing:
        raise RefereeError(f"no row for {', '.join(missing)}: every player's tiles stand in a row",
                           "position")
    s = replace(s, rows=tuple(rows[p] for p in state.players), dealt=(True,) * len(state.players),
                next_id=next_id, current=state.players.index(turn))
    s = _with_pool(s)
    s = replace(s, phase="draw" if sum(s.pool) else "guess",
                ledger=tuple(ScoreItem(p, v, "points when the position was set up", s.round)
                             for p, v in scores.items() if v))
    _check(s)
    return s


def _slot(word: str, slot_id: int) -> Slot:
    m = TILE.match(word)
    if not m:
        raise RefereeError(f"expected a tile like b? w? b7 w- (colour, then ? if hidden), "
                           f"not {word!r}")
    colour = "bw".index(m[1])
    return Slot(slot_id, colour, None if m[2] == "?" else tile_of(colour, m[2]))


def _with_pool(s: State) -> State:
    """The pool: the set's tiles of each colour less those standing in the rows."""
    standing = [0, 0]
    for row in s.rows:
        for slot in row:
            standing[slot.colour] += 1
    pool = tuple(s.pool[c] - standing[c] for c in (0, 1))
    if min(pool) < 0:
        colour = COLOURS[pool.index(min(pool))]
        raise RefereeError(f"more {colour} tiles stand in the rows than the set has", "position")
    return replace(s, pool=pool)


def _check(s: State) -> None:
    """A position a game could reach: tiles once each, dashes only in the advanced game, each
    hidden tile still possible under the order rule, at least two players still in."""
    shown = [slot.tile for row in s.rows for slot in row if slot.tile is not None]
    twice = sorted({t for t in shown if shown.count(t) > 1})
    if twice:
        raise RefereeError(f"{tile_short(twice[0])} stands twice: every tile exists once",
                           "position")
    if not s.advanced and any(t >= 24 for t in shown):
        raise RefereeError("a dash is revealed, but dashes are in the advanced game only "
                           "(--option game=advanced)", "position")
    if sum(any(slot.tile is None for slot in row) for row in s.rows) < 2:
        raise RefereeError("fewer than two players have a hidden tile: that round is over",
                           "position")
    if not deduction.fits(s, answers=False):
        raise RefereeError("no deal fits these rows: a revealed tile breaks the order rule, "
                           "or hidden tiles have no tiles left to be", "position")
