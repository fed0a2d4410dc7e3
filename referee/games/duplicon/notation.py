"""Duplicon's moves as typed: `open a1=orange c3=blue`, `play orange b2=orange`, `draw`."""

from __future__ import annotations

from referee.engine import InvalidMove, find_player
from referee.games.duplicon.model import (
    NOTATION,
    POSITIONS,
    Draw,
    Exchange,
    Move,
    Open,
    Play,
    Replay,
    Reveal,
    State,
    Steal,
    card_type,
    read_flips,
)

VERBS = ("open", "play", "replay", "steal", "reveal", "draw", "exchange")


def own_card(word: str, card: str) -> str:
    """The type of the player's own card named as the partner of a pair (`zone=blue`, `hand`,
    or a bare type), or "" when the word names a grid card (`b2=blue`)."""
    name, eq, typed = word.partition("=")
    if name in ("zone", "hand"):
        return card_type(typed).key if eq else card
    if not eq and word not in POSITIONS:  # a bare position is a grid card missing its type
        return card_type(word).key
    return ""


def parse_move(state: State, text: str, player: str | None = None) -> Move:
    words = text.strip().lower().split()
    if not words:
        raise InvalidMove(f"empty move; expected one of: {NOTATION}")
    who = player_named(state, player)
    verb, args = words[0], words[1:]
    if args and args[0] == verb and verb in VERBS:
        raise InvalidMove(f"'{verb}' is typed twice: the move is "
                          f"'{' '.join(words[1:])}' (at the command line: referee play "
                          f"{' '.join(words[1:])})")
    if verb not in VERBS and len(args) == 1 and "=" in args[0]:
        verb, args = "play", words  # 'blue c3=blue': case 1 without its verb
    if verb in ("draw", "exchange"):
        if args:
            raise InvalidMove(f"'{verb}' takes nothing more (got {' '.join(args)!r})")
        return (Draw if verb == "draw" else Exchange)(who)
    if verb in ("open", "reveal"):
        flips = read_flips(args, 2, f"{verb} a1=orange c3=blue")
        if flips[0][0] == flips[1][0]:
            raise InvalidMove(f"'{verb}' turns two different grid cards, not {flips[0][0]} "
                              "twice")
        return (Open if verb == "open" else Reveal)(who, flips)
    if verb in ("play", "replay"):
        if len(args) != 2:
            raise InvalidMove(f"expected '{verb} <type> <position>=<type>', "
                              f"e.g. '{verb} orange b2=orange'")
        kind = Play if verb == "play" else Replay
        own = own_card(args[1], card_type(args[0]).key)
        if own:  # a hand card with a play-zone card: typed, so U1 can judge it
            return kind(who, card_type(args[0]).key, (), own)
        return kind(who, card_type(args[0]).key,
                    flips=read_flips(args[1:], 1, f"{verb} orange b2=orange"))
    if verb == "steal":
        if len(args) != 3:
            raise InvalidMove("expected 'steal <player> <type> <position>=<type>', "
                              "e.g. 'steal bob orange b2=orange'")
        owner = player_named(state, args[0], what="steal")
        return Steal(who, owner, card_type(args[1]).key,
                    flips=read_flips(args[2:], 1, "steal bob orange b2=orange"))
    raise InvalidMove(f"unknown move {words[0]!r}; expected one of: {NOTATION}")


def player_named(state: State, name: str | None, what: str = "--by") -> str:
    if name is None:
        return state.current
    return find_player(state.players, name, what)


def format_move(state: State, move: Move) -> str:
    flips = " ".join(f"{pos}={t}" for pos, t in move.flips)
    if move.kind in ("draw", "exchange"):
        return move.kind
    if move.kind in ("open", "reveal"):
        return f"{move.kind} {flips}"
    if move.kind == "steal":
        return f"steal {move.owner} {move.card} {flips}"
    if move.paired:
        return f"{move.kind} {move.card} {'zone' if move.kind == 'play' else 'hand'}=" \
               f"{move.paired}"
    return f"{move.kind} {move.card} {flips}"

