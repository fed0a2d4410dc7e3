"""One reader for the position text of every game (`referee new GAME --position FILE`).

A position is lines `KEY WORD WORD...` (a game may also take data lines, such as a cell and the
tile on it, whose first word matches its pattern); blank lines and `#` comments are skipped.
The reader splits the lines and checks the keys, and every error raised while a game reads a
line names that line (`position line 3`), so a game's loader only says what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from referee.engine import RefereeError


@dataclass(frozen=True)
class Line:
    """One line of a position: its number, its key ("" for a data line) and its words (after
    the key; a data line keeps all its words)."""

    lineno: int
    key: str
    args: tuple[str, ...]
    text: str
    expected: str = ""

    @property
    def where(self) -> str:
        return f"position line {self.lineno}"

    @property
    def rest(self) -> str:
        return " ".join(self.args)

    def number(self, i: int = 0) -> int:
        """Word i as a whole number (inside `reading()`, an error names the line)."""
        word = self.args[i]
        try:
            return int(word)
        except ValueError:
            raise RefereeError(f"expected a whole number, not {word!r}") from None

    @contextmanager
    def reading(self) -> Iterator[Line]:
        """Errors raised while a game reads this line name the line and quote it; a value that
        does not parse (ValueError, a missing word) says what a position holds."""
        try:
            yield self
        except RefereeError as e:
            if e.where and e.where.startswith("position line"):
                raise
            raise RefereeError(f"cannot read {self.text!r}: {e.what}", self.where) from None
        except (ValueError, KeyError, IndexError):
            why = f": {self.expected}" if self.expected else ""
            raise RefereeError(f"cannot read {self.text!r}{why}", self.where) from None


def read_lines(text: str, keys: Mapping[str, int], expected: str = "",
               data: re.Pattern[str] | None = None) -> list[Line]:
    """The lines of a position, each with a known key and at least keys[key] words after it,
    or a data line whose first word matches `data`. `expected` says what the lines may be."""
    out = []
    for n, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        first, *args = body.split()
        key = first.lower()
        where = f"position line {n}"
        if key not in keys:
            if data is None or not data.match(key):
                raise RefereeError(f"cannot read {body!r}: " + (expected or "a position has "
                                   "lines " + ", ".join(keys)), where)
            out.append(Line(n, "", (first, *args), body, expected))
            continue
        if len(args) < keys[key]:
            raise RefereeError(f"cannot read {body!r}: {key} takes {keys[key]} word(s) after it",
                               where)
        out.append(Line(n, key, tuple(args), body, expected))
    return out
