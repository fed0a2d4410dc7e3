"""Thricewise (P. D. Magnus), played with the Decktet: rules.md §2.

The referee never sees hands, only what the table reveals: the starting grid, each turn's
simultaneous reveal, and the placements. It counts hands and the deck from those (3 cards each,
one draw per hand card revealed, nobody draws when the deck cannot serve everyone), detects
deferred ranks, plays the final turn of deferred cards and scores every three-card window.

Cards come from the generator's own Decktet definition (templates/decktet), never a second list.
Cells are named by column letter and row number (E5); the starting grid's top-left is E5 so
every cell a 6×6 box can reach keeps a stable positive name as the grid grows in any direction.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, replace

from referee.engine import (
    InvalidMove,
    Option,
    Outcome,
    RefereeError,
    RuleRef,
    Rules,
    Sample,
    ScoreItem,
    Violation,
    find_player,
    totals,
)
from referee.games._decktet import SUITS, DCard, card_by_id, deck, find_card, parse_cards
from referee.position import Line, read_lines

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

_CELL = re.compile(r"^([a-z])(\d{1,2})$", re.IGNORECASE)
ORIGIN = (4, 5)  # the starting grid's top-left cell: E5
MAX_SPAN = 6
DIRECTIONS = (((1, 0), "row"), ((0, 1), "column"), ((1, 1), "diagonal \\"),
              ((1, -1), "diagonal /"))


def cell_name(cell: tuple[int, int]) -> str:
    col, row = cell
    return f"{chr(ord('A') + col)}{row}" if 0 <= col < 26 else f"?{col},{row}"


def parse_cell(text: str) -> tuple[int, int]:
    m = _CELL.match(text.strip())
    if not m:
        raise InvalidMove(f"expected a cell like E4 (column letter, row number), not {text!r}")
    return ord(m.group(1).upper()) - ord("A"), int(m.group(2))


POSITION_HELP = ("turn N · grid E5 Journey, F5 Ace of Moons · hands ana 2, ben 2 · deck 18 · "
                 "deferred ana Castle · aside ben Cave · pending cy Author, ana Pact "
                 "(to place, in order) · drawers ana ben cy · final · scores ana 3, ben 4")


# Moves


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


# State


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
    ok = [x for x in near if x not in cells and not cell_problems(cells, x)]
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


# The game


class Thricewise(Rules):
    name = "thricewise"
    title = "Thricewise"
    min_players = 2
    max_players = 5
    options = (
        Option("deferred", "final", "when deferred cards are played: one final turn once every "
               "hand is empty (rules), or on any later turn instead of a hand card",
               ("final", "any-turn")),
    )
    rules = RULES
    notation = ("grid Journey, Mountain / Forest, Sea; reveal ana Journey, ben 3 Suns Knots; "
                "Journey E4 (or just E4); set-aside Journey")
    sample = Sample(("ana", "ben", "cy"), (
        "grid Journey, Mountain, Forest / Sea, Bard, End",
        "reveal ana Pact, ben Diplomat, cy Ace Moons", "D5", "H5", "H6"))

    # setup

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> State:
        mode = options.get("deferred", "final")
        if mode not in ("final", "any-turn"):
            raise RefereeError(f"option deferred={mode!r} is not one of final, any-turn "
                               "(--option deferred)")
        n = len(players)
        return State(tuple(players), mode, hands=(0,) * n, deferred=((),) * n)

    # notation

    def parse(self, state: State, text: str, player: str | None = None):
        words = text.replace("=", " ").replace(":", " ").split()
        if not words:
            raise InvalidMove("empty move")
        verb = words[0].lower()
        rest = " ".join(words[1:])
        if verb == "grid":
            rows = tuple(tuple(c.id for c in parse_cards(r)) for r in rest.split("/"))
            if not any(rows):
                raise InvalidMove("expected the starting grid row by row: "
                                  "grid Journey, Mountain / Forest, Sea")
            return Grid(rows)
        if verb == "reveal":
            return self._parse_reveal(state, words[1:])
        if verb in ("set-aside", "setaside", "aside"):
            return SetAside(self._card_or_next(state, rest), player)
        if verb == "place":
            words = words[1:]
        words = [w for w in words if w.lower() != "at"]
        if words and _CELL.match(words[-1]):
            cell = parse_cell(words[-1])
            return Place(self._card_or_next(state, " ".join(words[:-1])), cell, player)
        if words and _CELL.match(words[0]):
            cell = parse_cell(words[0])
            return Place(self._card_or_next(state, " ".join(words[1:])), cell, player)
        raise InvalidMove(f"cannot read {text!r}: expected `grid ...`, `reveal ana Journey, "
                          "ben Sea`, a placement like `Journey E4` (or `E4`), or `set-aside "
                          "Journey`")

    def _card_or_next(self, state: State, text: str) -> int:
        if text.strip():
            return find_card(text).id
        if not state.pending:
            raise InvalidMove("no card is waiting to be placed: name the card (Journey E4)")
        return state.pending[0][1]

    def _parse_reveal(self, state: State, words: list[str]) -> Reveal:
        names = {p.lower(): p for p in state.players}
        plays: list[tuple[str, list[str]]] = []
        for group in " ".join(words).split(","):
            for n, w in enumerate(group.split()):
                if w.lower() in names:
                    plays.append((names[w.lower()], []))
                elif not plays or (n == 0 and plays[-1][1]):  # a comma starts the next player
                    raise InvalidMove(f"expected a player name before {w!r} "
                                      f"({', '.join(state.players)}): reveal ana Journey, ben Sea")
                else:
                    plays[-1][1].append(w)
        if not plays:
            raise InvalidMove("expected each player and the card they reveal: "
                              "reveal ana Journey, ben Sea")
        seen = set()
        out = []
        for p, ws in plays:
            if p in seen:
                raise InvalidMove(f"{p} appears twice in the reveal")
            seen.add(p)
            if not ws:
                raise InvalidMove(f"which card did {p} reveal? (reveal {p} Journey)")
            found = parse_cards(" ".join(ws))
            if len(found) != 1:
                raise InvalidMove(f"{p} reveals one card, not {len(found)}")
            out.append((p, found[0].id))
        return Reveal(tuple(out))

    def format(self, state: State, move) -> str:
        if isinstance(move, Grid):
            return "grid " + " / ".join(", ".join(card_by_id(c).name for c in r)
                                        for r in move.rows)
        if isinstance(move, Reveal):
            return "reveal " + ", ".join(f"{p} {card_by_id(c).name}" for p, c in move.plays)
        if isinstance(move, Place):
            return f"{card_by_id(move.card).name} {cell_name(move.cell)}"
        if isinstance(move, SetAside):
            return f"set-aside {card_by_id(move.card).name}"
        raise TypeError(move)

    # rules

    def violations(self, state: State, move) -> list[Violation]:
        if state.phase == "over":
            return [Violation(RULES["T-turn"], "the game is over")]
        if isinstance(move, Grid):
            return self._grid_problems(state, move)
        if state.phase == "grid":
            return [Violation(RULES["T-setup"], "the starting grid comes first: grid <row 1> / "
                                                "<row 2>")]
        if isinstance(move, Reveal):
            return self._reveal_problems(state, move)
        if state.phase != "place":
            return [Violation(RULES["T-turn"], "nothing is waiting to be placed: the next move "
                                               "is the reveal")]
        owner, nxt = state.pending[0]
        c = card_by_id(move.card)
        waiting = dict((cid, p) for p, cid in state.pending)
        out = []
        if move.card not in waiting:
            return [Violation(RULES["T-turn"], f"{c.name} was not revealed for placement; next "
                                               f"is {owner}'s {card_by_id(nxt).label}")]
        if move.card != nxt:
            out.append(Violation(RULES["T-turn"], f"cards go in ascending rank: {owner}'s "
                                                  f"{card_by_id(nxt).label} comes before "
                                                  f"{c.label}"))
        if move.player is not None and move.player != waiting[move.card]:
            out.append(Violation(RULES["T-turn"], f"{c.name} belongs to {waiting[move.card]}, "
                                                  f"not {move.player}"))
        cells = state.cells
        if isinstance(move, Place):
            out.extend(cell_problems(cells, move.cell))
        else:
            free = legal_cells(cells)
            if free:
                shown = " ".join(cell_name(x) for x in free[:6])
                more = f" and {len(free) - 6} more" if len(free) > 6 else ""
                out.append(Violation(RULES["T4"], f"{c.name} has {len(free)} legal cell(s): "
                                                  f"{shown}{more}"))
        return out

    def _grid_problems(self, state: State, move: Grid) -> list[Violation]:
        if state.phase != "grid":
            return [Violation(RULES["T-setup"], "the starting grid is already on the table")]
        rows, cols = grid_shape(len(state.players))
        shape = (len(move.rows), max(len(r) for r in move.rows))
        out = []
        if shape not in ((rows, cols), (cols, rows)) or len({len(r) for r in move.rows}) != 1:
            got = " + ".join(str(len(r)) for r in move.rows)
            out.append(Violation(RULES["T-setup"], f"{len(state.players)} players start with a "
                                                   f"{rows}×{cols} grid, not rows of {got}"))
        ids = [c for r in move.rows for c in r]
        dup = sorted({card_by_id(c).name for c in ids if ids.count(c) > 1})
        if dup:
            out.append(Violation(RULES["T-deck"], f"{', '.join(dup)} appears twice in the grid"))
        return out

    def _where(self, state: State, card: int) -> str | None:
        """Where a card already is, if it has been seen (each card exists once)."""
        for cell, cid in state.grid:
            if cid == card:
                return f"on the table at {cell_name(cell)}"
        for p, cid in state.pending:
            if cid == card:
                return f"revealed by {p} and waiting to be placed"
        for i, d in enumerate(state.deferred):
            if card in d:
                return f"deferred beside {state.players[i]}"
        for p, cid, _ in state.set_aside:
            if cid == card:
                return f"set aside ({p})"
        return None

    def _reveal_problems(self, state: State, move: Reveal) -> list[Violation]:
        if state.phase != "reveal":
            owner, nxt = state.pending[0]
            return [Violation(RULES["T-turn"], f"this turn is not placed yet: {owner} places "
                                               f"{card_by_id(nxt).label} next")]
        out = []
        shown = dict(move.plays)
        for i, p in enumerate(state.players):
            if state.hands[i] > 0 and p not in shown:
                out.append(Violation(RULES["T-turn"], f"{p} holds {state.hands[i]} card(s) and "
                                                      "must reveal one"))
        ids = [c for _, c in move.plays]
        for p, cid in move.plays:
            i = state.index(p)
            c = card_by_id(cid)
            if cid in state.deferred[i]:
                if state.mode != "any-turn":
                    out.append(Violation(RULES["T-deferred"], f"{p}'s deferred {c.name} waits "
                                                              "for the final turn"))
                continue
            where = self._where(state, cid)
            if where:
                out.append(Violation(RULES["T-deck"], f"{c.name} is already {where}"))
            elif state.hands[i] == 0:
                spare = "" if not state.deferred[i] else " (only deferred cards)"
                out.append(Violation(RULES["T-turn"], f"{p} has no card in hand{spare}"))
            if ids.count(cid) > 1 and (p, cid) == move.plays[ids.index(cid)]:
                out.append(Violation(RULES["T-deck"], f"{c.name} is revealed twice"))
        return out

    def transition(self, state: State, move) -> tuple[State, list[str]]:
        notes: list[str] = []
        score: list[ScoreItem] = []
        if isinstance(move, Grid):
            r0c, r0r = ORIGIN
            grid = tuple(((r0c + j, r0r + i), cid) for i, row in enumerate(move.rows)
                         for j, cid in enumerate(row))
            n = len(state.players)
            left = len(deck()) - len(grid) - 3 * n
            state = replace(state, phase="reveal", grid=grid, hands=(3,) * n, deck=left, turn=1)
            notes.append(f"3 cards dealt to each player; {left} left in the deck")
            return state, notes
        if isinstance(move, Reveal):
            state = self._reveal(state, move, notes)
        elif isinstance(move, Place):
            owner = state.pending[0][0]
            cells = dict(state.grid)
            cells[move.cell] = move.card
            score = score_placement(cells, move.cell, owner)
            state = replace(state, grid=state.grid + ((move.cell, move.card),),
                            pending=state.pending[1:], ledger=state.ledger + tuple(score))
        elif isinstance(move, SetAside):
            owner = state.pending[0][0]
            state = replace(state, pending=state.pending[1:],
                            set_aside=state.set_aside + ((owner, move.card, "no legal cell"),))
            notes.append(f"{card_by_id(move.card).name} set aside: no legal cell (T4)")
        return self._advance(state, notes), notes

    def _reveal(self, state: State, move: Reveal, notes: list[str]) -> State:
        hands = list(state.hands)
        deferred = [list(d) for d in state.deferred]
        drawers = []
        for p, cid in move.plays:
            i = state.index(p)
            if cid in deferred[i]:
                deferred[i].remove(cid)
            else:
                hands[i] -= 1
                drawers.append(p)
        values = [card_by_id(c).value for _, c in move.plays]
        pending = []
        for p, cid in move.plays:
            if values.count(card_by_id(cid).value) > 1:
                deferred[state.index(p)].append(cid)
            else:
                pending.append((p, cid))
        later = [f"{p} {card_by_id(c).name}" for p, c in move.plays if (p, c) not in pending]
        if later:
            notes.append("deferred (rank revealed more than once): " + ", ".join(later))
        pending.sort(key=lambda pc: card_by_id(pc[1]).value)
        return replace(state, phase="place", hands=tuple(hands),
                       deferred=tuple(tuple(d) for d in deferred), pending=tuple(pending),
                       drawers=tuple(drawers))

    def _advance(self, state: State, notes: list[str]) -> State:
        """Automatic steps: set aside unplaceable cards, draws, the final turn, the end."""
        while True:
            if state.pending:
                owner, cid = state.pending[0]
                if legal_cells(state.cells):
                    return replace(state, phase="place")
                state = replace(state, pending=state.pending[1:],
                                set_aside=state.set_aside + ((owner, cid, "no legal cell"),))
                notes.append(f"{card_by_id(cid).name} set aside: no legal cell (T4)")
                continue
            if state.phase == "place" or state.drawers:
                state = self._draw(state, notes)
            if any(state.hands):
                return replace(state, phase="reveal", turn=state.turn + 1)
            if any(state.deferred) and not state.final:
                state = self._final_turn(state, notes)
                continue
            if state.phase != "over":
                notes.append("game over: every card is played")
            return replace(state, phase="over", pending=())

    def _draw(self, state: State, notes: list[str]) -> State:
        who = state.drawers
        state = replace(state, drawers=(), phase="drawn")
        if not who:
            return state
        if state.deck < len(who):
            notes.append(f"the deck ({state.deck}) cannot serve all {len(who)}: nobody draws")
            return state
        hands = tuple(h + (p in who) for p, h in zip(state.players, state.hands, strict=True))
        notes.append(f"{', '.join(who)} draw{'s' if len(who) == 1 else ''} one card each; "
                     f"deck {state.deck - len(who)}")
        return replace(state, hands=hands, deck=state.deck - len(who))

    def _final_turn(self, state: State, notes: list[str]) -> State:
        cards = [(p, cid) for p, d in zip(state.players, state.deferred, strict=True)
                 for cid in d]
        values = [card_by_id(c).value for _, c in cards]
        pending = sorted(((p, c) for p, c in cards if values.count(card_by_id(c).value) == 1),
                         key=lambda pc: card_by_id(pc[1]).value)
        aside = tuple((p, c, "rank shared in the final turn") for p, c in cards
                      if values.count(card_by_id(c).value) > 1)
        notes.append("final turn: the deferred cards are revealed: "
                     + ", ".join(f"{p} {card_by_id(c).name}" for p, c in cards))
        if aside:
            notes.append("set aside for good (rank shared): "
                         + ", ".join(f"{p} {card_by_id(c).name}" for p, c, _ in aside))
        return replace(state, final=True, phase="place", pending=tuple(pending),
                       deferred=((),) * len(state.players), set_aside=state.set_aside + aside,
                       turn=state.turn + 1)

    def legal_moves(self, state: State) -> list:
        """Placements of the card waiting, or set-aside; for a reveal (hands are private) one
        reveal per unseen card, each player showing the next unseen ones in seating order."""
        if state.phase == "reveal":
            seen = {c for _, c in state.grid} | {c for _, c, _ in state.set_aside}
            unseen = [c.id for c in deck() if c.id not in seen]
            n = len(state.players)
            shows = (tuple((p, unseen[(k + i) % len(unseen)]) for i, p in enumerate(state.players))
                     for k in range(len(unseen)) if len(unseen) >= n)
            return self.accepted(state, (Reveal(plays) for plays in shows))
        if state.phase != "place" or not state.pending:
            return []
        owner, cid = state.pending[0]
        free = legal_cells(state.cells)
        if not free:
            return [SetAside(cid, owner)]
        return [Place(cid, cell, owner) for cell in free]

    # the position

    def to_move(self, state: State) -> str | None:
        if state.phase == "place" and state.pending:
            return state.pending[0][0]
        return None

    def ledger(self, state: State) -> tuple[ScoreItem, ...]:
        return state.ledger

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        tot = totals(state.ledger, state.players)
        best = max(tot.values())
        winners = tuple(p for p in state.players if tot[p] == best)
        scores = ", ".join(f"{p} {v}" for p, v in tot.items())
        shared = "shared win, " if len(winners) > 1 else ""
        return Outcome(winners, f"{shared}highest total {best} ({scores})")

    def show(self, state: State) -> str:
        lines = [(f"Thricewise, turn {state.turn}" if state.turn else "Thricewise, set-up")
                 + (" (final turn of deferred cards)" if state.final and state.phase != "over"
                    else "")
                 + f"; deferred cards: {state.mode}"]
        if state.grid:
            lines += draw_grid(state.cells, state.phase == "place")
        hands = ", ".join(f"{p} {h}" for p, h in zip(state.players, state.hands, strict=True))
        lines.append(f"hands: {hands}; deck {state.deck}")
        waiting = [f"{p} {', '.join(card_by_id(c).label for c in d)}"
                   for p, d in zip(state.players, state.deferred, strict=True) if d]
        if waiting:
            lines.append("deferred: " + "; ".join(waiting))
        if state.set_aside:
            lines.append("set aside: " + ", ".join(f"{p} {card_by_id(c).name} ({why})"
                                                   for p, c, why in state.set_aside))
        lines.append("now: " + self._now(state))
        tot = totals(state.ledger, state.players)
        lines.append("scores: " + ", ".join(f"{p} {v}" for p, v in tot.items()))
        return "\n".join(lines)

    def _now(self, state: State) -> str:
        if state.phase == "grid":
            r, c = grid_shape(len(state.players))
            example = ("grid Journey, Mountain / Sea, Bard" if c == 2
                       else "grid Journey, Mountain, Forest / Sea, Bard, End")
            return f"deal the starting grid ({r}×{c}) and type it row by row: {example}"
        if state.phase == "reveal":
            who = [p for p, h in zip(state.players, state.hands, strict=True) if h]
            return ("everyone reveals a card together: reveal "
                    + ", ".join(f"{p} <card>" for p in who))
        if state.phase == "place":
            owner, cid = state.pending[0]
            then = ", ".join(f"{p} {card_by_id(c).name}" for p, c in state.pending[1:])
            free = legal_cells(state.cells)
            text = f"{owner} places {card_by_id(cid).label} on a · cell ({len(free)} legal)"
            return text + (f"; then {then}" if then else "")
        out = self.outcome(state)
        return f"game over: {', '.join(out.winners)} ({out.reason})" if out else "game over"

    # disputes: positions typed in, questions, secrets

    def position(self, state: State) -> str:
        """The position as text that load_position reads back (disputes)."""
        def pairs(items) -> str:
            return ", ".join(f"{a} {b}" for a, b in items)

        name = lambda cid: card_by_id(cid).name  # noqa: E731
        out = [f"# thricewise position: {POSITION_HELP}", f"turn {state.turn}"]
        out += [f"grid {pairs((cell_name(c), name(x)) for c, x in state.grid)}"]
        out += [f"hands {pairs(zip(state.players, state.hands, strict=True))}",
                f"deck {state.deck}"]
        deferred = [(p, name(c)) for p, d in zip(state.players, state.deferred, strict=True)
                    for c in d]
        out += [f"deferred {pairs(deferred)}"] if deferred else []
        out += [f"aside {pairs((p, name(c)) for p, c, _ in state.set_aside)}"] if (
            state.set_aside) else []
        out += [f"pending {pairs((p, name(c)) for p, c in state.pending)}"] if (
            state.pending) else []
        out += [f"drawers {' '.join(state.drawers)}"] if state.drawers else []
        out += ["final"] if state.final else []
        out.append(f"scores {pairs(totals(state.ledger, state.players).items())}")
        return "\n".join(out) + "\n"

    def load_position(self, state: State, text: str) -> State:
        """A position typed in or written by `position`; checks each card is seen once and
        that hands and deck account for every unseen card."""
        data: dict[str, list[tuple[str, str]]] = {}
        words: dict[str, str] = {}
        lines: dict[str, Line] = {}
        keys = dict.fromkeys(("turn", "grid", "hands", "deck", "deferred", "aside", "pending",
                              "drawers", "final", "scores"), 0)
        for line in read_lines(text, keys, f"expected {POSITION_HELP}"):
            words[line.key], lines[line.key] = line.rest, line
            items = [i.split(None, 1) for i in line.rest.split(",") if i.strip()]
            data[line.key] = [(i[0], i[1].strip() if len(i) > 1 else "") for i in items]

        def who(name: str) -> str:
            return find_player(state.players, name, "position", RefereeError)

        def number(text: str, what: str) -> int:
            if not text.strip().isdigit():
                raise RefereeError(f"{what} must be a number, not {text!r}", "position")
            return int(text)

        def reading(key: str):  # errors in a line name it
            return lines[key].reading() if key in lines else nullcontext()

        with reading("grid"):
            grid = tuple((parse_cell(c), find_card(n).id) for c, n in data.get("grid", []))
        hands = dict.fromkeys(state.players, 0)
        with reading("hands"):
            hands.update({who(p): number(n, "a hand") for p, n in data.get("hands", [])})
        deferred: dict[str, list[int]] = {p: [] for p in state.players}
        with reading("deferred"):
            for p, n in data.get("deferred", []):
                deferred[who(p)].append(find_card(n).id)
        with reading("aside"):
            aside = tuple((who(p), find_card(n).id, "set aside") for p, n in data.get("aside", []))
        with reading("pending"):
            pending = tuple((who(p), find_card(n).id) for p, n in data.get("pending", []))
        seen = [c for _, c in grid] + [c for d in deferred.values() for c in d]
        seen += [c for _, c, _ in aside] + [c for _, c in pending]
        twice = sorted({card_by_id(c).name for c in seen if seen.count(c) > 1})
        if twice:
            raise RefereeError(f"each card exists once: {', '.join(twice)}", "position")
        if len({c for c, _ in grid}) != len(grid):
            raise RefereeError("two cards on one cell", "position grid")
        if grid:
            c0, r0, c1, r1 = box([c for c, _ in grid])
            if c1 - c0 + 1 > MAX_SPAN or r1 - r0 + 1 > MAX_SPAN:
                raise RefereeError(f"the grid is {c1 - c0 + 1} columns wide and {r1 - r0 + 1} "
                                   f"rows tall, more than {MAX_SPAN} (T3)", "position grid")
        deck_left = number(words.get("deck", "0"), "deck")
        unseen = len(deck()) - len(seen)
        if deck_left + sum(hands.values()) != unseen:
            raise RefereeError(f"hands ({sum(hands.values())}) and deck ({deck_left}) must "
                               f"hold the {unseen} unseen cards", "position")
        ledger = tuple(ScoreItem(who(p), number(v, "a score"), "score of the position")
                       for p, v in data.get("scores", []) if v != "0")
        new = replace(state, grid=grid, hands=tuple(hands[p] for p in state.players),
                      deck=deck_left, deferred=tuple(tuple(deferred[p]) for p in state.players),
                      set_aside=aside, pending=pending, final="final" in words,
                      drawers=tuple(who(p) for p in words.get("drawers", "").split()),
                      turn=number(words.get("turn", "1"), "turn"), ledger=ledger)
        if not grid:
            return replace(new, phase="grid")
        if pending:
            return replace(new, phase="place")
        if any(new.hands):
            return replace(new, phase="reveal")
        return self._advance(replace(new, phase="drawn"), [])

    def query(self, state: State, text: str) -> str:
        """Settle a question at the table: `cells` lists where the next card may go;
        `where Journey` says where a card is (each card exists once)."""
        words = text.split()
        if words[:1] == ["cells"]:
            if state.phase != "place":
                return "no card is waiting to be placed"
            owner, cid = state.pending[0]
            free = legal_cells(state.cells)
            shown = " ".join(cell_name(x) for x in free) or "none: it is set aside (T4)"
            return f"{owner}'s {card_by_id(cid).label} may go on {len(free)} cell(s): {shown}"
        if words[:1] == ["where"] and len(words) > 1:
            c = find_card(" ".join(words[1:]))
            return f"{c.name} is " + (self._where(state, c.id) or "unseen (in a hand or the deck)")
        raise InvalidMove("ask `cells` (where the next card may go) or `where CARD`")


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


GAME = Thricewise()
