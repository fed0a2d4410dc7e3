"""`referee new path/to/mygame`: a designer's own game folder as a match of a bundled game that
can keep it (the scorepad, from the [scoring] table of its game.toml).

A name written as a path (a / in it, or game.toml) is always a folder; a bare name is a bundled
game first, then a folder of that name. Nothing here knows a particular game: each game says,
through Rules.definition_options, whether it reads the folder.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from referee import registry
from referee.engine import RefereeError


def looks_like_path(name: str) -> bool:
    return "/" in name or "\\" in name or name.endswith(".toml")


def resolve(name: str, options: Mapping[str, str]) -> tuple[str, dict[str, str]]:
    """The game to start and its options: `name` unchanged unless it is a definition folder;
    options typed with --option override what the folder says."""
    if not looks_like_path(name):
        try:
            registry.game(name)
            return name, dict(options)
        except RefereeError:
            if not (Path(name) / "game.toml").is_file():
                raise
    folder = Path(name)
    if folder.name == "game.toml":
        folder = folder.parent
    if not (folder / "game.toml").is_file():
        raise RefereeError(f"no game.toml in {str(folder)!r}: give a game's name (`referee "
                           "games`) or the folder of your game.toml", "referee new")
    for g in registry.games().values():
        found = g.definition_options(folder)
        if found is not None:
            return g.name, {**found, **options}
    raise RefereeError(f"{folder / 'game.toml'} has no [scoring] table, so the referee cannot "
                       "keep its score: add one (`pnp new --blank` writes an example)",
                       "referee new")
