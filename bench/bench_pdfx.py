"""Benchmark: what PDF/X-1a costs over a plain CMYK PDF (flattening is most of it).

Run: python bench/bench_pdfx.py [--runs N] [GAME ...]. For each game (default: decktet, whose
45 faces each carry translucent suit symbols, and emberfall, with raster art), builds one card a
page with 1/8 in bleed as --cmyk and as --pdfx in this process, and prints the CPU time
(time.process_time: the machine is shared, so wall time alone says little) next to wall time.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def once(game: str, flag: str, out: Path) -> tuple[float, float]:
    from generator.build import Options, build
    from pnp_model.definition import load

    deck = load(game)
    opts = Options(layout="single", bleed=9.0, cmyk=flag == "cmyk", pdfx=flag == "pdfx")
    wall, cpu = time.perf_counter(), time.process_time()
    build(deck, out, opts)
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=["decktet", "emberfall"])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            for flag in ("cmyk", "pdfx"):
                out = Path(tmp) / f"{game}-{flag}.pdf"
                runs = [once(game, flag, out) for _ in range(args.runs)]
                wall, cpu = min(r[0] for r in runs), min(r[1] for r in runs)
                print(f"{game:<10} --{flag:<5} best of {args.runs}: CPU {cpu:.2f} s, wall "
                      f"{wall:.2f} s, {out.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
