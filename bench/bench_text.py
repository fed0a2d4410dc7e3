"""Benchmark: what rich card text costs. Builds a generated 99-card deck twice, wall and CPU
time of `pnp build` (interpreter start included): once with plain wrapped rules text, once
with the same text as rich text in shrinking boxes (bold, italic, breaks, inline icons of
each kind, a fallback glyph).

Run: python bench/bench_text.py [--runs N]. CPU time is the child's user + system time: the
machine is shared, so it is the steadier figure.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
from pathlib import Path

import bench_build  # the same timing of a fresh `pnp build` process

CARDS = 99
WORDS = ("draw a card gain coin discard opponent spell creature attack block each turn play "
         "reveal sacrifice return hand deck top bottom target").split()

TOML = """\
[deck]
file = "cards.csv"
size = "poker"
{icons}
[[face]]
type = "text"
text = "{{name}}"
x = "50%"
y = "10mm"
size = 14
font = "sans-bold"
align = "center"

[[face]]
type = "text"
text = "{{rules}}"
x = "5mm"
y = "40mm"
w = "53.5mm"
size = 10
{box}
"""
ICONS = """[icons]
coin = "coin.png"
drop = "drop.svg"
heart = { shape = "heart", color = "red" }
bolt = { icon = "bolt", color = "#e0a100" }
"""


def rules(rng: random.Random, rich: bool) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 90))]
    if rich:
        for i in range(0, len(words), 9):
            words[i] = rng.choice(("**{}**", "*{}*", "{} :coin:", "{} :heart:", "{} :bolt:",
                                   "{} :drop:", "{} →", "{}\\n")).format(words[i])
    return " ".join(words)


def make_deck(folder: Path, rich: bool) -> None:
    from PIL import Image

    folder.mkdir()
    rng = random.Random(7)
    box = 'h = "40mm"\nfit = "shrink"\nvalign = "middle"' if rich else ""
    (folder / "game.toml").write_text(TOML.format(icons=ICONS if rich else "", box=box))
    rows = ["name,rules"] + [f'Card {i},"{rules(rng, rich)}"' for i in range(1, CARDS + 1)]
    (folder / "cards.csv").write_text("\n".join(rows) + "\n")
    Image.new("RGB", (200, 200), (230, 170, 0)).save(folder / "coin.png")
    (folder / "drop.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="20" '
                                      'height="30"><circle cx="10" cy="20" r="10" '
                                      'fill="#1f77b4"/></svg>')


def time_build(folder: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one `pnp build` of the definition folder."""
    return bench_build.time_build(str(folder), folder / "out.pdf")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for label, rich in (("plain text", False), ("rich text", True)):
            folder = Path(tmp) / label.replace(" ", "-")
            make_deck(folder, rich)
            runs = [time_build(folder) for _ in range(args.runs)]
            walls, cpus = [w for w, _ in runs], [c for _, c in runs]
            print(f"{label:<11} {CARDS} cards  wall best {min(walls):.3f} s median "
                  f"{statistics.median(walls):.3f} s  cpu best {min(cpus):.3f} s median "
                  f"{statistics.median(cpus):.3f} s  ({args.runs} runs)")


if __name__ == "__main__":
    main()
