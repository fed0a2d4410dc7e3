"""Benchmark: `referee simulate` throughput (issue 17 figures).

    python bench/bench_simulate.py [--workers 2] [--quick] [--only tripple-domino,thricewise]

Plays each bundled game with the random bot on the worker processes and prints, per game, the
games played, wall time, CPU time (this process and its workers: the machine may be shared, so
wall time alone says little) and the rate in games a minute. Targets: 1,000 three-player Tripple
Domino games in under 60 s on 2 cores; Thricewise at 5,000 games a minute or more.
"""

from __future__ import annotations

import argparse
import resource
import time

from referee.simulate import Plan, run, seats

# (game, players, options, games, target): the targets are the issue's
CASES = [
    ("tripple-domino", 3, {}, 1000, "< 60 s"),
    ("thricewise", 3, {}, 5000, ">= 5,000 games/min"),
    ("coda", 3, {}, 200, ""),
    ("duplicon", 2, {}, 50, ""),
    ("dobble-connect", 2, {}, 500, ""),
]


def cpu_seconds() -> float:
    """CPU time of this process and of its finished workers, user + system."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="a tenth of the games")
    ap.add_argument("--bot", default="random")
    ap.add_argument("--only", default="", help="comma-separated games (default: all)")
    args = ap.parse_args()
    only = {g for g in args.only.split(",") if g}
    print(f"bot {args.bot}, {args.workers} workers")
    print(f"{'game':<16} {'players':>7} {'games':>6} {'wall s':>8} {'cpu s':>8} "
          f"{'games/min':>10}  {'cpu ms/game':>11}  target")
    for game, players, options, games, target in CASES:
        if only and game not in only:
            continue
        games = max(10, games // 10) if args.quick else games
        plan = Plan(game, seats(players), options, args.bot, 1)
        cpu0, wall0 = cpu_seconds(), time.perf_counter()
        records = run(plan, games, workers=args.workers)
        wall, cpu = time.perf_counter() - wall0, cpu_seconds() - cpu0
        assert len(records) == games
        print(f"{game:<16} {players:>7} {games:>6} {wall:>8.1f} {cpu:>8.1f} "
              f"{60 * games / wall:>10.0f}  {1000 * cpu / games:>11.1f}  {target}")


if __name__ == "__main__":
    main()
