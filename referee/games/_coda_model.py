"""Coda's vocabulary: tiles as numbers, the public state of a round, and the moves.

A tile is 2n + colour (black 0, white 1) so the order rule is integer order; the dashes are
24 and 25 (see _coda_deduce). The printed set comes from templates/coda.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache

from referee.engine import InvalidMove, ScoreItem
from referee.games import _coda_deduce as deduce

COLOURS = ("black", "white")
COLOUR_WORDS = {"black": 0, "b": 0, "white": 1, "w": 1}
DASH_WORDS = ("dash", "-", "–", "joker")
POSITION = re.compile(r"^\d{1,2}$")


@lru_cache(maxsize=1)
def tile_set() -> tuple[int, ...]:
    """Every tile of the printed set (templates/coda), as tile numbers; read lazily."""
    from referee.components import cards

    out = []
    for _, c in cards("coda", ("color", "number")):
        colour = COLOUR_WORDS[c["color"].strip().lower()]
        number = c["number"].strip()
        out.append(deduce.BLACK_DASH + colour if number in DASH_WORDS else 2 * int(number) + colour)
    return tuple(sorted(out))


def colour_of(tile: int) -> int:
    return tile % 2


def tile_name(tile: int) -> str:
    """'black 7', 'white dash'."""
    return f"{COLOURS[colour_of(tile)]} {'dash' if deduce.is_dash(tile) else tile // 2}"


def tile_short(tile: int) -> str:
    return f"{'bw'[colour_of(tile)]}{'-' if deduce.is_dash(tile) else tile // 2}"


def value_word(tile: int) -> str:
    return "dash" if deduce.is_dash(tile) else str(tile // 2)


def tile_of(colour: int, word: str) -> int:
    """The tile of a colour named by its number (0-11) or 'dash'; InvalidMove otherwise."""
    w = word.strip().lower()
    if w in DASH_WORDS:
        return deduce.BLACK_DASH + colour
    if w.isdigit() and 0 <= int(w) <= 11:
        return 2 * int(w) + colour
    raise InvalidMove(f"expected a tile number 0-11 or 'dash', not {word!r}")


def seal_hash(passphrase: str, player: str, round_no: int, slot: int, tile: int) -> str:
    """The public commitment to one hidden tile. The passphrase keeps it from being guessed."""
    text = f"coda|{passphrase}|{player}|{round_no}|{slot}|{tile}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# State


@dataclass(frozen=True)
class Slot:
    """One tile standing in a row: its colour, its face once revealed, what was said about it."""

    id: int  # stable within the round, whatever is inserted around it
    colour: int
    tile: int | None = None  # None while hidden
    misses: tuple[int, ...] = ()  # tiles announced as misses on it
    seal: str = ""


@dataclass(frozen=True)
class Asked:
    """A guess and its announced answer, kept for later checks."""

    guesser: str
    target: str
    slot: int
    position: int  # where the tile stood when guessed
    tile: int
    hit: bool
    seq: int  # guess number within the round


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    advanced: bool = False
    rounds: int = 1
    sealed: bool = False
    round: int = 1
    phase: str = "deal"  # deal | draw | guess | stop | place | expose | tally | closed | over
    rows: tuple[tuple[Slot, ...], ...] = ()
    dealt: tuple[bool, ...] = ()
    pool: tuple[int, int] = (0, 0)  # tiles left by colour
    current: int = 0
    drawn: int | None = None  # colour of the tile the current player holds
    hits: int = 0  # correct guesses this turn
    next_id: int = 1
    asked: tuple[Asked, ...] = ()
    winner: str | None = None  # of the round under way, once decided
    round_winners: tuple[str, ...] = ()
    reports: tuple[str, ...] = ()  # false answers found
    opened: tuple[str, ...] = ()  # players whose seals were opened this round
    ledger: tuple[ScoreItem, ...] = ()

    def row(self, player: str) -> tuple[Slot, ...]:
        return self.rows[self.players.index(player)]

    def hidden(self, player: str) -> int:
        return sum(s.tile is None for s in self.row(player))

    def alive(self) -> list[str]:
        return [p for p in self.players if self.hidden(p) > 0]

    @property
    def to_play(self) -> str:
        return self.players[self.current]


# Moves


@dataclass(frozen=True)
class Deal:
    player: str
    colours: tuple[int, ...]


@dataclass(frozen=True)
class Draw:
    colour: int
    player: str | None = None


@dataclass(frozen=True)
class Guess:
    target: str
    position: int
    value: str  # "7" or "dash": the colour is the target tile's
    hit: bool
    player: str | None = None


@dataclass(frozen=True)
class Stop:
    position: int | None
    seal: str = ""
    player: str | None = None


@dataclass(frozen=True)
class Place:
    value: str
    position: int
    player: str | None = None


@dataclass(frozen=True)
class Expose:
    position: int
    value: str
    player: str | None = None


@dataclass(frozen=True)
class Tally:
    values: tuple[str, ...]
    player: str | None = None


@dataclass(frozen=True)
class Seal:
    player: str
    hashes: tuple[str, ...]


@dataclass(frozen=True)
class Unseal:
    player: str
    passphrase: str
