"""A playtest note as the log, undo and `referee note` show it (apart from referee/notes.py,
which reads the match: the log's wording must not import the match reading it is part of)."""

from __future__ import annotations

from typing import Any


def describe(data: dict[str, Any]) -> str:
    """`note [Firestorm]: too strong`."""
    cards = ", ".join(c["name"] for c in data.get("cards", ()))
    return f"note{f' [{cards}]' if cards else ''}: {data.get('text', '')}"
