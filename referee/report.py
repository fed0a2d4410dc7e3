"""What a batch of simulated games says about balance: figures, the text table and JSON.

Win rates carry 95 % Wilson score intervals (good at 0 % and 100 % and for small counts, where
the normal approximation is not); a shared win counts as a win for every seat sharing it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from referee import card_rates, verdicts
from referee.simulate import GameRecord
from referee.stats import Z95, wilson  # noqa: F401  (still importable from here)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), linear between the closest ranks."""
    data = sorted(values)
    if not data:
        return 0.0
    k = (len(data) - 1) * q / 100
    lo, hi = math.floor(k), math.ceil(k)
    return data[lo] + (data[hi] - data[lo]) * (k - lo)


def spread(values: Sequence[float]) -> dict[str, float]:
    """Mean, standard deviation and the usual percentiles."""
    vals = list(values)
    return {"mean": statistics.fmean(vals) if vals else 0.0,
            "sd": statistics.pstdev(vals) if len(vals) > 1 else 0.0,
            "min": min(vals, default=0), "p5": percentile(vals, 5), "p25": percentile(vals, 25),
            "p50": percentile(vals, 50), "p75": percentile(vals, 75),
            "p95": percentile(vals, 95), "max": max(vals, default=0)}


def summarise(records: Sequence[GameRecord], game: str, bot: str, seed: int,
              options: dict[str, str], note: str = "") -> dict[str, Any]:
    """Every figure of the report, as plain data (what --json prints)."""
    n = len(records)
    seats = len(records[0].players) if records else 0
    wins = [sum(i in r.winners for r in records) for i in range(seats)]
    seat_rows = []
    for i in range(seats):
        lo, hi = wilson(wins[i], n)
        seat_rows.append({"seat": i + 1, "wins": wins[i], "rate": wins[i] / n if n else 0.0,
                          "ci95": [lo, hi],
                          "score": spread([r.scores[i] for r in records])})
    rounds = sum(r.rounds for r in records)
    silent = sum(r.no_winner_rounds for r in records)
    cards: dict[str, list[int]] = {}
    for r in records:
        for name, (plays, points) in r.cards.items():
            total = cards.setdefault(name, [0, 0])
            total[0] += plays
            total[1] += points
    per_card = [{"card": name, "played": plays,
                 "mean_points": points / plays if plays else None}
                for name, (plays, points) in cards.items()]
    per_card.sort(key=lambda c: (-c["played"], c["card"]))
    fair = 1 / seats if seats else 0.0
    first = seat_rows[0] if seat_rows else None
    out = {
        "game": game, "bot": bot, "games": n, "players": seats, "seed": seed,
        "options": options, "note": note,
        "seats": seat_rows,
        "first_seat": {"rate": first["rate"], "ci95": first["ci95"], "fair": fair,
                       "advantage": first["rate"] - fair} if first else None,
        "scores": spread([s for r in records for s in r.scores]),
        "winning_scores": spread([max(r.scores) for r in records]),
        "turns": spread([r.turns for r in records]),
        "moves": spread([r.moves for r in records]),
        "rounds": spread([r.rounds for r in records]),
        "no_winner_rounds": {"rounds": silent, "of": rounds,
                             "rate": silent / rounds if rounds else 0.0},
        "capped": sum(r.capped for r in records),
        "cards": per_card,
        "never_played": sorted(c["card"] for c in per_card if not c["played"]),
        "card_win_rates": card_rates.rates(records),
    }
    out["verdicts"] = verdicts.lines(out)  # the figures in plain words, as the text says them
    return out


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def first_seat_line(s: dict[str, Any]) -> str:
    """The first-seat advantage in one line."""
    f = s["first_seat"]
    lo, hi = f["ci95"]
    return (f"first seat: wins {pct(f['rate'])} (95% CI {pct(lo)}-{pct(hi)}) against "
            f"{pct(f['fair'])} for an even game: {100 * f['advantage']:+.1f} percentage "
            f"points ({s['games']} games, {s['bot']} bot)")


def bot_lines(s: dict[str, Any]) -> list[str]:
    """With a bot per seat (`--bot ismcts:200,random`): what each bot won, so a designer
    sees how much strong play beats random, i.e. whether the game rewards skill."""
    names = [b.strip() for b in s["bot"].split(",")]
    if len(names) < 2:
        return []
    return [f"bot {name} (seat {row['seat']}): wins {pct(row['rate'])} (95% CI "
            f"{pct(row['ci95'][0])}-{pct(row['ci95'][1])})"
            for name, row in zip(names, s["seats"], strict=True)]


def text(s: dict[str, Any], top: int = 10) -> str:
    """The report as a text table."""
    opts = " ".join(f"{k}={v}" for k, v in s["options"].items())
    out = [f"{s['game']}: {s['games']} games, {s['players']} players, bot {s['bot']}, "
           f"seed {s['seed']}" + (f", {opts}" if opts else "")]
    if s["note"]:
        out.append(f"note: {s['note']}")
    if s["capped"]:
        out.append(f"note: {s['capped']} game(s) reached the round cap before the game's own "
                   "end; the leaders at the cap count as winners")
    out.append(first_seat_line(s))
    out.extend(bot_lines(s))
    out.extend(card_rates.text(s.get("card_win_rates", [])))
    out.append("")
    out.append("in plain words:")
    out.extend(f"  {line}" for line in verdicts.lines(s))
    out.append("")
    out.append("seat  wins   rate    95% CI          score mean    sd    p5   p50   p95")
    for r in s["seats"]:
        lo, hi = r["ci95"]
        sc = r["score"]
        out.append(f"{r['seat']:>4}  {r['wins']:>5}  {pct(r['rate']):>6}  "
                   f"{pct(lo):>6}-{pct(hi):<6}  {sc['mean']:>10.1f} {sc['sd']:>5.1f} "
                   f"{sc['p5']:>5.0f} {sc['p50']:>5.0f} {sc['p95']:>5.0f}")
    out.append("")
    for key, label in (("scores", "score (every seat)"), ("winning_scores", "winning score"),
                       ("turns", "turns"), ("moves", "moves"), ("rounds", "rounds")):
        d = s[key]
        out.append(f"{label:<20} mean {d['mean']:>7.1f}  sd {d['sd']:>6.1f}  p5 {d['p5']:>6.0f}"
                   f"  p25 {d['p25']:>6.0f}  p50 {d['p50']:>6.0f}  p75 {d['p75']:>6.0f}"
                   f"  p95 {d['p95']:>6.0f}  max {d['max']:>6.0f}")
    nw = s["no_winner_rounds"]
    out.append(f"rounds with no winner: {nw['rounds']} of {nw['of']} ({pct(nw['rate'])})")
    if s["cards"]:
        out.append("")
        played = [c for c in s["cards"] if c["played"]]
        out.append(f"cards: {len(played)} of {len(s['cards'])} played at least once")
        out.append("  most played:  " + ", ".join(
            f"{c['card']} {c['played']}x ({c['mean_points']:.1f} pts)" for c in played[:top]))
        if played:
            best = sorted(played, key=lambda c: (-c["mean_points"], c["card"]))[:top]
            worst = sorted(played, key=lambda c: (c["mean_points"], c["card"]))[:top]
            out.append("  best points:  " + ", ".join(
                f"{c['card']} {c['mean_points']:.1f}" for c in best))
            out.append("  worst points: " + ", ".join(
                f"{c['card']} {c['mean_points']:.1f}" for c in worst))
        never = s["never_played"]
        out.append("  never played: " + (", ".join(never) if never else "none"))
        out.append("  (pts: the mean points of the move that played the card, by these bots)")
    out.append("")
    out.append("what the words mean:")
    out.extend(f"  {line}" for line in verdicts.TERMS)
    out.append("what the bots can show:")
    out.extend(f"  {line}" for line in verdicts.about_bots(s["bot"]))
    return "\n".join(out)
