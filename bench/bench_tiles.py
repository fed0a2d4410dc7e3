"""Wall time of building the domino templates (target: under 1 s each), and of the triangle
layout alone for larger sets.

    python bench/bench_tiles.py [--runs 5]

Each build is the whole job of `pnp build <game> --backs`: load the definition, impose, render
and write the PDF. The first run of a process pays for imports and font loading; it is
reported apart (cold) from the median of the following runs (warm).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = ("tripple-domino", "dominoes")


def cold_cli(game: str, out: Path) -> float:
    """One `pnp build` in a fresh interpreter: what a user waits for."""
    pnp = shutil.which("pnp") or sys.exit("the pnp command is not installed (pip install -e .)")
    start = time.perf_counter()
    subprocess.run([pnp, "build", game, "--backs", "-o", str(out)], check=True,
                   capture_output=True)
    elapsed = time.perf_counter() - start
    if not out.is_file():
        sys.exit(f"pnp build {game} wrote no {out}")
    return elapsed


def warm_build(game: str, out: Path, runs: int) -> tuple[float, float]:
    from generator.build import Options, build
    from pnp_model.definition import load

    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        build(load(game), out, Options(backs=True))
        times.append(time.perf_counter() - start)
    return times[0], statistics.median(times[1:])


def layout_only(top: int, runs: int) -> tuple[int, float, int]:
    from generator.layout.triangles import impose_triangles
    from pnp_model import units
    from pnp_model.definition import load
    from pnp_model.designs.dominoes import triangle_rows

    deck = load("tripple-domino")
    rows = triangle_rows({"max": top}, deck.root, "bench")
    from pnp_model.components import Card

    cards = tuple(Card(i, r.fields) for i, r in enumerate(rows, 1))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        sheet = impose_triangles(deck, cards, *units.paper("a4"), backs=True)
        times.append(time.perf_counter() - start)
    return len(cards), statistics.median(times), int(sheet.info["cuts"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            out = Path(tmp) / f"{game}.pdf"
            first, median = warm_build(game, out, args.runs)
            cli = cold_cli(game, Path(tmp) / f"cli-{game}.pdf")
            size = out.stat().st_size // 1024
            verdict = "ok" if cli < 1.0 else "SLOW"
            print(f"{game:15s} pnp build (fresh process) {cli:6.3f} s [{verdict}]  "
                  f"in-process first {first:6.3f} s, warm median {median:6.3f} s  ({size} KiB)")
    for top in (5, 9, 12):
        n, t, cuts = layout_only(top, args.runs)
        print(f"triangle layout 0-{top:<2d} {n:4d} tiles: {t * 1000:7.2f} ms, "
              f"{cuts} cuts (vs {3 * n} edges)")


if __name__ == "__main__":
    main()
