"""The five games as OpenSpiel games (the optional extra `ai`: pip install ".[ai]").

Importing this package registers pnp_tripple_domino, pnp_thricewise, pnp_coda,
pnp_dobble_connect and pnp_duplicon with pyspiel, so `pyspiel.load_game("pnp_coda")` and the
field's algorithms (MCTS, CFR, ...) work on our rules. Nothing at referee start-up imports it:
open_spiel is heavy and optional.
"""

from __future__ import annotations

from referee.openspiel.adapter import GAMES, register

register()

__all__ = ["GAMES", "register"]
