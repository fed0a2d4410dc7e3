"""How the record reads: an event's line (`referee log`) and its JSON object (`log --json`),
with the score items it added. Light on imports: every command that prints a score uses it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from referee.engine import ScoreItem
    from referee.session import LogLine, Played


def item(i: ScoreItem) -> dict[str, Any]:
    return {"player": i.player, "points": i.points, "label": i.label, "round": i.round}


def verdict_json(p: Played) -> dict[str, Any]:
    """A verdict as `play --json` and `check --json` print it, and the seats' API answers it."""
    v = p.verdict
    out: dict[str, Any] = {"match": p.match.id, "text": p.text, "player": p.player,
                           "move": p.move or None,
                           "legal": bool(v and v.legal), "error": str(p.error) if p.error else None}
    if v is not None:
        out["violations"] = [{"rule": x.rule.id, "text": x.rule.text, "reason": x.reason}
                             for x in v.violations]
        out["score"] = [item(i) for i in v.score]
        out["notes"] = list(v.notes)
    if p.event is not None:
        out["event"] = p.event.seq
        o = p.outcome  # the match's one winner once the move ended it (table.outcome)
        out["outcome"] = {"winners": list(o.winners), "reason": o.reason} if o else None
    return out


def points(items: Sequence[ScoreItem]) -> str:
    return ", ".join(f"{i.player} {i.points:+d} {i.label}" for i in items)


def line(x: LogLine) -> str:
    who = f"{x.player}: " if x.player and not x.text.startswith(f"{x.player}:") else ""
    gone = "  [undone]" if x.retracted else "  [set aside]" if x.set_aside else ""
    pts = f"   ({points(x.points)})" if x.points else ""
    return f"{x.seq:>4}  {x.kind:<8} {who}{x.text}{pts}{gone}"


def json_object(x: LogLine) -> dict[str, Any]:
    return {"seq": x.seq, "kind": x.kind, "player": x.player, "text": x.text, "at": x.at,
            "retracted": x.retracted, "set_aside": x.set_aside,
            "score": [item(i) for i in x.points]}
