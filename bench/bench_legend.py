"""Benchmark: what legend cards cost (issue #13's optional legend).

    python bench/bench_legend.py [--runs 5]

Prints, median of N runs:
  - the legend's layout alone, in-process (the search for the fewest cards and the largest
    symbols): dobble (57 icons), dobble-connect (91 icons), the 57 generated art symbols;
  - `pnp build dobble` as a fresh process, without and with --legend: wall and CPU time.
CPU time is the steadier figure on a shared machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import art_deck
from bench_symbols import pnp_run

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def layout_times(game: str, runs: int) -> str:
    from generator.render.legend import legend_cards
    from pnp_model.definition import load

    deck = load(game)
    walls, cpus, count = [], [], 0
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        count = len(legend_cards(deck, deck.cards))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return (f"{len({s for c in deck.cards for s in c.symbols})} symbols -> {count} legend "
            f"card(s): layout median {statistics.median(walls) * 1000:.0f} ms wall, "
            f"{statistics.median(cpus) * 1000:.0f} ms CPU")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    runs = ap.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        art = art_deck.make_deck(Path(tmp) / "art")
        for name, game in (("dobble", "dobble"), ("dobble-connect", "dobble-connect"),
                           ("57 art symbols", str(art))):
            print(f"{name}: {layout_times(game, runs)}")
        out = Path(tmp) / "dobble.pdf"
        for flags in ((), ("--legend",)):
            got = [pnp_run("build", "dobble", "-o", str(out), *flags) for _ in range(runs)]
            print(f"pnp build dobble {' '.join(flags)}: median "
                  f"{statistics.median(g[0] for g in got):.3f} s wall, "
                  f"{statistics.median(g[1] for g in got):.3f} s CPU")


if __name__ == "__main__":
    main()
