"""Thricewise (P. D. Magnus), played with the Decktet: docs/reference/rules.md §2.

The referee never sees hands, only what the table reveals: the starting grid, each turn's
simultaneous reveal, and the placements. It counts hands and the deck from those (3 cards each,
one draw per hand card revealed, nobody draws when the deck cannot serve everyone), detects
deferred ranks, plays the final turn of deferred cards and scores every three-card window.

Cards come from the generator's own Decktet definition (templates/decktet), never a second list.
Cells are named by column letter and row number (E5); the starting grid's top-left is E5 so
every cell a 6×6 box can reach keeps a stable positive name as the grid grows in any direction.

Modules: the shape of every game folder (referee/games/__init__.py), and decktet.py for the
cards.
"""

from referee.games.thricewise.decktet import card_by_id, deck, find_card
from referee.games.thricewise.model import (
    RULES,
    Grid,
    Place,
    Reveal,
    SetAside,
    State,
    box,
    cell_name,
    grid_shape,
    legal_cells,
    parse_cell,
    score_placement,
    window_kinds,
    window_value,
)
from referee.games.thricewise.rules import GAME, Thricewise

__all__ = ["GAME", "RULES", "Grid", "Place", "Reveal", "SetAside", "State", "Thricewise", "box",
           "card_by_id", "cell_name", "deck", "find_card", "grid_shape", "legal_cells",
           "parse_cell", "score_placement", "window_kinds", "window_value"]
