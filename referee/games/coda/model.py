"""Coda's vocabulary: tiles as numbers, the public state of a round, and the moves.

A tile is 2n + colour (black 0, white 1) so the order rule is integer order; the dashes are
24 and 25 (see deduce.py). The printed set comes from templates/coda.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from referee.engine import InvalidMove, Outcome, RuleRef, ScoreItem, Violation, totals
from referee.games.coda import deduce

COLOURS = ("black", "white")
COLOUR_WORDS = {"black": 0, "b": 0, "white": 1, "w": 1}
DASH_WORDS = ("dash", "-", "–", "joker")
POSITION = re.compile(r"^\d{1,2}$")
SEAL = re.compile(r"(?:[0-9a-f]{32}:[0-9a-f]{32}|[0-9a-f]{16})")  # SALT:HASH, or a legacy hash


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
    if w.isascii() and w.isdigit() and len(w) <= 2 and 0 <= int(w) <= 11:
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


# the rules as data

RULES = {
    r.id: r
    for r in (
        RuleRef("C1", "every row obeys the order rule: ascending left to right, black left of "
                      "white on equal numbers (dashes stay where placed)"),
        RuleRef("C2", "only hidden tiles of opponents still in the game can be targeted"),
        RuleRef("C3", "a player whose tiles are all revealed is out: no drawing, no guessing"),
        RuleRef("C4", "\"dash\" may be named only in the advanced game"),
        RuleRef("C-setup", "each player takes 4 tiles (3 with four players) and stands them in "
                           "a row; the youngest (listed first) starts, play passes left"),
        RuleRef("C-turn", "a turn: draw a tile (unless the pool is empty), then guess at least "
                          "once; after a hit guess again or stop (the drawn tile goes hidden "
                          "into its place); after a miss the drawn tile goes revealed into its "
                          "place (pool empty: reveal one of your own hidden tiles)"),
        RuleRef("C-pool", "26 tiles: black 0-11, white 0-11 and a dash of each colour (dashes "
                          "only in the advanced game); every tile exists once"),
        RuleRef("C-end", "the last player with a hidden tile wins the round; the winner "
                         "reveals their hidden tiles to score them"),
        RuleRef("C-seal", "a sealed tile is committed by a salted hash; the owner's passphrase "
                          "opens it at the end and every answer is checked against it"),
    )
}


def violation(rule: str, reason: str) -> Violation:
    return Violation(RULES[rule], reason)


# state changes shared by the rules, the checks and sealing


def new_round(state: State, round_no: int) -> State:
    n = len(state.players)
    tiles = [t for t in tile_set() if state.advanced or not deduce.is_dash(t)]
    pool = (sum(colour_of(t) == 0 for t in tiles), sum(colour_of(t) == 1 for t in tiles))
    return replace(state, round=round_no, phase="deal", rows=((),) * n,
                   dealt=(False,) * n, pool=pool, current=0, drawn=None, hits=0,
                   next_id=1, asked=(), winner=None, opened=())


def inserted(state: State, position: int, tile: int | None) -> State:
    me = state.current
    slot = Slot(state.next_id, state.drawn, tile)
    rows = list(state.rows)
    row = list(rows[me])
    row.insert(position - 1, slot)
    rows[me] = tuple(row)
    return replace(state, rows=tuple(rows), drawn=None, next_id=state.next_id + 1)


def set_slot(state: State, player: str, position: int, **changes) -> State:
    i = state.players.index(player)
    row = list(state.rows[i])
    row[position - 1] = replace(row[position - 1], **changes)
    rows = list(state.rows)
    rows[i] = tuple(row)
    return replace(state, rows=tuple(rows))


def maybe_start(state: State, notes: list[str]) -> State:
    if state.phase != "deal" or not all(state.dealt):
        return state
    if state.sealed and any(not s.seal for r in state.rows for s in r):
        return state
    notes.append(f"every row is dealt: {state.players[0]} starts")
    return replace(state, phase="draw" if sum(state.pool) else "guess", current=0)


def outcome_of(state: State) -> Outcome | None:
    if state.phase != "over":
        return None
    if state.rounds == 1:
        return Outcome((state.round_winners[-1],), "the last player with hidden tiles")
    tot = totals(state.ledger, state.players)
    best = max(tot.values())
    winners = tuple(p for p in state.players if tot[p] == best)
    scores = ", ".join(f"{p} {v}" for p, v in tot.items())
    shared = "shared win, " if len(winners) > 1 else ""
    return Outcome(winners, f"{shared}highest total after {state.rounds} rounds {best} "
                            f"({scores})")
