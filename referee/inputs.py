"""What the referee accepts as typed text before any game reads it, game-independent.

Why here and not in each game: every game's parser, position reader and `ask` turn words into
numbers with int(), which raises on a number over 4,300 digits (Python's limit), and click hands
bytes that are not UTF-8 over as lone surrogates that SQLite and the hash chain cannot store. A
move, position or question is checked once, before any game sees it, so each game keeps reading
ordinary text and an unreadable input is one documented error (InvalidMove), still recorded.
"""

from __future__ import annotations

import re

from pnp_shared import limits
from pnp_shared.digits import digit_name, foreign_digit
from referee.engine import InvalidMove

MAX_DIGITS = limits.MAX_DIGITS  # no move, position or question of any game needs a longer number
MAX_LENGTH = limits.MAX_TYPED_CHARS  # characters of a move, a question, a position
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")
_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text: str) -> str:
    """The text as it can be stored: bytes that were not UTF-8 written as \\xNN."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def check(text: str, what: str = "move") -> None:
    """InvalidMove when the text cannot be read by any game (see the module's why)."""
    bad = _SURROGATE.search(text)
    if bad:
        byte = printable(bad.group())
        raise InvalidMove(f"the {what} is not UTF-8 text (byte {byte} at character "
                          f"{bad.start() + 1}): type it again in UTF-8")
    ch = foreign_digit(text)
    if ch is not None:  # int() would read it as a number the log prints otherwise
        raise InvalidMove(f"the {what} holds the digit {digit_name(ch)} (at character "
                          f"{text.index(ch) + 1}): write numbers with the digits 0-9")
    long = _LONG_NUMBER.search(text)
    if long:
        raise InvalidMove(f"the {what} holds a number of {len(long.group()):,} digits (at "
                          f"character {long.start() + 1}); no {what} takes more than "
                          f"{MAX_DIGITS}")
    longest = MAX_LENGTH.get(what, 1_000)
    if len(text) > longest:  # refused before a game echoes it back in an error message
        raise InvalidMove(f"the {what} is {len(text):,} characters long; no {what} takes more "
                          f"than {longest:,}")
