"""Dobble Connect's moves as typed: `start 7`, `ana: 11 on 1 shrimp at 1,0`."""

from __future__ import annotations

import re

from referee.engine import InvalidMove, Rules, find_player
from referee.games.dobble_connect.model import NOTATION, Move, Place, Start, State, symbol_key


def parse_move(game: Rules, state: State, text: str, player: str | None = None) -> Move:
    t = text.strip()
    m = re.fullmatch(r"start\s+#?(\d+)", t, re.I)
    if m:
        return Start(card_number(game, m.group(1)), player)
    m = re.fullmatch(r"(?:(?P<who>[^:]+):)?\s*#?(?P<card>\d+)\s+on\s+#?(?P<on>\d+)\s+"
                     r"(?P<sym>.+?)\s+at\s*\(?\s*(?P<q>[+-]?\d+)\s*[, ]\s*(?P<r>[+-]?\d+)"
                     r"\s*\)?", t, re.I)
    if not m:
        raise InvalidMove(f"cannot read {text!r}; expected {NOTATION}")
    who = player_named(game, state, m.group("who"), player)
    return Place(who, card_number(game, m.group("card")), card_number(game, m.group("on")),
                symbol_key(m.group("sym")), (int(m.group("q")), int(m.group("r"))))


def card_number(game: Rules, text: str) -> int:
    n = int(text)
    if n not in game.deck.colors:
        raise InvalidMove(f"no card #{n}: the cards are numbered 1..{len(game.deck.colors)}")
    return n


def player_named(game: Rules, state: State, named: str | None, by: str | None) -> str:
    if named is None and by is None:
        raise InvalidMove("say who placed the card: --by NAME or 'NAME: 37 on 1 ...'")
    players = [p for members in state.teams.values() for p in members]
    found = [find_player(players, n) for n in (named, by) if n is not None]
    if len(set(found)) > 1:
        raise InvalidMove(f"the move says {named!r} but --by says {by!r}")
    return found[0]


def format_move(game: Rules, state: State, move: Move) -> str:
    if isinstance(move, Start):
        return f"start {move.card}"
    q, r = move.hex
    return f"{move.player}: {move.card} on {move.against} {move.symbol} at {q},{r}"

