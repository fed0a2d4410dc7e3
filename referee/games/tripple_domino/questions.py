"""Tripple Domino's questions (`referee ask`): where a tile fits, so a player holding it need
not try every free cell by eye on a large board."""

from __future__ import annotations

from pnp_shared.counts import plural
from referee.engine import RefereeError, Rules
from referee.games.tripple_domino.board import free_cells
from referee.games.tripple_domino.model import (
    Place,
    State,
    cell_name,
    mismatches,
    name,
    parse_tile,
    rotations,
    tiles,
)

ASK = "tripple-domino answers `ask where TILE` (e.g. `ask where 0-3-5`): the cells it fits"


def query(game: Rules, state: State, text: str) -> str:
    words = text.split()
    if len(words) != 2 or words[0].lower() != "where":
        raise RefereeError(ASK, "referee ask")
    tile = tuple(sorted(parse_tile(words[1])))
    if tile not in tiles():
        raise RefereeError(f"there is no tile {words[1]} (each tile reads in ascending order "
                           "clockwise)", "referee ask")
    if tile in state.used:
        return f"{name(tile)} is already on the table (D5: a tile exists once)"
    if not state.board:
        return f"the table is empty: {name(tile)} would open the game (`start`)"
    who = game.to_move(state)
    fits = []
    for cell in sorted(free_cells(state.board)):
        for rot in rotations(tile):
            if not mismatches(state, cell, rot):
                move = Place(who or state.players[0], tile, cell, rot)
                verdict = game.check(state, move) if who else None
                points = sum(i.points for i in verdict.score) if verdict and verdict.legal \
                    else None
                fits.append((f"{name(tile)} {cell_name(cell)} as {name(rot)}", points))
    if not fits:
        return f"{name(tile)} fits no free cell now (D3: every corner must match)"
    cells = plural(len(fits), "cell")
    lines = [f"{name(tile)} fits {cells} (type the move as shown):"]
    holder = state.held.get(tile)
    if holder and holder != who:  # D5: no points, as nobody else may place it
        lines[0] = (f"{name(tile)} is in {holder}'s hand (declared at the start), for "
                    f"{holder} to play; it fits {cells}:")
    width = max(len(text) for text, _ in fits)
    for text, points in fits:
        lines.append(f"  {text:<{width}}" + (f"  {points:+d} points" if points is not None
                                              else ""))
    return "\n".join(lines)
