"""Domino sets: triangular tiles (every multiset of three values) and classic double-N sets.

Each registers a card source, so a template can say `source = "triangles"` or "dominoes".
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

from generator.errors import PnpError
from generator.sources import Row, register


def triangle_set(top: int) -> list[tuple[int, int, int]]:
    """Every multiset of three values 0..top, each read ascending clockwise (one chirality)."""
    return list(combinations_with_replacement(range(top + 1), 3))


def classic_set(top: int) -> list[tuple[int, int]]:
    """Every unordered pair of values 0..top: double-six has 28, double-nine 55."""
    return list(combinations_with_replacement(range(top + 1), 2))


def _top(options: dict[str, Any], where: str, default: int) -> int:
    top = options.get("max", default)
    if isinstance(top, bool) or not isinstance(top, int) or not 0 <= top <= 20:
        raise PnpError(f"max must be a whole number from 0 to 20, not {top!r}", f"{where}.options.max")
    return top


def triangle_rows(options: dict[str, Any], root: Path, where: str) -> list[Row]:
    """Fields a, b, c (corners clockwise, ascending) and value (their sum)."""
    return [
        Row({"a": str(a), "b": str(b), "c": str(c), "value": str(a + b + c)}, where=f"tile {a}-{b}-{c}")
        for a, b, c in triangle_set(_top(options, where, 5))
    ]


def domino_rows(options: dict[str, Any], root: Path, where: str) -> list[Row]:
    """Fields a, b (the two ends, a <= b) and value (their sum)."""
    return [
        Row({"a": str(a), "b": str(b), "value": str(a + b)}, where=f"domino {a}-{b}")
        for a, b in classic_set(_top(options, where, 6))
    ]


register("triangles", triangle_rows)
register("dominoes", domino_rows)
