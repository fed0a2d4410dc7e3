"""Which card is the problem: per card, the win rate of the players who played it against
those who did not (17lands' "games in hand win rate"), with 95 % intervals.

A player-game is one seat in one game; a shared win counts in part. A card whose difference
from the player-games without it stays above (or below) zero is an outlier, named; with many
cards some would pass a 95 % test by luck alone, so the outlier test is corrected for their
number (Bonferroni), while the intervals shown are 95 %.

The interval of the difference is Newcombe's (his method 10: from the Wilson interval of each
win rate), not the normal one: at 1 win of 1 play against 0 of 1 the normal one has no width
(+100 to +100 points, so every card of a 1-game run was an outlier) and with few plays it
passed 100 points; Newcombe's stays within ±100 and is sound on small counts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

from referee.engine import RefereeError
from referee.simulate import GameRecord
from referee.stats import Z95, wilson


def rates(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """One row per card played at least once, the strongest first."""
    cards = sorted({c for r in records for c in r.played_by})
    total = sum(len(r.players) for r in records)
    won = sum(_share(r, s) for r in records for s in range(len(r.players)))
    strict = NormalDist().inv_cdf(1 - 0.05 / (2 * max(1, len(cards))))
    rows = []
    for card in cards:
        held = [(r, s) for r in records for s in r.played_by.get(card, ())]
        n = len(held)
        wins = sum(_share(r, s) for r, s in held)
        rest_n, rest_wins = total - n, won - wins
        rate = wins / n
        rest = rest_wins / rest_n if rest_n else 0.0
        lo, hi = wilson(round(wins), n)
        diff = rate - rest
        low, high = difference(wins, n, rest_wins, rest_n, strict)
        rows.append({"card": card, "played": n, "win_rate": rate, "ci95": [lo, hi],
                     "without": rest, "difference": diff,
                     "difference_ci95": list(difference(wins, n, rest_wins, rest_n)),
                     "outlier": low > 0 or high < 0})
    rows.sort(key=lambda r: (-r["difference"], r["card"]))
    return rows


def difference(wins: float, n: int, rest_wins: float, rest_n: int, z: float = Z95
               ) -> tuple[float, float]:
    """Newcombe's interval of wins/n - rest_wins/rest_n (no player-game without the card:
    the rest is unknown, anywhere from 0 to 1)."""
    p, q = wins / n, (rest_wins / rest_n if rest_n else 0.0)
    lo1, hi1 = wilson(wins, n, z)
    lo2, hi2 = wilson(rest_wins, rest_n, z) if rest_n else (0.0, 1.0)
    d = p - q
    return (max(-1.0, d - math.hypot(p - lo1, hi2 - q)),
            min(1.0, d + math.hypot(hi1 - p, q - lo2)))


def played_in_match(rules: Any, events: Sequence[Any], players: Sequence[str]
                    ) -> dict[str, set[int]]:
    """Card -> the seats that played it in a real match (`referee playtests`): the match's
    moves folded again, each named by its cards the way the game's dealer names a simulated
    one, so the real and simulated tables count the same cards. {} for a game whose moves name
    no card, or whose dealer cannot be set up for the match (coda with seals)."""
    import random

    from referee import engine
    from referee.dealing import dealer_class

    gone = engine.retracted(events)
    dealer = None
    out: dict[str, set[int]] = {}
    before = None
    for e, after in engine.steps(rules, events, gone=set(gone)):
        if e.kind == "new":  # a state of its own: the dealer deals into it, never the fold's
            try:
                dealer = dealer_class(rules)(rules, rules.setup(
                    tuple(e.data["players"]), dict(e.data.get("options", {}))), random.Random(0))
            except RefereeError:
                return {}
        elif e.kind == "move" and e.seq not in gone and dealer is not None:
            who = e.data.get("player")
            move = rules.parse(before, e.data["text"], who)
            mover = who if who is not None else rules.mover(move)
            for card in dealer.cards(before, move) if mover in players else ():
                out.setdefault(card, set()).add(list(players).index(mover))
        before = after
    return out


def _share(record: GameRecord, seat: int) -> float:
    return 1 / len(record.winners) if seat in record.winners else 0.0


def text(rows: Sequence[dict[str, Any]], top: int = 5) -> list[str]:
    """The outliers, named, then the strongest and weakest cards."""
    if not rows:
        return []
    out = ["cards: win rate of the player who played it, against those who did not (95% CI)"]
    for row in [r for r in rows if r["outlier"]][:top * 2]:
        lo, hi = row["difference_ci95"]
        way = "stronger" if row["difference"] > 0 else "weaker"
        out.append(f"  outlier: {row['card']} wins {100 * row['win_rate']:.0f} % when played, "
                   f"{100 * row['without']:.0f} % without ({100 * lo:+.0f} to {100 * hi:+.0f} "
                   f"percentage points): {way} than the rest")
    if not any(r["outlier"] for r in rows):
        out.append("  no card stands out beyond noise")
    return out
