"""Tripple Domino's rules: the game contract (parse, judge, apply, show) over the model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from referee.engine import (
    Option,
    Outcome,
    RefereeError,
    Rules,
    Sample,
    ScoreItem,
    Violation,
    totals,
)
from referee.games.tripple_domino import model
from referee.games.tripple_domino.board import (
    CORNER_NAMES,
    corners,
    edge_neighbours,
    free_cells,
    hexagon,
)
from referee.games.tripple_domino.model import (
    NOTATION,
    RULES,
    VARIANTS,
    Draw,
    End,
    Move,
    Pass,
    Place,
    Start,
    State,
    Tile,
    add_to,
    capped,
    cell_name,
    deal,
    held_elsewhere,
    mismatches,
    name,
    rotations,
    strength,
    tiles,
    to_tell,
    value,
)
from referee.games.tripple_domino.notation import format_move, parse_move


class TrippleDomino(Rules):
    name = "tripple-domino"
    title = "Tripple Domino"
    min_players = 1  # solitaire: a reserve tile opens, the player may cap the draws
    max_players = 6
    move_words = frozenset({"vs", "as", "at", "on"})  # `start ana=5-5-5 vs bob=4-4-4`
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

    def card_name(self, name: str, fields: Mapping[str, object]) -> str:
        return model.card_name(name, fields)

    def card_typed(self, text: str) -> str:
        return model.card_typed(text)

    def score_kind(self, item: ScoreItem) -> str:
        return model.score_kind(item.label)

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
        return deal(State(tuple(players), variant, rules, target, cap=cap))

    # notation

    def parse(self, state: State, text: str, player: str | None = None) -> Move:
        return parse_move(self, state, text, player)

    def format(self, state: State, move: Move) -> str:
        return format_move(state, move)

    # rules

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
                             + " ".join(f"{p}=..." for p in to_tell(state)) + "`")]
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
            if state.reserve > 0 and not capped(state):
                out.append(v("pass", f"the reserve still has {state.reserve} tiles: draw "
                                     "instead of passing"))
            return out
        if isinstance(move, Draw) or (isinstance(move, Place) and move.drawn):
            if state.reserve == 0:
                out.append(v("pass", "the reserve is empty: pass instead of drawing"))
            elif capped(state):
                out.append(v("pass", f"the {state.cap} draws this round allows are used: pass "
                                     "instead of drawing"))
            if state.draws >= 3:
                out.append(v("draw", "three tiles were already drawn this turn"))
        # A placement right after `draw` places the tile just drawn: the referee cannot see
        # it, so the table names it (it went into the hand count with the draw).
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
            out.append(v("D5", f"{name(move.tile)} is already on the table{placed(state, move.tile)}"))
        elif why := held_elsewhere(state, move.tile, move.player, move.drawn):
            out.append(v("D5", why))
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
        for i, want in mismatches(state, c, move.corners):
            x = corners(c)[i]
            out.append(v("D3", f"the {CORNER_NAMES[c[0]][i]} corner of {cell_name(c)} (vertex "
                               f"{x[0]},{x[1]}) touches a {want}, the tile has a "
                               f"{move.corners[i]} there"))
        return out

    def _end_violations(self, state: State, move: End, v) -> list[Violation]:
        if state.phase != "end":
            if state.phase == "start":
                return [v("end", f"round {state.round} has not started yet")]
            return [v("end", "the round is not over: nobody has gone out and it is not "
                             "blocked (the reserve is empty and every player passed)")]
        out = []
        told = dict(move.hands)
        for p in to_tell(state):
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
        for t, holder in sorted(state.held.items()):
            if holder in told and t not in told[holder]:
                out.append(v("D5", f"{holder} declared {name(t)} at the start and has not played "
                                   f"it: it is in {holder}'s hand"))
            for p, ts in move.hands:
                if p != holder and t in ts:
                    out.append(v("D5", f"{name(t)} is in {holder}'s hand (declared at the start), "
                                       f"not {p}'s"))
        return out

    def _apply(self, s: State, move: Move) -> State:
        r = s.rules
        rnd = s.round
        n = len(s.players)
        if isinstance(move, Start):
            i = s.index(move.player)
            cell = ("U", 0, 0)
            if n == 1:  # solitaire (Ruling): the tile comes from the reserve and scores nothing
                return replace(s, phase="play", board={cell: move.tile},
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
            return replace(
                s, phase="play", board={cell: move.tile},
                numbers=dict(zip(corners(cell), move.tile, strict=True)),
                used=s.used | {move.tile}, held={t: p for p, t in move.claims},
                hands=add_to(s.hands, i, -1), turn=(i + 1) % n, ledger=s.ledger + tuple(items))
        if isinstance(move, End):
            return self._end_round(s, move)
        i = s.index(move.player)
        if isinstance(move, Pass):
            why = "reserve empty" if s.reserve == 0 else "draw cap reached"
            item = ScoreItem(move.player, r.pass_penalty, f"pass ({why})", rnd)
            passes = s.passes + 1
            s = replace(s, ledger=s.ledger + (item,), passes=passes, turn=(i + 1) % n, draws=0)
            return replace(s, phase="end", turn=None) if passes >= n else s
        if isinstance(move, Draw):
            draws = s.draws + 1
            items = [ScoreItem(move.player, r.draw, f"draw {draws}", rnd)]
            if draws == 3 and r.third_miss:
                items.append(ScoreItem(move.player, r.third_miss, "third drawn tile not placed",
                                       rnd))
            s = replace(s, ledger=s.ledger + tuple(items), hands=add_to(s.hands, i, 1),
                      reserve=s.reserve - 1, draws=draws, passes=0,
                      round_draws=s.round_draws + 1)
            if draws == 3 or s.reserve == 0 or capped(s):  # Ruling: so does running out
                s = replace(s, turn=(i + 1) % n, draws=0)
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
            hands = add_to(hands, i, -1)
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
        held = {t: p for t, p in s.held.items() if t != move.tile}
        s = replace(s, board=board, numbers=numbers, used=s.used | {move.tile}, held=held,
                    hands=hands, reserve=reserve, draws=0, passes=0, turn=(i + 1) % n,
                    round_draws=round_draws)
        if hands[i] == 0:
            items.append(ScoreItem(move.player, r.going_out, "going out (last tile)", rnd))
            s = replace(s, phase="end", out=move.player, turn=None)
        return replace(s, ledger=s.ledger + tuple(items))

    def _end_round(self, s: State, move: End) -> State:
        rnd = s.round
        left = {p: sum(value(t) for t in ts) for p, ts in move.hands if p != s.out}
        items: list[ScoreItem] = []
        if s.out is not None:
            got = sum(left.values())
            detail = ", ".join(f"{p} {v}" for p, v in left.items())
            items.append(ScoreItem(s.out, got, f"tiles left in the other hands ({detail})", rnd))
        else:
            low = min(left.values())
            for p, own in left.items():
                if own == low:
                    others = sum(left.values()) - own
                    items.append(ScoreItem(p, others - own, f"blocked round: others' hands "
                                                            f"{others} − own {own}", rnd))
        s = replace(s, ledger=s.ledger + tuple(items))
        if max(totals(s.ledger, s.players).values()) >= s.target:
            return replace(s, phase="over", turn=None, out=None)
        return deal(replace(s, round=rnd + 1))

    def _notes(self, s: State) -> tuple[str, ...]:
        if s.phase == "end":
            who = f"{s.out} went out" if s.out else "the round is blocked"
            names = " ".join(f"{p}=..." for p in to_tell(s))
            return (f"{who}: tell the hands left, `end {names}`",)
        if s.phase == "start" and s.round > 1:
            return (f"round {s.round - 1} over; round {s.round} begins with `start`",)
        if s.draws:
            free = min(free_cells(s.board), default=("U", 0, 1))  # a cell a tile can go
            return (f"{self.to_move(s)} drew {s.draws}: place the drawn tile by naming it "
                    f"(e.g. `3-4-5 {cell_name(free)}`), or draw again",)
        return ()

    def pending(self, state: State) -> tuple[str, ...]:
        """A tile drawn and kept waits to be placed (or another drawn): said on the page."""
        return self._notes(state) if state.draws else ()

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

    def public_moves(self, state: State) -> list[Move]:
        """The placements, draws and passes; the start and the round's end are typed from the
        private hands, so their form is said instead (a solitaire start: the reserve's tile)."""
        if state.phase == "start" and len(state.players) == 1:
            due = ("`start TILE` (the tile turned up from the reserve, like `start 3-4-5`), "
                   "unknown to the referee")
        elif state.phase == "start":
            due = (f"`start {' '.join(f'{p}=TILE' for p in state.players)}` (everyone's best "
                   "tile, like 5-5-5; the highest opens), from hands only the players see")
        elif state.phase == "end":
            due = (f"`end {' '.join(self._hand_form(state, p) for p in to_tell(state))}` (the "
                   "tiles left in each hand, - for none), from hands only the players see")
        else:
            return self.legal_moves(state)
        raise self.unlisted(due)

    @staticmethod
    def _hand_form(state: State, player: str) -> str:
        """`bob=3-4-5,TILE`: the tiles a hand holds, the one declared at the start by name."""
        known = [name(t) for t, p in sorted(state.held.items()) if p == player]
        n = state.hands[state.index(player)]
        return f"{player}=" + (",".join(known + ["TILE"] * (n - len(known))) or "-")

    def legal_moves(self, state: State) -> list[Move]:
        """Every placement and draw on the board as the table sees it (hands are private, so
        every tile not on the table is offered); none before the start and at round end, where
        the table tells what the hands hold."""
        if state.phase != "play":
            return []
        who = self.to_move(state)
        out: list[Move] = []
        can_draw = state.reserve > 0 and not capped(state)
        if not can_draw and not state.draws:
            out.append(Pass(who))
        if can_draw and state.draws < 3:
            out.append(Draw(who))
        spots = {c for cell in state.board for c in edge_neighbours(cell)} - set(state.board)
        free = [(t, rotations(t)) for t in tiles() if t not in state.used]
        for cell in sorted(spots):
            need = [state.numbers.get(x) for x in corners(cell)]  # as mismatches() reads them
            for t, readings in free:
                for rot in readings:
                    if all(n is None or n == r for n, r in zip(need, rot, strict=True)):
                        for drawn in (False, True):  # the tile drawn, or another
                            if drawn and (not can_draw or state.draws >= 3):
                                continue
                            if not drawn and state.hands[state.turn] == 0:
                                continue
                            if held_elsewhere(state, t, who, drawn):
                                continue
                            out.append(Place(who, t, cell, rot, drawn))
        return out

    # the position

    def to_move(self, state: State) -> str | None:
        if state.phase == "play" and state.turn is not None:
            return state.players[state.turn]
        return None


    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        tot = totals(state.ledger, state.players)
        best = max(tot.values())
        return Outcome(tuple(p for p, v in tot.items() if v == best),
                       f"{best} points after round {state.round} (target {state.target})")

    def show(self, state: State) -> str:
        """The board when it fits 80x24, else the part around the latest tile (view.py)."""
        from referee.games.tripple_domino import view  # only the commands that draw load it

        return view.show(state, self.to_move(state))

    def show_full(self, state: State) -> str:
        from referee.games.tripple_domino import view

        return view.full(state, self.to_move(state))

    def query(self, state: State, text: str) -> str:
        """`ask where 0-3-5`: every free cell the tile fits, with its rotation and points."""
        from referee.games.tripple_domino import questions

        return questions.query(self, state, text)

    # disputes: positions typed in, questions, secrets

    def position(self, state: State) -> str:
        """The position as text that load_position reads back (the reader and writer are
        imported here: only `position` and `new --position` need them)."""
        from referee.games.tripple_domino.position import write_position

        return write_position(state)

    def load_position(self, state: State, text: str) -> State:
        """A position typed in (see position()): for disputes about a concrete board."""
        from referee.games.tripple_domino.position import read_position

        return read_position(state, text)

    def photo(self, seen, geometry):
        """The tiles' cells and turns from their markers; numpy is imported only here."""
        from referee.games.tripple_domino import photo

        return photo.read(seen, geometry)

    def photo_move(self, state: State, cells):
        """The tile the photo shows beside the table's board, where and how it lies."""
        from referee.games.tripple_domino import photo

        if not state.board:
            return None, "no tile is on the table yet: type the start"
        return photo.move(state.board, cells)

    def picture(self, state: State) -> str:
        """The board as SVG; its drawing code is imported only when a picture is asked for."""
        from referee.games.tripple_domino import picture

        return picture.picture(self, state)


def placed(state: State, tile: Tile) -> str:
    """Where a tile already on the table lies and who placed it (` at D-1,0, placed by bob`),
    read from the board and the ledger item its placement scored: a player who types a tile
    they do not hold learns whose it is."""
    cell = next((c for c, t in state.board.items() if tuple(t) in rotations(tile)), None)
    if cell is None:
        return ""
    labels = (f"tile {name(tile)} at {cell_name(cell)}", f"opening tile {name(tile)}")
    who = next((i.player for i in state.ledger if i.label in labels), None)
    return f" at {cell_name(cell)}" + (f", placed by {who}" if who else "")


GAME = TrippleDomino()
