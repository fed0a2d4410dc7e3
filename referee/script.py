"""A match as the shell commands that record it again (`referee log --script`): the moves in
force in order, the table's corrections and early end as their commands, the rest as comments.
"""

from __future__ import annotations

import shlex

from referee.engine import Event
from referee.session import Loaded, LogLine


def rebuild(cur: Loaded, lines: list[LogLine]) -> str:
    m = cur.match
    opts = "".join(f" --option {shlex.quote(f'{k}={v}')}" for k, v in m.options.items())
    new = f"referee new {m.game} --players {shlex.quote(','.join(m.players))}{opts}"
    out = [f"# referee match {m.id}", new]
    for x in lines:
        if x.kind == "position":
            text = next(e.data["text"] for e in cur.events if e.seq == x.seq)
            out[1] = f"{new} --position - <<'POSITION'\n{text.rstrip()}\nPOSITION"
        elif x.kind == "move" and not x.retracted:
            by = f" --by {shlex.quote(x.player)}" if x.player else ""
            out.append(f"referee play {shlex.quote(x.text)}{by}")
        elif x.kind in ("adjust", "end") and not x.retracted:
            out.append(table_line(next(e for e in cur.events if e.seq == x.seq)))
        elif x.kind in ("move", "undo", "redo", "rejected", "adjust", "end"):
            out.append(f"# {x.seq} {x.kind}: {' '.join(x.text.split())}"
                       + (" (undone)" if x.retracted else ""))
    return "\n".join(out)


def table_line(e: Event) -> str:
    """The command that records an "adjust" or "end" event again."""
    d = e.data
    why = f" --reason {shlex.quote(d['reason'])}" if d.get("reason") else ""
    if e.kind == "adjust":
        return f"referee adjust {shlex.quote(d['player'])} {int(d['points']):+d}{why}"
    if d.get("abandoned"):
        return f"referee end --abandoned{why}"
    return f"referee end --winner {shlex.quote(','.join(d['winners']))}{why}"
