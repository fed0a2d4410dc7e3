"""Tripple Domino (rules §1): triangular tiles on a triangular lattice, with the pressman variant.

The tiles are the ones the generator prints (templates/tripple-domino): fields a, b, c are the
corners read clockwise (ascending), card ids 1..56. Geometry: vertex (x, y) of a triangular
lattice; cell U(x,y) has corners (x,y), (x+1,y), (x,y+1) and points up, D(x,y) has corners
(x+1,y), (x,y+1), (x+1,y+1) and points down. A cell's corners are listed clockwise from its
apex (U: top, bottom-right, bottom-left; D: bottom, top-left, top-right), and a placement is
written the same way: `1-2-3 U2,0 as 3-1-2` puts 3 on the apex, then 1 and 2 clockwise.

The referee does not deal: the table tells it what happened (who opens with what against which
best tiles, each draw, what is left in the hands at the round's end). It tracks the public
facts (board, hand sizes, reserve size, draws this turn, passes) and computes every score.
"""

from referee.games.tripple_domino.board import corners, edge_neighbours, hexagon
from referee.games.tripple_domino.model import (
    RULES,
    Draw,
    End,
    Pass,
    Place,
    Start,
    State,
    Tile,
    cell_name,
    name,
    parse_cell,
    parse_tile,
    rotations,
    strength,
    tiles,
    value,
)
from referee.games.tripple_domino.rules import GAME, TrippleDomino

__all__ = ["GAME", "RULES", "Draw", "End", "Pass", "Place", "Start", "State", "Tile",
           "TrippleDomino", "cell_name", "corners", "edge_neighbours", "hexagon", "name",
           "parse_cell", "parse_tile", "rotations", "strength", "tiles", "value"]
