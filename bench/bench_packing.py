"""Benchmark: silhouette packing of the 57-card user's-art deck, in one process (issue #13).

    python bench/bench_packing.py [--runs 15] [--against DIR | --against-commit REV] [--fmt png|jpg]
                                  [--cold N]

Cleans the bench's 57 opaque drawings (bench/art_deck.py) once, then packs the 57 cards of 8
symbols (95 mm circles, order 7) as a build does without its helper process, and prints:
  - CPU time (time.process_time) of packing all 57 cards, min and median of --runs, with the
    wall time next to it, with the compiled kernel (generator/layout/cells.c, where the install
    built it) and without it (the Python code), and whether the two give the same layouts;
  - with --against DIR: the same for DIR's checkout of generator/layout/silhouettes.py and
    cell_board.py (another branch, main), interleaved run by run with this one in the same
    process, so that both see the same load (on a shared machine single runs vary by +-25 %),
    and whether the two give the same layouts; --against-commit REV does the same for a commit of
    this repository, unpacked by `git archive` into a temporary folder (e.g. dcf5159, the
    main before symbol decks honoured `spread`);
  - where one packing of the 57 cards spends its CPU: the tries (a symbol at one size), those
    that found no place, and the CPU of making footprints, the legal-position test, the
    choice of the snug place among the legal ones, and marking a placed symbol.
The first packing of a process also grows each symbol's mask once per reach (kept after):
it is timed apart ("first run").
With --cold N: N cold `pnp build`s of the deck (A4, an empty build memo, one process each, its
CPU time from its rusage, children included), interleaved: this checkout with and without the
kernel, and the --against checkout. Both checkouts' modules are compiled to bytecode first, so
that neither build compiles its sources (with PYTHONDONTWRITEBYTECODE set, a checkout without
.pyc files compiles every module at every start).

Measured 2026-11-28, the compiled kernel (issue 37 item 11: generator/layout/cells.c, the
search, the test of a few positions and the marking of a placed symbol, boards kept as bytes),
on the shared 2-core machine at a load near 1, against dcf5159 (the main before `spread`); the
kernel gives the Python code's layouts exactly (tests/test_cell_kernel.py), so the figures of
the Python code below still hold for it:
  One process, the 57 cards (--runs 7): first run 271 ms CPU against 332 at dcf5159 and 926
    for the Python code; then CPU median 279 against 294 ms (min 197 against 209; the Python
    code: 843).
  Instructions of a process's first packing (callgrind, as below): 1,136 M against 1,153 M at
    dcf5159 (the Python code: 3.09 G); of a whole cold `pnp build` in one process (no helper),
    3.103 G both (+-0.03 G from run to run).
  The kernel's search: 11 us for a footprint that fits nowhere, 48 us for one that fits (the
    Python code's: 110-125 and 390 us).
  A cold `pnp build` (--cold 11, bytecode compiled), CPU median (min) with the kernel /
    without / dcf5159: 1.03 (0.94) / 1.59 (1.45) / 1.03 (0.92) s.
  On the way: the search alone in C (the boards still Python integers, converted for each
    search; the footprint cropped first) left the cold build at 0.93 against 0.82 s; the
    integers' conversion (int.to_bytes, 30,000 instructions a board), the in-place tests'
    footprint integers and the unions of growing were most of the rest.

Measured 2026-11-27 on the shared 2-core machine (load 6-13: CPU figures swing by +-15 %),
issue 37 item 11, growing that gives up on a symbol that fits nowhere larger and one refining
layout instead of two, against main before it (ae213a1) and before `spread` (dcf5159):
  tries 4,346 (2,589 found no place) -> 3,585 (1,942); dcf5159: 852 (375).
  --against-commit ae213a1, 7 runs: CPU median 1,177 ms against 1,088 (min 965 against 947):
    no difference this machine can show; --against-commit dcf5159, 5 runs: 1,202 against 344.
  A cold `pnp build` of the same deck (A4, empty memo, 5 runs each, interleaved): CPU median
    1.73 / 2.00 / 1.15 s (this / ae213a1 / dcf5159), then 1.76 / 1.87 / 0.95 s.
  Coverage by render (bench/bench_spread.py): spread 2.0 32.2 -> 32.3 % (min 28.2 -> 29.1 %),
    spread 1.6 31.8 -> 31.9 % (min 28.1 -> 27.6 %); every card within its spread.
  Instructions, which the load does not change (valgrind --tool=callgrind, a process's first
    packing of the 57 cards, the same process without it subtracted): this 4.08 G, ae213a1
    4.54 G, dcf5159 1.15 G. A fifth of them shift whole 128 x 128-cell boards (long_rshift1);
    testing a footprint's later rows only on the band of rows still open, read with
    int.from_bytes from the runs' bytes, took 5.67 G (from_bytes goes byte by byte): dropped.

Measured 2026-11-27 (later), growing that first tries a symbol where it is (its centre kept, or a
cell away: one position's test) before searching every position, the refining layout that
first tries each symbol where the card's smaller layout put it, and footprints read as
integers straight from their image, against main before them (47fdbb7):
  tries 3,585 (1,942 found no place) -> 3,223 (1,963); the layouts differ.
  --against-commit 47fdbb7, 7 runs (load < 1): CPU median 877 ms against 1,005 (min 581
    against 683).
  Instructions (callgrind, the same measure as above): 4.11 G -> 3.21 G; dcf5159 1.09 G.
  A cold `pnp build` of the same deck (A4, empty memo, 5 runs each, interleaved, load < 1):
    CPU median 1.57 / 1.67 / 1.01 s (this / 47fdbb7 / dcf5159).
  Coverage by render (bench/bench_spread.py): spread 2.0 32.3 -> 32.7 % (min 29.1 -> 29.0 %),
    spread 1.6 31.9 -> 32.0 % (min 27.6 -> 27.6 %); the 8-card SVG deck 33.5 -> 33.4 %.
  Tried and dropped: starting smaller (inks filling 0.40-0.45 of the card), no refining, and
    letting the smallest symbol grow too cut instructions to 3.1-3.3 G, but either lowered
    coverage (the 8-card SVG deck 33.5 -> 32.8 %) or, the smallest growing, collapsed the
    spread that `spread` asks to be used (tests/test_symbol_art.py); so did a card that fails
    shrinking its largest symbols where they are instead of starting again (2.5 G, coverage
    by the silhouettes' cells 46.6 -> 41.8 %), and the retries starting from the failed
    layout (2.5 G, 45.5 %).

Measured 2026-11-27 (third time), footprints' runs found by byte search instead of a regular
expression, and tested by rows in stages (every 8th row, then those halfway between, ...):
  the same layouts; instructions (callgrind, as above) 3.19 -> 3.09 G; a whole cold
  `pnp build` on one core 5.41 -> 5.30 G (dcf5159: 3.02 G); CPU: no difference this machine
  can show (--against-commit d2cfcae, 7 runs: median 571 against 560 ms).
  Tried and dropped, each by instructions of packing the 57 cards and coverage by render
  (bench/bench_spread.py, spread 2.0: 32.7 % now, 32.2 % at ae213a1 when issue 37 was
  filed) and of the 8-card SVG deck (tests/test_symbol_art.py asks >= 33 %; 33.4 % now):
  - no refining layout, the first try at inks filling 0.44 of the card, retries 0.95 apart,
    growing by 1.02 in 12 passes: 2.43 G, 32.3 %, but the SVG deck 32.6 %; at 0.5: 3.02 G
    (32.6 %, the SVG deck 33.7 %).
  - the same, growing only where a symbol is (no search of the rest of the card): 1.14 G,
    30.7 %; at 0.43 and 1.03 in 8 passes the cold build's CPU equals dcf5159's (median 1.02
    against 1.03 s, 9 runs interleaved), but at 30.3 %.
  - growing's search of the card in two turns (0 and 90 degrees): 1.95 G, 32.0 %; unturned
    only: 1.63 G, 31.5 %; only within 5 cells of where the symbol is: 2.20 G, 32.0 %; on the
    whole board (never overlapping its own place): coverage by cells 46.6 -> 44.5 %.
  - searching on cells twice as wide (a layout legal there is legal here) and placing on
    these: 2.51 G, coverage by cells 47.2 -> 44.1 %; a fine search after every coarse
    failure: 3.67 G. Crowding counted at half resolution: more cards started again, more
    instructions (1.19 against 1.14 G).
  - the board's image kept between placements (a paste, not a decode): dearer on growing's
    fresh boards (3.22 G).
  At this search cost and ink trade about evenly: dcf5159's CPU is reached only below the
  coverage main had when the issue was filed.

Measured 2026-11-27 (fourth time), the packer unchanged:
  A cold build's CPU by phase (one core, in one process, 3 runs each, interleaved), main
    against dcf5159: imports 0.10 / 0.08 s, cleaning the art 0.23 / 0.24, packing 0.81 /
    0.32, drawing and writing 0.32 / 0.27: the whole difference is packing.
  A search that finds a place costs about 390 us (the legal-position test 110, the snug
    choice 95), and there are 1,260 of them; one that finds none 110-125 us (1,963).
  Tried and dropped (instructions of packing the 57 cards; coverage by cells, 47.2 % now):
  - a card whose last symbol fits nowhere taking the symbol before it out, placing the last,
    then the other again (two searches, not a new layout): 3.26 G (more refining), 47.2 %;
  - the smallest symbol placed second: 3.06-3.14 G, 46.7-46.9 %;
  - growing in place up to 2-4 cells away, not 1: 3.09-3.26 G, 46.9 %.
  Measured as bounds, not built: finding a successful search's place by testing positions one
    by one in order of crowding needs a median of 20 tests (p90 68) after the first rows, no
    cheaper than the full test; the rows still open after the first rows span 83 % (median)
    of the board below them, so a window of them saves little; a free square as large as a
    footprint's largest inked square is missing before only 7 of 400 failing searches;
    gmpy2 halves each shift and OR (0.53 -> 0.23 us), but importing it costs 55 ms of CPU,
    about what halving a build's ~150,000 of them saves.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import art_deck
import machine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's generator, not an installed copy


def other_packer(checkout: Path):
    """DIR's silhouettes module, with its own cell_board, loaded beside this checkout's."""
    def load(name: str, path: Path, swap: tuple = ()) -> types.ModuleType:
        text = path.read_text()
        for old, new in swap:
            text = text.replace(old, new)
        module = types.ModuleType(name)
        module.__file__ = str(path)
        sys.modules[name] = module
        exec(compile(text, str(path), "exec"), module.__dict__)
        return module

    layout = checkout / "generator" / "layout"
    load("other_cell_board", layout / "cell_board.py")
    return load("other_silhouettes", layout / "silhouettes.py",
                (("from generator.layout import cell_board", "import other_cell_board as cell_board"),))


def archived(rev: str) -> Path:
    """A commit's tree, unpacked into a temporary folder (removed at exit)."""
    import atexit
    import io
    import shutil
    import tarfile

    folder = Path(tempfile.mkdtemp(prefix="bench-packing-"))
    atexit.register(shutil.rmtree, folder, True)
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev],
                         check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(folder, filter="data")
    return folder


def stages(packer, pack) -> str:
    """One packing of every card with the packer's steps timed (CPU)."""
    board = sys.modules[packer._Grid.footprint.__module__].cell_board
    spent: collections.Counter = collections.Counter()
    tries = [0, 0]

    def timed(owner, name: str, label: str):
        plain = getattr(owner, name)

        def wrapper(*args, **kwargs):
            start = time.process_time()
            try:
                return plain(*args, **kwargs)
            finally:
                spent[label] += time.process_time() - start
        setattr(owner, name, wrapper)
        return plain

    saved = [(packer._Grid, "footprint", timed(packer._Grid, "footprint", "footprints")),
             (board.Board, "legal", timed(board.Board, "legal", "legal test")),
             (board.Board, "best", timed(board.Board, "best", "legal + snug choice")),
             (board.Board, "place", timed(board.Board, "place", "marking"))]
    plain_try = packer._try

    def counted(*args):
        found = plain_try(*args)
        tries[0] += 1
        tries[1] += found is None
        return found
    packer._try = counted
    try:
        start = time.process_time()
        pack(packer)
        total = time.process_time() - start
    finally:
        packer._try = plain_try
        for owner, name, plain in saved:
            setattr(owner, name, plain)
    if "legal test" in spent:
        spent["snug choice"] = spent.pop("legal + snug choice") - spent["legal test"]
    else:  # the compiled kernel's search: both at once
        spent["search (compiled)"] = spent.pop("legal + snug choice", 0.0)
    parts = ", ".join(f"{k} {v * 1000:.0f}" for k, v in spent.items())
    return (f"  {tries[0]} tries ({tries[1]} found no place); CPU ms: total {total * 1000:.0f}, "
            f"{parts}, rest {(total - sum(spent.values())) * 1000:.0f}")


def cold_builds(deck: Path, against: Path | None, runs: int) -> None:
    """CPU seconds of cold `pnp build`s of the deck, interleaved (see the module's docstring)."""
    import compileall
    import os

    python = [sys.executable, "-c", "import sys; sys.argv[0] = 'pnp'; "
              "from generator.layout import cell_board; cell_board.KERNEL = None; "
              "from generator.cli import main; main()"]
    kinds = {"this checkout": (ROOT, [sys.executable, "-m", "generator"]),
             "this checkout, Python only": (ROOT, python)}
    if against:
        kinds[str(against)] = (against, [sys.executable, "-m", "generator"])
    for folder, _ in kinds.values():
        for package in ("generator", "pnp_model", "pnp_shared", "templates"):
            if (folder / package).is_dir():
                compileall.compile_dir(folder / package, quiet=1)
    cpu: dict = {name: [] for name in kinds}
    for _ in range(runs):
        for name, (folder, command) in kinds.items():
            with tempfile.TemporaryDirectory(prefix="pnp-cold-") as memo:
                env = dict(os.environ, PNP_CACHE=memo)
                child = subprocess.Popen([*command, "build", str(deck), "-o", f"{memo}/deck.pdf"],
                                         cwd=folder, env=env, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
                _, status, usage = os.wait4(child.pid, 0)
                child.returncode = status
                if status:
                    raise SystemExit(f"{name}: pnp build failed")
                cpu[name].append(usage.ru_utime + usage.ru_stime)
    for name, got in cpu.items():
        print(f"{name}: cold pnp build CPU median {statistics.median(got):.2f} s "
              f"(min {min(got):.2f}, {runs} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--against-commit", help="a commit of this repository to compare with")
    parser.add_argument("--fmt", choices=("png", "jpg"), default="png")
    parser.add_argument("--cold", type=int, default=0, metavar="N",
                        help="also time N cold `pnp build`s of each checkout")
    args = parser.parse_args()
    from generator.layout import silhouettes
    from generator.render.art import clean
    from generator.render.symbols import RIM, region_for
    from pnp_model.definition import load

    tmp = tempfile.TemporaryDirectory()  # kept to the end: --cold builds the deck
    root = art_deck.make_deck(Path(tmp.name) / "deck", fmt=args.fmt)
    deck = load(root)
    shapes = {p.stem: clean(p).silhouette for p in sorted((root / "art").iterdir())}
    region = region_for(deck.shape, deck.width, deck.height)

    def pack(packer):
        return [packer.pack_silhouettes([shapes[s] for s in card.symbols], region,
                                        f"0:{card.id}", packer.Sizes(), rim=RIM)
                for card in deck.cards]

    from generator.layout import cell_board

    kernel = cell_board.KERNEL
    packers = {"this checkout": (silhouettes, kernel)}
    if kernel is not None:
        packers["this checkout, Python only"] = (silhouettes, None)
    if args.against_commit:
        args.against = archived(args.against_commit)
    if args.against:
        packers[str(args.against)] = (other_packer(args.against.resolve()), None)
    if args.cold:
        cold_builds(root, args.against, args.cold)

    def with_kernel(name):
        cell_board.KERNEL = packers[name][1]
        return packers[name][0]
    print(machine.line("before"))
    layouts = {}
    for name in packers:
        packer = with_kernel(name)
        start = time.process_time()
        layouts[name] = repr(pack(packer))
        print(f"{name}: first run {(time.process_time() - start) * 1000:.0f} ms CPU")
    if len(layouts) > 1:
        for name in list(layouts)[1:]:
            same = layouts[name] == layouts["this checkout"]
            print(f"{name}: {'the same layouts' if same else 'other layouts'} as this checkout")
    cpu: dict = {name: [] for name in packers}
    wall: dict = {name: [] for name in packers}
    for _ in range(args.runs):
        for name in packers:
            packer = with_kernel(name)
            start, tick = time.perf_counter(), time.process_time()
            pack(packer)
            cpu[name].append(time.process_time() - tick)
            wall[name].append(time.perf_counter() - start)
    for name in packers:
        print(f"{name}: pack {len(deck.cards)} cards CPU min {min(cpu[name]) * 1000:.0f} ms, "
              f"median {statistics.median(cpu[name]) * 1000:.0f} ms (wall median "
              f"{statistics.median(wall[name]) * 1000:.0f} ms)")
        print(stages(with_kernel(name), pack))
    cell_board.KERNEL = kernel


if __name__ == "__main__":
    main()
