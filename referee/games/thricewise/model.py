"""Thricewise's model: cells, the rules as data, moves, state, scoring windows and the grid drawing."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.engine import (
    InvalidMove,
    RuleRef,
    ScoreItem,
    Violation,
)
from referee.games.thricewise.decktet import SUITS, DCard, card_by_id

RULES = {
    r.id: r
    for r in (
        RuleRef("T1", "the cell is empty"),
        RuleRef("T2", "the cell touches an occupied cell orthogonally or diagonally"),
        RuleRef("T3", "after placing, the grid's bounding box is at most 6 columns wide and "
                      "6 rows tall"),
        RuleRef("T4", "a card with no legal cell is set aside unplayed and scores nothing"),
        RuleRef("T-setup", "a face-up starting grid: 2×2 for 2 or 4 players, 2×3 for 3 or 5; "
                           "3 cards each"),
        RuleRef("T-turn", "everyone with a card chooses one face down, all reveal; the cards "
                          "are placed by their owners in ascending rank (Ace first, Crown last)"),
        RuleRef("T-deferred", "deferred cards wait beside their owner until every hand is "
                              "empty, then one final turn places them (variant "
                              "deferred=any-turn: on any later turn instead of a hand card)"),
        RuleRef("T-deck", "the basic Decktet has 36 cards, each exactly once"),
    )
}


CELL_RE = re.compile(r"^([a-z])(\d{1,2})$", re.IGNORECASE)


ORIGIN = (4, 5)  # the starting grid's top-left cell: E5


MAX_SPAN = 6


DIRECTIONS = (((1, 0), "row"), ((0, 1), "column"), ((1, 1), "diagonal \\"),
              ((1, -1), "diagonal /"))


def cell_name(cell: tuple[int, int]) -> str:
    col, row = cell
    return f"{chr(ord('A') + col)}{row}" if 0 <= col < 26 else f"?{col},{row}"


def parse_cell(text: str) -> tuple[int, int]:
    m = CELL_RE.match(text.strip())
    if not m:
        raise InvalidMove(f"expected a cell like E4 (column letter, row number), not {text!r}")
    return ord(m.group(1).upper()) - ord("A"), int(m.group(2))


POSITION_HELP = ("turn N · grid E5 Journey, F5 Ace of Moons · hands ana 2, ben 2 · deck 18 · "
                 "deferred ana Castle · aside ben Cave · pending cy Author, ana Pact "
                 "(to place, in order) · drawers ana ben cy · final · scores ana 3, ben 4")


@dataclass(frozen=True)
class Grid:
    """The dealt starting grid, row by row (card ids)."""

    rows: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Reveal:
    """The simultaneous reveal: (player, card id) for everyone who reveals."""

    plays: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Place:
    card: int
    cell: tuple[int, int]
    player: str | None = None


@dataclass(frozen=True)
class SetAside:
    card: int
    player: str | None = None


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    mode: str = "final"  # deferred cards: "final" turn (default) or "any-turn"
    phase: str = "grid"  # grid | reveal | place | over
    grid: tuple[tuple[tuple[int, int], int], ...] = ()  # (cell, card id), in placement order
    hands: tuple[int, ...] = ()
    deck: int = 0
    deferred: tuple[tuple[int, ...], ...] = ()  # per player, card ids face up beside them
    pending: tuple[tuple[str, int], ...] = ()  # this turn's cards still to place, in rank order
    drawers: tuple[str, ...] = ()  # who draws when this turn's placements are done
    set_aside: tuple[tuple[str, int, str], ...] = ()  # (player, card id, why)
    final: bool = False
    turn: int = 0
    ledger: tuple[ScoreItem, ...] = ()

    @property
    def cells(self) -> dict[tuple[int, int], int]:
        return dict(self.grid)

    def index(self, player: str) -> int:
        return self.players.index(player)


def grid_shape(n_players: int) -> tuple[int, int]:
    """Rows × columns of the starting grid."""
    return (2, 2) if n_players in (2, 4) else (2, 3)


def box(cells) -> tuple[int, int, int, int]:
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    return min(cols), min(rows), max(cols), max(rows)


def cell_problems(cells: Mapping[tuple[int, int], int], cell: tuple[int, int]) -> list[Violation]:
    """T1–T3 for one cell: every rule the cell breaks, with the concrete reason."""
    out = []
    name = cell_name(cell)
    if cell in cells:
        out.append(Violation(RULES["T1"], f"{name} already holds {card_by_id(cells[cell]).name}"))
    c, r = cell
    near = [(c + dc, r + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]
    if not any(n in cells for n in near):
        out.append(Violation(RULES["T2"], f"{name} touches no card (not even diagonally)"))
    c0, r0, c1, r1 = box([*cells, cell])
    if c1 - c0 + 1 > MAX_SPAN or r1 - r0 + 1 > MAX_SPAN:
        out.append(Violation(RULES["T3"], f"{name} would make the grid {c1 - c0 + 1} columns "
                                          f"wide and {r1 - r0 + 1} rows tall"))
    return out


def legal_cells(cells: Mapping[tuple[int, int], int]) -> list[tuple[int, int]]:
    """Every cell where a card may go now (T1–T3), in reading order."""
    near = {(c + dc, r + dr) for c, r in cells for dc in (-1, 0, 1) for dr in (-1, 0, 1)}
    if not cells:
        return []
    c0, r0, c1, r1 = box(cells)  # the same test as cell_problems, the box worked out once
    ok = [(c, r) for c, r in near if (c, r) not in cells
          and max(c1, c) - min(c0, c) < MAX_SPAN and max(r1, r) - min(r0, r) < MAX_SPAN]
    return sorted(ok, key=lambda x: (x[1], x[0]))


def window_value(cards: Sequence[DCard]) -> int:
    """The lowest numeral rank (2–9) in the window; Aces and Crowns count for nothing."""
    numerals = [c.value for c in cards if 2 <= c.value <= 9]
    return min(numerals) if numerals else 0


def window_kinds(cards: Sequence[DCard]) -> list[str]:
    """The kinds a three-card window is: set, straight (in line order), flush (once)."""
    v = [c.value for c in cards]
    kinds = []
    if v[0] == v[1] == v[2]:
        kinds.append("set")
    if v[1] - v[0] == v[2] - v[1] and abs(v[1] - v[0]) == 1:
        kinds.append("straight")
    shared = set(cards[0].suits) & set(cards[1].suits) & set(cards[2].suits)
    if shared:
        kinds.append("flush " + "/".join(s.capitalize() for s in SUITS if s in shared))
    return kinds


def score_kind(label: str) -> str:
    """The kind of a window's score item (`flush Leaves row F8-G8-H8: ...` is a flush), what
    `referee playtests` sums by; a label of no window kind is its own."""
    first = label.split(" ", 1)[0]
    return first if first in ("set", "straight", "flush") else label


def score_placement(cells: Mapping[tuple[int, int], int], cell: tuple[int, int],
                    player: str, round_no: int = 1) -> list[ScoreItem]:
    """Every window of three occupied cells in a line through the new card, itemised by kind."""
    items = []
    for (dc, dr), dname in DIRECTIONS:
        for k in (-2, -1, 0):
            win = [(cell[0] + (k + i) * dc, cell[1] + (k + i) * dr) for i in range(3)]
            if not all(w in cells for w in win):
                continue
            cards = [card_by_id(cells[w]) for w in win]
            value = window_value(cards)
            where = f"{dname} {'-'.join(cell_name(w) for w in win)}"
            names = "-".join(f"{c.name}({c.short})" for c in cards)
            for kind in window_kinds(cards):
                items.append(ScoreItem(player, value, f"{kind} {where}: {names}", round_no))
    return items


def draw_grid(cells: Mapping[tuple[int, int], int], mark_legal: bool) -> list[str]:
    """The grid as text: column letters above, row numbers left, two lines per row of cards
    (rank and name; suits), and · on every cell where the next card may go."""
    free = set(legal_cells(cells)) if mark_legal else set()
    c0, r0, c1, r1 = box([*cells, *free])
    width = 11
    head = "    " + "".join(cell_name((c, 1))[0].ljust(width) for c in range(c0, c1 + 1))
    out = [head.rstrip()]
    for r in range(r0, r1 + 1):
        top, bottom = [], []
        for c in range(c0, c1 + 1):
            cid = cells.get((c, r))
            if cid is not None:
                card = card_by_id(cid)
                name = card.name if card.value not in (1,) else card.suits[0].capitalize()
                top.append(f"{card.short} {name[:8]}".ljust(width))
                bottom.append(" ".join(s[:2].capitalize() for s in card.suits).rjust(5)
                              .ljust(width))
            else:
                top.append(("·" if (c, r) in free else "").ljust(width))
                bottom.append("".ljust(width))
        out.append(f"{r:>2}  " + "".join(top).rstrip())
        if "".join(bottom).strip():
            out.append("    " + "".join(bottom).rstrip())
    return out
