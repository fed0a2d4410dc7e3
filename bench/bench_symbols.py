"""Benchmark: symbol decks (issue #3 figures).

    python bench/bench_symbols.py [--runs 3] [--big]

Prints, best and median of N runs:
  - `pnp build dobble` wall time (a fresh process, interpreter start included; target < 1 s);
  - a 57-card deck from a folder of 57 generated 256-px PNGs at 95 mm diameter: wall time of
    `pnp build` and the PDF size (targets < 2 s, < 2 MB);
  - verification of the order-31 plane, 993 cards (target < 0.5 s);
  - plane generation per order, and the mean/min symbol coverage of the bundled decks;
  - with --big: the order-31 deck (993 cards, 32 icons each) built to PDF.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ORDERS = (2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 49, 64)


def timed(fn, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def pnp(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "generator", *args], check=True, capture_output=True)


def make_png_deck(root: Path, order: int = 7, diameter: str = "95mm") -> Path:
    """A definition folder with one 256-px PNG per symbol (random coloured blobs)."""
    from PIL import Image, ImageDraw

    n = order * order + order + 1
    art = root / "art"
    art.mkdir(parents=True, exist_ok=True)
    rng = random.Random(57)
    for i in range(n):
        im = Image.new("RGBA", (256, 256), (0, 0, 0, 0))
        d = ImageDraw.Draw(im)
        for _ in range(6):
            x, y = rng.randrange(20, 180), rng.randrange(20, 180)
            colour = tuple(rng.randrange(256) for _ in range(3)) + (255,)
            d.ellipse((x, y, x + rng.randrange(30, 76), y + rng.randrange(30, 76)), fill=colour)
        im.save(art / f"blob{i:03d}.png")
    (root / "game.toml").write_text(f"""[game]
title = "PNG symbols"
[deck]
source = "plane"
shape = "circle"
size = "{diameter}x{diameter}"
options = {{ order = {order}, symbols = "folder:art" }}
[[face]]
type = "symbols"
x = "4%"
y = "4%"
w = "92%"
h = "92%"
""")
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--big", action="store_true", help="also build the order-31 deck")
    args = parser.parse_args()

    from generator.definition import load
    from generator.designs.planes import plane
    from generator.layout.packing import coverage
    from generator.render.symbols import region_for
    from generator.verify import check_symbols

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "dobble.pdf"
        best, med = timed(lambda: pnp("build", "dobble", "-o", str(out)), args.runs)
        print(f"pnp build dobble (55 cards)        best {best:.3f} s  median {med:.3f} s  "
              f"{out.stat().st_size / 1024:.0f} KiB")

        root = make_png_deck(Path(tmp) / "pngdeck")
        out = Path(tmp) / "png.pdf"
        best, med = timed(lambda: pnp("build", str(root), "-o", str(out)), args.runs)
        print(f"pnp build 57 PNG symbols, 95 mm    best {best:.3f} s  median {med:.3f} s  "
              f"{out.stat().st_size / 1024 / 1024:.2f} MB")

        if args.big:
            big = Path(tmp) / "big"
            big.mkdir()
            (big / "game.toml").write_text(
                '[deck]\nsource = "plane"\nshape = "circle"\nsize = "95x95mm"\n'
                'options = { order = 31 }\n[[face]]\ntype = "symbols"\n')
            out = Path(tmp) / "big.pdf"
            best, _ = timed(lambda: pnp("build", str(big), "-o", str(out)), 1)
            print(f"pnp build order 31 (993 cards)     {best:.3f} s  "
                  f"{out.stat().st_size / 1024 / 1024:.2f} MB")

    cards = [(i + 1, tuple(map(str, line))) for i, line in enumerate(plane(31))]
    best, med = timed(lambda: check_symbols(cards), max(args.runs, 5))
    print(f"verify order 31 (993 cards)        best {best * 1000:.1f} ms  median {med * 1000:.1f} ms")

    line = []
    for q in ORDERS:
        best, _ = timed(lambda q=q: plane(q), 3)
        line.append(f"{q}: {best * 1000:.1f}")
    print("plane generation, ms per order     " + ", ".join(line))

    for name in ("dobble", "dobble-connect"):
        from generator.layout.packing import card_layout

        deck = load(name)
        el = next(e for e in deck.face if e.kind == "symbols")
        region = region_for(deck.shape, el.get("w"), el.get("h"))
        start = time.perf_counter()
        covers = [coverage(card_layout(len(c.symbols), region, 0, c.id), region)
                  for c in deck.cards]
        took = time.perf_counter() - start
        print(f"coverage {name:<16}          mean {statistics.mean(covers):.1%}  "
              f"min {min(covers):.1%}  max {max(covers):.1%}  (layout {took * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
