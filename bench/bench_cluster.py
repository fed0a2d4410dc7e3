"""Benchmark: `referee simulate --scheduler local` with 1 and 2 Dask workers (issue 41).

    python bench/bench_cluster.py [--game tripple-domino] [--games 400] [--bot random]

Plays the same games in one process, then on a local Dask cluster (127.0.0.1) of 1 and of 2
single-thread worker processes, each cluster started once and warmed up before it is timed (a
real sweep keeps its workers). Prints wall time, games a minute and the speed-up of 2 workers
over 1, with the load average: the machine may be shared, so a busy core shrinks the speed-up.
Every run's games are checked equal to the one-process run's.
"""

from __future__ import annotations

import argparse
import logging
import os
import time

from referee import cluster
from referee.simulate import Plan, run, seats


def timed(fn) -> tuple[float, list]:
    start = time.perf_counter()
    records = fn()
    return time.perf_counter() - start, records


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="tripple-domino")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--bot", default="random")
    args = ap.parse_args()
    from distributed import Client, LocalCluster

    plan = Plan(args.game, seats(args.players), {}, args.bot, 1)
    print(f"{args.game}, {args.players} players, {args.games} games, bot {args.bot}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    wall, one = timed(lambda: run(plan, args.games, workers=1))
    print(f"{'one process':<22} {wall:>7.1f} s {60 * args.games / wall:>8.0f} games/min")
    walls = {}
    for n in (1, 2):
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None,
                          silence_logs=logging.ERROR) as local, \
                Client(local) as client:
            cluster.play(client, plan, 2 * n)  # workers import the rules once, untimed
            wall, records = timed(lambda c=client: cluster.play(c, plan, args.games))
        assert [(r.scores, r.moves) for r in records] == [(r.scores, r.moves) for r in one]
        walls[n] = wall
        print(f"{f'dask, {n} worker(s)':<22} {wall:>7.1f} s {60 * args.games / wall:>8.0f} "
              "games/min")
    print(f"speed-up of 2 workers over 1: {walls[1] / walls[2]:.2f}x "
          f"(load average now {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
