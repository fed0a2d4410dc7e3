"""Games by the name users type (GAME.name), not by their module's file name.

Above the engine: it finds the folders of referee/games, each a game built on the engine's
contract, so the engine never imports the games it defines the contract for.
"""

from __future__ import annotations

import importlib

from referee.engine import Game, RefereeError, Rules

_REGISTERED: dict[str, Game] = {}


def name_key(name: str) -> str:
    """The name as the registry compares it: any case, - or _."""
    return name.strip().lower().replace("_", "-")


def register(rules: Game) -> Game:
    """Make a game known that lives outside referee/games (a plug-in, a test's example)."""
    _REGISTERED[name_key(rules.name)] = rules
    return rules


def unregister(name: str) -> None:
    """Forget a game added with register()."""
    _REGISTERED.pop(name_key(name), None)


def added() -> tuple[Game, ...]:
    """The games added with register(), not found in referee/games (listings memoised on
    disk, and snapshots trusted by their folder, leave them out)."""
    return tuple(_REGISTERED.values())


def games() -> dict[str, Game]:
    """Every game: the modules and packages of referee/games (each defines GAME) and the
    registered ones, by name."""
    import pkgutil

    from referee import games as pkg

    found: dict[str, Game] = {}
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"referee.games.{info.name}")
        rules = getattr(module, "GAME", None)
        if isinstance(rules, Rules):
            found[rules.name] = rules
    found.update({g.name: g for g in _REGISTERED.values()})
    return dict(sorted(found.items()))


def game(name: str) -> Game:
    """One game by the name users type (any case, - or _), with the list of names when the
    name is unknown (a typo). The module named like the game is tried first (one import)."""
    key = name_key(name)
    if key in _REGISTERED:
        return _REGISTERED[key]
    modname = "referee.games." + key.replace("-", "_")
    if key.replace("-", "_").isidentifier() and not key.startswith(("_", "-")):
        try:
            module = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name != modname:
                raise  # the game module exists but itself fails to import: a bug, not a typo
        else:
            rules = getattr(module, "GAME", None)
            if isinstance(rules, Rules) and name_key(rules.name) == key:
                return rules
    found = games()
    by_key = {name_key(n): g for n, g in found.items()}
    if key not in by_key:
        from pnp_shared.suggest import did_you_mean

        hint = did_you_mean(key, [g.name for g in found.values()], n=1, cutoff=0.75)
        hint = f": {hint}" if hint else ""
        raise RefereeError(f"unknown game {name!r} (games: {', '.join(found)}){hint}")
    return by_key[key]
