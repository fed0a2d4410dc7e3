"""Duplicon (rules.md §5): a memory game of pairs around a 3×3 grid of face-down cards.

The referee never sees a hidden card: players type what a flip showed (`b2=orange`), and the
referee keeps the counts (deck, hands, play zones, won piles, discard) and what the table has seen
of the grid. The card types are read from the `duplicon` template, the deck the generator prints.

Rulings of ours (documented in the README): the players are listed in turn order (the first one
starts round 1 and each later round starts one seat further on); the turn in which the deck runs
out is that player's final turn, then every other player takes one final turn in order; case 5
needs as many cards in the deck as the hand holds (the new hand is drawn first).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import ClassVar

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
    totals,
)
from referee.position import read_lines

POSITIONS = tuple(f"{c}{r}" for r in "123" for c in "abc")
HAND = 3
UNKNOWN = "?"  # a face-down grid card nobody has seen
HOLE = ""  # an empty grid place (the deck ran out, so it is not refilled)

RULES = {
    r.id: r
    for r in (
        RuleRef("U1", "a scoring pair is exactly one grid card plus one hand or play-zone card of "
                      "identical colour and shape (never hand + play zone, never without a grid "
                      "card)"),
        RuleRef("U2", "case 2 targets only another player's play-zone card"),
        RuleRef("U3", "one's own play-zone card is not reusable on the turn it was placed"),
        RuleRef("U4", "case 4 (draw) is not allowed if the player chose case 4 on their previous "
                      "turn; case 5 (exchange) only when the deck holds 5 or more cards"),
        RuleRef("turn", "a turn is exactly one of five cases; after a success the same player "
                        "acts again, otherwise play passes to the next player"),
        RuleRef("opening", "each round opens by turning two grid cards; a same-type pair goes to "
                           "the discard and two more are turned, a different pair turns back"),
        RuleRef("grid", "cards turned face up go back face down in the same place"),
        RuleRef("cards", "96 cards: 8 types (a colour and a shape) × 12 cards"),
        RuleRef("end", "the game ends at the end of a round in which someone reaches the target; "
                       "highest total wins, a tie plays another round"),
    )
}

NOTATION = (
    "open a1=T b3=T (opening reveal) · play T b2=T (case 1) · replay T b2=T (case 1 with your "
    "play-zone card) · steal PLAYER T b2=T (case 2) · reveal a1=T c3=T (case 3) · draw (case 4) "
    "· exchange (case 5); T = colour, shape or colour-shape, e.g. orange, circle, orange-circle"
)


@dataclass(frozen=True)
class CardType:
    key: str  # "orange-circle"
    color: str
    shape: str
    label: str  # as printed: "orange circle"
    count: int  # copies in the deck


@cache
def card_types() -> tuple[CardType, ...]:
    """The types printed by the duplicon template (loaded lazily: keeps startup light)."""
    from referee.components import cards

    counts: dict[tuple[str, str, str], int] = {}
    for _id, card in cards("duplicon", ("kind", "color", "shape", "label")):
        if card["kind"] != "type":
            continue  # the "your turn" reminders have no rules effect
        key = (card["color"], card["shape"], card["label"])
        counts[key] = counts.get(key, 0) + 1
    return tuple(CardType(f"{c}-{s}", c, s, label, n) for (c, s, label), n in counts.items())


def _types_by_name() -> dict[str, CardType]:
    out: dict[str, CardType] = {}
    for t in card_types():
        for name in (t.key, t.color, t.shape, t.label.replace(" ", "-")):
            out[name.lower()] = t
    return out


def card_type(text: str) -> CardType:
    """A type from what a player types: its colour, its shape or both (orange-circle)."""
    t = _types_by_name().get(text.strip().lower())
    if t is None:
        names = ", ".join(t.key for t in card_types())
        raise InvalidMove(f"unknown card type {text!r} (types: {names})")
    return t


Flips = tuple[tuple[str, str], ...]  # (position, type key) as turned


# A move is a class per case, each with its acting `player`; `kind` is its notation verb, and
# what a case does not have reads as empty (a draw turns no card), so the checks read any move.


@dataclass(frozen=True)
class Open:
    """The opening reveal of a round: two grid cards turned."""

    player: str
    flips: Flips
    kind: ClassVar[str] = "open"
    card: ClassVar[str] = ""
    owner: ClassVar[str] = ""


@dataclass(frozen=True)
class Play:
    """Case 1: a hand card into the play zone, and a grid card turned to match it."""

    player: str
    card: str
    flips: Flips
    kind: ClassVar[str] = "play"
    owner: ClassVar[str] = ""


@dataclass(frozen=True)
class Replay:
    """Case 1 with a card already in the player's play zone."""

    player: str
    card: str
    flips: Flips
    kind: ClassVar[str] = "replay"
    owner: ClassVar[str] = ""


@dataclass(frozen=True)
class Steal:
    """Case 2: a card of another player's play zone, and a grid card turned to match it."""

    player: str
    owner: str
    card: str
    flips: Flips
    kind: ClassVar[str] = "steal"


@dataclass(frozen=True)
class Reveal:
    """Case 3: two grid cards turned."""

    player: str
    flips: Flips
    kind: ClassVar[str] = "reveal"
    card: ClassVar[str] = ""
    owner: ClassVar[str] = ""


@dataclass(frozen=True)
class Draw:
    """Case 4: a card from the deck."""

    player: str
    kind: ClassVar[str] = "draw"
    card: ClassVar[str] = ""
    owner: ClassVar[str] = ""
    flips: ClassVar[Flips] = ()


@dataclass(frozen=True)
class Exchange:
    """Case 5: the hand for as many cards from the deck."""

    player: str
    kind: ClassVar[str] = "exchange"
    card: ClassVar[str] = ""
    owner: ClassVar[str] = ""
    flips: ClassVar[Flips] = ()


Move = Open | Play | Replay | Steal | Reveal | Draw | Exchange


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    target: int
    round: int = 1
    starter: int = 0
    phase: str = "opening"  # opening | play | over
    turn: int = 0  # index of the player to act
    turn_no: int = 1  # counts turns over the match (for U3)
    chained: bool = False  # the player to act just succeeded and acts again
    deck: int = 0
    grid: dict[str, str] = field(default_factory=dict)  # position -> type key, UNKNOWN or HOLE
    hands: dict[str, int] = field(default_factory=dict)
    zones: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # (type, turn_no)
    won: dict[str, list[str]] = field(default_factory=dict)
    discard: list[str] = field(default_factory=list)
    drew_last: dict[str, bool] = field(default_factory=dict)  # previous turn was case 4
    last_turn: dict[str, int] = field(default_factory=dict)  # turn_no of each one's latest turn
    final: tuple[str, ...] | None = None  # deck out: who still takes a final turn
    ledger: list[ScoreItem] = field(default_factory=list)
    outcome: Outcome | None = None

    @property
    def current(self) -> str:
        return self.players[self.turn]


def _deal(state: Draft) -> None:
    """A new round: 9 face-down grid cards, 3 cards to each hand, empty piles."""
    total = sum(t.count for t in card_types())
    n = len(state.players)
    state.deck = total - len(POSITIONS) - HAND * n
    state.grid = dict.fromkeys(POSITIONS, UNKNOWN)
    state.hands = dict.fromkeys(state.players, HAND)
    state.zones = {p: [] for p in state.players}
    state.won = {p: [] for p in state.players}
    state.discard = []
    state.drew_last = dict.fromkeys(state.players, False)
    state.final = None
    state.phase = "opening"
    state.turn = state.starter
    state.chained = False
    state.last_turn[state.current] = state.turn_no


class Duplicon(Rules):
    """The Game protocol for Duplicon."""

    name = "duplicon"
    title = "Duplicon"
    min_players = 2
    max_players = 4
    options = (Option("target", "100", "total that ends the game at the end of a round"),)
    rules: Mapping[str, RuleRef] = RULES
    notation = NOTATION
    sample = Sample(("ana", "bob"), ("open a1=orange c3=blue", "play blue c3=blue", "draw"))

    # setup

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> State:
        raw = options.get("target", "100")
        try:
            target = int(raw)
        except ValueError:
            raise RefereeError(f"target must be a whole number, not {raw!r} "
                               "(--option target)") from None
        if target < 1:
            raise RefereeError(f"target must be at least 1, not {raw!r}", "--option target")
        state = Draft(State(players=tuple(players), target=target))
        _deal(state)
        return state.done()

    # notation

    def parse(self, state: State, text: str, player: str | None = None) -> Move:
        words = text.strip().lower().split()
        if not words:
            raise InvalidMove(f"empty move; expected one of: {NOTATION}")
        who = self._player(state, player)
        verb, args = words[0], words[1:]
        if verb in ("draw", "exchange"):
            if args:
                raise InvalidMove(f"'{verb}' takes nothing more (got {' '.join(args)!r})")
            return (Draw if verb == "draw" else Exchange)(who)
        if verb in ("open", "reveal"):
            flips = _flips(args, 2, f"{verb} a1=orange c3=blue")
            if flips[0][0] == flips[1][0]:
                raise InvalidMove(f"'{verb}' turns two different grid cards, not {flips[0][0]} "
                                  "twice")
            return (Open if verb == "open" else Reveal)(who, flips)
        if verb in ("play", "replay"):
            if len(args) != 2:
                raise InvalidMove(f"expected '{verb} <type> <position>=<type>', "
                                  f"e.g. '{verb} orange b2=orange'")
            return (Play if verb == "play" else Replay)(who, card_type(args[0]).key,
                        flips=_flips(args[1:], 1, f"{verb} orange b2=orange"))
        if verb == "steal":
            if len(args) != 3:
                raise InvalidMove("expected 'steal <player> <type> <position>=<type>', "
                                  "e.g. 'steal bob orange b2=orange'")
            owner = self._player(state, args[0], what="steal")
            return Steal(who, owner, card_type(args[1]).key,
                        flips=_flips(args[2:], 1, "steal bob orange b2=orange"))
        raise InvalidMove(f"unknown move {words[0]!r}; expected one of: {NOTATION}")

    def _player(self, state: State, name: str | None, what: str = "--by") -> str:
        if name is None:
            return state.current
        return find_player(state.players, name, what)

    def format(self, state: State, move: Move) -> str:
        flips = " ".join(f"{pos}={t}" for pos, t in move.flips)
        if move.kind in ("draw", "exchange"):
            return move.kind
        if move.kind in ("open", "reveal"):
            return f"{move.kind} {flips}"
        if move.kind == "steal":
            return f"steal {move.owner} {move.card} {flips}"
        return f"{move.kind} {move.card} {flips}"

    # rules

    def violations(self, state: State, move: Move) -> list[Violation]:
        return _preconditions(state, move) or _counts(state, move)

    def transition(self, state: State, move: Move) -> tuple[State, list[str]]:
        s = _resolve(state, move)
        return s.done(), s.notes

    def legal_moves(self, state: State) -> list[Move]:
        """Every move of the player to act with every type a face-down card could show."""
        if state.phase == "over":
            return []
        who, types = state.current, [t.key for t in card_types()]

        def shows(pos: str) -> list[tuple[str, str]]:
            seen = state.grid[pos]
            return [(pos, t) for t in types] if seen == UNKNOWN else [(pos, seen)]

        ones = [f for pos in POSITIONS if state.grid[pos] != HOLE for f in shows(pos)]
        pairs = [(f, g) for i, a in enumerate(POSITIONS) for b in POSITIONS[i + 1:]
                 if HOLE not in (state.grid[a], state.grid[b]) for f in shows(a) for g in shows(b)]
        kinds = (Open,) if state.phase == "opening" else (Reveal,)
        out: list[Move] = [k(who, fg) for k in kinds for fg in pairs]
        if state.phase != "opening":
            out += [Draw(who), Exchange(who)]
            out += [k(who, t, (f,)) for k in (Play, Replay) for t in types
                    for f in ones]
            out += [Steal(who, o, c, (f,)) for o in state.players
                    if o != who for c in dict.fromkeys(c for c, _ in state.zones[o]) for f in ones]
        return self.accepted(state, out)

    # the position

    def to_move(self, state: State) -> str | None:
        return None if state.phase == "over" else state.current

    def ledger(self, state: State) -> tuple[ScoreItem, ...]:
        return tuple(state.ledger)

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def show(self, state: State) -> str:
        return _show(state)

    # disputes: positions typed in, questions, secrets

    def position(self, state: State) -> str:
        return _position(state)

    def load_position(self, state: State, text: str) -> State:
        return _load_position(state, text)


POSITION_HELP = ("round N · starter PLAYER (who opened the round) · turn PLAYER [again] · "
                 "opening · deck N · grid a1=TYPE b2=- (- a hole) · "
                 "hands ana=3 · zones ana=orange,blue · won ana=12 · drew PLAYER · "
                 "final PLAYER,... · scores ana=19")


def _position(s: State) -> str:
    """The position as text that _load_position reads back (for disputes)."""
    def each(values: Mapping[str, object]) -> str:
        return " ".join(f"{p}={v}" for p, v in values.items())

    grid = " ".join(f"{pos}={'-' if v == HOLE else v}" for pos, v in s.grid.items()
                    if v != UNKNOWN)
    out = [f"# duplicon position: {POSITION_HELP}", f"round {s.round}",
           f"starter {s.players[s.starter]}",
           "opening" if s.phase == "opening" else f"turn {s.current}" + (" again" * s.chained),
           f"deck {s.deck}"]
    out += [f"grid {grid}"] if grid else []
    out.append(f"hands {each(s.hands)}")
    zones = {p: ",".join(c for c, _ in z) for p, z in s.zones.items() if z}
    out += [f"zones {each(zones)}"] if zones else []
    out.append(f"won {each({p: len(w) for p, w in s.won.items()})}")
    out += [f"drew {p}" for p, d in s.drew_last.items() if d]
    out += [f"final {','.join(s.final)}"] if s.final else []
    out.append(f"scores {each(totals(s.ledger, s.players))}")
    return "\n".join(out) + "\n"


def _load_position(state: State, text: str) -> State:
    """A table typed in; the discard holds whatever the other places leave of the 96 cards."""
    s = Draft(state)
    s.ledger, s.phase = [], "play"
    final: tuple[str, ...] | None = None

    def who(name: str) -> str:
        return find_player(s.players, name)

    keys = {"round": 1, "starter": 1, "opening": 0, "turn": 1, "deck": 1, "grid": 0,
            "hands": 0, "won": 0, "scores": 0, "zones": 0, "drew": 1, "final": 1}
    for line in read_lines(text.lower(), keys, f"expected {POSITION_HELP}"):
        head, words = line.key, line.args
        pairs = [w.partition("=")[::2] for w in words]
        with line.reading():
            if head == "round":
                s.round = line.number()
            elif head == "starter":
                s.starter = s.players.index(who(words[0]))
            elif head == "opening":
                s.phase = "opening"
            elif head == "turn":
                s.turn, s.chained = s.players.index(who(words[0])), words[1:] == ("again",)
            elif head == "deck":
                s.deck = line.number()
            elif head == "grid":
                for pos, v in pairs:
                    if pos not in s.grid:
                        raise KeyError(pos)
                    s.grid[pos] = HOLE if v == "-" else UNKNOWN if v == "?" else card_type(v).key
            elif head in ("hands", "won", "scores"):
                for p, v in pairs:
                    if head == "hands":
                        s.hands[who(p)] = int(v)
                    elif head == "won":
                        s.won[who(p)] = [UNKNOWN] * int(v)
                    elif int(v):
                        s.ledger.append(ScoreItem(who(p), int(v), "score when the position "
                                                  "was set up", s.round))
            elif head == "zones":
                for p, v in pairs:
                    s.zones[who(p)] = [(card_type(c).key, 0) for c in v.split(",") if c]
            elif head == "drew":
                s.drew_last[who(words[0])] = True
            else:  # final
                final = tuple(who(p) for p in line.rest.replace(",", " ").split())
    if s.phase == "opening":
        s.turn, s.chained = s.starter, False
    s.last_turn[s.current] = s.turn_no
    if s.phase == "play" and s.deck == 0:
        n = len(s.players)
        s.final = final if final is not None else tuple(
            s.players[(s.turn + i) % n] for i in range(1, n))
    _check_loaded(s)
    return s.done()


def _check_loaded(s: Draft) -> None:
    """The places must hold exactly the printed cards, and no type more often than printed."""
    if min([s.deck, *s.hands.values(), s.round]) < 0 or s.round < 1:
        raise RefereeError("counts in a position are not negative", "position")
    placed = (s.deck + sum(1 for v in s.grid.values() if v != HOLE) + sum(s.hands.values())
              + sum(len(z) for z in s.zones.values()) + sum(len(w) for w in s.won.values()))
    total = sum(t.count for t in card_types())
    if placed > total:
        raise RefereeError(f"deck, grid, hands, play zones and won piles hold {placed} cards; "
                           f"there are {total}", "position")
    s.discard = [UNKNOWN] * (total - placed)
    if s.final is None and s.deck > 0 and any(h < HAND for h in s.hands.values()):
        raise RefereeError("while the deck has cards every hand holds 3 or more", "position")
    for t in card_types():
        seen = sum(1 for v in s.grid.values() if v == t.key) + sum(
            1 for z in s.zones.values() for c, _ in z if c == t.key)
        if seen > t.count:
            raise RefereeError(f"{seen} {t.key} cards in the grid and play zones; there are "
                               f"{t.count}", "position")


def _flips(args: Sequence[str], n: int, example: str) -> tuple[tuple[str, str], ...]:
    if len(args) != n:
        raise InvalidMove(f"expected {n} grid card{'s' if n > 1 else ''} as <position>=<type>, "
                          f"e.g. '{example}'")
    out = []
    for arg in args:
        m = re.fullmatch(r"([a-c][1-3])=(\S+)", arg)
        if not m:
            raise InvalidMove(f"{arg!r} is not <position>=<type> (positions a1..c3, "
                              f"e.g. '{example}')")
        out.append((m.group(1), card_type(m.group(2)).key))
    return tuple(out)


# -- resolving a move: checked first, then a copy of the state is played forward ----------


def _v(rule: str, reason: str) -> Violation:
    return Violation(RULES[rule], reason)


def _resolve(state: State, move: Move) -> Draft:
    """The state after a legal move (violations found nothing), as a draft with its notes."""
    s = Draft(state)
    p = move.player
    for pos, t in move.flips:
        if s.grid[pos] == UNKNOWN:
            s.grid[pos] = t  # the table has now seen it
    if move.kind == "open":
        (a, ta), (b, tb) = move.flips
        if ta == tb:
            _take_pair(s, (a, b), s.discard, f"opening pair of {ta}: to the discard")
        else:
            s.phase = "play"
            s.notes.append(f"{a} {ta} and {b} {tb} turn back face down; {p} plays")
    elif move.kind == "reveal":
        (a, ta), (b, tb) = move.flips
        if ta == tb:
            pile = s.won[p] if s.deck == 0 else s.discard
            where = f"{p}'s won pile (the deck is out)" if s.deck == 0 else "the discard"
            _take_pair(s, (a, b), pile, f"pair of {ta}: to {where}")
            _again(s)
        else:
            _end_turn(s, f"{ta} and {tb} differ: they turn back")
    elif move.kind in ("play", "replay", "steal"):
        pos, shown = move.flips[0]
        if move.kind == "play":
            s.hands[p] -= 1
            s.zones[p].append((move.card, s.turn_no))
        source = s.zones[move.owner or p]
        if shown == move.card:
            source.remove(_zone_card(source, move.card))
            s.won[p].append(move.card)
            _take_pair(s, (pos,), s.won[p], f"Dúplicon! {move.card} pair to {p}'s won pile")
            _top_up(s, p)
            _again(s)
        else:
            _top_up(s, p)
            _end_turn(s, f"{pos} shows {shown}, not {move.card}: it turns back")
    elif move.kind == "draw":
        s.hands[p] += 1
        s.deck -= 1
        _deck_check(s)
        _end_turn(s, f"{p} draws a card", drew=True)
    elif move.kind == "exchange":
        _end_turn(s, f"{p} exchanges {s.hands[p]} cards; the old ones are shuffled into the deck")
    if s.phase == "play":
        _round_end_check(s)
    if s.round != state.round:  # nobody acts again in a round that is over
        s.notes = [n for n in s.notes if not n.endswith("acts again")]
    return s


def _zone_card(zone: list[tuple[str, int]], key: str) -> tuple[str, int]:
    return min(c for c in zone if c[0] == key)


def _preconditions(s: State, m: Move) -> list[Violation]:
    """Everything that can be checked before the flips are known."""
    if s.phase == "over":
        return [_v("end", "the game is over: " + (s.outcome.reason if s.outcome else ""))]
    out: list[Violation] = []
    p = m.player
    if p != s.current:
        again = " (acts again after a success)" if s.chained else ""
        out.append(_v("turn", f"it is {s.current}'s turn{again}, not {p}'s"))
    if s.phase == "opening" and m.kind != "open":
        out.append(_v("opening", f"round {s.round} starts with the opening reveal: "
                                 "'open a1=<type> c3=<type>'"))
    if s.phase != "opening" and m.kind == "open":
        out.append(_v("opening", "the opening reveal is done; turning two cards now is case 3: "
                                 "'reveal a1=<type> c3=<type>'"))
    for pos, shown in m.flips:
        seen = s.grid[pos]
        if seen == HOLE:
            rule = "U1" if m.kind in ("play", "replay", "steal") else "grid"
            out.append(_v(rule, f"there is no grid card at {pos} (holes are not refilled once "
                                "the deck is out)"))
        elif seen not in (UNKNOWN, shown):
            out.append(_v("grid", f"the card at {pos} was seen as {seen}, not {shown}"))
    if m.kind == "replay":
        mine = [c for c in s.zones[p] if c[0] == m.card]
        now = s.turn_no if p == s.current else s.last_turn.get(p, 0)
        if not mine:
            zone = ", ".join(c for c, _ in s.zones[p]) or "nothing"
            out.append(_v("U1", f"your play zone holds no {m.card} (it holds {zone}); a pair "
                                "is made with a hand card ('play') or a play-zone card"))
        elif all(turn >= now for _, turn in mine):
            out.append(_v("U3", f"your {m.card} was placed in your play zone on this turn; it "
                                "can be played again from your next turn on"))
    if m.kind == "steal":
        if m.owner == p:
            out.append(_v("U2", "that is your own play zone: play your own card with 'replay'"))
        elif not any(c == m.card for c, _ in s.zones[m.owner]):
            zone = ", ".join(c for c, _ in s.zones[m.owner]) or "nothing"
            out.append(_v("U2", f"{m.owner}'s play zone holds no {m.card} (it holds {zone})"))
    if m.kind == "play" and s.hands[p] == 0:
        out.append(_v("U1", f"{p} has no card in hand"))
    if m.kind == "draw":
        if s.drew_last[p]:
            out.append(_v("U4", "case 4 was used on your previous turn"))
        if s.deck == 0:
            out.append(_v("U4", "the deck is empty"))
    if m.kind == "exchange":
        n, h = s.deck, s.hands[p]
        if n < 5:
            out.append(_v("U4", f"the deck has only {n} card{'s' if n != 1 else ''} (case 5 "
                                "needs 5)"))
        elif n < h:  # our ruling: the new hand is drawn before the old one is shuffled in
            out.append(_v("U4", f"the deck has only {n} cards to replace a hand of {h}"))
    return out


def _counts(s: State, m: Move) -> list[Violation]:
    """No type can be seen more often than it is printed: a mistyped flip shows up here."""
    fresh = [t for pos, t in m.flips if s.grid[pos] == UNKNOWN]
    if m.kind == "play":
        fresh.append(m.card)  # a hand card comes into view
    out = []
    for t in card_types():
        if t.key not in fresh:
            continue
        seen = (fresh.count(t.key) + sum(1 for v in s.grid.values() if v == t.key)
                + s.discard.count(t.key) + sum(w.count(t.key) for w in s.won.values())
                + sum(1 for z in s.zones.values() for c, _ in z if c == t.key))
        if seen > t.count:
            out.append(_v("cards", f"this would make {seen} {t.key} cards seen this round; the "
                                   f"deck has {t.count}: check what was typed"))
    return out


def _take_pair(s: Draft, positions: Sequence[str], pile: list[str], note: str) -> None:
    """Grid cards leave for a pile; the holes are refilled face down while the deck lasts."""
    for pos in positions:
        pile.append(s.grid[pos])
        if s.deck > 0:
            s.grid[pos] = UNKNOWN
            s.deck -= 1
        else:
            s.grid[pos] = HOLE
    s.notes.append(note)
    _deck_check(s)


def _top_up(s: Draft, p: str) -> None:
    while s.hands[p] < HAND and s.deck > 0:
        s.hands[p] += 1
        s.deck -= 1
    _deck_check(s)


def _deck_check(s: Draft) -> None:
    """When the deck runs out, every other player takes one final turn after this one."""
    if s.deck == 0 and s.final is None and s.phase == "play":
        n = len(s.players)
        s.final = tuple(s.players[(s.turn + i) % n] for i in range(1, n))
        s.notes.append(f"the deck is out: this is {s.current}'s final turn, then one each for "
                       + ", ".join(s.final))


def _again(s: Draft) -> None:
    if s.phase == "play":
        s.chained = True
        s.notes.append(f"{s.current} acts again")


def _end_turn(s: Draft, note: str, drew: bool = False) -> None:
    p = s.current
    s.notes.append(note)
    s.drew_last[p] = drew
    s.chained = False
    s.turn_no += 1
    if s.final is not None:
        if not s.final:
            s.notes.append("the final turns are over")
            _end_round(s)
            return
        s.turn, s.final = s.players.index(s.final[0]), s.final[1:]
    else:
        s.turn = (s.turn + 1) % len(s.players)
    s.last_turn[s.current] = s.turn_no
    if s.final is not None:
        s.notes.append(f"{s.current} takes a final turn")


def _round_end_check(s: Draft) -> None:
    empty = [p for p in s.players if s.hands[p] == 0]
    if empty:
        s.notes.append(f"{empty[0]}'s hand is empty")
        _end_round(s)
    elif all(v == HOLE for v in s.grid.values()):
        s.notes.append("the grid is empty")
        _end_round(s)


def _end_round(s: Draft) -> None:
    """Score the round, then end the game or deal the next round."""
    left = [v for v in s.grid.values() if v != HOLE]
    s.discard.extend(left)
    s.notes.append(f"round {s.round} ends; {len(left)} grid cards go to the discard")
    for p in s.players:
        won, hand, zone = len(s.won[p]), s.hands[p], len(s.zones[p])
        s.ledger.append(ScoreItem(p, won, f"{won} won", s.round))
        if hand:
            s.ledger.append(ScoreItem(p, -2 * hand, f"{hand} in hand (−2 each)", s.round))
        if zone:
            s.ledger.append(ScoreItem(p, -3 * zone, f"{zone} in play zone (−3 each)", s.round))
    score = totals(s.ledger, s.players)
    s.notes.append("totals: " + ", ".join(f"{p} {score[p]}" for p in s.players))
    top = max(score.values())
    if top >= s.target:
        leaders = [p for p in s.players if score[p] == top]
        if len(leaders) == 1:
            s.phase = "over"
            s.outcome = Outcome((leaders[0],), f"{leaders[0]} has {top}, the highest total, at "
                                               f"the end of a round reaching {s.target}")
            s.notes.append(s.outcome.reason)
            return
        s.notes.append(f"{' and '.join(leaders)} tie at {top}: another round")
    s.round += 1
    s.starter = (s.starter + 1) % len(s.players)
    s.turn_no += 1
    _deal(s)
    s.notes.append(f"round {s.round}: {s.current} opens with 'open <pos>=<type> <pos>=<type>'")


# -- showing ---------------------------------------------------------------------------------


def _cell(v: str) -> str:
    return {UNKNOWN: "?", HOLE: "·"}.get(v, v)


def _show(s: State) -> str:
    if s.phase == "over":
        head = f"Duplicon — game over: {s.outcome.reason if s.outcome else ''}"
    elif s.phase == "opening":
        head = f"Duplicon — round {s.round}: {s.current} makes the opening reveal"
    else:
        extra = " (acts again)" if s.chained else ""
        if s.final is not None:
            extra += " — final turns" + (f", then {', '.join(s.final)}" if s.final else "")
        head = f"Duplicon — round {s.round}: {s.current} to play{extra}"
    width = max(len(_cell(v)) for v in s.grid.values()) + 2
    lines = [head, f"deck {s.deck} · discard {len(s.discard)}   (? face down unseen, · hole)",
             ("    " + "".join(c.ljust(width) for c in "abc")).rstrip()]
    for r in "123":
        row = "".join(_cell(s.grid[f"{c}{r}"]).ljust(width) for c in "abc")
        lines.append(f" {r}  {row}".rstrip())
    score = totals(s.ledger, s.players)
    for p in s.players:
        zone = ", ".join(c for c, _ in s.zones[p]) or "-"
        lines.append(f"{p}: hand {s.hands[p]} · zone [{zone}] · won {len(s.won[p])} · "
                     f"total {score[p]}")
    return "\n".join(lines)


GAME = Duplicon()
