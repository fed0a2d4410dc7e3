"""Benchmark: `pnp export` wall time and peak memory (the export and its render workers).

Run: python bench/bench_export.py [--runs N]. Issue figures: duplicon --format png (99 cards,
300 dpi) < 10 s on 2 cores with peak memory < 500 MB; dobble-connect --format tts < 15 s.
Peak memory is the largest resident set of the command or any one of its worker processes.
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

JOBS = (("duplicon", "png"), ("dobble-connect", "tts"))


def run(game: str, fmt: str, out: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", "export", game, "--format", fmt,
                    "-o", str(out)], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for game, fmt in JOBS:
            out = Path(tmp) / f"{game}-{fmt}"
            times = [run(game, fmt, out) for _ in range(args.runs)]
            files = list(out.glob("*.png"))
            mb = sum(f.stat().st_size for f in files) / 1e6
            print(f"{game} --format {fmt:<4} best {min(times):.2f} s  median "
                  f"{statistics.median(times):.2f} s  ({args.runs} runs, {len(files)} PNGs, "
                  f"{mb:.1f} MB)")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak resident memory of any one process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
