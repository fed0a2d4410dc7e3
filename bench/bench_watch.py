"""Benchmark: how long after a save `pnp watch` has the new output written.

Run: python bench/bench_watch.py [--saves N] [games...]. For each game, a copy of the bundled
template is watched (the library's watch loop in a thread, as `pnp watch` runs it); each save
rewrites cards.csv with one value changed (an extra column), and the time until the output
file is replaced is measured. Reported: median and worst wall time from save to new output,
the rebuild's own time, and the process CPU time per save (time.process_time: the watcher, the
rebuild and this script's 5 ms polling; on a shared 2-core machine wall time also includes
waiting for a core and the fsync of the atomic write).
Issue figure: a watch rebuild after a save < 1 s.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.watch import Target, watch  # noqa: E402
from pnp_model.definition import find  # noqa: E402

GAMES = ("emberfall", "duplicon", "decktet")


def replaced(out: Path, before: int, limit: float = 10.0) -> float:
    """Seconds until `out` has a new inode/mtime (written atomically by os.replace)."""
    start = time.perf_counter()
    while time.perf_counter() - start < limit:
        try:
            st = out.stat()
            if st.st_mtime_ns != before:
                return time.perf_counter() - start
        except FileNotFoundError:
            pass
        time.sleep(0.005)
    raise SystemExit(f"no new output within {limit} s")


def bench(game: str, target_kind: str, saves: int, tmp: Path) -> str:
    root = tmp / game
    shutil.copytree(find(game), root)
    cards = root / "cards.csv"
    original = cards.read_text()
    header, first, *rest = original.splitlines(keepends=True)
    if target_kind == "pdf":
        out = tmp / f"{game}.pdf"
        target = Target(output=out)
    else:
        out = tmp / f"{game}-card-1.png"
        target = Target(card="1", dpi=100, output=out)
    lines: list[str] = []
    ready = threading.Event()

    def report(line: str, is_error: bool) -> None:
        lines.append(line)
        if line.startswith("watching"):
            ready.set()

    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(root, target, report, stop), daemon=True)
    thread.start()
    if not ready.wait(30):
        raise SystemExit(f"the watch did not start: {lines}")
    walls, cpus = [], []
    for i in range(saves):
        before = out.stat().st_mtime_ns
        cpu = time.process_time()
        cards.write_text(header.rstrip("\n") + ",bench\n" + first.rstrip("\n") + f",{i}\n"
                         + "".join(rest))
        walls.append(replaced(out, before))
        time.sleep(0.1)  # let the rebuild's report land before the next save
        cpus.append(time.process_time() - cpu)
    stop.set()
    thread.join(5)
    errors = [line for line in lines if line.startswith("error")]
    if errors:
        raise SystemExit(f"errors while watching: {errors}")
    took = [float(line.rsplit(" in ", 1)[1].split(" s")[0]) for line in lines
            if line.startswith("built ")][1:]
    return (f"{game:<10} {target_kind:<4} save->output median {statistics.median(walls):.3f} s, "
            f"worst {max(walls):.3f} s; rebuild itself median {statistics.median(took):.3f} s; "
            f"CPU per save {statistics.median(cpus):.3f} s ({saves} saves)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--saves", type=int, default=10)
    parser.add_argument("games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            for kind in ("pdf", "card"):
                print(bench(game, kind, args.saves, Path(tmp) / kind), flush=True)


if __name__ == "__main__":
    main()
