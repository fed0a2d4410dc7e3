"""Benchmark: wall time of referee commands on a match of 300 events, interpreter start included.

The issue's budget is 150 ms per command. Builds a 300-event Tripple Domino match by seeded
random legal play (through referee.session, the path the CLI takes), then times each command
as a user runs it: a fresh `referee` process. Prints the median and worst of N runs, and the
median minus a bare `python -c pass` (interpreter and site start-up, which this machine's
environment makes slow) as the referee's own share.

Children run with bytecode caching on (in a temporary PYTHONPYCACHEPREFIX, so the tree stays
clean), as an installed package does, even when PYTHONDONTWRITEBYTECODE is set here.

    python bench/bench_referee.py [--runs 15] [--events 300]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee import session  # noqa: E402
from referee.games.tripple_domino import GAME, End, Place  # noqa: E402
from referee.store import Store  # noqa: E402

COMMANDS = [
    ["show"], ["score"], ["log"], ["check", "draw"], ["play", "draw"], ["undo"],
    ["replay", "--to", "150"], ["matches"], ["standings"], ["games"], ["--help"],
    ["moves"], ["ask", "where", "0-3-5"], ["show", "--full"],  # the table's helpers (issue 16)
]


def build(db: Path, events: int, seed: int = 7) -> int:
    """A match with `events` events from seeded random legal play; returns the event count."""
    rng = random.Random(seed)
    store = Store(db)
    names = ["ana", "bob", "cara"]
    session.new_match(store, "tripple-domino", names, {"target": "100000"})
    pool = sorted(GAME_TILES())
    count = 1
    while count < events:
        cur = session.load(store)
        state = cur.state
        if state.phase == "start":
            picks = rng.sample(pool, len(names))
            text = "start " + " ".join(f"{p}={'-'.join(map(str, t))}"
                                       for p, t in zip(names, picks, strict=True))
        elif state.phase == "end":
            free = [t for t in pool if t not in state.used]
            rng.shuffle(free)
            hands = []
            for k, p in enumerate(names):
                if p == state.out:
                    continue
                n = state.hands[k]
                hands.append(f"{p}={','.join('-'.join(map(str, t)) for t in free[:n]) or '-'}")
                free = free[n:]
            text = "end " + " ".join(hands)
        elif state.phase == "over":
            break
        else:
            moves = GAME.legal_moves(state)
            places = [m for m in moves if isinstance(m, Place) and not m.drawn]
            draws = [m for m in moves if not isinstance(m, Place)]
            drawn = [m for m in moves if isinstance(m, Place) and m.drawn]
            if places and rng.random() < 0.8 and not state.draws:
                move = rng.choice(places)
            elif drawn and rng.random() < 0.5:
                move = rng.choice(drawn)
            else:
                move = rng.choice(draws or moves)
            text = GAME.format(state, move)
        played = session.play(store, text)
        assert played.event is not None, (text, played.verdict, played.error)
        count = played.event.seq
        assert not isinstance(played, End)
    store.close()
    return count


def GAME_TILES():  # noqa: N802 - reads like the constant it stands for
    from referee.games.tripple_domino import tiles

    return tiles()


CPU: list[float] = []  # CPU seconds (user + system) of each timed child, in order


def timed(args: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one `referee` run; its CPU seconds go to CPU (the machine is shared, so
    CPU time is the steadier figure)."""
    exe = shutil.which("referee") or sys.executable
    cmd = [exe, *args] if exe != sys.executable else [exe, "-m", "referee.cli", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--events", type=int, default=300)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        n = build(db, opts.events)
        env = {**os.environ, "REFEREE_DB": str(db), "PYTHONPYCACHEPREFIX": str(Path(tmp) / "pyc")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        timed(["show"], env)  # warm up: bytecode and the components memo
        base = statistics.median(timed_python(env) for _ in range(opts.runs))
        print(f"match of {n} events; bare `python -c pass`: {base * 1000:.0f} ms")
        print(f"{'command':<22} {'median':>8} {'worst':>8} {'own':>7} {'cpu':>7}   "
              "(budget 150 ms wall)")
        for args in COMMANDS:
            times, cpu = [], []
            for _ in range(opts.runs):
                times.append(timed(args, env))
                cpu.append(CPU[-1])
                if args[0] == "play":
                    timed(["undo"], env)  # keep the match at its size
                elif args[0] == "undo":
                    timed(["play", "draw"], env)
            med, worst = statistics.median(times), max(times)
            flag = "" if med < 0.150 else "  OVER"
            print(f"{' '.join(args):<22} {med * 1000:>6.0f}ms {worst * 1000:>6.0f}ms "
                  f"{(med - base) * 1000:>5.0f}ms {statistics.median(cpu) * 1000:>5.0f}ms{flag}")


def timed_python(env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], env=env)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
