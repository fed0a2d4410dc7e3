"""JSON as the referee prints it: indented by two spaces, text as typed (not \\u-escaped).

orjson writes exactly the bytes `json.dumps(data, indent=2, ensure_ascii=False)` writes for
the referee's data (checked on a 20,000-event log, its score and its export), many times
faster: the standard library indents in pure Python (bench/bench_referee.py)."""

from __future__ import annotations

import json
from typing import Any

import orjson


class Verbatim:
    """JSON text laid out already as pretty() lays it out where it goes: written as it is (the
    record memo's pieces: referee/record/record_memo.py)."""

    __slots__ = ("text",)

    def __init__(self, text: bytes):
        self.text = text


def pretty(data: Any) -> str:
    """`data` as indented JSON."""
    return pretty_bytes(data).decode()


def pretty_bytes(data: Any) -> bytes:
    """pretty(data) as UTF-8. What orjson refuses (an integer beyond 64 bits, a key that is
    not a string) is written by the standard library instead, the same way."""
    try:
        return orjson.dumps(data, default=_fragment, option=orjson.OPT_INDENT_2)
    except TypeError:
        return json.dumps(data, indent=2, ensure_ascii=False, default=_parsed).encode()


def _fragment(o: object) -> orjson.Fragment:
    if isinstance(o, Verbatim):
        return orjson.Fragment(o.text)
    raise TypeError(f"{type(o).__name__} is not JSON")


def _parsed(o: object) -> Any:
    if isinstance(o, Verbatim):
        return json.loads(o.text)
    raise TypeError(f"{type(o).__name__} is not JSON")
