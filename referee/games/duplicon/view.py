"""Duplicon's position as text: the grid as the table has seen it, hands, zones, piles, scores."""

from __future__ import annotations

from referee.engine import (
    totals,
)
from referee.games.duplicon.model import HOLE, UNKNOWN, State


def _cell(v: str) -> str:
    return {UNKNOWN: "?", HOLE: "·"}.get(v, v)


def show(s: State) -> str:
    if s.phase == "over":
        head = f"Duplicon — game over: {s.outcome.reason if s.outcome else ''}"
    elif s.phase == "opening":
        head = f"Duplicon — round {s.round}: {s.current} makes the opening reveal"
    else:
        extra = " (acts again)" if s.chained else ""
        if s.final is not None:
            extra += " — final turns" + (f", then {', '.join(s.final)}" if s.final else "")
        head = f"Duplicon — round {s.round}: {s.current} to play{extra}"
    width = max(len(_cell(v)) for v in s.grid.values()) + 2
    lines = [head, f"deck {s.deck} · discard {len(s.discard)}   (? face down unseen, · hole)",
             ("    " + "".join(c.ljust(width) for c in "abc")).rstrip()]
    for r in "123":
        row = "".join(_cell(s.grid[f"{c}{r}"]).ljust(width) for c in "abc")
        lines.append(f" {r}  {row}".rstrip())
    score = totals(s.ledger, s.players)
    for p in s.players:
        zone = ", ".join(c for c, _ in s.zones[p]) or "-"
        lines.append(f"{p}: hand {s.hands[p]} · zone [{zone}] · won {len(s.won[p])} · "
                     f"total {score[p]}")
    return "\n".join(lines)
