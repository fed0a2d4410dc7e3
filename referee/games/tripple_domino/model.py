"""Tripple Domino's model: the printed tiles, the rules as data, moves, state, notation words.

Everything the rules, the position reader and the display share; it imports no other part.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import NamedTuple

from referee.engine import (
    InvalidMove,
    RefereeError,
    RuleRef,
    ScoreItem,
)
from referee.games.tripple_domino.board import Cell, Vertex, corners

Tile = tuple[int, int, int]  # ascending: the printed clockwise order

RULES: dict[str, RuleRef] = {r.id: r for r in (
    RuleRef("D1", "the target cell is empty"),
    RuleRef("D2", "the cell is an edge-neighbour of at least one occupied cell "
                  "(not for the first tile)"),
    RuleRef("D3", "every corner of the new tile that lands on a vertex already carrying a number "
                  "matches that number, including corners that only touch another tile at a "
                  "point"),
    RuleRef("D4", "the tile keeps its printed clockwise order (3 rotations, no mirror image)"),
    RuleRef("D5", "one tile per turn; a tile exists once (a tile already on the table cannot be "
                  "played again)"),
    RuleRef("start", "the player holding the highest triple (5-5-5 highest) starts with it; if "
                     "nobody holds a triple, the player with the highest-value tile starts with "
                     "it (Ruling on a tie of value: compare the corners sorted high to low, so "
                     "5-5-3 beats 5-4-4); a round begins with the opening tile"),
    RuleRef("turn", "play goes clockwise: one player acts at a time, in seating order"),
    RuleRef("draw", "draw one tile at a time, up to 3, with a penalty each; after each draw the "
                    "player may place only the tile just drawn (which ends the turn); if none "
                    "of the three is placed, the turn ends"),
    RuleRef("pass", "with the reserve empty (or the round's draw cap used up), a player who "
                    "would draw scores the pass penalty and passes; otherwise a player draws "
                    "instead"),
    RuleRef("end", "a round ends when a player places their last tile or when the reserve is "
                   "empty and every player in turn passes; the tiles left in each hand are then "
                   "told to the referee"),
)}

NOTATION = (
    "start ana=5-5-5 bob=4-4-4 (everyone's best tile; highest opens) · 1-2-3 U1,0 "
    "[as 3-1-2] · draw · draw 2-3-3 D0,0 · pass · end bob=1-2-3,0-0-4 (hands left)"
)


class Scoring(NamedTuple):
    """The numbers of one rule set (the standard rules or a variant). A named tuple: read-only
    numbers, and cheaper than a dataclass to create when every command imports the game."""

    hands: Mapping[int, int]  # players -> tiles dealt each
    start_bonus: int
    start_needs_triple: bool
    zero_triple_opening: int  # total for opening with 0-0-0 (0 = no special case)
    bridge: int
    double: int
    hexagons: tuple[int, int, int]  # total bonus for 1, 2, 3 hexagons at once
    draw: int
    third_miss: int  # extra when the third drawn tile is not placed
    pass_penalty: int
    going_out: int
    target: int


STANDARD = Scoring(
    hands={1: 10, 2: 10, 3: 8, 4: 8, 5: 6, 6: 6}, start_bonus=5, start_needs_triple=False,
    zero_triple_opening=0, bridge=30, double=25, hexagons=(40, 80, 120), draw=-5, third_miss=0,
    pass_penalty=-5, going_out=20, target=300,
)
PRESSMAN = Scoring(
    hands={1: 9, 2: 9, 3: 7, 4: 7, 5: 6, 6: 6}, start_bonus=10, start_needs_triple=True,
    zero_triple_opening=40, bridge=40, double=25, hexagons=(50, 60, 70), draw=-5, third_miss=-10,
    pass_penalty=-10, going_out=25, target=400,
)
VARIANTS = {"standard": STANDARD, "pressman": PRESSMAN}


@cache
def tiles() -> dict[Tile, tuple[int, int]]:
    """Every tile of the printed set -> (card id, value), read from the generator's definition.
    A tile is known by its corners (moves, the board, the tiles used name it so), so a set
    holds one of each: a deck with a tile twice is refused, not dealt with the second dropped."""
    from referee.components import cards

    out: dict[Tile, tuple[int, int]] = {}
    for card_id, f in cards("tripple-domino", ("a", "b", "c", "value")):
        t = tuple(sorted((int(f["a"]), int(f["b"]), int(f["c"]))))
        if t in out:
            raise RefereeError(f"tile {name(t)} is in the deck twice (cards #{out[t][0]} and "
                               f"#{card_id}): a Tripple Domino set has one tile of each, "
                               "known by its corners")
        out[t] = (card_id, int(f["value"]))
    return out


def value(t: Tile) -> int:
    return tiles()[t][1]


def name(t: Sequence[int]) -> str:
    return "-".join(str(v) for v in t)


def cell_name(c: Cell) -> str:
    return f"{c[0]}{c[1]},{c[2]}"


def rotations(t: Tile) -> list[Tile]:
    """The distinct readings of a tile clockwise from one corner (D4: no mirror images)."""
    out: list[Tile] = []
    for r in range(3):
        rot = (t[r], t[(r + 1) % 3], t[(r + 2) % 3])
        if rot not in out:
            out.append(rot)
    return out


def strength(t: Tile) -> tuple[int, int, tuple[int, ...]]:
    """Start rule order: any triple beats any other tile; then value; then corners high to low."""
    return (int(t[0] == t[1] == t[2]), sum(t), tuple(sorted(t, reverse=True)))


# moves


@dataclass(frozen=True)
class Start:
    player: str
    tile: Tile
    claims: tuple[tuple[str, Tile], ...] = ()  # the other players' best tiles, as told


@dataclass(frozen=True)
class Place:
    player: str
    tile: Tile
    cell: Cell
    corners: Tile | None  # clockwise from the apex; None when no rotation fits (illegal)
    drawn: bool = False  # the tile was just drawn (`draw TILE CELL`)


@dataclass(frozen=True)
class Draw:
    player: str


@dataclass(frozen=True)
class Pass:
    player: str


@dataclass(frozen=True)
class End:
    hands: tuple[tuple[str, tuple[Tile, ...]], ...]


Move = Start | Place | Draw | Pass | End


# state


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    variant: str
    rules: Scoring
    target: int
    round: int = 1
    phase: str = "start"  # start | play | end (hands to be told) | over
    board: Mapping[Cell, Tile] = field(default_factory=dict)  # cell -> corners from apex
    numbers: Mapping[Vertex, int] = field(default_factory=dict)
    used: frozenset[Tile] = frozenset()
    # tile -> its holder, for the best tiles the start told and not yet played: a tile exists
    # once (D5), so nobody else may place or draw it
    held: Mapping[Tile, str] = field(default_factory=dict)
    hands: tuple[int, ...] = ()
    reserve: int = 0
    turn: int | None = None
    draws: int = 0  # tiles drawn (and kept) in the current turn
    passes: int = 0  # consecutive passes with the reserve empty
    cap: int | None = None  # most draws a round allows (option draw-cap, for solitaire)
    round_draws: int = 0  # draws so far this round, counted against the cap
    out: str | None = None  # who went out, while the round waits for `end`
    ledger: tuple[ScoreItem, ...] = ()

    def index(self, player: str) -> int:
        return self.players.index(player)


def deal(s: State) -> State:
    n = len(s.players)
    hand = s.rules.hands[n]
    return replace(s, phase="start", board={}, numbers={}, used=frozenset(), held={},
                   hands=(hand,) * n, reserve=len(tiles()) - hand * n, turn=None, draws=0,
                   passes=0, out=None, round_draws=0)


TILE_RE = re.compile(r"^([0-5])-?([0-5])-?([0-5])$")
CELL_RE = re.compile(r"^([ud])\(?(-?\d+),(-?\d+)\)?$")


def parse_tile(tok: str, what: str = "tile") -> tuple[int, int, int]:
    m = TILE_RE.match(tok)
    if not m:
        raise InvalidMove(f"expected a {what} like 1-2-3 (numbers 0-5), got {tok!r}")
    return int(m[1]), int(m[2]), int(m[3])


def parse_cell(tok: str) -> Cell:
    m = CELL_RE.match(tok)
    if not m:
        raise InvalidMove(f"expected a cell like U1,0 or D-2,3 (as on the board), got {tok!r}")
    return m[1].upper(), int(m[2]), int(m[3])


def unreadable(w: str) -> str:
    """What is wrong with a word of a placement that is neither a tile nor a cell."""
    if re.fullmatch(r"\d+(-\d+)*", w):
        return f"unexpected {w!r}: a tile is three numbers 0-5, like 1-2-3"
    if re.fullmatch(r"[ud]\S*", w):
        return (f"unexpected {w[0].upper() + w[1:]!r}: a cell is U or D and x,y, like U1,0 "
                "or D-2,3, as `referee show` labels them")
    return f"unexpected {w!r}; moves: {NOTATION}"


_LOOSE = re.compile(r"\s[,=)]|[,=(]\s|[()]|\b[ud]\s+-?\d")


def tokens(text: str) -> list[str]:
    t = text.strip().lower()
    if not _LOOSE.search(t):  # canonical text, as read back from the log: already tidy
        return [w for w in t.split() if w not in ("at", "@", "on")]
    t = re.sub(r"\s*,\s*", ",", t)
    t = re.sub(r"\s*=\s*", "=", t)
    t = re.sub(r"\b([ud])\s*\(\s*", r"\1(", t)
    t = re.sub(r"\b([ud])\s+(-?\d)", r"\1\2", t)
    t = re.sub(r"\s*\)", ")", t)
    return [w for w in t.split() if w not in ("at", "@", "on")]


def mismatches(state: State, cell: Cell, reading: Tile) -> list[tuple[int, int]]:
    """(corner index, number on the table) for each corner whose vertex disagrees (D3)."""
    out = []
    for i, x in enumerate(corners(cell)):
        have = state.numbers.get(x)
        if have is not None and have != reading[i]:
            out.append((i, have))
    return out


def held_elsewhere(s: State, tile: Tile, player: str, drawn: bool) -> str | None:
    """Why `player` cannot place `tile` when the start told where a tile is (D5), else None:
    it is another player's; just drawn, the player's own tile would exist twice; or it is the
    player's last tile while the tile they declared is still in their hand."""
    holder = s.held.get(tile)
    kept = [t for t, p in s.held.items() if p == player and t != tile]
    if kept and not drawn and s.hands[s.index(player)] == 1:
        return (f"{player} declared {name(kept[0])} at the start and has not played it: "
                f"{player}'s last tile is {name(kept[0])}")
    if holder is None or (holder == player and not drawn):
        return None
    if holder == player:
        return (f"{name(tile)} is already in {holder}'s hand (declared at the start), so the tile "
                "just drawn is another one")
    return (f"{name(tile)} is in {holder}'s hand (declared at the start) until {holder} plays it; "
            "a tile exists once")


def capped(s: State) -> bool:
    """The round's draw cap (option draw-cap) is used up."""
    return s.cap is not None and s.round_draws >= s.cap


def add_to(hands: tuple[int, ...], i: int, delta: int) -> tuple[int, ...]:
    return hands[:i] + (hands[i] + delta,) + hands[i + 1:]


def to_tell(s: State) -> list[str]:
    """The players whose hands are still to be told at the round's end."""
    return [p for p in s.players if p != s.out]


def card_name(own: str, fields: Mapping[str, object]) -> str:
    """A printed tile by its numbers, as every report names it (5-5-5): the definition calls
    its tiles `card 1`..`card 56`; one whose corners do not read as numbers keeps that name."""
    try:
        return name(sorted(int(str(fields[k])) for k in ("a", "b", "c")))
    except (KeyError, ValueError):
        return own


def card_typed(text: str) -> str:
    """A tile as typed (5-3-1, 531), spelled as reports spell it (1-3-5), the numbers in any
    order as the notation takes them; any other text as it is."""
    try:
        return name(sorted(parse_tile(text.strip())))
    except InvalidMove:
        return text


# The kind of each score item, by the start of the label the rules write (referee/games/
# tripple_domino/rules.py), longest first: what `referee playtests` sums a player's score by,
# where the labels name the very tile, cell and draw.
KINDS = (("opening tile", "opening"), ("opening with", "start bonus"),
         ("start bonus", "start bonus"), ("pass", "pass"), ("draw", "draws"),
         ("third drawn tile", "third draw"), ("tile", "tiles"), ("hexagon", "hexagons"),
         ("double match", "double match"), ("bridge", "bridge"), ("going out", "going out"),
         ("tiles left in the other hands", "others' hands"), ("blocked round", "blocked round"),
         ("score when the position", "position"))
_KIND_ORDER = sorted(KINDS, key=lambda k: -len(k[0]))


def score_kind(label: str) -> str:
    """`tile 5-5-5 at U1,0` is a tile placed, `draw 2` a draw, `2 hexagons completed`
    hexagons; a label of no known kind is its own."""
    if re.match(r"\d+ hexagons", label):
        return "hexagons"
    return next((kind for start, kind in _KIND_ORDER if label.startswith(start)), label)
