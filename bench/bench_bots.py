"""Search bots against random, and games per minute per bot (issue 41).

    python bench/bench_bots.py thricewise ismcts:50 200
    python bench/bench_bots.py tripple-domino mcts:20 200 --speed
    python bench/bench_bots.py coda mcts:5 40   (also dobble-connect, duplicon)

Head-to-head: the strong bot takes the first seat in even games and the second in odd ones
(the same deals), so seat advantage cancels; its win share (a shared win counts half) with a
95 % Wilson interval. --speed also times random and greedy through `referee simulate`'s path.

Measured 2026-11-27 on the shared 2-core machine (load about 10, one process), 2 players:
  thricewise: ismcts:20 wins 94 % against random (90 % to 97 %) over 200 games, 6.1 games a
    minute (ismcts:50: about 10 a minute on a quieter machine, 4 games); mcts:5 wins 96 %
    (92 % to 98 %) over 200 games, 35.8 games a minute.
  tripple-domino: mcts:5 wins 87 % against random (82 % to 91 %) over 200 games, 4.6 games a
    minute (load about 10); mcts:10 won 80 % (65 % to 90 %) over 40 games at 1.4 a minute, too
    slow for 200 in a session, so 200 were played at 5 simulations a move (mcts:3: 5 of 6 won).
  random / greedy, games a minute: thricewise 1,211 / 152; tripple-domino 696 / 648.
  coda: mcts:5 wins 88 % against random (74 % to 95 %) over 40 games, 41.1 games a minute.
  dobble-connect: mcts:5 wins 82 % (68 % to 91 %) over 40 games, 8.4 games a minute.
  duplicon: mcts:5 wins 75 % (53 % to 89 %) over 20 games, 1.1 games a minute; every game
    reached the 12-round cap with both scores far below zero (random play never reaches 100),
    so the leader at the cap won. Its turns offer about 100 choices: 5 simulations barely
    look at them, and more were too slow for this session.
"""

from __future__ import annotations

import sys
import time

from referee import simulate as sim
from referee.openspiel.play import play_one
from referee.report import wilson


def head_to_head(game: str, strong: str, games: int) -> tuple[float, float, float, float]:
    plan = sim.Plan(game, ("ana", "bob"), {}, f"{strong},random", 1)
    share, start = 0.0, time.monotonic()
    for i in range(games):
        seat = i % 2
        bots = (strong, "random") if seat == 0 else ("random", strong)
        record = play_one(plan, bots, i)
        share += (seat in record.winners) / len(record.winners)
        print(f"  game {i}: {strong} at seat {seat + 1}, scores {record.scores}", flush=True)
    minutes = (time.monotonic() - start) / 60
    low, high = wilson(round(share), games)
    return share / games, low, high, games / minutes


def speed(game: str, bot: str, games: int) -> float:
    plan = sim.plan(game, 2, games, bot, 1, {})
    start = time.monotonic()
    sim.run(plan, games, workers=1)
    return games / ((time.monotonic() - start) / 60)


def main(argv: list[str]) -> None:
    game, strong, games = argv[0], argv[1], int(argv[2])
    if "--speed" in argv:
        for bot in ("random", "greedy"):
            print(f"{game} {bot}: {speed(game, bot, 50):,.0f} games/min")
    rate, low, high, per_minute = head_to_head(game, strong, games)
    print(f"{game}: {strong} wins {rate:.0%} against random ({low:.0%} to {high:.0%}), "
          f"{games} games, {per_minute:.1f} games/min")


if __name__ == "__main__":
    main(sys.argv[1:])
