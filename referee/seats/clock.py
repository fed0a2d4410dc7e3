"""The table's clock: each player's time on turn, read from the times the record already keeps.

Why from the record: every event carries when it was recorded, and a move says who made it,
so a turn is the time from the previous turn change (the match's start, a move, an undo or a
redo) to that player's move, chess-clock style; nothing new is stored and the times are the
same whoever reads them (the page, `referee playtests`). The running turn is charged to the
player to move, counted on the page from when the turn began.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from referee.engine import RefereeError
from referee.record import Stamped

# Events after which someone else may be to move: the time up to them is that turn's end.
TURN_CHANGES = frozenset({"new", "position", "move", "undo", "redo", "end", "keep"})
AT = "%Y-%m-%dT%H:%M:%S.%fZ"


class Turn(NamedTuple):
    """One turn: who moved (None: the table, e.g. an undo), the event that ended it, seconds."""

    player: str | None
    seq: int
    seconds: float


def when(at: str) -> float:
    """An event's recorded time as seconds since the epoch."""
    return datetime.strptime(at, AT).replace(tzinfo=UTC).timestamp()


def turns(stamped: Iterable[Stamped], players: Sequence[str]) -> tuple[list[Turn], float | None]:
    """Every finished turn in order, and when the current one began (None: no event yet)."""
    out: list[Turn] = []
    began: float | None = None
    for s in stamped:
        e = s.event
        if e.kind not in TURN_CHANGES:
            continue
        t = when(s.at)
        if began is not None:
            who = e.data.get("player") if e.kind == "move" else None
            out.append(Turn(who if who in players else None, e.seq, max(0.0, t - began)))
        began = t
    return out, began


def per_player(done: Iterable[Turn], players: Sequence[str]) -> dict[str, float]:
    """Seconds each player spent on their finished turns."""
    spent = dict.fromkeys(players, 0.0)
    for t in done:
        if t.player is not None:
            spent[t.player] += t.seconds
    return spent


def play_time(stamped: Iterable[Stamped], players: Sequence[str]) -> float:
    """A match's play time: every turn from its first turn change to its last, the table's
    own (an undo's) included. Why not its first to last event: a note written after the
    game is no play (`playtests`, its CSV and the BG Stats export all give this figure)."""
    return sum(t.seconds for t in turns(stamped, players)[0])


def clock_view(stamped: Sequence[Stamped], players: Sequence[str], on_turn: str | None,
               limits: dict[str, float | None] | None = None) -> dict[str, Any]:
    """What every page shows: each player's time, whose clock runs and since when (the page
    adds the running seconds), and the limits to warn about."""
    done, began = turns(stamped, players)
    return {"spent": per_player(done, players), "on_turn": on_turn, "since": began,
            "turn_limit": (limits or {}).get("turn"), "game_limit": (limits or {}).get("game")}


def over(view: dict[str, Any], now: float) -> list[str]:
    """The warnings due at `now`: a turn or a player's game over its limit."""
    who, since = view["on_turn"], view["since"]
    if who is None or since is None:
        return []
    running = max(0.0, now - since)
    out = []
    if view["turn_limit"] and running > view["turn_limit"]:
        out.append(f"{who} is over the {span(view['turn_limit'])} turn limit")
    if view["game_limit"] and view["spent"].get(who, 0) + running > view["game_limit"]:
        out.append(f"{who} is over the {span(view['game_limit'])} game clock")
    return out


def span(seconds: float) -> str:
    """`1:05:09`, `4:07`, `0:09`: a clock's reading."""
    s = int(seconds)
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(h|m|min|s)?", re.IGNORECASE)
_UNIT = {"h": 3600, "m": 60, "min": 60, "s": 1, None: 1}


def duration(text: str, where: str) -> float:
    """`30m`, `90s`, `1h30m`, `45` (seconds) as seconds; anything else a one-line error."""
    compact = text.replace(" ", "")
    parts = list(_PART.finditer(compact))
    if not compact or "".join(p.group(0) for p in parts) != compact:
        raise RefereeError(f"{text!r} is no duration: write e.g. 30m, 90s or 1h30m", where)
    seconds = sum(float(p.group(1)) * _UNIT[(p.group(2) or "").lower() or None] for p in parts)
    if seconds <= 0:
        raise RefereeError(f"{text!r}: a time limit must be more than nothing", where)
    return seconds


class Warner:
    """Says each warning once in the terminal running `referee serve` (every page shows it
    too): called with the table page's latest view as the server watches the match."""

    def __init__(self, limits: dict[str, float | None], now=None, say=None):
        import time

        self.limits = limits
        self.now = now or time.time
        self.say = say or (lambda line: print(line, flush=True))
        self.said: set[tuple[Any, str]] = set()

    def __call__(self, view: dict[str, Any]) -> None:
        shown = view.get("clock")
        if not shown:
            return
        limited = {**shown, "turn_limit": self.limits.get("turn"),
                   "game_limit": self.limits.get("game")}
        for warning in over(limited, self.now()):
            if (view.get("event"), warning) not in self.said:
                self.said.add((view.get("event"), warning))
                self.say(f"clock: {warning} (match {view.get('match')}, event {view.get('event')})")
