"""A scorepad for any game: the designer's own game (`referee new path/to/mygame`, from the
[scoring] table of its game.toml) or any sheet typed with options (`referee new scorepad
--players ana,bob --option categories=coins,military --option rounds=3`).

Moves are entries (`ana coins 5`), `round` to close a round and `finish` to end; undo, adjust,
end, standings and exports work as for every game. The sheet is kept in the match options, so
the match replays the same whatever happens to the game.toml later.

Modules, imported one way: model <- notation, position, view, picture <- rules; dealer.
"""

from referee.games.scorepad.model import Spec, State
from referee.games.scorepad.rules import GAME, Scorepad

__all__ = ["GAME", "Scorepad", "Spec", "State"]
