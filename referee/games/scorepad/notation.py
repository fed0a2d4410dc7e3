"""The scorepad's moves as typed: `ana coins 5`, `coins 5` with --by or `ana: coins 5`,
`ana military -2`, `round` (the round closes) and `finish` (the game ends now). An entry is
written `ana: coins 5`, as the moves of other games without turns name their player."""

from __future__ import annotations

import re

from pnp_shared.limits import MAX_POINT_DIGITS
from referee.engine import InvalidMove
from referee.games.scorepad.model import Finish, Move, Round, Score, State

POINTS = re.compile(rf"[+-]?\d{{1,{MAX_POINT_DIGITS}}}")
NOTATION = "PLAYER CATEGORY POINTS (ana coins 5, bob military -2); round; finish"


def parse_move(state: State, text: str, player: str | None = None) -> Move:
    said, colon, rest = text.partition(":")  # "ana: coins 5", as the log writes it
    words = [said, *rest.split()] if colon and len(said.split()) == 1 else text.split()
    if len(words) == 1 and words[0].lower() in ("round", "finish"):
        return Round() if words[0].lower() == "round" else Finish()
    if len(words) == 3:
        said = state.player(words[0])
        if player is not None and said != player:
            raise InvalidMove(f"the move says {said} but --by says {player}")
        player, words = said, words[1:]
    if len(words) != 2 or player is None:
        raise InvalidMove(f"expected {NOTATION}, not {text!r}")
    category = state.spec.category(words[0])
    if not POINTS.fullmatch(words[1]):
        if re.fullmatch(r"[+-]?\d+", words[1]):  # a whole number, only too long to be points
            raise InvalidMove(f"points have at most 9 digits (up to 999,999,999), not the "
                              f"{len(words[1].lstrip('+-'))} of {words[1][:12]}...")
        raise InvalidMove(f"points are a whole number such as 5 or -2, not {words[1]!r}")
    return Score(player, category, int(words[1]))


def format_move(move: Move) -> str:
    if isinstance(move, Round):
        return "round"
    if isinstance(move, Finish):
        return "finish"
    return f"{move.player}: {move.category} {move.points}"  # typed alone in `referee moves`
