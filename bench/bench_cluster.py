"""Benchmark: `referee simulate --scheduler local` with 1 and 2 Dask workers (issue 41).

    python bench/bench_cluster.py [--game tripple-domino] [--games 400] [--bot random]

Plays the same games in one process, then on a local Dask cluster (127.0.0.1) of 1 and of 2
single-thread worker processes, each cluster started once and warmed up before it is timed (a
real sweep keeps its workers). Prints wall time, games a minute and the speed-up of 2 workers
over 1, with the load average: the machine may be shared, so a busy core shrinks the speed-up.
CPU time a game (workers and this process) shows the cluster's own cost whatever the load.
Every run's games are checked equal to the one-process run's.
"""

from __future__ import annotations

import argparse
import logging
import os
import time

from referee import cluster
from referee.simulate import Plan, run, seats


def timed(fn, client=None) -> tuple[float, float, list]:
    """Wall and CPU seconds (this process and the client's workers) of fn()."""
    def cpu() -> float:
        workers = sum(client.run(time.process_time).values()) if client else 0.0
        return time.process_time() + workers

    cpu0, start = cpu(), time.perf_counter()
    records = fn()
    wall = time.perf_counter() - start
    return wall, cpu() - cpu0, records


def line(what: str, games: int, wall: float, cpu: float) -> None:
    print(f"{what:<22} {wall:>7.1f} s {60 * games / wall:>8.0f} games/min "
          f"{1000 * cpu / games:>7.1f} ms CPU a game")


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
    wall, cpu, one = timed(lambda: run(plan, args.games, workers=1))
    line("one process", args.games, wall, cpu)
    walls = {}
    for n in (1, 2):
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None,
                          silence_logs=logging.ERROR) as local, \
                Client(local) as client:
            cluster.play(client, plan, 2 * n)  # workers import the rules once, untimed
            wall, cpu, records = timed(lambda c=client: cluster.play(c, plan, args.games),
                                       client)
        assert [(r.scores, r.moves) for r in records] == [(r.scores, r.moves) for r in one]
        walls[n] = wall
        line(f"dask, {n} worker(s)", args.games, wall, cpu)
    print(f"speed-up of 2 workers over 1: {walls[1] / walls[2]:.2f}x "
          f"(load average now {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
