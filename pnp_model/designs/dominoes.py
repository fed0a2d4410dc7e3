"""Domino sets: triangular tiles (every multiset of three values) and classic double-N sets.

Each registers a card source, so a template can say `source = "triangles"` or "dominoes".
check_set() tells whether a deck's cards are exactly one such set (for `pnp verify`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, NamedTuple

from pnp_model.components import Card
from pnp_model.errors import PnpError
from pnp_model.sources import Row, check_options, register


def triangle_set(top: int) -> list[tuple[int, int, int]]:
    """Every multiset of three values 0..top, each read ascending clockwise (one chirality)."""
    return list(combinations_with_replacement(range(top + 1), 3))


def classic_set(top: int) -> list[tuple[int, int]]:
    """Every unordered pair of values 0..top: double-six has 28, double-nine 55."""
    return list(combinations_with_replacement(range(top + 1), 2))


def _top(options: dict[str, Any], source: str, where: str, default: int) -> int:
    check_options(options, ("max",), source, where)
    top = options.get("max", default)
    if isinstance(top, bool) or not isinstance(top, int) or not 0 <= top <= 20:
        raise PnpError(f"max must be a whole number from 0 to 20, not {top!r}",
                       f"{where}.options.max")
    return top


def triangle_rows(options: dict[str, Any], root: Path, where: str) -> list[Row]:
    """Fields a, b, c (corners clockwise, ascending) and value (their sum)."""
    return [
        Row({"a": str(a), "b": str(b), "c": str(c), "value": str(a + b + c)},
            where=f"tile {a}-{b}-{c}")
        for a, b, c in triangle_set(_top(options, "triangles", where, 5))
    ]


def domino_rows(options: dict[str, Any], root: Path, where: str) -> list[Row]:
    """Fields a, b (the two ends, a <= b) and value (their sum)."""
    return [
        Row({"a": str(a), "b": str(b), "value": str(a + b)}, where=f"domino {a}-{b}")
        for a, b in classic_set(_top(options, "dominoes", where, 6))
    ]


register("triangles", triangle_rows)
register("dominoes", domino_rows)


def canonical(values: tuple[int, ...]) -> tuple[int, ...]:
    """The tile a reading stands for: the rotation (or, for two ends, the order) that is least.

    A triangular tile turns but never flips, so 1-2-0 is 0-1-2 turned, while 0-2-1 is its
    mirror image: a different tile. A rectangular domino turned end for end is the same tile.
    """
    if len(values) == 3:
        a, b, c = values
        return min((a, b, c), (b, c, a), (c, a, b))
    return tuple(sorted(values))


def _name(values: Iterable[int]) -> str:
    return "-".join(str(v) for v in values)


class Problem(NamedTuple):
    """One way the cards miss being a domino set: the cards concerned (maybe none) and why."""

    cards: tuple[int, ...]
    why: str


def check_set(cards: Iterable[Card], top: int | None = None) -> list[Problem]:
    """Problems that keep the cards from being one complete domino set (none: it is one).

    Cards with fields a, b, c are triangular tiles (corners clockwise); cards with a, b are
    classic dominoes. top is the highest value (default: the highest value found). The set is
    right when every combination of 0..top appears exactly once and, for triangles, in the
    ascending clockwise chirality (so no tile is the mirror image of a tile of the set).
    """
    cards = list(cards)
    if not cards:
        return [Problem((), "there are no tiles")]
    keys = ("a", "b", "c") if "c" in cards[0].fields else ("a", "b")
    problems: list[Problem] = []
    seen: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for card in cards:
        try:
            values = tuple(int(card.get(k)) for k in keys)
        except ValueError:
            problems.append(Problem((card.id,), f"card #{card.id}: {', '.join(keys)} must be "
                                    f"whole numbers, not {_name(card.get(k) for k in keys)}"))
            continue
        if min(values) < 0 or (top is not None and max(values) > top):
            problems.append(Problem((card.id,), f"card #{card.id} ({_name(values)}): values "
                                    f"must be 0 to {top if top is not None else 'max'}"))
            continue
        if len(keys) == 3 and canonical(values) != tuple(sorted(values)):
            problems.append(Problem((card.id,), f"card #{card.id} reads {_name(values)} "
                                    f"clockwise: the mirror image of {_name(sorted(values))}, "
                                    f"whose corners ascend clockwise"))
        seen[tuple(sorted(values))].append(card.id)
    highest = top if top is not None else max((max(t) for t in seen), default=0)
    for tile, ids in sorted(seen.items()):
        if len(ids) > 1:
            problems.append(Problem(tuple(ids), f"tile {_name(tile)} appears {len(ids)} times "
                                    f"(cards {', '.join(f'#{i}' for i in ids)})"))
    expected = triangle_set(highest) if len(keys) == 3 else classic_set(highest)
    missing = [t for t in expected if t not in seen]
    if missing:
        shown = ", ".join(_name(t) for t in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        problems.append(Problem((), f"{len(missing)} tile(s) of the 0-{highest} set missing: "
                                f"{shown}{more}"))
    return problems
