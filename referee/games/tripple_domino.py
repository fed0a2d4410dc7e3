"""Tripple Domino (rules §1): triangular tiles on a triangular lattice, with the pressman variant.

The tiles are the ones the generator prints (templates/tripple-domino): fields a, b, c are the
corners read clockwise (ascending), card ids 1..56. Geometry: vertex (x, y) of a triangular
lattice; cell U(x,y) has corners (x,y), (x+1,y), (x,y+1) and points up, D(x,y) has corners
(x+1,y), (x,y+1), (x+1,y+1) and points down. A cell's corners are listed clockwise from its
apex (U: top, bottom-right, bottom-left; D: bottom, top-left, top-right), and a placement is
written the same way: `1-2-3 U2,0 as 3-1-2` puts 3 on the apex, then 1 and 2 clockwise.

The referee does not deal: the table tells it what happened (who opens with what against which
best tiles, each draw, what is left in the hands at the round's end). It tracks the public
facts (board, hand sizes, reserve size, draws this turn, passes) and computes every score.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from referee.engine import (
    AmbiguousMove,
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
from referee.games import _tripple_board
from referee.games._tripple_board import (
    CORNER_NAMES,
    Cell,
    Vertex,
    corners,
    edge_neighbours,
    hexagon,
)

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


@dataclass(frozen=True)
class Scoring:
    """The numbers of one rule set (the standard rules or a variant)."""

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
    """Every tile of the printed set -> (card id, value), read from the generator's definition."""
    from referee.components import cards

    out: dict[Tile, tuple[int, int]] = {}
    for card_id, f in cards("tripple-domino", ("a", "b", "c", "value")):
        t = (int(f["a"]), int(f["b"]), int(f["c"]))
        out[tuple(sorted(t))] = (card_id, int(f["value"]))
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


def _with(s: State, **changes) -> State:
    """dataclasses.replace without re-running __init__: a fold makes hundreds of these."""
    new = object.__new__(State)
    new.__dict__.update(s.__dict__)
    new.__dict__.update(changes)
    return new


def _deal(s: State) -> State:
    n = len(s.players)
    hand = s.rules.hands[n]
    return _with(s, phase="start", board={}, numbers={}, used=frozenset(),
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


def _unreadable(w: str) -> str:
    """What is wrong with a word of a placement that is neither a tile nor a cell."""
    if re.fullmatch(r"\d+(-\d+)*", w):
        return f"unexpected {w!r}: a tile is three numbers 0-5, like 1-2-3"
    if re.fullmatch(r"[ud]\S*", w):
        return (f"unexpected {w[0].upper() + w[1:]!r}: a cell is U or D and x,y, like U1,0 "
                "or D-2,3, as `referee show` labels them")
    return f"unexpected {w!r}; moves: {NOTATION}"


_LOOSE = re.compile(r"\s[,=)]|[,=(]\s|[()]|\b[ud]\s+-?\d")


def _tokens(text: str) -> list[str]:
    t = text.strip().lower()
    if not _LOOSE.search(t):  # canonical text, as read back from the log: already tidy
        return [w for w in t.split() if w not in ("at", "@", "on")]
    t = re.sub(r"\s*,\s*", ",", t)
    t = re.sub(r"\s*=\s*", "=", t)
    t = re.sub(r"\b([ud])\s*\(\s*", r"\1(", t)
    t = re.sub(r"\b([ud])\s+(-?\d)", r"\1\2", t)
    t = re.sub(r"\s*\)", ")", t)
    return [w for w in t.split() if w not in ("at", "@", "on")]


class TrippleDomino(Rules):
    name = "tripple-domino"
    title = "Tripple Domino"
    min_players = 1  # solitaire: a reserve tile opens, the player may cap the draws
    max_players = 6
    options = (
        Option("variant", "standard", "rule set: standard (Schmidt) or pressman (Tri-Ominoes)",
               ("standard", "pressman")),
        Option("target", "auto", "points that end the game at the end of a round "
               "(auto: 300, 400 in pressman)"),
        Option("draw-cap", "none", "most tiles drawn in a round (solitaire: e.g. 20); with the "
               "cap reached a player passes"),
    )
    rules = RULES
    notation = NOTATION
    sample = Sample(("ana", "bob"), ("start ana=5-5-5 bob=4-4-4", "4-5-5 D-1,0", "3-5-5 D0,0", "draw",
                             "draw 4-4-5 U-1,1"))

    # setup

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> State:
        variant = options.get("variant", "standard")
        if variant not in VARIANTS:
            raise RefereeError(f"unknown variant {variant!r}: standard or pressman", "--option")
        rules = VARIANTS[variant]
        target_text = str(options.get("target", "auto")).strip()
        if target_text in ("", "auto"):
            target = rules.target
        elif target_text.isdigit() and int(target_text) > 0:
            target = int(target_text)
        else:
            raise RefereeError(f"target must be a positive whole number, not {target_text!r} "
                               "(--option target)")
        cap_text = str(options.get("draw-cap", "none")).strip()
        if cap_text not in ("", "none") and not (cap_text.isdigit() and int(cap_text) > 0):
            raise RefereeError(f"draw-cap must be a positive whole number or none, not "
                               f"{cap_text!r}", "--option draw-cap")
        cap = int(cap_text) if cap_text.isdigit() else None
        for p in players:  # engine.check_players has made them one word each
            if p.lower() in ("vs", "as", "at", "on"):
                raise RefereeError(f"player name {p!r} cannot be written in moves: it is a word "
                                   "of the notation", "--players")
        return _deal(State(tuple(players), variant, rules, target, cap=cap))

    # notation

    def parse(self, state: State, text: str, player: str | None = None) -> Move:
        words = _tokens(text)
        if not words:
            raise InvalidMove(f"empty move; moves: {NOTATION}")
        head = words[0]
        if head == "start":
            return self._parse_start(state, words[1:], player)
        if head == "end":
            return self._parse_end(state, words[1:])
        who = self._who(state, player)
        if head == "pass":
            if len(words) > 1:
                raise InvalidMove(f"pass takes nothing after it, got {' '.join(words[1:])!r}")
            return Pass(who)
        if head == "draw":
            if len(words) == 1:
                return Draw(who)
            if len(words) == 2:
                raise InvalidMove("a drawn tile that is placed needs its cell: draw 2-3-3 U1,0 "
                                  "(a drawn tile that is kept is just `draw`)")
            return self._parse_place(state, words[1:], who, drawn=True)
        return self._parse_place(state, words, who, drawn=False)

    def _who(self, state: State, player: str | None) -> str:
        if player is not None:
            return find_player(state.players, player)
        now = self.to_move(state)
        if now is None:
            if state.phase == "start":
                raise AmbiguousMove("the round has not started: begin with "
                                    "`start ana=5-5-5 bob=4-4-4` (everyone's best tile)")
            if state.phase == "over":
                raise InvalidMove(f"the game is over ({self.outcome(state).reason}): start a "
                                  "new match with `referee new`")
            if state.phase == "end":
                names = " ".join(f"{p}=..." for p in self._to_tell(state))
                raise InvalidMove(f"round {state.round} is over: tell the tiles left in each "
                                  f"hand first, `end {names}`")
            raise AmbiguousMove("nobody is to move now: say who plays", "--by PLAYER")
        return now

    def _parse_start(self, state: State, words: list[str], player: str | None) -> Start:
        bare: Tile | None = None
        claims: list[tuple[str, Tile]] = []
        opener: str | None = None
        for w in words:
            if w == "vs":
                if not claims and bare is None:
                    raise InvalidMove("`vs` comes after the opening tile: start ana=5-5-5 vs "
                                      "bob=4-4-4")
                if opener is None and claims:
                    opener = claims[0][0]
                continue
            if "=" in w:
                who, _, tile = w.partition("=")
                named = find_player(state.players, who, "start")
                if any(p == named for p, _ in claims):
                    raise InvalidMove(f"{named} is named twice in start")
                claims.append((named, tuple(sorted(parse_tile(tile)))))
            elif bare is None and not claims:
                bare = tuple(sorted(parse_tile(w, "opening tile")))
            else:
                raise InvalidMove(f"expected PLAYER=TILE in start, got {w!r}")
        if bare is not None:
            if player is None and len(state.players) == 1:
                player = state.players[0]  # solitaire: the reserve tile turned up opens
            if player is None:
                raise AmbiguousMove("who opens? add --by PLAYER, or write start ana=5-5-5 "
                                    "bob=4-4-4")
            who = self._who(state, player)
            if any(p == who for p, _ in claims):
                raise InvalidMove(f"{who} opens with {name(bare)}; do not list {who} again")
            return Start(who, bare, tuple(claims))
        if not claims:
            raise InvalidMove("start needs the opening tile: start ana=5-5-5 bob=4-4-4 "
                              "(everyone's best tile) or start 5-5-5 --by ana")
        if opener is None:  # no `vs`: the player who typed, else the strongest claim
            if player is not None and any(p == player for p, _ in claims):
                opener = player
            else:
                opener = max(claims, key=lambda c: strength(c[1]))[0]
        tile = dict(claims)[opener]
        return Start(opener, tile, tuple(c for c in claims if c[0] != opener))

    def _parse_end(self, state: State, words: list[str]) -> End:
        hands: dict[str, tuple[Tile, ...]] = {}
        for w in words:
            who, sep, rest = w.partition("=")
            match = [p for p in state.players if p.lower() == who]
            if not sep or not match:
                raise InvalidMove(f"expected PLAYER=TILE,TILE or PLAYER=- in end, got {w!r}")
            if match[0] in hands:
                raise InvalidMove(f"{match[0]} is named twice in end")
            got = () if rest in ("-", "") else tuple(
                tuple(sorted(parse_tile(t))) for t in rest.split(",") if t)
            hands[match[0]] = tuple(sorted(got))
        order = [(p, hands[p]) for p in state.players if p in hands]
        return End(tuple(order))

    def _parse_place(self, state: State, words: list[str], who: str, drawn: bool) -> Place:
        tile: tuple[int, int, int] | None = None
        cell: Cell | None = None
        given: tuple[int, int, int] | None = None
        i = 0
        while i < len(words):
            w = words[i]
            if w == "as":
                if i + 1 >= len(words):
                    raise InvalidMove("`as` needs the corners clockwise from the apex: as 3-1-2")
                given = parse_tile(words[i + 1], "corner reading")
                i += 2
                continue
            if CELL_RE.match(w) and cell is None:
                cell = parse_cell(w)
            elif TILE_RE.match(w) and tile is None:
                tile = parse_tile(w)
            elif CELL_RE.match(w) or TILE_RE.match(w):
                raise InvalidMove(f"a placement is one tile on one cell, like 1-2-3 U1,0; "
                                  f"{w.upper()} is one too many")
            else:
                raise InvalidMove(_unreadable(w))
            i += 1
        if tile is None or cell is None:
            raise InvalidMove(f"a placement needs a tile and a cell, like 1-2-3 U1,0; "
                              f"moves: {NOTATION}")
        t: Tile = tuple(sorted(tile))
        if given is not None:
            return Place(who, t, cell, given, drawn)
        return Place(who, t, cell, self._rotation(state, Place(who, t, cell, None, drawn)), drawn)

    def _rotation(self, state: State, move: Place) -> Tile | None:
        """The rotation that fits the numbers around the cell, None when none does (D3).

        An edge shared with a tile fixes two corners, and two corners fix the rotation of a
        one-sided tile: a legal cell never leaves a choice. Several fit only a cell with no
        neighbour, which D2 rejects; the printed order is kept for that report.
        """
        if not state.board:
            return move.tile
        fits = [r for r in rotations(move.tile) if not _mismatches(state, move.cell, r)]
        return fits[0] if fits else None

    def format(self, state: State, move: Move) -> str:
        if isinstance(move, Start):
            vs = " ".join(f"{p}={name(t)}" for p, t in move.claims)
            return f"start {move.player}={name(move.tile)}" + (f" vs {vs}" if vs else "")
        if isinstance(move, Place):
            text = f"{name(move.tile)} {cell_name(move.cell)}"
            if move.corners is not None:
                text += f" as {name(move.corners)}"
            return f"draw {text}" if move.drawn else text
        if isinstance(move, Draw):
            return "draw"
        if isinstance(move, Pass):
            return "pass"
        hands = " ".join(f"{p}={','.join(name(t) for t in ts) or '-'}" for p, ts in move.hands)
        return f"end {hands}".strip()

    # rules

    def to_move(self, state: State) -> str | None:
        if state.phase == "play" and state.turn is not None:
            return state.players[state.turn]
        return None

    def transition(self, state: State, move: Move) -> tuple[State, tuple[str, ...]]:
        after = self._apply(state, move)
        notes = self._notes(after)
        if isinstance(move, Start):
            unnamed = [p for p in state.players if p != move.player
                       and p not in dict(move.claims)]
            if unnamed:
                notes = (f"start rule checked without the best tile of {', '.join(unnamed)}",
                         *notes)
        return after, notes

    def violations(self, state: State, move: Move) -> list[Violation]:
        def v(rule: str, reason: str) -> Violation:
            return Violation(RULES[rule], reason)

        if state.phase == "over":
            return [v("end", "the game is over: start a new match with `referee new`")]
        if isinstance(move, End):
            return self._end_violations(state, move, v)
        if state.phase == "end":
            why = f"{state.out} went out" if state.out else "the round is blocked"
            return [v("end", f"{why}: tell the hands left with `end "
                             + " ".join(f"{p}=..." for p in self._to_tell(state)) + "`")]
        if isinstance(move, Start):
            return self._start_violations(state, move, v)
        if state.phase == "start":
            return [v("start", "the round has not started: it begins with `start "
                               "ana=5-5-5 bob=4-4-4` (everyone's best tile)")]
        out: list[Violation] = []
        now = self.to_move(state)
        if move.player != now:
            out.append(v("turn", f"it is {now}'s turn, not {move.player}'s"))
        if isinstance(move, Pass):
            if state.reserve > 0 and not _capped(state):
                out.append(v("pass", f"the reserve still has {state.reserve} tiles: draw "
                                     "instead of passing"))
            return out
        if isinstance(move, Draw) or (isinstance(move, Place) and move.drawn):
            if state.reserve == 0:
                out.append(v("pass", "the reserve is empty: pass instead of drawing"))
            elif _capped(state):
                out.append(v("pass", f"the {state.cap} draws this round allows are used: pass "
                                     "instead of drawing"))
            if state.draws >= 3:
                out.append(v("draw", "three tiles were already drawn this turn"))
        elif state.draws:
            out.append(v("draw", f"{move.player} drew {state.draws} tile(s) this turn: only the "
                                 "tile just drawn may be placed (`draw TILE CELL`), or draw "
                                 "again"))
        if isinstance(move, Place):
            out.extend(self._place_violations(state, move, v))
        return out

    def _start_violations(self, state: State, move: Start, v) -> list[Violation]:
        if state.phase != "start":
            return [v("start", f"round {state.round} has already started")]
        out = []
        named = [move.tile] + [t for _, t in move.claims]
        dupes = sorted({name(t) for t in named if named.count(t) > 1})
        if dupes:
            out.append(v("D5", f"{', '.join(dupes)} is named for two players; a tile exists "
                               "once"))
        for p, t in move.claims:
            if strength(t) > strength(move.tile):
                out.append(v("start", f"{p} holds {name(t)}, which beats {name(move.tile)}: "
                                      f"{p} opens"))
        return out

    def _place_violations(self, state: State, move: Place, v) -> list[Violation]:
        out = []
        c = move.cell
        if move.tile in state.used:
            out.append(v("D5", f"{name(move.tile)} is already on the table"))
        if c in state.board:
            out.append(v("D1", f"{cell_name(c)} already holds {name(state.board[c])}"))
        if not any(n in state.board for n in edge_neighbours(c)):
            out.append(v("D2", f"{cell_name(c)} shares no edge with a tile on the table"))
        if move.corners is None:
            spots = ", ".join(f"{CORNER_NAMES[c[0]][i]} {state.numbers.get(x, '?')}"
                              for i, x in enumerate(corners(c)))
            out.append(v("D3", f"no rotation of {name(move.tile)} fits {cell_name(c)}: its "
                               f"corners already read {spots} (clockwise from the apex)"))
            return out
        if sorted(move.corners) != list(move.tile) or move.corners not in rotations(move.tile):
            if sorted(move.corners) == list(move.tile):
                out.append(v("D4", f"{name(move.corners)} is the mirror image of "
                                   f"{name(move.tile)}: read clockwise it is "
                                   + " or ".join(name(r) for r in rotations(move.tile))))
            else:
                out.append(v("D4", f"{name(move.corners)} is not a reading of tile "
                                   f"{name(move.tile)}"))
            return out
        for i, want in _mismatches(state, c, move.corners):
            x = corners(c)[i]
            out.append(v("D3", f"the {CORNER_NAMES[c[0]][i]} corner of {cell_name(c)} (vertex "
                               f"{x[0]},{x[1]}) touches a {want}, the tile has a "
                               f"{move.corners[i]} there"))
        return out

    def _to_tell(self, state: State) -> list[str]:
        return [p for p in state.players if p != state.out]

    def _end_violations(self, state: State, move: End, v) -> list[Violation]:
        if state.phase != "end":
            if state.phase == "start":
                return [v("end", f"round {state.round} has not started yet")]
            return [v("end", "the round is not over: nobody has gone out and it is not "
                             "blocked (the reserve is empty and every player passed)")]
        out = []
        told = dict(move.hands)
        for p in self._to_tell(state):
            if p not in told:
                out.append(v("end", f"{p}'s hand is missing (write {p}=- for an empty hand)"))
            elif len(told[p]) != state.hands[state.index(p)]:
                out.append(v("end", f"{p} holds {state.hands[state.index(p)]} tile(s), "
                                    f"{len(told[p])} told"))
        if told.get(state.out):  # `cy=-` for the player who went out is true, so accepted
            out.append(v("end", f"{state.out} went out and holds no tiles"))
        every = [t for _, ts in move.hands for t in ts]
        for t in sorted(set(every)):
            if every.count(t) > 1:
                out.append(v("D5", f"{name(t)} is told twice; a tile exists once"))
            if t in state.used:
                out.append(v("D5", f"{name(t)} is on the table, it cannot be in a hand"))
        return out

    # effects

    def _apply(self, s: State, move: Move) -> State:
        r = s.rules
        rnd = s.round
        n = len(s.players)
        if isinstance(move, Start):
            i = s.index(move.player)
            cell = ("U", 0, 0)
            if n == 1:  # solitaire (Ruling): the tile comes from the reserve and scores nothing
                return _with(s, phase="play", board={cell: move.tile},
                             numbers=dict(zip(corners(cell), move.tile, strict=True)),
                             used=s.used | {move.tile}, reserve=s.reserve - 1, turn=0)
            items = [ScoreItem(move.player, value(move.tile), f"opening tile {name(move.tile)}",
                               rnd)]
            triple = len(set(move.tile)) == 1
            if move.tile == (0, 0, 0) and r.zero_triple_opening:
                items.append(ScoreItem(move.player, r.zero_triple_opening,
                                       "opening with 0-0-0", rnd))
            elif triple or not r.start_needs_triple:
                items.append(ScoreItem(move.player, r.start_bonus, "start bonus", rnd))
            return _with(
                s, phase="play", board={cell: move.tile},
                numbers=dict(zip(corners(cell), move.tile, strict=True)),
                used=s.used | {move.tile}, hands=_add(s.hands, i, -1), turn=(i + 1) % n,
                ledger=s.ledger + tuple(items))
        if isinstance(move, End):
            return self._end_round(s, move)
        i = s.index(move.player)
        if isinstance(move, Pass):
            why = "reserve empty" if s.reserve == 0 else "draw cap reached"
            item = ScoreItem(move.player, r.pass_penalty, f"pass ({why})", rnd)
            passes = s.passes + 1
            s = _with(s, ledger=s.ledger + (item,), passes=passes, turn=(i + 1) % n, draws=0)
            return _with(s, phase="end", turn=None) if passes >= n else s
        if isinstance(move, Draw):
            draws = s.draws + 1
            items = [ScoreItem(move.player, r.draw, f"draw {draws}", rnd)]
            if draws == 3 and r.third_miss:
                items.append(ScoreItem(move.player, r.third_miss, "third drawn tile not placed",
                                       rnd))
            s = _with(s, ledger=s.ledger + tuple(items), hands=_add(s.hands, i, 1),
                      reserve=s.reserve - 1, draws=draws, passes=0,
                      round_draws=s.round_draws + 1)
            if draws == 3 or s.reserve == 0 or _capped(s):  # Ruling: so does running out
                s = _with(s, turn=(i + 1) % n, draws=0)
            return s
        return self._place(s, move, i)

    def _place(self, s: State, move: Place, i: int) -> State:
        r, rnd, n = s.rules, s.round, len(s.players)
        items: list[ScoreItem] = []
        hands = s.hands
        reserve = s.reserve
        round_draws = s.round_draws
        if move.drawn:
            items.append(ScoreItem(move.player, r.draw, f"draw {s.draws + 1}", rnd))
            reserve -= 1
            round_draws += 1
        else:
            hands = _add(hands, i, -1)
        items.append(ScoreItem(move.player, value(move.tile), f"tile {name(move.tile)} at "
                                                              f"{cell_name(move.cell)}", rnd))
        board = {**s.board, move.cell: move.corners}
        numbers = {**s.numbers, **dict(zip(corners(move.cell), move.corners, strict=True))}
        neighbours = edge_neighbours(move.cell)
        shared = [k for k, c in enumerate(neighbours) if c in s.board]
        hexes = sum(all(c in board for c in hexagon(x)) for x in corners(move.cell))
        if hexes:
            label = "hexagon" if hexes == 1 else f"{hexes} hexagons"
            items.append(ScoreItem(move.player, r.hexagons[hexes - 1], f"{label} completed",
                                   rnd))
        elif len(shared) >= 2:
            items.append(ScoreItem(move.player, r.double, f"double match ({len(shared)} edges)",
                                   rnd))
        elif len(shared) == 1 and corners(move.cell)[shared[0]] in s.numbers:
            items.append(ScoreItem(move.player, r.bridge, "bridge", rnd))
        s = _with(s, board=board, numbers=numbers, used=s.used | {move.tile}, hands=hands,
                  reserve=reserve, draws=0, passes=0, turn=(i + 1) % n, round_draws=round_draws)
        if hands[i] == 0:
            items.append(ScoreItem(move.player, r.going_out, "going out (last tile)", rnd))
            s = _with(s, phase="end", out=move.player, turn=None)
        return _with(s, ledger=s.ledger + tuple(items))

    def _end_round(self, s: State, move: End) -> State:
        rnd = s.round
        totals = {p: sum(value(t) for t in ts) for p, ts in move.hands if p != s.out}
        items: list[ScoreItem] = []
        if s.out is not None:
            got = sum(totals.values())
            detail = ", ".join(f"{p} {v}" for p, v in totals.items())
            items.append(ScoreItem(s.out, got, f"tiles left in the other hands ({detail})", rnd))
        else:
            low = min(totals.values())
            for p, own in totals.items():
                if own == low:
                    others = sum(totals.values()) - own
                    items.append(ScoreItem(p, others - own, f"blocked round: others' hands "
                                                            f"{others} − own {own}", rnd))
        s = _with(s, ledger=s.ledger + tuple(items))
        if max(_totals(s).values()) >= s.target:
            return _with(s, phase="over", turn=None, out=None)
        return _deal(_with(s, round=rnd + 1))

    def _notes(self, s: State) -> tuple[str, ...]:
        if s.phase == "end":
            who = f"{s.out} went out" if s.out else "the round is blocked"
            names = " ".join(f"{p}=..." for p in self._to_tell(s))
            return (f"{who}: tell the hands left, `end {names}`",)
        if s.phase == "start" and s.round > 1:
            return (f"round {s.round - 1} over; round {s.round} begins with `start`",)
        if s.draws:
            return (f"{self.to_move(s)} drew {s.draws}: draw again or place the drawn tile",)
        return ()

    # results

    def ledger(self, state: State) -> tuple[ScoreItem, ...]:
        return state.ledger

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        tot = _totals(state)
        best = max(tot.values())
        return Outcome(tuple(p for p, v in tot.items() if v == best),
                       f"{best} points after round {state.round} (target {state.target})")

    def legal_moves(self, state: State) -> list[Move]:
        """Every placement and draw on the board as the table sees it (hands are private, so
        every tile not on the table is offered); none before the start and at round end, where
        the table tells what the hands hold."""
        if state.phase != "play":
            return []
        who = self.to_move(state)
        out: list[Move] = []
        can_draw = state.reserve > 0 and not _capped(state)
        if not can_draw and not state.draws:
            out.append(Pass(who))
        if can_draw and state.draws < 3:
            out.append(Draw(who))
        spots = {c for cell in state.board for c in edge_neighbours(cell)} - set(state.board)
        for cell in sorted(spots):
            for t in tiles():
                if t in state.used:
                    continue
                for rot in rotations(t):
                    if not _mismatches(state, cell, rot):
                        for drawn in ((True,) if state.draws else (False, True)):
                            if drawn and (not can_draw or state.draws >= 3):
                                continue
                            if not drawn and state.hands[state.turn] == 0:
                                continue
                            out.append(Place(who, t, cell, rot, drawn))
        return out

    # display

    def show(self, state: State) -> str:
        lines = [f"round {state.round} · {state.variant} rules · target {state.target}"]
        if state.board:
            tags = {c: f"#{tiles()[tuple(sorted(t))][0]}" for c, t in state.board.items()}
            lines.append(_tripple_board.draw(state.board, state.numbers, tags))
        else:
            lines.append("(empty table)")
        tot = _totals(state)
        for k, p in enumerate(state.players):
            mark = "→" if state.turn == k and state.phase == "play" else " "
            lines.append(f"{mark} {p:<10} {tot[p]:>4} points  {state.hands[k]:>2} tiles in hand")
        lines.append(f"reserve: {state.reserve} tiles" + (
            f", {state.round_draws} of {state.cap} draws used this round" if state.cap else ""))
        status = {
            "start": "next: `start` with everyone's best tile",
            "play": f"to move: {self.to_move(state)}" + (
                f" (drew {state.draws} this turn)" if state.draws else ""),
            "end": (f"{state.out} went out" if state.out else "blocked") + ": tell the hands "
                   "left with `end`",
            "over": "game over",
        }[state.phase]
        lines.append(status)
        return "\n".join(lines)

    def position(self, state: State) -> str:
        """The position as text that load_position reads back."""
        from referee.games._tripple_position import write

        return write(state)

    def load_position(self, state: State, text: str) -> State:
        """A position typed in (see position()): for disputes about a concrete board."""
        from referee.games._tripple_position import read

        return read(state, text)


def _mismatches(state: State, cell: Cell, reading: Tile) -> list[tuple[int, int]]:
    """(corner index, number on the table) for each corner whose vertex disagrees (D3)."""
    out = []
    for i, x in enumerate(corners(cell)):
        have = state.numbers.get(x)
        if have is not None and have != reading[i]:
            out.append((i, have))
    return out


def _capped(s: State) -> bool:
    """The round's draw cap (option draw-cap) is used up."""
    return s.cap is not None and s.round_draws >= s.cap


def _add(hands: tuple[int, ...], i: int, delta: int) -> tuple[int, ...]:
    return hands[:i] + (hands[i] + delta,) + hands[i + 1:]


def _totals(s: State) -> dict[str, int]:
    out = dict.fromkeys(s.players, 0)
    for item in s.ledger:
        out[item.player] += item.points
    return out


GAME = TrippleDomino()
