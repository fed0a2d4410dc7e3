"""Benchmark: wall and CPU time of `pnp build` for the card templates, interpreter start included.

Run: python bench/bench_build.py [--runs N] [games...]; the game `all` times `pnp build --all`.
Prints the best and median of N runs per game, wall time and the child's CPU time (the machine
is shared, so CPU time is the steadier figure).
Issue figure: the 99-card Duplicon PDF in under 1 s wall on the CI machine.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = ("duplicon", "decktet", "coda", "lighthouse")  # lighthouse: a whole game, one PDF


def time_build(game: str, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user + system of the child) of one build."""
    args = ["--all", "-o", str(out.parent / "all")] if game == "all" else [game, "-o", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", "build", *args], check=True,
                   capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            out = Path(tmp) / f"{game}.pdf"
            runs = [time_build(game, out) for _ in range(args.runs)]
            walls, cpus = [w for w, _ in runs], [c for _, c in runs]
            size = f", {out.stat().st_size / 1024:.0f} KiB" if out.exists() else ""
            print(f"{game:<16} wall best {min(walls):.3f} s median {statistics.median(walls):.3f} s"
                  f"  cpu best {min(cpus):.3f} s median {statistics.median(cpus):.3f} s"
                  f"  ({args.runs} runs{size})")


if __name__ == "__main__":
    main()
