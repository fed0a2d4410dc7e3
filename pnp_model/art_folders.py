"""Which folders a definition may read files from: its own, and those the user allows.

Why: a definition shared by someone else could name `/home/you/private.png`, `../../x.png` or a
symlink leaving its folder, and the art would be embedded in a PDF the user then shares. A file
outside the game's folder is refused by default, naming it; the user allows other folders
explicitly, with `--allow-folder DIR` (on the command line, so a shared definition cannot grant
itself more) or an `assets = ["../art"]` list in the definition's [game] table (which the user
can read before building). Pure Python, like the loader: paths are resolved, symlinks followed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from pnp_model.errors import PnpError

_by_user: tuple[Path, ...] = ()  # --allow-folder, set by the command that reads definitions
_reading: ContextVar[tuple[Path, ...] | None] = ContextVar("pnp_art_folders", default=None)


def allow(folders: Iterable[str | Path]) -> None:
    """The folders the user allows on the command line (`--allow-folder`), besides the game's."""
    global _by_user
    _by_user = tuple(Path(f).expanduser().resolve() for f in folders)


def assets(value: Any, root: Path, where: str) -> tuple[Path, ...]:
    """The [game] assets list: folders, relative to the game's folder, that it reads art from."""
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise PnpError(f"assets must be a list of folders such as [\"../art\"], not {value!r}",
                       where)
    folders = []
    for v in value:
        folder = (root / Path(v).expanduser()).resolve()
        if not folder.is_dir():
            raise PnpError(f"assets folder {v!r} is not a folder", where)
        folders.append(folder)
    return tuple(folders)


@contextmanager
def reading(root: Path, extra: tuple[Path, ...] = ()) -> Iterator[None]:
    """While a definition is read: its folder, its assets and the user's folders are allowed."""
    token = _reading.set((root.resolve(), *extra, *_by_user))
    try:
        yield
    finally:
        _reading.reset(token)


def inside(root: Path, name: str, where: str, what: str = "file") -> Path:
    """`root / name`, refused when it resolves (symlinks followed) outside every allowed
    folder: the game's own (`root`) when no definition is being read."""
    path = root / name
    folders = _reading.get() or (root.resolve(), *_by_user)
    try:
        real = path.resolve()
    except (OSError, RuntimeError):  # a symlink loop: the reader names it as missing
        return path
    if not any(real == f or f in real.parents for f in folders):
        raise PnpError(f"{what} {name!r} is outside the game's folder ({real}): allow its "
                       "folder with --allow-folder DIR or assets = [\"DIR\"] in [game]", where)
    return path
