"""What the referee accepts as typed text before any game reads it, and what of it is kept.

Why here and not in each game: every game's parser, position reader and `ask` turn words into
numbers with int(), which raises on a number over 4,300 digits (Python's limit), and click hands
bytes that are not UTF-8 over as lone surrogates that SQLite and the hash chain cannot store. A
move, position or question is checked once, before any game sees it, so each game keeps reading
ordinary text and an unreadable input is one documented error (InvalidMove), still recorded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from pnp_shared import limits
from pnp_shared.digits import digit_name, foreign_digit
from referee.engine import (
    AmbiguousMove,
    Game,
    InvalidMove,
    RefereeError,
    find_player,
    same_name,
)

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


class Reading(NamedTuple):
    """What the parser understood of a typed move: who acts, the move (None when it could
    not be read) and why not."""

    who: str | None
    said: str  # the move without the speaker's `name:`
    move: Any = None
    error: RefereeError | None = None
    stranger: bool = False  # `who` is a --by that names no player of the match


def read(g: Game, players: Sequence[str], state: Any, text: str,
         player: str | None) -> Reading:
    """The typed move as the game reads it, never raising: `ana: draw` says who acts, in
    every game, as --by does (a speaker the match does not know is left to the game)."""
    who = player if player is not None else g.to_move(state)
    try:
        check(text)
        if player is not None:
            who = find_player(players, player, "--by")
        said, colon, rest = text.partition(":")
        if colon and rest.strip() and same_name(said) in map(same_name, players):
            speaker = find_player(players, said)
            if player is not None and speaker != who:
                raise InvalidMove(f"the move says {speaker} but --by says {who}", "--by")
            who, text = speaker, rest.strip()
            check(text)
        return Reading(who, text, g.parse(state, text, who))
    except (InvalidMove, AmbiguousMove) as e:
        return Reading(who, text, None, e, player is not None and who == player
                       and same_name(player) not in map(same_name, players))


class Kept(NamedTuple):
    """What the record keeps of a typed move: its text, player and, when rejected, reason."""

    text: str
    player: str | None
    reason: str = ""


def kept(g: Game, state: Any, text: str, reading: Reading, legal: bool = False,
         reason: str = "") -> Kept:
    """The one place that decides what of a typed move is stored, printed and kept in the
    shell's history. Why from the reading and not the string: the parser accepts more
    spellings than any look at the string can foresee (`ANA : SEAL`, `ben: seal ana ...`), so
    the game keeps a move it read as it writes it back, any secret field left out (Rules.
    recorded), and text it could not read only when it can hold no secret (Rules.withheld)."""
    who = reading.who
    reason = reason or (str(reading.error) if reading.error else "")
    if reading.stranger and who is not None and g.withheld(state, who) is not None:
        who = None  # a --by no player has, where a secret may be typed in the wrong place
        reason = "--by names no player of the match (not recorded: it may hold a secret)"
    if who is not None and len(who) > limits.MAX_NAME_CHARS:  # a --by no player has
        who = who[:limits.MAX_NAME_CHARS] + "…"
    if reading.move is not None:
        return Kept(g.recorded(state, reading.move, legal, printable(text)), who,
                    _short(reason))
    withheld = g.withheld(state, reading.said)
    if withheld is not None:
        return Kept(withheld[0], who, _unquoted(reason, text, withheld))
    return Kept(printable(text), who, _short(reason))


def _unquoted(reason: str, text: str, withheld: tuple[str, str]) -> str:
    """The parser's reason when it quotes no word of the text that the game withheld (`seal
    your tiles privately`), else the game's own hint: a message may quote what was typed."""
    kept_words = set(re.split(r"[\s:]+", withheld[0].casefold()))
    low = reason.casefold()
    for word in re.split(r"[\s:]+", text.casefold()):
        if word and word not in kept_words and word in low:
            return withheld[1]
    return _short(reason)


def _short(reason: str) -> str:
    """A reason as stored: an error quoting a huge input (a 100,000-character --by) keeps
    its start and says how long it was."""
    from pnp_shared.oneline import capped

    return printable(capped(reason, limits.MAX_ERROR_CHARS))
