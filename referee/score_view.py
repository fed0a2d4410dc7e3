"""The text of `referee score`: the ledger round by round, and on a long match only the latest
rounds (a 20,000-event match has some 24,000 lines, which no one reads on a terminal), saying
how many earlier lines there are and how to see them. The totals always count every line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pnp_shared.columns import left, widest
from referee.engine import ScoreItem, by_round, totals
from referee.scoreboard import Total, line

SCORE_SHOWN = 40  # ledger lines `referee score` shows by default: a screenful, whole rounds


def ledger_text(ledger: Sequence[ScoreItem], players: Sequence[str], every: bool,
                scores: Mapping[str, Total] | None = None) -> str:
    """Each round's lines and round total, then the match totals (`scores`: as every view
    writes them, corrections named). Unless `every`, only the latest whole rounds that fit in
    SCORE_SHOWN lines (always at least the last round)."""
    rounds = by_round(ledger)
    shown = list(rounds)
    if not every:
        shown, lines = [], 0
        for r in reversed(rounds):
            if shown and lines + len(rounds[r]) > SCORE_SHOWN:
                break
            shown.insert(0, r)
            lines += len(rounds[r])
    width = widest(players)
    out = []  # one write: a long match's ledger has tens of thousands of lines
    hidden = len(ledger) - sum(len(rounds[r]) for r in shown)
    if hidden:
        earlier = len(rounds) - len(shown)
        out.append(f"({hidden:,} earlier line{'s' if hidden > 1 else ''} in {earlier:,} "
                   f"round{'s' if earlier > 1 else ''} not shown: `referee score --all` shows "
                   "every line)")
    for r in shown:
        items = rounds[r]
        out.append(f"round {r}")
        out.extend(f"  {left(i.player, width)} {i.points:>+5d}  {i.label}" for i in items)
        sub = totals(items, players)
        out.append("  round total: " + ", ".join(f"{p} {v}" for p, v in sub.items()))
    if not ledger:
        out.append("no points scored yet")
    if scores is None:
        scores = {p: Total(v) for p, v in totals(ledger, players).items()}
    out.append(f"total: {line(scores)}")
    return "\n".join(out)
