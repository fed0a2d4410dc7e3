"""What a change did: the same seeds dealt from two decks, compared game by game.

Game k of both runs has the same seed, so most of the luck is shared and the difference of
each pair is mostly the change. Per seat and per figure: the mean difference (new - old)
with a 95 % interval (normal, from the paired differences), and a sentence.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from referee.simulate import GameRecord
from referee.stats import Z95


def interval(diffs: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95 % interval of paired differences."""
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, -math.inf, math.inf
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def share(record: GameRecord, seat: int) -> float:
    """The seat's share of the win (a shared win counts in part)."""
    return 1 / len(record.winners) if seat in record.winners else 0.0


def compare(new: Sequence[GameRecord], old: Sequence[GameRecord]) -> dict[str, Any]:
    pairs = list(zip(new, old, strict=True))
    seats = len(new[0].players)
    rows = []
    for seat in range(seats):
        for figure, unit, of in (("wins", "percentage points", lambda r, s: 100 * share(r, s)),
                                 ("score", "points", lambda r, s: r.scores[s])):
            mean, lo, hi = interval([of(a, seat) - of(b, seat) for a, b in pairs])
            rows.append({"seat": seat + 1, "figure": figure, "unit": unit, "mean": mean,
                         "ci95": [lo, hi], "significant": lo > 0 or hi < 0,
                         "verdict": verdict(seat + 1, figure, unit, mean, lo, hi)})
    return {"games": len(pairs), "differences": rows}


def verdict(seat: int, figure: str, unit: str, mean: float, lo: float, hi: float) -> str:
    span = f"({lo:+.1f} to {hi:+.1f})"
    if lo <= 0 <= hi:
        return f"seat {seat} {figure}: no difference beyond noise {span}"
    more = mean > 0
    if figure == "score":  # points can move for every seat alike: no claim of strength
        return f"seat {seat} scores {abs(mean):.1f} points {'more' if more else 'less'} {span}"
    return (f"seat {seat} wins {abs(mean):.1f} {unit} {'more' if more else 'less'} {span}: "
            f"your change made seat {seat} {'stronger' if more else 'weaker'}")


def text(result: dict[str, Any], new: str, old: str) -> str:
    out = [f"{new} against {old}: {result['games']} games each, the same seeds"]
    out += [f"  {row['verdict']}" for row in result["differences"]]
    return "\n".join(out)
