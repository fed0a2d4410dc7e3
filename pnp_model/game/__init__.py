"""A whole game: one game.toml holding several components (decks, tokens, tiles, a board).

A definition with one deck, as before, is a game of one component whose deck is exactly what
pnp_model.definition.load reads, so everything built from it stays byte for byte the same.
"""

from pnp_model.game.reading import KINDS, Component, Game, load_game

__all__ = ["KINDS", "Component", "Game", "load_game"]
