"""The score sheet of a game (`[scoring]` in game.toml), read for the referee's scorepad.

A designer playtesting a prototype keeps score with `referee new path/to/mygame`; this table
says what the sheet holds:

    [scoring]
    categories = ["coins", "wonders", "military"]  # the columns of the sheet
    rounds = 3               # the game ends when round 3 closes (or: target = 50)
    lowest_wins = false      # true: the lowest total wins (golf, hearts)
    tie_breaks = ["coins"]   # category totals that break a tie, in order
    players = "2-5"          # how many may play (optional)
    [scoring.military]       # checks of one category, on what a player scores in one round
    min = -6
    max = 18

Every score is a whole number. Pure Python and standard library: the referee reads it too.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from pnp_model.errors import PnpError

KEYS = ("categories", "rounds", "target", "lowest_wins", "tie_breaks", "players")
CATEGORY_KEYS = ("min", "max")
RESERVED = ("round", "finish")  # the scorepad's own move words
NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")


def read_scoring(table: dict[str, Any], fname: str = "game.toml") -> dict[str, Any]:
    """The [scoring] table checked and made plain: categories, rounds, target, lowest_wins,
    tie_breaks, limits ({category: [min, max]}, None for an open end) and players ([lo, hi])."""
    where = f"{fname} [scoring]"
    categories = _categories(table.get("categories"), where)
    for key in table:
        if key not in KEYS and key not in categories:
            raise PnpError(f"unknown key {key!r}{_hint(key, (*KEYS, *categories))} (keys: "
                           f"{', '.join(KEYS)}, or a table named after a category)",
                           f"{where}.{key}")
    rounds = _whole(table.get("rounds"), f"{where}.rounds", low=1)
    target = _whole(table.get("target"), f"{where}.target")
    lowest = table.get("lowest_wins", False)
    if not isinstance(lowest, bool):
        raise PnpError(f"lowest_wins is true or false, not {lowest!r}", f"{where}.lowest_wins")
    ties = table.get("tie_breaks", [])
    if not isinstance(ties, list) or not all(isinstance(t, str) for t in ties):
        raise PnpError("tie_breaks is a list of category names, e.g. [\"coins\"]",
                       f"{where}.tie_breaks")
    for t in ties:
        if t not in categories:
            raise PnpError(f"tie break {t!r} is not a category{_hint(t, categories)} "
                           f"(categories: {', '.join(categories)})", f"{where}.tie_breaks")
    limits = {}
    for name in categories:
        sub = table.get(name, {})
        if not isinstance(sub, dict):
            raise PnpError(f"[scoring.{name}] is a table such as {{ min = 0, max = 10 }}",
                           f"{where}.{name}")
        for key in sub:
            if key not in CATEGORY_KEYS:
                raise PnpError(f"unknown key {key!r}{_hint(key, CATEGORY_KEYS)} (keys: min, max)",
                               f"{where}.{name}.{key}")
        low = _whole(sub.get("min"), f"{where}.{name}.min")
        high = _whole(sub.get("max"), f"{where}.{name}.max")
        if low is not None and high is not None and low > high:
            raise PnpError(f"min {low} is above max {high}", f"{where}.{name}")
        if low is not None or high is not None:
            limits[name] = [low, high]
    return {"categories": categories, "rounds": rounds, "target": target,
            "lowest_wins": lowest, "tie_breaks": list(ties), "limits": limits,
            "players": _players(table.get("players"), f"{where}.players")}


def _categories(value: Any, where: str) -> list[str]:
    if value is None:
        raise PnpError("a score sheet needs its categories, e.g. categories = [\"coins\", "
                       "\"military\"] (or [\"points\"] for one column)", f"{where}.categories")
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise PnpError("categories is a list of names, e.g. [\"coins\", \"military\"]",
                       f"{where}.categories")
    out: list[str] = []
    for name in value:
        if not NAME.fullmatch(name):
            raise PnpError(f"category {name!r}: a name is one lowercase word (letters, digits, "
                           "- or _, starting with a letter)", f"{where}.categories")
        if name in RESERVED:
            raise PnpError(f"category {name!r} is a word of the score sheet's own moves "
                           f"({', '.join(RESERVED)}): choose another name", f"{where}.categories")
        if name in out:
            raise PnpError(f"category {name!r} is listed twice", f"{where}.categories")
        out.append(name)
    return out


def _whole(value: Any, where: str, low: int | None = None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise PnpError(f"a whole number, not {value!r}", where)
    if low is not None and value < low:
        raise PnpError(f"{value} is below {low}", where)
    return value


def _players(value: Any, where: str) -> list[int] | None:
    """`players = 4` or `players = "2-5"`."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        lo = hi = value
    else:
        m = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", str(value))
        if not m:
            raise PnpError(f"players is a number or a range such as \"2-5\", not {value!r}",
                           where)
        lo, hi = int(m[1]), int(m[2])
    if not 1 <= lo <= hi:
        raise PnpError(f"players {value!r}: at least 1, the range in order", where)
    return [lo, hi]


def _hint(name: str, known: tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""
