"""Thricewise's rules: the game contract (imports go one way: decktet, model <- position,
display <- rules)."""

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
from referee.games.thricewise import model, notation, position, view
from referee.games.thricewise.decktet import card_by_id, deck
from referee.games.thricewise.model import (
    ORIGIN,
    RULES,
    Grid,
    Place,
    Reveal,
    SetAside,
    State,
    cell_name,
    cell_problems,
    grid_shape,
    legal_cells,
    score_placement,
)


class Thricewise(Rules):
    name = "thricewise"
    title = "Thricewise"
    bundled_deck = "decktet"  # the cards a note names (templates/decktet)
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

    def score_kind(self, item: ScoreItem) -> str:
        return model.score_kind(item.label)

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> State:
        mode = options.get("deferred", "final")
        if mode not in ("final", "any-turn"):
            raise RefereeError(f"option deferred={mode!r} is not one of final, any-turn "
                               "(--option deferred)")
        n = len(players)
        return State(tuple(players), mode, hands=(0,) * n, deferred=((),) * n)

    # notation, the board as text, positions: one module each (referee/games/<game>/ shape)

    def parse(self, state: State, text: str, player: str | None = None):
        return notation.parse_move(self, state, text, player)

    def format(self, state: State, move) -> str:
        return notation.format_move(self, state, move)

    def show(self, state: State) -> str:
        return view.show(self, state)

    def position(self, state: State) -> str:
        return position.write_position(self, state)

    def load_position(self, state: State, text: str) -> State:
        return position.read_position(self, state, text)

    def query(self, state: State, text: str) -> str:
        return position.query(self, state, text)

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
        if move.card not in waiting:  # where the card is, not only where it is not
            where = self.where_is(state, move.card)
            said = f"is {where}" if where else "was not revealed (unseen: in a hand or the deck)"
            return [Violation(RULES["T-turn"], f"{c.name} {said}, not waiting to be placed; "
                                               f"next is {owner}'s {card_by_id(nxt).label}")]
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

    def where_is(self, state: State, card: int) -> str | None:
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
            where = self.where_is(state, cid)
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
        return self.advance(state, notes), notes

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

    def advance(self, state: State, notes: list[str]) -> State:
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

    def public_moves(self, state: State) -> list:
        """The placements of the card waiting; the starting grid and a reveal are not listed
        (the cards come from the shuffled deck and the private hands): their form is said."""
        if state.phase == "grid":
            rows, cols = grid_shape(len(state.players))
            form = " / ".join([", ".join(["CARD"] * cols)] * rows)
            raise self.unlisted(f"the starting grid turned up from the deck, `grid {form}` "
                                f"({rows} rows of {cols} cards, each a name like Journey or a "
                                "rank and suits like 3 Moons Waves)")
        if state.phase == "reveal":
            form = ", ".join(f"{p} CARD" for p in state.players)
            raise self.unlisted("the reveal of the cards everyone chose from their private "
                                f"hands, `reveal {form}`")
        return self.legal_moves(state)

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


    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        tot = totals(state.ledger, state.players)
        best = max(tot.values())
        winners = tuple(p for p in state.players if tot[p] == best)
        scores = ", ".join(f"{p} {v}" for p, v in tot.items())
        shared = "shared win, " if len(winners) > 1 else ""
        return Outcome(winners, f"{shared}highest total {best} ({scores})")

    # disputes: positions typed in, questions, secrets

    def picture(self, state: State) -> str:
        """The board as SVG; its drawing code is imported only when a picture is asked for."""
        from referee.games.thricewise import picture

        return picture.picture(self, state)


GAME = Thricewise()
