"""The scorepad's rules: entries within the sheet's checks, rounds that close once everyone has
scored, the end the sheet names, and the winner by total and tie breaks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from referee.engine import (
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
from referee.games.scorepad import notation, position, view
from referee.games.scorepad.model import (
    Finish,
    Move,
    Round,
    Score,
    Spec,
    State,
    spec_from_options,
    spec_from_scoring,
)

RULES = {
    "S1": RuleRef("S1", "what a player scores in a category in one round stays within the "
                        "category's min and max"),
    "S2": RuleRef("S2", "a round closes once every player has an entry in it (0 counts)"),
    "S3": RuleRef("S3", "the game ends when the last round closes, when a round closes with "
                        "someone at the target, or at `finish`; nothing is scored after"),
    "S4": RuleRef("S4", "the highest total wins (the lowest when lowest wins); the tie breaks "
                        "compare category totals, most first; a tie left is a shared win"),
}
DEFAULTS = Spec().options()
OPTIONS = (
    Option("categories", DEFAULTS["categories"], "the sheet's columns: coins,wonders,military"),
    Option("rounds", "", "the game ends when this round closes"),
    Option("target", "", "the game ends when a round closes with someone at this total"),
    Option("lowest-wins", "no", "the lowest total wins", ("yes", "no")),
    Option("tie-breaks", "", "category totals that break a tie, in order: coins,military"),
    Option("limits", "", "checks of a round's entries: military=-6..18,coins=0.."),
    Option("seats", "", "how many may play: 4 or 2-5"),
    Option("game-name", "", "the game this sheet keeps score of (set by `referee new FOLDER`)"),
    Option("definition", "", "the folder its [scoring] was read from (set by `referee new`)"),
)


class Scorepad(Rules[State, Move]):
    name = "scorepad"
    title = "Score sheet for any game"
    min_players, max_players = 1, 12
    options = OPTIONS
    rules = RULES
    notation = notation.NOTATION
    sample = Sample(("ana", "bob"), ("ana coins 5", "bob: coins 3", "bob military -1", "round",
                                     "ana military 2"),
                    {"categories": "coins,military", "rounds": "3",
                     "limits": "military=-6..18"})

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> State:
        spec = spec_from_options(options)
        if spec.seats and not spec.seats[0] <= len(players) <= spec.seats[1]:
            lo, hi = spec.seats
            raise RefereeError(f"{spec.game or 'this sheet'} takes {lo}-{hi} players, not "
                               f"{len(players)}", "--players")
        for p in players:
            if p.lower() in spec.categories or p.lower() in ("round", "finish"):
                raise RefereeError(f"player {p!r} has the name of a category or move: moves "
                                   "could not tell them apart", "--players")
        return State(tuple(players), spec)

    def definition_options(self, folder: Path) -> dict[str, str] | None:
        """The sheet of a designer's game folder, when its game.toml has a [scoring] table."""
        from referee.components import scoring_table

        found = scoring_table(folder)
        if found is None:
            return None
        game, scoring = found
        return spec_from_scoring(scoring, game, str(folder.resolve())).options()

    def photo_deck(self, options: Mapping[str, str]) -> str | None:
        """The game this sheet keeps score of: a photo of its table shows that game's cards."""
        return spec_from_options(options).game or None

    def lowest_wins(self, options: Mapping[str, str]) -> bool:
        return spec_from_options(options).lowest_wins

    def parse(self, state: State, text: str, player: str | None = None) -> Move:
        return notation.parse_move(state, text, player)

    def format(self, state: State, move: Move) -> str:
        return notation.format_move(move)

    def violations(self, state: State, move: Move) -> list[Violation]:
        if state.over:
            return [Violation(RULES["S3"], "the game is over")]
        if isinstance(move, Score):
            low, high = state.spec.limit(move.category)
            now = state.in_round(move.player, move.category) + move.points
            so_far = f" ({now} in round {state.round} with this entry)" if now != move.points \
                else ""
            if low is not None and now < low:
                return [Violation(RULES["S1"], f"{move.category} is at least {low}, not "
                                               f"{move.points}{so_far}")]
            if high is not None and now > high:
                return [Violation(RULES["S1"], f"{move.category} is at most {high}, not "
                                               f"{move.points}{so_far}")]
            return []
        waiting = state.waiting()
        if isinstance(move, Round) and waiting:
            return [Violation(RULES["S2"], f"round {state.round}: no entry yet for "
                                           f"{', '.join(waiting)} (e.g. `{waiting[0]} "
                                           f"{state.spec.categories[0]} 0`)")]
        return []

    def transition(self, state: State, move: Move) -> tuple[State, list[str]]:
        if isinstance(move, Score):
            item = ScoreItem(move.player, move.points, move.category, state.round)
            return replace(state, ledger=state.ledger + (item,)), []
        over = isinstance(move, Finish) or self._ends(state)
        after = replace(state, round=state.round if over else state.round + 1, over=over)
        if over:
            return after, [f"round {state.round} closed: the game is over"]
        return after, [f"round {state.round} closed; round {after.round} begins"]

    def _ends(self, state: State) -> bool:
        spec = state.spec
        if spec.rounds is not None and state.round >= spec.rounds:
            return True
        tot = totals(state.ledger, state.players)
        return spec.target is not None and any(v >= spec.target for v in tot.values())

    def legal_moves(self, state: State) -> list[Move]:
        if state.over:
            return []
        moves: list[Move] = []
        for p in state.players:
            for c in state.spec.categories:
                low, high = state.spec.limit(c)
                for v in sorted({0, 1, 5, *(x for x in (low, high) if x is not None)}):
                    moves.append(Score(p, c, v))
        moves.append(Round())
        moves.append(Finish())
        return self.accepted(state, moves)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        return winners(state)

    def show(self, state: State) -> str:
        return view.show(state)

    def position(self, state: State) -> str:
        return position.write_position(state)

    def load_position(self, state: State, text: str) -> State:
        return position.read_position(state, text)

    def picture(self, state: State) -> str:
        """The sheet as SVG; its drawing code is imported only when a picture is asked for."""
        from referee.games.scorepad import picture

        return picture.picture(self, state)


def winners(state: State) -> Outcome:
    """S4: by total, then by each tie-break category's total, most first."""
    spec = state.spec
    tot = totals(state.ledger, state.players)
    table = state.table()
    sign = -1 if spec.lowest_wins else 1

    def key(p: str) -> tuple[int, ...]:
        return (sign * tot[p], *(table[p][c] for c in spec.tie_breaks))

    best = max(key(p) for p in state.players)
    top = tuple(p for p in state.players if key(p) == best)
    total = tot[top[0]]
    how = "lowest" if spec.lowest_wins else "highest"
    tied = [p for p in state.players if tot[p] == total]
    broke = f", tie broken on {', '.join(spec.tie_breaks)}" if len(tied) > len(top) else ""
    shared = " (shared)" if len(top) > 1 else ""
    return Outcome(top, f"{how} total {total}{broke}{shared}")


GAME = Scorepad()
