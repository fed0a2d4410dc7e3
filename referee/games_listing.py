"""What `referee games` lists (name, title, players, options, notation of every game), kept in
the user's cache folder.

Why: listing the games imported every game's rules, the bulk of the command's time, to read
a few class attributes. The memo is keyed like referee/components.py's: the names, sizes and
modification times of every file of the referee, the templates and the model (what a
game's rules can read), so an added or edited game is listed at once. Games registered in
memory (registry.register) are never cached. Deleting the memo is always safe.
"""

from __future__ import annotations

import sys
from importlib.util import find_spec
from typing import Any

from referee.components import cache_dir, read_memo, tree_fingerprint, write_memo

PACKAGES = ("referee", "pnp_templates", "pnp_model")


def listing() -> list[dict[str, Any]]:
    """Every game as `referee games --json` prints it, sorted by name."""
    loaded = sys.modules.get("referee.registry")
    key = "" if loaded is not None and bool(loaded.added()) else _fingerprint()
    memo = cache_dir() / "games.json" if key else None
    data = read_memo(memo, key) if memo is not None else None
    if data is not None and isinstance(data.get("games"), list):
        return list(data["games"])
    from referee import registry

    rows = [{"name": g.name, "title": g.title, "players": [g.min_players, g.max_players],
             "options": [{"name": o.name, "default": o.default, "choices": list(o.choices),
                          "help": o.help} for o in g.options],
             "notation": g.notation}
            for g in registry.games().values()]
    if memo is not None:
        write_memo(memo, {"key": key, "games": rows})
    return rows


def _roots() -> list[str]:
    found = []
    for package in PACKAGES:
        spec = find_spec(package)
        if spec is not None and spec.submodule_search_locations:
            found.extend(spec.submodule_search_locations)
    return found


def _fingerprint() -> str:
    """Names, sizes and mtimes of every file the games' rules are made from."""
    return tree_fingerprint(_roots())
