"""Dobble Connect (docs/reference/rules.md §4): real-time placement of symbol cards on a hex table, in teams.

The deck is read from the `dobble-connect` template, the very cards the generator prints: ids,
border colours and symbols. Hexes use axial coordinates (q, r): the start card is at 0,0 and
the six neighbours of (q, r) are (q±1, r), (q, r±1), (q+1, r−1) and (q−1, r+1).

The referee cannot see the face-down piles, so DC1 is checked on what it can count (our ruling,
in docs/reference/notation.md):
a player places cards of their team's colour while the team still holds one, and
a rival colour only while the team still holds rival cards of that colour received through the
catch-up transfer. Nobody takes turns, so every placement names who made it.

Modules: the shape of every game folder (referee/games/__init__.py).
"""

from referee.games.dobble_connect.model import DeckInfo, State, deck_info, printed_deck
from referee.games.dobble_connect.rules import GAME, DobbleConnect

__all__ = ["GAME", "DeckInfo", "DobbleConnect", "State", "deck_info", "printed_deck"]
