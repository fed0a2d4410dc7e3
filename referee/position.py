"""One reader for the position text of every game (`referee new GAME --position FILE`).

A position is lines `KEY ARG ARG...`; blank lines and `#` comments are skipped. The reader
splits and checks the keys; each line's errors name the line (`position line 3`), so a game's
loader only says what is wrong with the values.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from referee.engine import RefereeError


@dataclass(frozen=True)
class Line:
    """One line of a position: its number in the text, its key and the words after it."""

    lineno: int
    key: str
    args: tuple[str, ...]
    text: str

    @property
    def where(self) -> str:
        return f"position line {self.lineno}"

    def number(self, i: int) -> int:
        """Word i as a whole number, or an error naming the line."""
        word = self.args[i]
        try:
            return int(word)
        except ValueError:
            raise RefereeError(f"expected a whole number, not {word!r}", self.where) from None

    @contextmanager
    def reading(self) -> Iterator[Line]:
        """Errors raised while a game reads this line name the line and quote it."""
        try:
            yield self
        except RefereeError as e:
            if e.where == self.where:
                raise
            raise RefereeError(f"cannot read {self.text!r}: {e.what}", self.where) from None


def read_lines(text: str, keys: Mapping[str, int]) -> list[Line]:
    """The lines of a position, each with a known key and at least keys[key] words after it."""
    out = []
    for n, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        key, *args = body.split()
        key = key.lower()
        where = f"position line {n}"
        if key not in keys:
            raise RefereeError(f"unknown line {body!r}: a position has lines "
                               + ", ".join(keys), where)
        if len(args) < keys[key]:
            raise RefereeError(f"{key!r} takes {keys[key]} word(s) after it, not {len(args)}",
                               where)
        out.append(Line(n, key, tuple(args), body))
    return out
