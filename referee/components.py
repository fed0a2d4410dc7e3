"""The cards of a bundled definition as the rules need them, read through pnp_model.definition.

Why a memo on disk: every referee command folds its match, so it needs the components each
time, and importing the definition reader and loading a template costs several times what
the rest of a command does (bench/bench_components.py measures both ways); the fields the
rules read are a few hundred bytes. The memo is keyed by the size and modification time of
every file the answer depends on (the template folder and the pnp_model package), so an edited
definition or model is read again at once. It lives in the user's cache folder ($REFEREE_CACHE
overrides); deleting it is always safe.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any

ENV = "REFEREE_CACHE"
_FOLDER: Path | None = None  # a user's definition standing in for the bundled one
READ_FROM_DECK: dict[str, tuple[str, ...]] = {}  # template -> the fields read from _FOLDER


def deal_from(folder: str | Path | None) -> None:
    """Read every game's cards from this definition folder instead of the bundled templates
    (`referee simulate --deck FOLDER`, `pnp verify FOLDER --balance`): what the rules memoised
    from the bundled cards is forgotten, so the rules and the dealer read the same cards."""
    import sys

    global _FOLDER
    _FOLDER = Path(folder) if folder is not None else None
    READ_FROM_DECK.clear()  # what the rules read from the previous deck is no longer read
    for name, module in list(sys.modules.items()):
        if name.startswith("referee.games.") and module is not None:
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


def cards(template: str, fields: Sequence[str]) -> list[tuple[int, dict[str, Any]]]:
    """(card id, {field: value}) for every card of the bundled template, in id order.
    The field "symbols" is the card's list of symbols (symbol decks)."""
    fields = list(fields)
    if _FOLDER is not None:
        from pnp_model.definition import load

        READ_FROM_DECK[template] = tuple(fields)  # for referee/deck_check.py
        return [(c.id, {f: list(c.symbols) if f == "symbols" else c.get(f) for f in fields})
                for c in load(str(_FOLDER)).cards]
    key = _fingerprint(template)
    memo = cache_dir() / f"cards-{template}.json" if key else None
    data = read_memo(memo, key) if memo is not None else None
    if data is not None and data.get("fields") == fields:
        try:
            return [(int(i), dict(f)) for i, f in data["cards"]]
        except (KeyError, TypeError, ValueError):
            pass
    from pnp_model.definition import load

    out = [(c.id, {f: list(c.symbols) if f == "symbols" else c.get(f) for f in fields})
           for c in load(template).cards]
    if memo is not None:
        write_memo(memo, {"key": key, "fields": fields, "cards": out})
    return out


def cache_dir() -> Path:
    env = os.environ.get(ENV)
    if env:
        return Path(env).expanduser()
    from pnp_shared.folders import user_folder

    return user_folder("cache")


def _roots(template: str) -> list[Path]:
    found = []
    for package, sub in (("pnp_model", ""), ("pnp_templates", template)):
        spec = find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            return []
        found.append(Path(list(spec.submodule_search_locations)[0]) / sub)
    return found


def _fingerprint(template: str) -> str:
    """Names, sizes and mtimes of the files the cards come from ('' when not found)."""
    return tree_fingerprint(_roots(template))


def tree_fingerprint(roots: Sequence[str | Path]) -> str:
    """A memo key: the names, sizes and modification times of every file under roots
    (bytecode left out); '' when a root is missing or holds no file."""
    parts = []
    for root in roots:
        if not os.path.isdir(root):
            return ""
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".pyc"):
                    continue
                st = os.stat(os.path.join(folder, name))
                parts.append(f"{folder}/{name}:{st.st_size}:{st.st_mtime_ns}")
    if not parts:
        return ""
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def db_memo_path(db_path: Path, kind: str, suffix: str) -> Path:
    """A memo about one database, in the cache folder: named by a hash of the database's full
    path, so two databases never share one."""
    name = hashlib.sha256(str(Path(db_path).resolve()).encode("utf-8", "surrogatepass"))
    return cache_dir() / f"{kind}-{name.hexdigest()[:24]}{suffix}"


def read_memo(path: Path, key: str) -> dict | None:
    """A memo's data when it was written under this key (None: missing, unreadable or stale)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) and data.get("key") == key else None
    except (OSError, ValueError):
        return None


def write_memo(path: Path, data: object) -> None:
    """Write a memo as JSON (atomically; skipped when it cannot be written)."""
    from pnp_shared.folders import write_memo_file

    write_memo_file(path, json.dumps(data).encode("utf-8"))


def scoring_table(folder: str | Path) -> tuple[str, dict[str, Any]] | None:
    """A designer's game name and its checked [scoring] table, from the folder's game.toml
    alone (None without one): a prototype can keep score while its cards are unfinished."""
    import tomllib

    from pnp_model.errors import read_text
    from pnp_model.scoring import read_scoring

    path = Path(folder) / "game.toml"
    try:
        data = tomllib.loads(read_text(path, str(path)))
    except tomllib.TOMLDecodeError as e:
        from pnp_shared.errors import UserError

        raise UserError(f"game.toml is not valid TOML: {e}", str(path)) from None
    table = data.get("scoring")
    if not table:
        return None
    game = data.get("game", {})
    name = str(game.get("name") or Path(folder).resolve().name) if isinstance(game, dict) \
        else Path(folder).resolve().name
    return name, read_scoring(table, str(path))


def definition_cards(folder: str | Path) -> list[tuple[int, str]]:
    """(card id, name) of every card of a definition (a folder or a bundled template's name),
    as the generator prints them: what playtest notes name."""
    return [(cid, name) for cid, name, _ in card_contents(folder)]


def card_contents(folder: str | Path) -> list[tuple[int, str, dict[str, str]]]:
    """(card id, name, fields) of every card of a definition: what a note keeps of the card
    it is about, so a later edit of the card shows (referee/card_versions.py)."""
    from pnp_model.definition import find, load

    deck = load(str(find(str(folder))))
    return [(c.id, c.name, {k: v for k, v in c.fields.items() if k != "copy"})
            for c in deck.cards]


def balance_of(folder: str | Path) -> tuple[dict[str, Any], list[tuple], Any] | None:
    """A definition's [balance] table checked (None without one): the simulation's settings,
    the targets (key, as written, what it measures, whether a rate) and the function that
    reads a target's figure from a simulate report (`referee playtests` sets real play beside)."""
    from pnp_model.balance import TARGETS, figure, parse
    from pnp_model.definition import find, load

    deck = load(str(find(str(folder))))
    if not deck.balance:
        return None
    b = parse(deck.balance, deck.name, f"{folder}/game.toml [balance]")
    settings = {"game": b.game, "players": b.players, "games": b.games, "bot": b.bot,
                "seed": b.seed, "max_rounds": b.max_rounds, "options": dict(b.options)}
    targets = [(t.key, t.text, TARGETS[t.key][0], TARGETS[t.key][1]) for t in b.targets]
    return settings, targets, figure
