"""Benchmark: the example game's build, and what conditions, per-card values and layouts cost.

Run: python bench/bench_card_logic.py. Prints wall and CPU time (the machine is shared, so CPU
time is the steadier figure):
  1. `pnp build emberfall` as a user runs it (a new process: interpreter start-up included),
     and the same build in-process (load + impose + render + write), median of 5;
  2. a 2,000-card deck whose 8 elements use comparisons, {field} geometry and two layouts,
     against the same deck written with plain values: load and build times.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAIN = """[deck]
source = "csv"
file = "cards.csv"
size = "poker"
{deck_extra}
{elements}
"""
ELEMENT = """
[[{side}]]
type = "rect"
x = "{x}"
y = "{y}"
w = "{w}"
h = "8mm"
fill = "{fill}"
{cond}
"""


def _timed(fn, repeat: int = 5) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def _subprocess_build(out: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", "build", "emberfall", "-o", str(out)],
                   check=True, capture_output=True)
    wall = time.perf_counter() - w
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _deck(root: Path, logic: bool, cards: int = 2000) -> Path:
    root.mkdir()
    rows = "".join(f"card {i},{'unit' if i % 3 else 'spell'},{i % 7},{5 + i % 20}mm\n"
                   for i in range(cards))
    (root / "cards.csv").write_text("name,type,cost,width\n" + rows)
    elements = []
    for n in range(8):
        if logic:
            side = "layouts.unit.face" if n % 2 else "layouts.spell.face"
            elements.append(ELEMENT.format(side=side, x=f"{2 + n}mm", y=f"{4 + 9 * n}mm",
                                           w="{width}", fill=f"#{n * 30:02x}4060",
                                           cond=f'when = "{{cost}} >= {n % 4} and {{type}} '
                                                f'in (unit, spell)"'))
        else:
            elements.append(ELEMENT.format(side="face", x=f"{2 + n}mm", y=f"{4 + 9 * n}mm",
                                           w="20mm", fill=f"#{n * 30:02x}4060", cond=""))
    extra = 'layout = "{type}"\n[layouts.unit]\n[layouts.spell]\n' if logic else ""
    (root / "game.toml").write_text(PLAIN.format(deck_extra=extra, elements="".join(elements)))
    return root


def main() -> None:
    from generator.build import Options, build
    from pnp_model.definition import load

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        _subprocess_build(tmp / "warm.pdf")  # bytecode and font caches
        runs = [_subprocess_build(tmp / f"e{i}.pdf") for i in range(5)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"pnp build emberfall (new process): {wall:.2f} s wall, {cpu:.2f} s CPU")
        w, c = _timed(lambda: build(load("emberfall"), tmp / "in.pdf", Options()))
        print(f"  in-process load + build:         {w:.3f} s wall, {c:.3f} s CPU")
        w, c = _timed(lambda: load("emberfall"))
        print(f"  of which load (definition):      {w:.3f} s wall, {c:.3f} s CPU")

        for logic in (False, True):
            root = _deck(tmp / f"deck-{logic}", logic)
            lw, lc = _timed(lambda root=root: load(root), 3)
            deck = load(root)
            bw, bc = _timed(lambda deck=deck: build(deck, tmp / "d.pdf", Options()), 3)
            label = "conditions + {field} + layouts" if logic else "plain values           "
            print(f"2,000 cards, 8 elements, {label}: load {lw:.2f} s wall / {lc:.2f} s CPU, "
                  f"build {bw:.2f} s wall / {bc:.2f} s CPU")


if __name__ == "__main__":
    main()
