"""Coda (Da Vinci Code): docs/reference/rules.md §3.

The referee holds public information only: the colour of every tile in every row (backs show
it), the tiles revealed so far, each guess with its announced answer, and the draws by colour.
From those it checks C1–C4 and decides consistency disputes: which tiles a hidden tile can
still be (order rule + everything revealed + earlier answers), and whether an answer is
possible at all. Nothing secret is stored, so `show --as` has nothing to hide.

Sealed game (optional): a player types their tiles privately (`referee play "seal ana"
--secret`); the log keeps one salted hash per tile. The passphrase given at the end (`unseal`)
lets the referee recover the sealed tiles and report every false answer given during the round.

Tiles are numbers 2n + colour (see deduce.py), so the order rule is integer order.
"""

from referee.games.coda.model import (
    COLOURS,
    RULES,
    State,
    colour_of,
    tile_name,
    tile_of,
    tile_set,
    value_word,
)
from referee.games.coda.rules import GAME, Coda

__all__ = ["COLOURS", "GAME", "RULES", "Coda", "State", "colour_of", "tile_name", "tile_of",
           "tile_set", "value_word"]
