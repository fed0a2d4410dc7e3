"""Coda's notation: moves read from what the table types, and written back."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine import InvalidMove, find_player
from referee.games.coda.model import (
    COLOUR_WORDS,
    COLOURS,
    DASH_WORDS,
    POSITION,
    SEAL,
    Deal,
    Draw,
    Expose,
    Guess,
    Place,
    Seal,
    State,
    Stop,
    Tally,
    Unseal,
)

# Every move's first word: a word the log may keep of text it cannot read (sealing.withheld).
VERBS = ("row", "draw", "guess", "stop", "place", "reveal", "tally", "seal", "unseal")
FILLERS = ("at", "as", "is")  # words read past: `stop at 3`, `guess ben 2 is 7 hit`


def parse_move(state: State, text: str, player: str | None = None):
    words = text.replace(",", " ").replace("=", " ").replace("?", " ").split()
    if not words:
        raise InvalidMove("empty move")
    verb, args = words[0].lower(), words[1:]
    args = [a for a in args if a.lower() not in FILLERS]
    if verb == "row":
        who = player_named(state, args[:1])
        colours = tuple(colour_word(w) for w in args[1:])
        if not colours:
            raise InvalidMove("expected the colours of the row left to right: "
                              "row ana black white white black")
        return Deal(who, colours)
    if verb == "draw":
        if len(args) != 1:
            raise InvalidMove("expected the colour of the drawn tile: draw black")
        return Draw(colour_word(args[0]), player)
    if verb == "guess":
        if len(args) != 4 or args[3].lower() not in ("hit", "miss") or not POSITION.match(args[1]):
            raise InvalidMove("expected target, position, number and the answer: "
                              "guess ben 2 7 hit (or miss)")
        return Guess(player_named(state, args[:1]), int(args[1]), tile_value(args[2]),
                     args[3].lower() == "hit", player)
    if verb == "stop":
        if not args:
            return Stop(None, "", player)
        if not POSITION.match(args[0]) or len(args) > 3 or (len(args) > 1 and (
                args[1].lower() != "sealed" or len(args) != 3)):
            raise InvalidMove("expected where the drawn tile goes: stop at 3")
        if len(args) == 3 and not SEAL.fullmatch(args[2].lower()):
            raise InvalidMove("seal the drawn tile privately: referee play 'stop at N' --secret")
        return Stop(int(args[0]), args[2] if len(args) == 3 else "", player)
    if verb == "place":
        if len(args) != 2 or not POSITION.match(args[1]):
            raise InvalidMove("expected the drawn tile's number and where it goes: "
                              "place 9 at 3")
        return Place(tile_value(args[0]), int(args[1]), player)
    if verb == "reveal":
        if len(args) != 2 or not POSITION.match(args[0]):
            raise InvalidMove("expected which of your tiles and its number: reveal 2 9")
        return Expose(int(args[0]), tile_value(args[1]), player)
    if verb == "tally":
        if not args:
            raise InvalidMove("expected your hidden tiles left to right: tally 3 7 11")
        return Tally(tuple(tile_value(a) for a in args), player)
    if verb == "seal":
        who = player_named(state, args[:1])
        if not args[1:] or not all(SEAL.fullmatch(a.lower()) for a in args[1:]):
            raise InvalidMove(f"seal your tiles privately: referee play 'seal {who}' "
                              "--secret (what you typed after the name is not recorded)")
        return Seal(who, tuple(a.lower() for a in args[1:]))
    if verb == "unseal":
        if len(args) != 2:
            raise InvalidMove("expected the player and their passphrase: unseal ana WORD")
        return Unseal(player_named(state, args[:1]), args[1])
    raise InvalidMove(f"cannot read {text!r}: expected {', '.join(VERBS[:-1])} or "
                      f"{VERBS[-1]} (e.g. guess ben 2 7 miss)")


def player_named(state: State, words: Sequence[str]) -> str:
    if not words:
        raise InvalidMove(f"expected a player ({', '.join(state.players)}), not nothing")
    return find_player(state.players, words[0])


def colour_word(word: str) -> int:
    c = COLOUR_WORDS.get(word.lower())
    if c is None:
        why = (": a dash is a black or a white tile, type the colour its back shows"
               if word.lower() in DASH_WORDS else "")
        raise InvalidMove(f"expected a colour, black or white (b/w), not {word!r}{why}")
    return c


def tile_value(word: str) -> str:
    w = word.lower()
    if w in DASH_WORDS:
        return "dash"
    if w.isascii() and w.isdigit() and len(w) <= 2 and 0 <= int(w) <= 11:
        return str(int(w))
    raise InvalidMove(f"expected a number 0-11 or 'dash', not {word!r}")


def format_move(state: State, move) -> str:
    match move:
        case Deal():
            return f"row {move.player} " + " ".join(COLOURS[c] for c in move.colours)
        case Draw():
            return f"draw {COLOURS[move.colour]}"
        case Guess():
            answer = "hit" if move.hit else "miss"
            return f"guess {move.target} {move.position} {move.value} {answer}"
        case Stop():
            if move.position is None:
                return "stop"
            return f"stop at {move.position}" + (f" sealed {move.seal}" if move.seal else "")
        case Place():
            return f"place {move.value} at {move.position}"
        case Expose():
            return f"reveal {move.position} {move.value}"
        case Tally():
            return "tally " + " ".join(move.values)
        case Seal():
            return f"seal {move.player} " + " ".join(move.hashes)
        case Unseal():
            return f"unseal {move.player} {move.passphrase}"
    raise TypeError(move)


def private_move_due(state: State) -> str:
    """The move due when it is typed from tiles only their owners see (the rows as dealt, the
    seals, the round winner's tally), in its form; "" when the moves can be listed."""
    if state.phase in ("deal", "closed"):
        undealt = [p for p, d in zip(state.players, state.dealt, strict=True)
                   if not d or state.phase == "closed"]
        if undealt:
            want = 3 if len(state.players) == 4 else 4
            rows = ", ".join(f"`row {p} {' '.join(['COLOUR'] * want)}`" for p in undealt)
            return (f"the rows as dealt, {rows} (each tile's colour, black or white, left to "
                    "right as the player stood them by number)")
        unsealed = [p for p in state.players if any(not s.seal for s in state.row(p))]
        return ("the seals of the hidden tiles, "
                + ", ".join(f"`referee play 'seal {p}' --secret`" for p in unsealed))
    if state.phase == "tally":
        hidden = [COLOURS[s.colour] for s in state.row(state.winner) if s.tile is None]
        return (f"{state.winner}'s tally of the tiles still hidden, `tally "
                f"{' '.join(['N'] * len(hidden))}` (their numbers left to right: "
                f"{', '.join(hidden)})")
    return ""
