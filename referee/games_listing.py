"""What `referee games` lists (name, title, players, options, notation of every game), kept in
the user's cache folder.

Why: listing the games imported every game's rules (~60 ms of CPU of a 150 ms budget) to read
a few class attributes. The memo is keyed like referee/components.py's: the names, sizes and
modification times of every file of the referee, the templates and the generator (what a
game's rules can read), so an added or edited game is listed at once. Games registered in
memory (engine.register) are never cached. Deleting the memo is always safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib.util import find_spec
from typing import Any

from referee.components import _cache_dir, _write

PACKAGES = ("referee", "pnp_templates", "generator")


def listing() -> list[dict[str, Any]]:
    """Every game as `referee games --json` prints it, sorted by name."""
    engine = sys.modules.get("referee.engine")
    registered = engine is not None and bool(engine._REGISTERED)
    key = "" if registered else _fingerprint()
    memo = _cache_dir() / "games.json" if key else None
    if memo is not None:
        try:
            data = json.loads(memo.read_text(encoding="utf-8"))
            if data["key"] == key:
                return list(data["games"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
    from referee import engine

    rows = [{"name": g.name, "title": g.title, "players": [g.min_players, g.max_players],
             "options": [{"name": o.name, "default": o.default, "choices": list(o.choices),
                          "help": o.help} for o in g.options],
             "notation": g.notation}
            for g in engine.games().values()]
    if memo is not None:
        _write(memo, {"key": key, "games": rows})
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
    parts = []
    for root in _roots():
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".pyc"):
                    continue
                st = os.stat(os.path.join(folder, name))
                parts.append(f"{folder}/{name}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest() if parts else ""
