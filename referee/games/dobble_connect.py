"""Dobble Connect (rules.md §4): real-time placement of symbol cards on a hex table, in teams.

The deck is read from the `dobble-connect` template, the very cards the generator prints: ids,
border colours and symbols. Hexes use axial coordinates (q, r): the start card is at 0,0 and
the six neighbours of (q, r) are (q±1, r), (q, r±1), (q+1, r−1) and (q−1, r+1).

The referee cannot see the face-down piles, so DC1 is checked on what it can count (our ruling,
in the README): a player places cards of their team's colour while the team still holds one, and
a rival colour only while the team still holds rival cards of that colour received through the
catch-up transfer. Nobody takes turns, so every placement names who made it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from referee.engine import (
    Draft,
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
)
from referee.position import Line, read_lines

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
        symbols[card_id] = frozenset(map(_norm, syms))
    teams = tuple(dict.fromkeys(c for c in colors.values() if c != BLACK))
    return DeckInfo(colors, symbols, teams)


@cache
def printed_deck() -> DeckInfo:
    """The dobble-connect template's cards, read through the referee's memo on first use."""
    from referee.components import cards

    return _deck((i, f["color"], f["symbols"]) for i, f in cards("dobble-connect",
                                                                 ("color", "symbols")))


def _norm(symbol: str) -> str:
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


class DobbleConnect(Rules):
    """The Game protocol for Dobble Connect; the deck is injectable for tests."""

    name = "dobble-connect"
    title = "Dobble Connect"
    min_players = 2
    max_players = 8
    options = (Option("teams", "", 'teams and colours, e.g. "ana+bob:pink,cy+dee:orange" '
                                    "(default: one team per player, colours in order)"),)
    rules: Mapping[str, RuleRef] = RULES
    notation = NOTATION
    sample = Sample(("ana", "bob", "cy", "dee"), (
        "ana: 11 on 1 shrimp at 1,0", "bob: 18 on 11 shrimp at 2,-1", "bob: 16 on 1 gift at 0,1"),
        {"teams": "ana+bob:pink,cy:orange,dee:green"})

    def __init__(self, deck: Callable[[], DeckInfo] = printed_deck):
        self._deck = deck

    @property
    def deck(self) -> DeckInfo:
        return self._deck()

    # setup

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> State:
        teams = parse_teams(options.get("teams", ""), players, self.deck.team_colors)
        start = self._next_black(set())
        return State(teams=teams, target=TARGETS[len(teams)], start=start,
                     board={(0, 0): start}, points=dict.fromkeys(teams, 0),
                     kept={t: [] for t in teams}, received={t: {} for t in teams})

    def _next_black(self, won: set[int]) -> int:
        free = [i for i, c in sorted(self.deck.colors.items()) if c == BLACK and i not in won]
        if not free:
            raise RefereeError("no black start card left")
        return free[0]

    # notation

    def parse(self, state: State, text: str, player: str | None = None) -> Move:
        t = text.strip()
        m = re.fullmatch(r"start\s+#?(\d+)", t, re.I)
        if m:
            return Start(self._card(m.group(1)), player)
        m = re.fullmatch(r"(?:(?P<who>[^:]+):)?\s*#?(?P<card>\d+)\s+on\s+#?(?P<on>\d+)\s+"
                         r"(?P<sym>.+?)\s+at\s*\(?\s*(?P<q>[+-]?\d+)\s*[, ]\s*(?P<r>[+-]?\d+)"
                         r"\s*\)?", t, re.I)
        if not m:
            raise InvalidMove(f"cannot read {text!r}; expected {NOTATION}")
        who = self._player(state, m.group("who"), player)
        return Place(who, self._card(m.group("card")), self._card(m.group("on")),
                    _norm(m.group("sym")), (int(m.group("q")), int(m.group("r"))))

    def _card(self, text: str) -> int:
        n = int(text)
        if n not in self.deck.colors:
            raise InvalidMove(f"no card #{n}: the cards are numbered 1..{len(self.deck.colors)}")
        return n

    def _player(self, state: State, named: str | None, by: str | None) -> str:
        if named is None and by is None:
            raise InvalidMove("say who placed the card: --by NAME or 'NAME: 37 on 1 ...'")
        players = [p for members in state.teams.values() for p in members]
        found = [find_player(players, n) for n in (named, by) if n is not None]
        if len(set(found)) > 1:
            raise InvalidMove(f"the move says {named!r} but --by says {by!r}")
        return found[0]

    def format(self, state: State, move: Move) -> str:
        if isinstance(move, Start):
            return f"start {move.card}"
        q, r = move.hex
        return f"{move.player}: {move.card} on {move.against} {move.symbol} at {q},{r}"

    # rules

    def violations(self, state: State, move: Move) -> list[Violation]:
        if state.outcome is not None:
            return [Violation(RULES["end"], f"the game is over: {state.outcome.reason}")]
        if isinstance(move, Start):
            return self._check_start(state, move.card)
        return self._dc1(state, move) + self._dc2(state, move)

    def transition(self, state: State, move: Move) -> tuple[State, list[str]]:
        s = Draft(state)
        if isinstance(move, Start):
            s.board = {(0, 0): move.card}
            s.start = move.card
            s.notes.append(f"round {s.round} starts with black card #{move.card}")
        else:
            self._place(s, move)
        return s.done(), s.notes

    def _check_start(self, s: State, card: int) -> list[Violation]:
        rule = RULES["start"]
        if self.deck.colors[card] != BLACK:
            return [Violation(rule, f"#{card} is {self.deck.colors[card]}, not a black start "
                                    "card")]
        if len(s.board) > 1:
            return [Violation(rule, f"round {s.round} is under way with #{s.start} in the centre; "
                                    "the start card is chosen before the first placement")]
        if any(card in k for k in s.kept.values()):
            return [Violation(rule, f"black card #{card} was already won")]
        if s.restart and card != s.start:
            return [Violation(rule, f"after a round without a winner #{s.start} starts again")]
        return []

    def available(self, s: State, team: str) -> int:
        """Cards of its own colour a team still holds in its piles."""
        lent = sum(held.get(team, 0) for held in s.received.values())
        return self.deck.count(team) - self.on_table(s, team) - lent

    def on_table(self, s: State, color: str) -> int:
        return sum(1 for c in s.board.values() if self.deck.colors[c] == color)

    def _dc1(self, s: State, m: Move) -> list[Violation]:
        rule, team, color = RULES["DC1"], s.team_of(m.player), self.deck.colors[m.card]
        where = s.hex_of(m.card)
        if where is not None:
            return [Violation(rule, f"#{m.card} is already on the table at {_fmt(where)}")]
        if color == BLACK:
            return [Violation(rule, f"#{m.card} is a black start card: it is in no one's pile")]
        if color == team:
            if self.available(s, team) < 1:
                return [Violation(rule, f"{team} has no {team} card left in its piles "
                                        f"({self.on_table(s, team)} on the table, the rest with "
                                        "rivals)")]
            return []
        if color not in s.teams:
            return [Violation(rule, f"#{m.card} is {color}: no team plays {color} in this game")]
        if s.received[team].get(color, 0) < 1:
            return [Violation(rule, f"#{m.card} is {color} but {m.player} plays {team}, and "
                                    f"{team}'s piles hold no {color} card (rival cards come only "
                                    "through the catch-up transfer)")]
        return []

    def _dc2(self, s: State, m: Move) -> list[Violation]:
        rule, out = RULES["DC2"], []
        base = s.hex_of(m.against)
        if base is None:
            return [Violation(rule, f"#{m.against} is not on the table")]
        if m.hex in s.board:
            out.append(Violation(rule, f"hex {_fmt(m.hex)} already holds #{s.board[m.hex]}"))
        elif m.hex not in _around(base):
            free = " ".join(_fmt(h) for h in _around(base) if h not in s.board) or "none"
            out.append(Violation(rule, f"hex {_fmt(m.hex)} does not share an edge with "
                                       f"#{m.against} at {_fmt(base)} (free next to it: {free})"))
        shared = self.deck.symbols[m.card] & self.deck.symbols[m.against]
        if m.symbol not in shared:
            real = ", ".join(sorted(shared))
            out.append(Violation(rule, f"#{m.card} and #{m.against} share {real}, not "
                                       f"{m.symbol}"))
        return out

    def _place(self, s: Draft, m: Place) -> None:
        team, color = s.team_of(m.player), self.deck.colors[m.card]
        s.board[m.hex] = m.card
        if color != team:
            s.received[team][color] -= 1
        s.notes.append(f"{m.player} ({team}) places {color} #{m.card} at {_fmt(m.hex)}")
        line = self._line(s, m.hex)
        if line:
            self._win(s, color, line)
        elif self.available(s, team) + sum(s.received[team].values()) == 0:
            self._dead(s, team)

    def _line(self, s: State, at: Hex) -> tuple[int, ...]:
        """Four or more cards of the new card's colour in a row through it, or ()."""
        color = self.deck.colors[s.board[at]]
        for dq, dr in AXES:
            run = [at]
            for sign in (1, -1):
                q, r = at
                while True:
                    q, r = q + sign * dq, r + sign * dr
                    card = s.board.get((q, r))
                    if card is None or self.deck.colors[card] != color:
                        break
                    run.append((q, r))
            if len(run) >= 4:
                return tuple(s.board[h] for h in sorted(run))
        return ()

    def _win(self, s: Draft, team: str, line: tuple[int, ...]) -> None:
        s.points[team] += 1
        k = s.points[team]
        s.kept[team].append(s.start)
        cards = " ".join(f"#{c}" for c in line)
        s.last_win = f"{team} {cards} won round {s.round}"
        s.notes.append(f"DC3: {team} line {cards}: {team} wins round {s.round} and keeps black "
                       f"#{s.start} ({k}/{s.target} points)")
        for p in s.teams[team]:
            s.ledger.append(ScoreItem(p, 1, f"{team} line {cards}", s.round))
        if k >= s.target:
            players = ", ".join(s.teams[team])
            s.outcome = Outcome(s.teams[team], f"{team} ({players}) reaches {k} points")
            s.notes.append(f"game over: {s.outcome.reason}")
            return
        gifts = []
        for rival in s.teams:
            if rival == team:
                continue
            n = min(k, self.deck.count(rival) - sum(h.get(rival, 0) for h in s.received.values()))
            s.received[team][rival] = s.received[team].get(rival, 0) + n
            gifts.append(f"{rival} gives {team} {n} {rival} card{'s' if n != 1 else ''}")
        s.notes.append(f"catch-up transfer for {team}'s point {k}: " + "; ".join(gifts)
                       + f" (shuffle them into {team}'s piles)")
        self._new_round(s, self._next_black({c for kept in s.kept.values() for c in kept}))

    def _dead(self, s: Draft, team: str) -> None:
        s.notes.append(f"every player of {team} has run out of cards: round {s.round} ends "
                       f"without a winner; #{s.start} starts again")
        self._new_round(s, s.start)
        s.restart = True

    def _new_round(self, s: Draft, start: int) -> None:
        """Every team takes back the cards of its colour; the next black card goes down."""
        s.round += 1
        s.start = start
        s.restart = False
        s.board = {(0, 0): start}
        s.notes.append(f"round {s.round}: black #{start} in the centre at 0,0")

    def legal_moves(self, state: State) -> list[Move]:
        """Every placement any player could make now (a real-time game: all act at once)."""
        if state.outcome is not None:
            return []
        out: list[Move] = []
        on_table = set(state.board.values())
        for team, members in state.teams.items():
            held = {c for c, n in state.received[team].items() if n > 0}
            if self.available(state, team) > 0:
                held.add(team)
            cards = [c for c, col in sorted(self.deck.colors.items())
                     if col in held and c not in on_table]
            for card in cards:
                for at, against in sorted(state.board.items()):
                    for symbol in sorted(self.deck.symbols[card] & self.deck.symbols[against]):
                        for h in _around(at):
                            if h not in state.board:
                                out.extend(Place(p, card, against, symbol, h)
                                           for p in members)
        return self.accepted(state, out)

    # the position

    def to_move(self, state: State) -> str | None:
        return None  # real time: everyone plays at once

    def ledger(self, state: State) -> tuple[ScoreItem, ...]:
        return tuple(state.ledger)

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def show(self, state: State) -> str:
        return "\n".join(self._header(state) + diagram(state.board, self.deck.colors))

    def _header(self, s: State) -> list[str]:
        head = (f"Dobble Connect — game over: {s.outcome.reason}" if s.outcome else
                f"Dobble Connect — round {s.round}, black #{s.start} at 0,0; "
                f"{s.target} points win")
        lines = [head]
        for team, members in s.teams.items():
            held = ", ".join(f"{n} {c}" for c, n in s.received[team].items() if n)
            n = s.points[team]
            lines.append(f"  {team} ({'+'.join(members)}): {n} point{'s' if n != 1 else ''}, "
                         f"{self.available(s, team)} {team} cards in piles"
                         + (f", rival cards held: {held}" if held else ""))
        if s.last_win:
            lines.append(f"  last line: {s.last_win}")
        lines.append("  letters: " + ", ".join(f"{_letter(c)} {c}" for c in
                                               (*s.teams, BLACK)) + "; · free hex (q,r below)")
        return lines

    # disputes: positions typed in, questions, secrets

    def position(self, state: State) -> str:
        """The position as text that load_position reads back."""
        out = ["# dobble-connect position: Q,R CARD per card on the table (0,0: the black start "
               "card); kept = black cards won", f"round {state.round}"]
        kept = " ".join(f"{t}={','.join(map(str, ids))}" for t, ids in state.kept.items() if ids)
        if kept:
            out.append(f"kept {kept}")
        held = " ".join(f"{t}=" + ",".join(f"{c}:{n}" for c, n in got.items())
                        for t, got in state.received.items() if any(got.values()))
        if held:
            out.append(f"received {held}")
        if state.restart:
            out.append("restart  # the last round had no winner: the same black card")
        out += [f"{_fmt(h)} {c}" for h, c in sorted(state.board.items(), key=lambda x: x[0][::-1])]
        return "\n".join(out) + "\n"

    def load_position(self, state: State, text: str) -> State:
        """A table typed in (see position()), checked as a game could have reached it."""
        s = Draft(state)
        s.ledger, s.board = [], {}
        keys = {"round": 1, "restart": 0, "kept": 0, "received": 0}
        for line in read_lines(text.lower(), keys, POSITION_LINES, HEX):
            with line.reading():
                self._position_line(s, line)
        self._check_position(s)
        for team, ids in s.kept.items():
            s.points[team] = len(ids)
            s.ledger += [ScoreItem(p, len(ids), "points when the position was set up", s.round)
                         for p in s.teams[team] if ids]
        return s.done()

    def _position_line(self, s: Draft, line: Line) -> None:
        head, rest = line.key, line.rest
        if head == "round":
            s.round = line.number()
        elif head == "restart":
            if rest:
                raise ValueError(rest)
            s.restart = True
        elif head in ("kept", "received"):
            for pair in rest.split():
                team, _, value = pair.partition("=")
                self._team(s, team)
                if head == "kept":
                    s.kept[team] = [self._card(x) for x in value.split(",") if x]
                else:
                    got = [x.partition(":") for x in value.split(",") if x]
                    s.received[team] = {self._team(s, c): int(n) for c, _, n in got}
                    if team in s.received[team] or min(s.received[team].values()) < 0:
                        raise InvalidMove("a team receives a number of each rival's cards")
        else:  # a hex and its card
            q, _, r = line.args[0].partition(",")
            hex_ = (int(q), int(r))
            rest = " ".join(line.args[1:])
            if hex_ in s.board:
                raise InvalidMove(f"hex {_fmt(hex_)} appears twice")
            s.board[hex_] = self._card(rest.strip())

    def _team(self, s: State, color: str) -> str:
        if color not in s.teams:
            raise InvalidMove(f"no team plays {color!r} ({', '.join(s.teams)})")
        return color

    def _check_position(self, s: Draft) -> None:
        """A position must be one a game could reach: else say what is wrong."""
        colors = self.deck.colors
        if len(set(s.board.values())) != len(s.board):
            raise RefereeError("a card appears twice on the table", "position")
        s.start = s.board.setdefault((0, 0), s.start)
        if colors[s.start] != BLACK:
            raise RefereeError(f"0,0 holds #{s.start}, not a black start card", "position")
        kept = [c for ids in s.kept.values() for c in ids]
        if any(colors[c] != BLACK for c in kept) or len(set(kept)) != len(kept) or \
                s.start in kept:
            raise RefereeError("kept cards are black start cards, each once, not the one in the "
                               "centre", "position")
        for h, c in s.board.items():
            if c != s.start and colors[c] not in s.teams:
                raise RefereeError(f"#{c} at {_fmt(h)} is {colors[c]}: no team plays it "
                                   "(position)")
        reach, todo = {(0, 0)}, [(0, 0)]
        while todo:
            for n in _around(todo.pop()):
                if n in s.board and n not in reach:
                    reach.add(n)
                    todo.append(n)
        if len(reach) != len(s.board):
            lost = min(set(s.board) - reach)
            raise RefereeError(f"#{s.board[lost]} at {_fmt(lost)} touches no card joined to the "
                               "centre", "position")
        for h in s.board:
            line = self._line(s, h) if h != (0, 0) else ()
            if line:
                raise RefereeError(f"the table already shows a line {line} (DC3): that round "
                                   "is over", "position")
        for t in s.teams:
            if len(s.kept[t]) >= s.target:
                raise RefereeError(f"{t} has {len(s.kept[t])} points: the game would be over "
                                   "(position)")
            if self.available(s, t) < 0:
                raise RefereeError(f"more {t} cards on the table and with rivals than the "
                                   f"{self.deck.count(t)} printed", "position")


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


def _around(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in NEIGHBOURS]


def _fmt(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def _letter(color: str) -> str:
    return "K" if color == BLACK else color[0].upper()


def diagram(board: Mapping[Hex, int], colors: Mapping[int, str]) -> list[str]:
    """The hex layout, one row per r: colour letter + card id, axial q,r under each hex."""
    free = {n for h in board for n in _around(h)} - set(board)
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
            label = f"{_letter(colors[board[h]])}{board[h]}" if h in board else "·"
            top = top.ljust(x) + label.center(2 * width)
            bottom = bottom.ljust(x) + _fmt(h).center(2 * width)
        lines += [f"r={r:<3} " + top.rstrip(), "       " + bottom.rstrip()]
    return lines


GAME = DobbleConnect()
