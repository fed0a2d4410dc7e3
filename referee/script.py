"""A match as the shell commands that record it again (`referee log --script`): the moves in
force in order, the table's corrections and early end as their commands, the rest as comments.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping

from referee.engine import Event
from referee.record import Match
from referee.session import LogLine


def header(m: Match, control: Mapping[int, Event]) -> str:
    """The script's first lines: the match it came from and the `referee new` that starts it
    again, from its set-up position when it had one."""
    opts = "".join(f" --option {shlex.quote(f'{k}={v}')}" for k, v in m.options.items())
    new = f"referee new {m.game} --players {shlex.quote(','.join(m.players))}{opts}"
    position = next((e for e in control.values() if e.kind == "position"), None)
    if position is not None:
        new = f"{new} --position - <<'POSITION'\n{position.data['text'].rstrip()}\nPOSITION"
    return f"# referee match {m.id}\n{new}"


def piece(x: LogLine, control: Mapping[int, Event]) -> str:
    """An event's line of the script ("" for the match's start and its position, which the
    header holds); `control` holds every event but the moves and rejected attempts, by seq."""
    if x.kind == "move" and not x.retracted:
        by = f" --by {shlex.quote(x.player)}" if x.player else ""
        return f"referee play {shlex.quote(x.text)}{by}"
    if x.kind in ("adjust", "end", "note") and not x.retracted:
        return table_line(control[x.seq])
    if x.kind == "keep":
        return "referee keep"
    if x.kind in ("move", "undo", "redo", "rejected", "adjust", "end", "note"):
        return (f"# {x.seq} {x.kind}: {' '.join(x.text.split())}"
                + (" (undone)" if x.retracted else ""))
    return ""


def table_line(e: Event) -> str:
    """The command that records an "adjust", "end" or "note" event again."""
    d = e.data
    if e.kind == "note":
        cards = "".join(f" --card {shlex.quote(c['name'])}" for c in d.get("cards", ()))
        by = f" --by {shlex.quote(d['player'])}" if d.get("player") else ""
        return f"referee note {shlex.quote(d['text'])}{cards}{by}"
    why = f" --reason {shlex.quote(d['reason'])}" if d.get("reason") else ""
    if e.kind == "adjust":
        return f"referee adjust {shlex.quote(d['player'])} {int(d['points']):+d}{why}"
    if d.get("abandoned"):
        return f"referee end --abandoned{why}"
    return f"referee end --winner {shlex.quote(','.join(d['winners']))}{why}"
