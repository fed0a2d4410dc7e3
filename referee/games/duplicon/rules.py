"""Duplicon's rules: the game contract over model, play, position and display (imports go one way)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.engine import (
    Draft,
    InvalidMove,
    Option,
    Outcome,
    RefereeError,
    RuleRef,
    Rules,
    Sample,
    Violation,
    find_player,
)
from referee.games.duplicon.display import draw_table
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
    card_type,
    card_types,
    deal,
    read_flips,
)
from referee.games.duplicon.play import count_problems, preconditions, resolve
from referee.games.duplicon.position import read_position, write_position

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


class Duplicon(Rules):
    """The Game protocol for Duplicon."""

    name = "duplicon"
    title = "Duplicon"
    min_players = 2
    max_players = 4
    options = (Option("target", "100", "total that ends the game at the end of a round"),)
    rules: Mapping[str, RuleRef] = RULES
    notation = NOTATION
    sample = Sample(("ana", "bob"), ("open a1=orange c3=blue", "play blue c3=blue", "draw"))

    # setup

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

    # notation

    def parse(self, state: State, text: str, player: str | None = None) -> Move:
        words = text.strip().lower().split()
        if not words:
            raise InvalidMove(f"empty move; expected one of: {NOTATION}")
        who = self._player(state, player)
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
            owner = self._player(state, args[0], what="steal")
            return Steal(who, owner, card_type(args[1]).key,
                        flips=read_flips(args[2:], 1, "steal bob orange b2=orange"))
        raise InvalidMove(f"unknown move {words[0]!r}; expected one of: {NOTATION}")

    def _player(self, state: State, name: str | None, what: str = "--by") -> str:
        if name is None:
            return state.current
        return find_player(state.players, name, what)

    def format(self, state: State, move: Move) -> str:
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

    def show(self, state: State) -> str:
        return draw_table(state)

    # disputes: positions typed in, questions, secrets

    def position(self, state: State) -> str:
        return write_position(state)

    def load_position(self, state: State, text: str) -> State:
        return read_position(state, text)


GAME = Duplicon()
