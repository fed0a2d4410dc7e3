"""Benchmark: what the size limits cost and save (issue 12 item 6).

Run: python bench/bench_limits.py. Builds a deck at the card limit (20,000 cards) and prints its
wall time and peak memory, then times the refusals of a 1,000,000-card deck and of a
3000×3000 mm card preview at 600 dpi (~5 gigapixels), which must be immediate.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAME = """[deck]
source = "csv"
file = "cards.csv"
size = "{size}"

[[face]]
type = "rect"
fill = "{{color}}"

[[face]]
type = "text"
text = "{{name}}"
x = "50%"
y = "20mm"
align = "center"
"""


def game(root: Path, size: str, rows: int, qty: int) -> Path:
    root.mkdir()
    (root / "game.toml").write_text(GAME.format(size=size))
    (root / "cards.csv").write_text("name,color,qty\n" + "".join(
        f"card {i},#{(i * 40503) % 0xFFFFFF:06x},{qty}\n" for i in range(rows)))
    return root


def run(*args: str) -> tuple[float, int, str]:
    """Wall seconds, peak RSS of the child in MiB, and the last line it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True)
    wall = time.perf_counter() - start
    peak = max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before) // 1024
    return wall, peak, (done.stdout + done.stderr).strip().splitlines()[-1][:110]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # the refusals first: peak memory is the largest child's so far, so theirs is their own
        cases = [
            ("1,000,000 cards (refused)", ["build", str(game(tmp / "over", "poker", 100, 10_000)),
                                           "-o", str(tmp / "over.pdf")]),
            ("3000 mm card at 600 dpi (refused)",
             ["preview", str(game(tmp / "big", "3000x3000mm", 1, 1)), "--card", "1", "--dpi",
              "600", "-o", str(tmp / "big.png")]),
            ("20,000 cards (the limit)", ["build", str(game(tmp / "at", "poker", 100, 200)),
                                          "-o", str(tmp / "at.pdf")]),
        ]
        for label, args in cases:
            wall, peak, last = run(*args)
            print(f"{label:<36} {wall:6.2f} s  peak {peak:5d} MiB  {last}")


if __name__ == "__main__":
    main()
