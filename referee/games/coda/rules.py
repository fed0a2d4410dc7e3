"""Coda's rules: the game contract, put together from notation, checks, effects, deduction,
sealing and display (imports go one way: each of those knows nothing of this module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.engine import Option, Outcome, RefereeError, Rules, Sample, ScoreItem, Violation
from referee.games.coda import checks, deduction, effects, notation, position, sealing, view
from referee.games.coda.model import (
    RULES,
    Draw,
    Expose,
    Guess,
    Place,
    State,
    Stop,
    Unseal,
    new_round,
    outcome_of,
    value_word,
)


class Coda(Rules):
    name = "coda"
    title = "Coda"
    bgg_id = 8946  # boardgamegeek.com/boardgame/8946, "Da Vinci Code" (Coda, Eiji Wakasugi)
    min_players = 2
    max_players = 4
    move_words = frozenset(notation.VERBS + notation.FILLERS)  # `guess at 2 7 hit` loses `at`
    options = (
        Option("game", "basic", "basic (no dashes) or advanced (two dashes, 'dash' guesses)",
               ("basic", "advanced")),
        Option("rounds", "1", "1 for a single game, 3 for the tournament scoring", ("1", "3")),
        Option("sealed", "no", "yes: every hidden tile must be sealed (salted hash) when it "
               "enters a row, checked against the answers at the end", ("no", "yes")),
    )
    rules = RULES
    notation = ("row ana black white white black; draw white; guess ben 2 7 hit|miss; "
                "stop at 3; place 9 at 3; reveal 2 9; tally 3 7 11; seal ana (--secret); "
                "unseal ana PASSPHRASE")
    sample = Sample(("ana", "ben", "cy"), (
        "row ana black black white white", "row ben black white black white",
        "row cy white black white black", "draw black", "guess ben 1 0 hit", "guess cy 2 5 hit",
        "guess cy 3 5 hit", "guess ben 2 3 miss", "place 4 at 3", "draw white"))

    # setup

    def score_kind(self, item: ScoreItem) -> str:
        """`correct guess: bob's tile 2 is w5` is a correct guess (referee/games/coda/
        effects.py writes the labels): the kinds `referee playtests` sums by."""
        for start, kind in (("correct guess", "correct guesses"), ("revealed", "last tiles"),
                            ("won round", "rounds won"), ("tiles still hidden", "hidden tiles")):
            if item.label.startswith(start):
                return kind
        return item.label

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> State:
        game = options.get("game", "basic")
        rounds = options.get("rounds", "1")
        sealed = options.get("sealed", "no")
        if game not in ("basic", "advanced") or rounds not in ("1", "3") or sealed not in (
                "no", "yes"):
            raise RefereeError("coda options: game=basic|advanced, rounds=1|3, sealed=no|yes")
        state = State(tuple(players), game == "advanced", int(rounds), sealed == "yes")
        return new_round(state, 1)

    # notation

    def parse(self, state: State, text: str, player: str | None = None):
        return notation.parse_move(state, text, player)

    def format(self, state: State, move) -> str:
        if isinstance(move, Unseal):  # the log keeps the round's key, never the passphrase
            move = Unseal(move.player, sealing.public_unseal(state, move.player, move.passphrase))
        return notation.format_move(state, move)

    # rules

    def violations(self, state: State, move) -> list[Violation]:
        return checks.violations(state, move)

    def transition(self, state: State, move) -> tuple[State, list[str]]:
        return effects.transition(state, move)

    def public_moves(self, state: State) -> list:
        """The turn's moves; the rows as dealt, the seals and the winner's tally are typed
        from tiles only their owners see, so their form is said instead."""
        due = notation.private_move_due(state)
        if due:
            raise self.unlisted(due)
        return self.legal_moves(state)

    def legal_moves(self, state: State) -> list:
        """The moves of the player to act that the judge accepts (draws, guesses with either
        answer the tiles allow, stops, places, reveals); none while rows are dealt, sealed or
        tallied, where only the table knows the tiles."""
        me = self.to_move(state)
        if me is None or state.phase == "tally":
            return []
        values = [str(v) for v in range(12)] + ["dash"]
        mine = range(1, len(state.row(me)) + 2)
        candidates = {
            "draw": [Draw(c, me) for c in (0, 1)],
            "guess": [Stop(k, "", me) for k in mine] + [Stop(None, "", me)] if state.hits else [],
            "stop": [Stop(None, "", me)] + [Stop(k, "", me) for k in mine],
            "place": [Place(v, k, me) for v in values for k in mine],
            "expose": [Expose(k, v, me) for k in mine for v in values],
        }.get(state.phase, [])
        listed = self.accepted(state, candidates)
        if state.phase == "guess":  # worked out from one solve, not one check per guess
            listed += [Guess(t, k, value_word(tile), hit, me)
                       for t, k, tile, hit in deduction.guesses(state, me)]
        return listed

    # the position

    def to_move(self, state: State) -> str | None:
        if state.phase in ("draw", "guess", "stop", "place", "expose"):
            return state.to_play
        if state.phase == "tally":
            return state.winner
        return None


    def outcome(self, state: State) -> Outcome | None:
        return outcome_of(state)

    def show(self, state: State) -> str:
        return view.show(state)

    # disputes: positions typed in, questions, secrets

    def position(self, state: State) -> str:
        return position.write_position(state)

    def load_position(self, state: State, text: str) -> State:
        return position.read_position(state, text)

    def query(self, state: State, text: str) -> str:
        return deduction.query(state, text)

    def candidates(self, state: State, player: str, position: int) -> list[int]:
        """Every tile a player's tile (1-based position) can still be, from public info."""
        return deduction.candidates(state, player, position)

    def secret_prompt(self, state: State, text: str) -> str:
        return sealing.secret_prompt(state, text)

    def secret_move(self, state: State, text: str, secret: str, player: str | None = None) -> str:
        return sealing.secret_move(state, text, secret, player)

    def recorded(self, state: State, move, legal: bool, typed: str) -> str:
        """Written from the move's fields whatever was typed: Coda's moves carry secrets."""
        return sealing.recorded(state, move, legal) or self.format(state, move)

    def withheld(self, state: State, text: str) -> tuple[str, str] | None:
        return sealing.withheld(state, text)

    def redact(self, text: str) -> str:
        """An unseal on the page: the round's key it keeps is public but says nothing."""
        words = text.split()
        if words[:1] == ["unseal"] and len(words) == 3:
            return " ".join(words[:2]) + " [passphrase withheld]"
        return text

    def picture(self, state: State) -> str:
        """The board as SVG; its drawing code is imported only when a picture is asked for."""
        from referee.games.coda import picture

        return picture.picture(self, state)


GAME = Coda()
