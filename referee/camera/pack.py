"""The reference pack a symbol deck's photo is read against (`pnp export --format look`):
look.json and the card renders beside it. Every value is checked as it is read: a damaged or
foreign pack is a one-line error, never a traceback and never a card."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.engine import RefereeError

FORMAT = "pnp look pack 1"  # what generator/lookpack/pack.py writes
PACK = "look.json"
SLUG = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


@dataclass(frozen=True)
class Symbol:
    name: str
    x: float  # centre in the render's pixels, y down
    y: float
    r: float


@dataclass(frozen=True)
class Face:
    id: str  # as `pnp export` names the render's file
    card: int
    image: Path
    size: tuple[int, int]  # the render's width and height, pixels
    symbols: tuple[Symbol, ...]


def table_deck(game: Any, options: dict[str, str]) -> str | None:
    """The symbol deck a table of `game` (its Rules) shows when it reads no markers itself (a
    score sheet kept for Dobble: the game's photo_deck), if its name can name a pack folder
    (output/NAME-look/: a slug, never a path)."""
    from referee.camera import reads_markers

    if reads_markers(game):
        return None
    name = game.photo_deck(options)
    return name if name and SLUG.fullmatch(name) else None


def default_folder(game: str) -> Path:
    """Beside the exports: output/<deck name>-look/, where `pnp export --format look` writes
    (never a path out of output/ for a game given as ../mygame)."""
    return Path("output") / f"{deck_name(game)}-look"


def deck_name(game: str) -> str:
    """A deck's name as its pack says it: a definition folder's name, or the bundled
    template's."""
    return Path(game).resolve().name if (Path(game) / "game.toml").is_file() else game


def make(game: str, folder: Path) -> None:
    """Run `pnp export GAME --format look` (the referee never imports the generator)."""
    cmd = [sys.executable, "-m", "generator", "export", game, "--format", "look", "-o",
           str(folder), "--json"]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise RefereeError(f"cannot run pnp to make the reference pack: {e}", "--pack") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["pnp failed"])[-1]
        raise RefereeError(f"pnp export {game} --format look failed: {last}", "--pack")


def deck_of(folder: Path) -> str | None:
    """The name of the deck a pack was made of, if it says (read() checks the rest)."""
    try:
        deck = json.loads((folder / PACK).read_text(encoding="utf-8")).get("deck")
    except (OSError, ValueError, AttributeError):
        return None
    return deck if isinstance(deck, str) else None


def read(folder: Path) -> list[Face]:
    """The faces of the pack in `folder`, checked."""
    where = str(folder / PACK)
    try:
        data = json.loads((folder / PACK).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RefereeError(f"no reference pack in {folder}: make it with "
                           "`pnp export GAME --format look -o FOLDER`", "--pack") from None
    except (OSError, ValueError) as e:
        raise RefereeError(f"cannot read the reference pack: {e}", where) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RefereeError(f"not a reference pack of `pnp export --format look` ({FORMAT!r})",
                           where)
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        raise RefereeError("the pack lists no cards", where)
    size = data.get("size")
    if not (isinstance(size, list) and len(size) == 2
            and all(isinstance(v, int) and 0 < v <= 10_000 for v in size)):
        raise RefereeError("the pack's render size is not two whole pixel counts", where)
    return [_face(c, folder, (size[0], size[1]), f"{where}, card {n}")
            for n, c in enumerate(cards, 1)]


def _face(c: Any, folder: Path, size: tuple[int, int], where: str) -> Face:
    ok = (isinstance(c, dict) and isinstance(c.get("id"), str)
          and isinstance(c.get("card"), int) and isinstance(c.get("image"), str)
          and isinstance(c.get("symbols"), list))
    if not ok:
        raise RefereeError("a card needs an id, a card number, an image and symbols", where)
    name = c["image"]
    if Path(name).name != name or name.startswith("."):  # a file of the pack, never a path
        raise RefereeError(f"image {name!r} is not a file name", where)
    symbols = []
    for s in c["symbols"]:
        if not (isinstance(s, dict) and isinstance(s.get("symbol"), str)
                and all(isinstance(s.get(k), (int, float)) and not isinstance(s.get(k), bool)
                        for k in ("x", "y", "r"))):
            raise RefereeError("a symbol needs a name and numbers x, y, r", where)
        symbols.append(Symbol(s["symbol"], float(s["x"]), float(s["y"]), float(s["r"])))
    return Face(c["id"], c["card"], folder / name, size, tuple(symbols))
