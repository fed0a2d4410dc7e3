"""A count with its noun, singular for one: "1 card on 1 page", never "1 cards on 1 pages"."""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
