"""Dobble Connect's model: the printed deck (colours and symbols), hexes, teams, moves, state,
the rules as data and the board diagram."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from referee.engine import (
    Outcome,
    RefereeError,
    RuleRef,
    ScoreItem,
)

Hex = tuple[int, int]


BLACK = "black"


AXES: tuple[Hex, ...] = ((1, 0), (0, 1), (1, -1))


NEIGHBOURS: tuple[Hex, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


TARGETS = {2: 5, 3: 4, 4: 3}  # points to win by number of teams


SPLITS = {2: "1v1", 3: "1v1v1", 4: "2v2", 5: "3v2", 6: "2v2v2", 7: "3v2v2", 8: "2v2v2v2"}


RULES = {
    r.id: r
    for r in (
        RuleRef("DC1", "the card played is the top card of the player's pile (no skipping; rival "
                       "cards received must be played when they come up)"),
        RuleRef("DC2", "the target hex is empty and shares an edge with the card the symbol was "
                       "named against, and the named symbol is the one those two cards share (a "
                       "wrong symbol voids the placement; the card stays the player's current "
                       "card)"),
        RuleRef("DC3", "a round is won when four cards of one team colour stand consecutively in "
                       "a straight line along one of the three hex axes; the card's colour "
                       "decides the team, whoever placed it; black cards never count"),
        RuleRef("start", "one black card starts in the centre; after a round without a winner "
                         "the same black card starts again"),
        RuleRef("end", "the game ends at once on the winning point (2 teams play to 5 points, "
                       "3 teams to 4, 4 teams to 3)"),
    )
}


POSITION_LINES = ("expected 'round N', 'kept pink=1,3', 'received pink=orange:1', 'restart' or "
                  "'Q,R CARD'")


HEX = re.compile(r"[+-]?\d+,[+-]?\d+$")


NOTATION = (
    "CARD on CARD SYMBOL at Q,R (e.g. '37 on 1 pizza-slice at 1,-1', --by the player or "
    "'ana: 37 on 1 ...'); start CARD (another black start card, before the first placement)"
)


@dataclass(frozen=True)
class DeckInfo:
    """What the rules need of the printed deck: each card's colour and symbols."""

    colors: Mapping[int, str]
    symbols: Mapping[int, frozenset[str]]
    team_colors: tuple[str, ...]  # in the order the definition lists them

    def count(self, color: str) -> int:
        return sum(1 for c in self.colors.values() if c == color)


def deck_info(cards: Sequence) -> DeckInfo:
    """From any cards with .id, .symbols and fields["color"] (a test's own deck)."""
    return _deck((c.id, c.fields["color"], c.symbols) for c in cards)


def _deck(cards: Iterable[tuple[int, str, Sequence[str]]]) -> DeckInfo:
    colors: dict[int, str] = {}
    symbols: dict[int, frozenset[str]] = {}
    for card_id, color, syms in cards:
        colors[card_id] = color
        symbols[card_id] = frozenset(map(symbol_key, syms))
    teams = tuple(dict.fromkeys(c for c in colors.values() if c != BLACK))
    return DeckInfo(colors, symbols, teams)


@cache
def printed_deck() -> DeckInfo:
    """The dobble-connect template's cards, read through the referee's memo on first use."""
    from referee.components import cards

    return _deck((i, f["color"], f["symbols"]) for i, f in cards("dobble-connect",
                                                                 ("color", "symbols")))


def symbol_key(symbol: str) -> str:
    return re.sub(r"[\s_]+", "-", symbol.strip().lower())


@dataclass(frozen=True)
class Place:
    """A player lays a card against a card on the table, naming the symbol they share."""

    player: str
    card: int
    against: int
    symbol: str
    hex: Hex


@dataclass(frozen=True)
class Start:
    """Another black card in the centre, before the round's first placement."""

    card: int
    player: str | None = None


Move = Place | Start


@dataclass(frozen=True)
class State:
    teams: dict[str, tuple[str, ...]]  # colour -> its players
    target: int
    start: int  # the black card in the centre this round
    round: int = 1
    board: dict[Hex, int] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    kept: dict[str, list[int]] = field(default_factory=dict)  # black start cards won
    received: dict[str, dict[str, int]] = field(default_factory=dict)  # rival cards held
    ledger: list[ScoreItem] = field(default_factory=list)
    outcome: Outcome | None = None
    last_win: str = ""  # the latest winning line, for show
    restart: bool = False  # the last round had no winner: its black card starts again

    def team_of(self, player: str) -> str:
        return next(c for c, members in self.teams.items() if player in members)

    def hex_of(self, card: int) -> Hex | None:
        return next((h for h, c in self.board.items() if c == card), None)


def parse_teams(spec: str, players: Sequence[str], colors: Sequence[str]
                ) -> dict[str, tuple[str, ...]]:
    """'ana+bob:pink,cy:orange' → {pink: (ana, bob), orange: (cy,)}; colours default in order."""
    if not spec.strip():
        if len(players) > 4:
            raise RefereeError(f"{len(players)} players need teams (suggested {SPLITS[len(players)]}"
                               "), e.g. --option teams=\"ana+bob+cy:pink,dee+eve:orange\"")
        return {c: (p,) for c, p in zip(colors, players, strict=False)}
    names = {p.lower(): p for p in players}
    teams: dict[str, tuple[str, ...]] = {}
    free = [c for c in colors]
    parts = [x.strip() for x in spec.split(",") if x.strip()]
    for part in parts:
        members_text, _, color = part.partition(":")
        color = color.strip().lower() or next((c for c in free if c not in teams), "")
        if color not in colors:
            raise RefereeError(f"team colour {color!r} is not one of {', '.join(colors)} "
                               f"(teams option: {part!r})")
        if color in teams:
            raise RefereeError(f"two teams play {color}", "teams option")
        members = []
        for name in members_text.split("+"):
            p = names.get(name.strip().lower())
            if p is None:
                raise RefereeError(f"{name.strip()!r} in the teams option is not a player "
                                   f"({', '.join(players)})")
            members.append(p)
        if not 1 <= len(members) <= 3:
            raise RefereeError(f"a team has 1-3 players, not {len(members)} ({part!r})")
        teams[color] = tuple(members)
    placed = [p for m in teams.values() for p in m]
    if sorted(placed) != sorted(players):
        missing = [p for p in players if p not in placed]
        twice = sorted({p for p in placed if placed.count(p) > 1})
        what = f"missing {', '.join(missing)}" if missing else f"twice: {', '.join(twice)}"
        raise RefereeError(f"every player is in exactly one team ({what})")
    if not 2 <= len(teams) <= 4:
        raise RefereeError(f"Dobble Connect needs 2-4 teams, not {len(teams)}")
    return teams


def around(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in NEIGHBOURS]


def hex_name(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def letter(color: str) -> str:
    return "K" if color == BLACK else color[0].upper()


def diagram(board: Mapping[Hex, int], colors: Mapping[int, str]) -> list[str]:
    """The hex layout, one row per r: colour letter + card id, axial q,r under each hex."""
    free = {n for h in board for n in around(h)} - set(board)
    cells = set(board) | free
    width = 4  # half a hex: rows shift by this much, so neighbours sit diagonally
    xs = {h: 2 * h[0] + h[1] for h in cells}
    left = min(xs.values())
    lines = []
    for r in range(min(h[1] for h in cells), max(h[1] for h in cells) + 1):
        row = sorted((h for h in cells if h[1] == r), key=lambda h: xs[h])
        top = bottom = ""
        for h in row:
            x = (xs[h] - left) * width
            label = f"{letter(colors[board[h]])}{board[h]}" if h in board else "·"
            top = top.ljust(x) + label.center(2 * width)
            bottom = bottom.ljust(x) + hex_name(h).center(2 * width)
        lines += [f"r={r:<3} " + top.rstrip(), "       " + bottom.rstrip()]
    return lines
