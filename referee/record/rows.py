"""What each column of the match database holds, checked where the record's door reads it.

Why: SQLite keeps any type in any column (a blob in matches.game, '[]' in heads.count, text in
an INTEGER column), so a value read back is what the referee wrote only once it is checked.
Every reader of the record's own tables (store.py, integrity.py, snapshots.py, chain_check.py,
summaries.py) passes its rows through `check`: a value of another type or shape is one
RefereeError naming the match, the table and the column, never a TypeError further on, and
never a value shown as if the referee had written it. The caches (snapshots, summaries) need
no shapes here: a row whose MAC fails is passed over whatever its columns hold.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from referee.engine import RefereeError

HEX = frozenset("0123456789abcdef")


def _text(v: object) -> bool:
    return type(v) is str


def _number(v: object) -> bool:  # an id or an event number: 1, 2, ...
    return type(v) is int and v >= 1


def _count(v: object) -> bool:
    return type(v) is int and v >= 0


def _hash(v: object) -> bool:
    return type(v) is str and len(v) == 64 and HEX.issuperset(v)


def _json(v: object) -> object:
    try:
        return json.loads(v) if type(v) is str else None
    except (ValueError, RecursionError):
        return None


def _names(v: object) -> bool:
    found = _json(v)
    return type(found) is list and bool(found) and all(type(p) is str and p for p in found)


def _options(v: object) -> bool:
    found = _json(v)
    return type(found) is dict and all(type(x) is str for x in found.values())


SHAPES: dict[str, dict[str, tuple[Callable[[object], bool], str]]] = {
    "matches": {"id": (_number, "a match number"), "game": (_text, "a game's name"),
                "players": (_names, "a list of names"), "options": (_options, "options"),
                "created": (_text, "a time")},
    # the events' data is JSON read where it is folded (snapshots.py): parsing it here too
    # would cost a long match's every command; the chain vouches for it as text
    "events": {"match": (_number, "a match number"), "seq": (_number, "an event number"),
               "kind": (_text, "a kind"), "data": (_text, "JSON text"), "at": (_text, "a time"),
               "prev": (_text, "a hash"), "hash": (_text, "a hash")},  # compared by the chain
    "heads": {"match": (_number, "a match number"), "header": (_hash, "a hash"),
              "count": (_count, "a count"), "head": (_hash, "a hash")},
    "settings": {"key": (_text, "a name"), "value": (_text, "text")},
}


def kind(value: object) -> str:
    """What a value is, said without printing it (an edited value is never shown)."""
    if value is None:
        return "nothing (NULL)"
    if isinstance(value, bytes):
        return "a blob"
    if isinstance(value, int | float):
        return "a number"
    return "other text"


def damaged(match: object, table: str, column: str, value: object, where: object,
            event: object = None) -> RefereeError:
    """The one error of a value not as the referee writes it."""
    whose = f"match {match}" if type(match) is int else "the database"
    at = f", event {event}" if type(event) is int else ""
    want = SHAPES[table][column][1]
    return RefereeError(f"{whose} is damaged: table {table}, column {column}{at} holds "
                        f"{kind(value)} where {want} belongs: run `referee verify`",
                        str(where))


def fault(table: str, columns: Sequence[str], row: Sequence[object]) -> tuple[str, object] | None:
    """The first of `columns` whose value is not what the referee writes there (column,
    value), or None."""
    shapes = SHAPES[table]
    for name, value in zip(columns, row, strict=True):
        if not shapes[name][0](value):
            return name, value
    return None


def check(table: str, columns: Sequence[str], row: Sequence[object], match: object,
          where: object, event: object = None) -> Sequence[object]:
    """The row when each of its `columns` holds what the referee writes there, else the
    error naming the first that does not."""
    found = fault(table, columns, row)
    if found is not None:
        raise damaged(match, table, *found, where, event)
    return row


def sound(table: str, columns: Sequence[str], row: Sequence[object]) -> bool:
    """Whether `check` would pass the row."""
    return fault(table, columns, row) is None


MATCH = ("id", "game", "players", "options", "created")
EVENT = ("seq", "kind", "data", "at", "prev", "hash")
HEAD = ("match", "header", "count", "head")
