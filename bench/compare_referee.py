"""Benchmark: the referee's commands in this checkout against another (the old main), runs
alternating command by command, so that a change of the machine's load falls on both alike.

bench_referee.py times one checkout; two of its runs one after the other differ by more than
the 10 % the issues allow whenever the shared machine's load moves between them. Here each
command runs once on the old side, once on this one, N times over, each side on its own copy of
a database its own code built (`bench_referee.py --keep FILE` in each checkout makes one), with
its own MAC key and cache folder, the same untimed commands before and after as in
bench_referee. Prints the median CPU time (user + system of the child) of each side and their
ratio; RATIO marks a command more than 10 % slower here. On a shared machine a run or two in a
28 still lands past 10 % by chance, a different command each time; `--instructions` counts
the instructions each command executes instead (valgrind's callgrind: the same count whatever
the load, one run each, about 70 times slower). Under valgrind the CPU's SHA instructions
are hidden, so hashing counts about 15 times what it costs natively (29 M instructions per MB
of HMAC-SHA256 there, 0.65 ms of CPU per MB here): weigh `verify`'s figure with that.

    python bench/compare_referee.py --old ../old-main --old-db old.sqlite3 --new-db new.sqlite3
    python bench/compare_referee.py ... --instructions
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_referee as bench  # noqa: E402
import machine  # noqa: E402

SLOWER = 1.10  # the issues' allowance against the old code


class Side:
    """One checkout's referee, run as `referee` on its own copy of its database."""

    def __init__(self, root: Path, db: Path, tmp: Path, name: str):
        folder = tmp / name
        folder.mkdir()
        shutil.copyfile(db, folder / "bench.sqlite3")
        self.program = bench.program(root)
        self.env = bench.environment(folder, folder / "bench.sqlite3")

    def cpu(self, args: list[str]) -> float:
        return bench.timed_cpu_of([sys.executable, "-c", self.program, *args], self.env)[1]

    def instructions(self, args: list[str]) -> float:
        """Instructions executed by `args` (callgrind's count), in millions."""
        done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                               sys.executable, "-c", self.program, *args], env=self.env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        return int(re.search(r"Collected : (\d+)", done.stderr).group(1)) / 1e6

    def run(self, args: list[str], measure=None) -> float:
        """CPU seconds of `args` (or what `measure` gives), between its untimed befores and
        afters."""
        for before in bench.around(bench.BEFORE, args):
            self.cpu(before)
        took = (measure or self.cpu)(args)
        for after in bench.around(bench.AFTER, args):
            self.cpu(after)
        return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, required=True, help="The other checkout (old main).")
    ap.add_argument("--old-db", type=Path, required=True, help="A database its code built.")
    ap.add_argument("--new-db", type=Path, required=True, help="One this checkout built.")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--only", nargs="+", metavar="COMMAND", help="Only these (first words).")
    ap.add_argument("--instructions", action="store_true",
                    help="Count instructions (callgrind, one run each) instead of CPU time.")
    opts = ap.parse_args()
    print(machine.line("before"))
    with tempfile.TemporaryDirectory() as tmp:
        old = Side(opts.old.resolve(), opts.old_db, Path(tmp), "old")
        new = Side(HERE.parent, opts.new_db, Path(tmp), "new")
        for side in (old, new):  # bytecode, and the snapshots a table's first command makes
            side.cpu(["--help"])
            side.cpu(["show"])
        unit, runs = ("M", 1) if opts.instructions else ("ms", opts.runs)
        what = "instr." if opts.instructions else "CPU"
        print(f"{'command':<34} {'old ' + what:>9} {'new ' + what:>9} {'new/old':>8}")
        for args in bench.COMMANDS:
            if opts.only and args[0] not in opts.only and " ".join(args) not in opts.only:
                continue
            if "--full" in args:  # no such option before
                continue
            olds, news = [], []
            if opts.instructions:  # one count each: the modules' bytecode cached first
                old.run(args)
                new.run(args)
            for _ in range(runs):
                olds.append(old.run(args, opts.instructions and old.instructions))
                news.append(new.run(args, opts.instructions and new.instructions))
            o, n = statistics.median(olds), statistics.median(news)
            flag = "  RATIO" if n > o * SLOWER else ""
            scale = 1 if opts.instructions else 1000
            print(f"{' '.join(args):<34} {o * scale:>7.0f}{unit} {n * scale:>7.0f}{unit} "
                  f"{n / o:>8.2f}{flag}")
    print(machine.line("after"))


if __name__ == "__main__":
    main()
