"""The simulation report in plain words: one verdict per figure that matters, what the words
mean, and what the bots can and cannot show.

Why: a table of rates and intervals had to be decoded ("+0.3 points" were percentage points,
"turns" and "moves" were never explained, and 60 % of rounds with no winner was an artefact of
random bots that the report did not call one). Each verdict here reads a figure the way a
designer would ask about it: is this seat's edge real or noise, how long is a game, can the
figure be trusted with these bots.
"""

from __future__ import annotations

from typing import Any


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def span(lo: float, hi: float) -> str:
    return f"{100 * lo:.1f}-{100 * hi:.1f} %"


def seat(number: int, rate: float, ci: tuple[float, float], fair: float) -> str:
    """`seat 1 wins 36.0 %, fair is 33.3 %: within noise (95 % CI 31.0-41.0 %)`."""
    lo, hi = ci
    if lo <= fair <= hi:
        judged = "within noise"
    elif lo > fair:
        judged = "more than fair, beyond noise"
    else:
        judged = "less than fair, beyond noise"
    return (f"seat {number} wins {pct(rate)}, fair is {pct(fair)}: {judged} "
            f"(95 % CI {span(lo, hi)})")


def first_seat(s: dict[str, Any]) -> str:
    """Seat 1's edge in percentage points, and whether it is more than noise."""
    f = s["first_seat"]
    lo, hi = f["ci95"]
    points = 100 * f["advantage"]
    verdict = ("no edge beyond noise" if lo <= f["fair"] <= hi
               else "an edge beyond noise" if points > 0 else "a handicap beyond noise")
    return (f"first seat: {points:+.1f} percentage points against a fair share: {verdict}"
            + (f"; {s['games']} games cannot tell differences smaller than about "
               f"{50 * (hi - lo):.0f} percentage points" if lo <= f["fair"] <= hi else ""))


def length(s: dict[str, Any]) -> str:
    t, m, r = s["turns"], s["moves"], s["rounds"]
    return (f"a game lasts {t['p50']:.0f} turns, {m['p50']:.0f} moves and {r['p50']:.0f} "
            f"round{'s' if r['p50'] != 1 else ''} (medians; half of the games take "
            f"{t['p25']:.0f}-{t['p75']:.0f} turns)")


def winning_score(s: dict[str, Any]) -> str:
    w = s["winning_scores"]
    return (f"the winner scores {w['p50']:.0f} (median; half of the games "
            f"{w['p25']:.0f}-{w['p75']:.0f})")


NO_WINNER = {
    "random": "an artefact of random bots: they play without aim, so rounds stall far more "
              "often than at a real table; this figure says little about the game",
    "greedy": "greedy bots look one move ahead; people who plan ahead stall fewer rounds, so "
              "read it as an upper bound",
}


def no_winner(s: dict[str, Any]) -> str | None:
    nw = s["no_winner_rounds"]
    if not nw["rounds"]:
        return None
    why = NO_WINNER.get(s["bot"], "depends on how the bots play")
    return f"rounds with no winner: {pct(nw['rate'])} ({nw['rounds']} of {nw['of']}): {why}"


def lines(s: dict[str, Any]) -> list[str]:
    """Every verdict of a report, most important first."""
    if not s["seats"]:
        return []
    fair = s["first_seat"]["fair"]
    out = [seat(r["seat"], r["rate"], tuple(r["ci95"]), fair) for r in s["seats"]]
    out += [first_seat(s), length(s), winning_score(s)]
    found = no_winner(s)
    if found:
        out.append(found)
    return out


TERMS = (
    "seat 1 is the first player in seating order (who opens depends on the game's rules); "
    "fair is an even share of the wins (1 in the number of seats); a shared win counts for "
    "every seat sharing it",
    "95 % CI: the range the true win rate lies in, 95 times out of 100; a fair share inside "
    "it means the difference may be chance",
    "percentage points: the difference of two percentages (36 % against 33 % is +3 "
    "percentage points; not 3 % of 33 %)",
    "a turn is one player's go, until another player acts; a move is one entry the referee "
    "records, as one `referee play` would (a turn of two draws and a placement is 3 moves; "
    "dealing and scoring a round are moves of the table)",
)

BOTS = {
    "random": ("random bots play any legal move, at random",
               "they can show: the rules and components hold up (every game ends, which cards "
               "ever get played) and seat-order effects that need no skill",
               "they cannot show: how people play: scores, length and rounds with no winner "
               "are those of aimless play (compare with --bot greedy)"),
    "greedy": ("greedy bots take the move with the best immediate score",
               "they can show: what grabbing points now earns, which cards score most, "
               "whether going first helps such a player",
               "they cannot show: plans beyond one move (holding back, blocking): strong "
               "players may change every figure"),
}


def about_bots(bot: str) -> tuple[str, ...]:
    return BOTS.get(bot, (f"{bot} bots",))
