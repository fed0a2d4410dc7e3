"""JSON as the referee prints it: indented by two spaces, text as typed (not \\u-escaped).

orjson writes exactly the bytes `json.dumps(data, indent=2, ensure_ascii=False)` writes for
the referee's data (checked on a 20,000-event log, its score and its export), about 30 times
faster: the standard library indents in pure Python, 0.6 s for that log's 8 MB."""

from __future__ import annotations

import json
from typing import Any

import orjson


def pretty(data: Any) -> str:
    """`data` as indented JSON. What orjson refuses (an integer beyond 64 bits, a key that is
    not a string) is written by the standard library instead, the same way."""
    try:
        return orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()
    except TypeError:
        return json.dumps(data, indent=2, ensure_ascii=False)
