"""Benchmark: wall time of `pnp build` for the card templates, interpreter start included.

Run: python bench/bench_build.py [--runs N]. Prints the best and median of N runs per game.
Issue figure: the 99-card Duplicon PDF in under 1 s wall on the CI machine.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = ("duplicon", "decktet", "coda")


def time_build(game: str, out: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", "build", game, "-o", str(out)],
                   check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            out = Path(tmp) / f"{game}.pdf"
            times = [time_build(game, out) for _ in range(args.runs)]
            size = out.stat().st_size / 1024
            print(f"{game:<16} best {min(times):.3f} s  median {statistics.median(times):.3f} s"
                  f"  ({args.runs} runs, {size:.0f} KiB)")


if __name__ == "__main__":
    main()
