"""Tripple Domino positions as text, for disputes: `referee position` writes one, and
`referee new tripple-domino --players ... --position FILE` starts a match from it.

    round 1
    hands ana=7 bob=8          # tiles in each hand
    reserve 32                 # optional: the rest of the 56 when left out
    scores ana=20 bob=13       # optional
    turn bob
    drawn 1                    # optional: tiles bob already drew (and kept) this turn
    drawn-in-round 5           # optional: draws this round (counted against draw-cap)
    held cy=3-4-5              # optional: a best tile the start declared, not yet played
    U0,0 5-5-5                 # a cell and its corners clockwise from the apex
    D0,0 5-5-3
"""

from __future__ import annotations

import re
from dataclasses import replace

from referee.engine import RefereeError, ScoreItem, find_player, totals
from referee.games.tripple_domino.board import corners
from referee.games.tripple_domino.model import (
    Cell,
    State,
    Tile,
    Vertex,
    cell_name,
    deal,
    name,
    parse_cell,
    parse_tile,
    rotations,
    tiles,
)
from referee.position import read_lines


def write_position(state: State) -> str:
    """The position as text that read_position() takes back."""
    tot = totals(state.ledger, state.players)
    out = [
        "# tripple-domino position: cells as CELL CORNERS (clockwise from the apex)",
        f"round {state.round}",
        "hands " + " ".join(f"{p}={h}" for p, h in zip(state.players, state.hands,
                                                       strict=True)),
        f"reserve {state.reserve}",
        "scores " + " ".join(f"{p}={v}" for p, v in tot.items()),
    ]
    if state.phase == "play":
        out.append(f"turn {state.players[state.turn]}")
        if state.draws:
            out.append(f"drawn {state.draws}")
    if state.round_draws:
        out.append(f"drawn-in-round {state.round_draws}")
    if state.held:
        out.append("held " + " ".join(f"{p}={name(t)}" for t, p in sorted(state.held.items())))
    out += [f"{cell_name(c)} {name(t)}" for c, t in sorted(state.board.items(),
                                                             key=lambda kv: kv[0][::-1])]
    return "\n".join(out) + "\n"


LINES = ("a line is round, hands, reserve, scores, turn, drawn, drawn-in-round, held or a cell "
         "like U0,0 5-5-5")
CELL = re.compile(r"[ud][-(\d]")


def read_position(state: State, text: str) -> State:
    """A position typed in (see write()): the match continues from exactly that board."""
    s = deal(replace(state, ledger=(), round=1))
    board: dict[Cell, Tile] = {}
    numbers: dict[Vertex, int] = {}
    used: set[Tile] = set()
    turn, draws, scores, round_draws = None, 0, {}, 0
    hands, reserve = list(s.hands), None
    held: dict[Tile, str] = {}
    keys = {"round": 1, "turn": 1, "drawn": 1, "drawn-in-round": 1, "reserve": 1, "hands": 0,
            "scores": 0, "held": 0}
    for line in read_lines(text, keys, LINES, CELL):
        with line.reading():
            if line.key == "round":
                s = replace(s, round=line.number())
            elif line.key == "turn":
                turn = _player(s, line.args[0], line.where)
            elif line.key == "drawn":
                draws = line.number()
                if not 0 <= draws < 3:
                    raise ValueError
            elif line.key == "drawn-in-round":
                round_draws = line.number()
                if round_draws < 0:
                    raise ValueError
            elif line.key == "reserve":
                reserve = line.number()
            elif line.key == "held":
                for pair in line.args:
                    p, _, tile = pair.partition("=")
                    held[tuple(sorted(parse_tile(tile)))] = _player(s, p, line.where)
            elif line.key in ("hands", "scores"):
                for pair in line.args:
                    p, _, num = pair.partition("=")
                    i = s.index(_player(s, p, line.where))
                    if line.key == "hands":
                        hands[i] = int(num)
                    else:
                        scores[s.players[i]] = int(num)
            else:
                cell = parse_cell(line.args[0].lower())
                reading = parse_tile(" ".join(line.args[1:]), "corner reading")
                tile = tuple(sorted(reading))
                if reading not in rotations(tile):
                    raise RefereeError(f"{name(reading)} is a mirror image (D4)")
                if tile in used or cell in board:
                    raise RefereeError(f"{name(tile)} or {cell_name(cell)} appears twice")
                for x, num in zip(corners(cell), reading, strict=True):
                    if numbers.get(x, num) != num:
                        raise RefereeError(f"{cell_name(cell)} puts {num} on vertex "
                                           f"{x[0]},{x[1]} which has {numbers[x]} (D3)")
                    numbers[x] = num
                board[cell] = reading
                used.add(tile)
    _check_reach(board)
    if twice := sorted(held.keys() & used):
        raise RefereeError(f"{name(twice[0])} is on the table and held by {held[twice[0]]}: a "
                           "tile exists once (D5)", "position held")
    if any(h < 0 for h in hands) or (board and not all(hands)):
        raise RefereeError("every hand holds at least one tile while a round is played: a "
                           "player with none has gone out", "position hands")
    if reserve is None:
        reserve = len(tiles()) - len(board) - sum(hands)
    if reserve < 0 or reserve + len(board) + sum(hands) > len(tiles()):
        raise RefereeError(f"{len(board)} on the table, {sum(hands)} in hands and {reserve} "
                           f"in the reserve make more than {len(tiles())} tiles", "position")
    ledger = tuple(ScoreItem(p, v, "score when the position was set up", s.round)
                   for p, v in scores.items() if v)
    phase = "play" if board else "start"
    if phase == "play" and turn is None:
        raise RefereeError("say whose turn it is: `turn ana`", "position")
    return replace(s, phase=phase, board=board, numbers=numbers, used=frozenset(used),
                 held=held if phase == "play" else {}, hands=tuple(hands), reserve=reserve,
                 turn=s.index(turn) if phase == "play" else None, draws=draws,
                 round_draws=round_draws, ledger=ledger)


def _check_reach(board: dict[Cell, Tile]) -> None:
    """The tiles lie within the reach of one table: a typed-in board may leave out tiles that
    do not matter to a dispute, but no chain of the 56 tiles spans more than 56 cells."""
    if not board:
        return
    reach = len(tiles())
    for axis in (1, 2):
        low = min(board, key=lambda c: c[axis])
        high = max(board, key=lambda c: c[axis])
        if high[axis] - low[axis] > reach:
            raise RefereeError(f"{cell_name(low)} and {cell_name(high)} are farther apart than "
                               f"{reach} tiles can reach: one table holds them all", "position")


def _player(s: State, text: str, where: str) -> str:
    return find_player(s.players, text, where, RefereeError)
