"""Duplicon (docs/reference/rules.md §5): a memory game of pairs around a 3×3 grid of face-down cards.

The referee never sees a hidden card: players type what a flip showed (`b2=orange`), and the
referee keeps the counts (deck, hands, play zones, won piles, discard) and what the table has seen
of the grid. The card types are read from the `duplicon` template, the deck the generator prints.

Rulings of ours (documented in docs/reference/rules.md): the players are listed in turn order (the first one
starts round 1 and each later round starts one seat further on); the turn in which the deck runs
out is that player's final turn, then every other player takes one final turn in order; case 5
needs as many cards in the deck as the hand holds (the new hand is drawn first).

Modules: the shape of every game folder (referee/games/__init__.py), and play.py for the
effects of a move.
"""

from referee.games.duplicon.model import HOLE, UNKNOWN, State, card_type, card_types
from referee.games.duplicon.rules import GAME, Duplicon

__all__ = ["GAME", "HOLE", "UNKNOWN", "Duplicon", "State", "card_type", "card_types"]
