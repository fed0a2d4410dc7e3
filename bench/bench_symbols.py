"""Benchmark: symbol decks (issues #3 and #13 figures).

    python bench/bench_symbols.py [--runs 3] [--big]

Prints, median of N runs, each build a fresh `pnp build` process (interpreter start included):
  - `pnp build dobble`: wall time (target < 1 s), and its fronts' ink coverage by the render
    measure (bench/art_deck.card_ink: the share of the 85 mm card circle's pixels, at 150 dpi,
    more than 48 from white in some channel; target >= 60 %): its icons are drawn on tinted
    discs (`badge = "tint"`), so the discs count; the same build with the glyphs alone (the
    tint made white) says how much of it the glyphs are; and how much of its enclosing circle
    a bare icon inks (why bare glyphs leave the card mostly blank);
  - the user's-art decks: 57 opaque drawings on white with margins (made here with Pillow,
    bench/art_deck.py), as PNG and as JPG, 95 mm round cards, order 7, A4: cold (every build
    with an empty build memo) and warm (a rebuild reading the memo): wall time, peak RSS,
    PDF size, pages of fronts, and from a render of every card at 150 dpi the ink coverage of
    the card circle (mean and min) and the ink pixels within 1 mm of the rim (targets < 0.5 s,
    < 150 MB, < 2 MB, 10 pages, >= 35 %, 0);
  - verification of the order-31 plane, 993 cards (target < 0.5 s);
  - plane generation per order, and the bundled decks' coverage by the circle packer's
    circles (Dobble's: its discs, packed densely; Dobble Connect's: the icons' tight circles);
  - with --big: the order-31 icon deck (993 cards, 32 icons each) built to PDF (target < 3 s);
  - where the user's-art build spends its CPU, in-process: cleaning the 57 images and packing
    the 57 cards (one process, no helper), per deck.

The machine's load and speed (bench/machine.py) are printed first and last: on a shared machine
wall time follows them.
The package's modules are byte-compiled first, as `pip install` does: with
PYTHONDONTWRITEBYTECODE set (as in some shells and CI) an editable checkout would otherwise
compile ~60 modules from source in every `pnp` process (~0.1 s).
The checkout this script is in is what runs, in-process and in every `pnp` process (its folder
first on the path), whichever environment's interpreter runs it: a bench environment with the
package installed would otherwise time the installed copy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import art_deck
import machine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's generator, not an installed copy
DOBBLE = ROOT / "templates" / "dobble"  # by name, a build would read the installed templates
ORDERS = (2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 49, 64)


def timed(fn, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def pnp_run(*args: str, cache: Path | None = None) -> tuple[float, float, float]:
    """One `pnp` process: (wall seconds, CPU seconds, peak RSS in MB), from its own rusage
    (CPU time is the steadier figure on a shared machine). Its build memo is `cache`, else a
    new empty folder: a cold build."""
    if cache is None:
        with tempfile.TemporaryDirectory(prefix="pnp-cold-") as fresh:
            return pnp_run(*args, cache=Path(fresh))
    env = dict(os.environ, PNP_CACHE=str(cache))
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "generator", *args], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"pnp {' '.join(args)} failed: {proc.stderr.read().decode()}")
    proc.stderr.close()
    proc.returncode = 0
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def build_figures(root: Path, out: Path, runs: int, cache: Path | None = None) -> str:
    """Median wall and CPU time and the largest peak RSS of `runs` builds (cold, or with the
    build memo in `cache`)."""
    got = [pnp_run("build", str(root), "-o", str(out), cache=cache) for _ in range(runs)]
    return (f"median {statistics.median(g[0] for g in got):.3f} s (CPU "
            f"{statistics.median(g[1] for g in got):.3f} s)  peak RSS {max(g[2] for g in got):.0f} MB")


def front_pages(pdf: Path) -> int:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return len(doc)
    finally:
        doc.close()


def coverage_line(name: str, single: Path, pages=None) -> str:
    found = art_deck.card_ink(single, pages=pages)
    cover = [c for c, _ in found]
    rim = sum(r for _, r in found)
    return (f"  {name}: ink coverage mean {statistics.mean(cover):.1%}  min {min(cover):.1%}  "
            f"ink pixels within 1 mm of the rim {rim}")


def stage_line(root: Path) -> str:
    """CPU of the two stages of a user's-art build, in this process: cleaning every image,
    then packing every card by silhouette (what a build does, without the helper process)."""
    from generator.layout.silhouettes import Sizes, pack_silhouettes
    from generator.render.art import clean
    from generator.render.symbols import RIM, region_for
    from pnp_model.definition import load

    deck = load(root)
    files = {p.stem: p for p in sorted((root / "art").iterdir())}
    start = time.process_time()
    shapes = {name: clean(path).silhouette for name, path in files.items()}
    cleaned = time.process_time() - start
    region = region_for(deck.shape, deck.width, deck.height)
    start = time.process_time()
    for card in deck.cards:
        pack_silhouettes([shapes[s] for s in card.symbols], region, f"0:{card.id}", Sizes(),
                         rim=RIM)
    packed = time.process_time() - start
    return (f"  CPU in-process: clean {len(files)} images {cleaned * 1000:.0f} ms, "
            f"pack {len(deck.cards)} cards {packed * 1000:.0f} ms")


def glyphs_only(tmp: Path) -> Path:
    """Dobble's fronts built in a child process with the badges' tint made white: what the
    glyphs ink on their own."""
    out = tmp / "dobble-glyphs.pdf"
    code = ("import sys; from reportlab.lib.colors import white; "
            "import generator.render.badges as b; b.tint = lambda c: white; "
            "from generator.cli import main; sys.argv = ['pnp'] + sys.argv[1:]; main()")
    subprocess.run([sys.executable, "-c", code, "build", str(DOBBLE), "--single", "--no-backs",
                    "-o", str(out)], check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return out


def glyph_density_line(game: str) -> str:
    """How much of its enclosing circle each of the deck's icons inks (from the glyph masks
    the shape packing uses), and the share of the card that would be ink if the icons'
    circles tiled the whole symbols area without overlapping (no circle packing comes near;
    nested shapes beat it only where their circles overlap)."""
    import math

    from generator.render.icon_shapes import icon_shape
    from generator.render.symbols import _icon_font_path
    from pnp_model.definition import load
    from pnp_model.designs import icons

    deck = load(game)
    el = next(e for e in deck.face if e.kind == "symbols")
    names = dict.fromkeys(s for card in deck.cards for s in card.symbols)
    font = str(_icon_font_path())
    dense = []
    for name in names:
        sil = icon_shape(font, icons.codepoint(name), 512).silhouette
        dense.append(sil.mask.sum() * sil.cell**2 / (math.pi * sil.radius**2))
    area = min(el.get("w"), el.get("h")) ** 2 / (deck.width * deck.height)
    return (f"  {game} icons: ink over their enclosing circle mean {statistics.mean(dense):.1%}"
            f"; circles tiling the symbols area would give {statistics.mean(dense) * area:.1%}"
            f" of the card")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--big", action="store_true", help="also build the order-31 deck")
    args = parser.parse_args()
    print(machine.line("before"))
    import compileall

    for package in ("generator", "pnp_shared"):
        compileall.compile_dir(ROOT / package, quiet=1)
    import generator

    print(f"code measured: {Path(generator.__file__).parent}")

    from generator.layout.packing import card_layout, coverage
    from generator.render.symbols import region_for
    from generator.verify import check_symbols
    from pnp_model.definition import load
    from pnp_model.designs.planes import plane

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        out = tmp / "dobble.pdf"
        figures = build_figures(DOBBLE, out, args.runs)
        print(f"pnp build dobble (55 cards)        {figures}  {out.stat().st_size / 1024:.0f} KiB")
        single = tmp / "dobble-single.pdf"
        pnp_run("build", str(DOBBLE), "--single", "--no-backs", "-o", str(single))
        print(coverage_line("dobble fronts (discs and glyphs)", single))
        print(coverage_line("dobble glyphs alone (discs made white)", glyphs_only(tmp)))
        print(glyph_density_line("dobble"))

        for fmt in ("png", "jpg"):
            root = art_deck.make_deck(tmp / f"{fmt}deck", fmt=fmt)
            out = tmp / f"{fmt}.pdf"
            figures = build_figures(root, out, args.runs)
            print(f"pnp build 57 {fmt.upper()} symbols, 95 mm    {figures}  "
                  f"{out.stat().st_size / 1024 / 1024:.2f} MB  {front_pages(out)} pages")
            memo = tmp / f"{fmt}-memo"
            pnp_run("build", str(root), "-o", str(out), cache=memo)  # fills the memo
            cold = out.read_bytes()
            figures = build_figures(root, out, args.runs, cache=memo)
            same = "same bytes" if out.read_bytes() == cold else "NOT THE SAME BYTES"
            print(f"  rebuilt with the build memo (warm)  {figures}  {same}")
            single = tmp / f"{fmt}-single.pdf"
            pnp_run("build", str(root), "--single", "-o", str(single))
            print(coverage_line(f"{fmt} deck", single))
            print(stage_line(root))

        if args.big:
            big = tmp / "big"
            big.mkdir()
            (big / "game.toml").write_text(
                '[deck]\nsource = "plane"\nshape = "circle"\nsize = "95x95mm"\n'
                'options = { order = 31 }\n[[face]]\ntype = "symbols"\n')
            out = tmp / "big.pdf"
            figures = build_figures(big, out, 1)
            print(f"pnp build order 31 (993 cards)     {figures}  "
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
        deck = load(name)
        el = next(e for e in deck.face if e.kind == "symbols")
        region = region_for(deck.shape, el.get("w"), el.get("h"))
        start = time.perf_counter()
        dense = el.get("badge", "none") != "none"
        covers = [coverage(card_layout(len(c.symbols), region, 0, c.id,
                                       spread=el.get("spread", 2.2), dense=dense), region)
                  for c in deck.cards]
        took = time.perf_counter() - start
        packer = "circle packer (dense)" if dense else "circle packer"
        print(f"{packer}, circles {name:<16}  mean {statistics.mean(covers):.1%}  "
              f"min {min(covers):.1%}  max {max(covers):.1%}  (layout {took * 1000:.0f} ms)")
    print(machine.line("after"))


if __name__ == "__main__":
    main()
