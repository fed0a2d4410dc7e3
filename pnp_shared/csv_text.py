"""The one CSV writer of both tools: every CSV the project writes (`referee export --format csv`,
`referee playtests --csv`, `pnp export`'s manifest.csv, `pnp plane --format csv`) goes through it.

Why one writer: a CSV is opened in a spreadsheet, and a text cell starting like a formula
(= + - @, tab, CR) is run as one there (CSV injection: a player named `@SUM(1+1)` or a card named
`=HYPERLINK(...)`). Each writer guarding its own cells missed one; here every text cell is
guarded, so a new CSV cannot forget. Numbers are written as numbers and need no guard.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """A text cell a spreadsheet shows as text: one starting like a formula gets a leading
    apostrophe, so it is never evaluated; other values are left as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return f"'{value}"
    return value


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """The rows (the header first) as CSV text, lines ended by \\n, every text cell guarded."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerows([cell(v) for v in row] for row in rows)
    return out.getvalue()
