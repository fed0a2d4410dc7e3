"""Dobble Connect positions as text, for disputes: written by `referee position`, read back
line by line and checked as a game could have reached them."""

from __future__ import annotations

from referee.engine import (
    Draft,
    InvalidMove,
    RefereeError,
    Rules,
    ScoreItem,
)
from referee.games.dobble_connect.model import (
    BLACK,
    HEX,
    POSITION_LINES,
    State,
    around,
    hex_name,
)
from referee.games.dobble_connect.notation import card_number
from referee.position import Line, read_lines


def write_position(game: Rules, state: State) -> str:
    """The position as text that load_position reads back."""
    out = ["# dobble-connect position: Q,R CARD per card on the table (0,0: the black start "
           "card); kept = black cards won", f"round {state.round}"]
    kept = " ".join(f"{t}={','.join(map(str, ids))}" for t, ids in state.kept.items() if ids)
    if kept:
        out.append(f"kept {kept}")
    held = " ".join(f"{t}=" + ",".join(f"{c}:{n}" for c, n in got.items())
                    for t, got in state.received.items() if any(got.values()))
    if held:
        out.append(f"received {held}")
    if state.restart:
        out.append("restart  # the last round had no winner: the same black card")
    out += [f"{hex_name(h)} {c}" for h, c in sorted(state.board.items(), key=lambda x: x[0][::-1])]
    return "\n".join(out) + "\n"


def read_position(game: Rules, state: State, text: str) -> State:
    """A table typed in (see position()), checked as a game could have reached it."""
    s = Draft(state)
    s.ledger, s.board = [], {}
    keys = {"round": 1, "restart": 0, "kept": 0, "received": 0}
    for line in read_lines(text.lower(), keys, POSITION_LINES, HEX):
        with line.reading():
            _position_line(game, s, line)
    _check_position(game, s)
    for team, ids in s.kept.items():
        s.points[team] = len(ids)
        s.ledger += [ScoreItem(p, len(ids), "points when the position was set up", s.round)
                     for p in s.teams[team] if ids]
    return s.done()


def _position_line(game: Rules, s: Draft, line: Line) -> None:
    head, rest = line.key, line.rest
    if head == "round":
        s.round = line.number()
    elif head == "restart":
        if rest:
            raise ValueError(rest)
        s.restart = True
    elif head in ("kept", "received"):
        for pair in rest.split():
            team, _, value = pair.partition("=")
            _team(game, s, team)
            if head == "kept":
                s.kept[team] = [card_number(game, x) for x in value.split(",") if x]
            else:
                got = [x.partition(":") for x in value.split(",") if x]
                s.received[team] = {_team(game, s, c): int(n) for c, _, n in got}
                if team in s.received[team] or min(s.received[team].values()) < 0:
                    raise InvalidMove("a team receives a number of each rival's cards")
    else:  # a hex and its card
        q, _, r = line.args[0].partition(",")
        hex_ = (int(q), int(r))
        rest = " ".join(line.args[1:])
        if hex_ in s.board:
            raise InvalidMove(f"hex {hex_name(hex_)} appears twice")
        s.board[hex_] = card_number(game, rest.strip())


def _team(game: Rules, s: State, color: str) -> str:
    if color not in s.teams:
        raise InvalidMove(f"no team plays {color!r} ({', '.join(s.teams)})")
    return color


def _check_position(game: Rules, s: Draft) -> None:
    """A position must be one a game could reach: else say what is wrong."""
    colors = game.deck.colors
    if len(set(s.board.values())) != len(s.board):
        raise RefereeError("a card appears twice on the table", "position")
    s.start = s.board.setdefault((0, 0), s.start)
    if colors[s.start] != BLACK:
        raise RefereeError(f"0,0 holds #{s.start}, not a black start card", "position")
    kept = [c for ids in s.kept.values() for c in ids]
    if any(colors[c] != BLACK for c in kept) or len(set(kept)) != len(kept) or \
            s.start in kept:
        raise RefereeError("kept cards are black start cards, each once, not the one in the "
                           "centre", "position")
    for h, c in s.board.items():
        if c != s.start and colors[c] not in s.teams:
            raise RefereeError(f"#{c} at {hex_name(h)} is {colors[c]}: no team plays it "
                               "(position)")
    reach, todo = {(0, 0)}, [(0, 0)]
    while todo:
        for n in around(todo.pop()):
            if n in s.board and n not in reach:
                reach.add(n)
                todo.append(n)
    if len(reach) != len(s.board):
        lost = min(set(s.board) - reach)
        raise RefereeError(f"#{s.board[lost]} at {hex_name(lost)} touches no card joined to the "
                           "centre", "position")
    for h in s.board:
        line = game.line_at(s, h) if h != (0, 0) else ()
        if line:
            raise RefereeError(f"the table already shows a line {line} (DC3): that round "
                               "is over", "position")
    for t in s.teams:
        if len(s.kept[t]) >= s.target:
            raise RefereeError(f"{t} has {len(s.kept[t])} points: the game would be over "
                               "(position)")
        if game.available(s, t) < 0:
            raise RefereeError(f"more {t} cards on the table and with rivals than the "
                               f"{game.deck.count(t)} printed", "position")
