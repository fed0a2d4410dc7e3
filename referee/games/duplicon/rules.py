"""Duplicon's rules: the game contract over model, play, position and display (imports go one way)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from referee.engine import (
    Draft,
    Option,
    Outcome,
    RefereeError,
    RuleRef,
    Rules,
    Sample,
    ScoreItem,
    Violation,
    totals,
)
from referee.games.duplicon import notation, position, view
from referee.games.duplicon.model import (
    HOLE,
    NOTATION,
    POSITIONS,
    RULES,
    UNKNOWN,
    Draw,
    Exchange,
    Move,
    Open,
    Play,
    Replay,
    Reveal,
    State,
    Steal,
    card_types,
    deal,
)
from referee.games.duplicon.play import count_problems, preconditions, resolve


class Duplicon(Rules):
    """The Game protocol for Duplicon."""

    name = "duplicon"
    title = "Duplicon"
    min_players = 2
    max_players = 4
    move_words = frozenset(notation.VERBS)  # `steal steal ...` is read as the verb typed twice
    options = (Option("target", "100", "total that ends the game at the end of a round"),)
    rules: Mapping[str, RuleRef] = RULES
    notation = NOTATION
    sample = Sample(("ana", "bob"), ("open a1=orange c3=blue", "play blue c3=blue", "draw"))

    # setup

    def score_kind(self, item: ScoreItem) -> str:
        """`3 won`, `2 in hand (−2 each)`, `1 in play zone (−3 each)` (play.py writes them) by
        kind, whatever the count: what `referee playtests` sums by."""
        for end, kind in ((" won", "won"), (" in hand", "in hand"),
                          (" in play zone", "in play zone")):
            if re.fullmatch(rf"\d+{end}( \(.*\))?", item.label):
                return kind
        return item.label

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
        deal(state)
        return state.done()

    # notation, the board as text, positions: one module each (referee/games/<game>/ shape)

    def parse(self, state: State, text: str, player: str | None = None) -> Move:
        return notation.parse_move(state, text, player)

    def format(self, state: State, move: Move) -> str:
        return notation.format_move(state, move)

    # rules

    def violations(self, state: State, move: Move) -> list[Violation]:
        return preconditions(state, move) or count_problems(state, move)

    def transition(self, state: State, move: Move) -> tuple[State, list[str]]:
        s = resolve(state, move)
        return s.done(), s.notes

    def public_moves(self, state: State) -> list[Move]:
        """Not listed: a move is typed with what its flips showed, which nobody knows before."""
        raise RefereeError("duplicon moves are typed with what the flipped cards showed, so "
                           "they cannot be listed before: a turn is play, replay, steal, "
                           "reveal, draw or exchange (`referee check MOVE` judges one)",
                           "referee moves")

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


    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def with_corrections(self, state: State, items: tuple[ScoreItem, ...]) -> State:
        """The corrected totals also decide a finished game (an adjustment is a correction):
        the outcome kept in the state was read from the totals as played. A tie left by a
        correction after the end is a shared win (no round is left to break it)."""
        state = super().with_corrections(state, items)
        if state.outcome is None:
            return state
        tot = totals(state.ledger, state.players)
        top = max(tot.values())
        leaders = tuple(p for p in state.players if tot[p] == top)
        verb = "share" if len(leaders) > 1 else "has"
        return replace(state, outcome=Outcome(leaders, f"{' and '.join(leaders)} {verb} {top}, "
                                                       "the highest total with the table's "
                                                       "corrections"))

    def show(self, state: State) -> str:
        return view.show(state)

    # disputes: positions typed in, questions, secrets

    def position(self, state: State) -> str:
        return position.write_position(state)

    def load_position(self, state: State, text: str) -> State:
        return position.read_position(state, text)

    def picture(self, state: State) -> str:
        """The board as SVG; its drawing code is imported only when a picture is asked for."""
        from referee.games.duplicon import picture

        return picture.picture(self, state)

    def photo(self, seen, geometry):
        """The grid from the cards' markers, backs face down; numpy is imported only here."""
        from referee.components import cards
        from referee.games.duplicon import photo

        types = {i: f"{c['color']}-{c['shape']}"
                 for i, c in cards(self.name, ("kind", "color", "shape")) if c["kind"] == "type"}
        return photo.read(seen, geometry, types)


GAME = Duplicon()
