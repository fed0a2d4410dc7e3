"""Benchmark: does a symbol deck honour `spread`, and what ink coverage does it keep (issue 31).

    python bench/bench_spread.py [--spread 1.6 2.0] [--cards 57]

Builds the user's-art deck of bench/art_deck.py (57 opaque drawings, 95 mm round cards, one
card a page with --single) with the symbols element's `spread` set, and reads the PDF back:
each symbol is a form placed by one matrix, so its printed extent is the longest side of its
(trimmed) ink box times the matrix's scale, in mm, and the size ratio of a card is its largest
symbol's extent over its smallest's. Printed for each spread: the per-card ratio (median and
max, and how many cards exceed the spread by more than the 3 % of a silhouette cell), the
extents' range, and the ink coverage of the card circle by render (bench/art_deck.card_ink:
mean and min).
The checkout this script is in is what runs (its folder first on the path).
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import art_deck

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MM = 72 / 25.4
TOLERANCE = 1.03  # the packer measures ink on silhouette cells: one cell of rounding


def symbol_extents(pdf: Path) -> list[list[float]]:
    """Per page, the printed extent (mm) of every form the page content places."""
    import pikepdf

    pages = []
    with pikepdf.open(pdf) as doc:
        for page in doc.pages:
            forms = page.Resources.get("/XObject", {})
            stack, ctm, found = [], (1, 0, 0, 1, 0, 0), []
            for operands, op in pikepdf.parse_content_stream(page):
                name = str(op)
                if name == "q":
                    stack.append(ctm)
                elif name == "Q":
                    ctm = stack.pop()
                elif name == "cm":
                    a, b, c, d, e, f = (float(v) for v in operands)
                    A, B, C, D, E, F = ctm
                    ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
                           e * A + f * C + E, e * B + f * D + F)
                elif name == "Do":
                    form = forms.get(str(operands[0]))
                    if form is None or form.get("/Subtype") != "/Form":
                        continue
                    x0, y0, x1, y1 = (float(v) for v in form.BBox)
                    scale = math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]))
                    found.append(max(x1 - x0, y1 - y0) * scale / MM)
            pages.append(found)
    return pages


def build(root: Path, spread: float | None, out: Path) -> Path:
    toml = root / "game.toml"
    text = toml.read_text().split("\nspread =")[0].rstrip("\n") + "\n"
    toml.write_text(text + (f"spread = {spread}\n" if spread else ""))
    subprocess.run([sys.executable, "-m", "generator", "build", str(root), "--single", "-o",
                    str(out)], check=True, cwd=ROOT, capture_output=True)
    return out


def report(label: str, pdf: Path, spread: float | None) -> str:
    extents = [e for e in symbol_extents(pdf) if e]
    ratios = [max(e) / min(e) for e in extents]
    over = sum(r > spread * TOLERANCE for r in ratios) if spread else 0
    ink = [c for c, _ in art_deck.card_ink(pdf)]
    flat = [v for e in extents for v in e]
    return (f"  {label}: size ratio per card median {statistics.median(ratios):.2f} max "
            f"{max(ratios):.2f} ({over} of {len(ratios)} cards over the spread by more than 3 %); extents "
            f"{min(flat):.1f}-{max(flat):.1f} mm; coverage mean {statistics.mean(ink):.1%} "
            f"min {min(ink):.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spread", type=float, nargs="*", default=[1.6, 2.0])
    parser.add_argument("--cards", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = art_deck.make_deck(Path(tmp) / "deck", cards=args.cards)
        print("user's art, 57 PNG drawings, 95 mm round cards, one card a page:")
        for spread in [None, *args.spread]:
            pdf = build(root, spread, Path(tmp) / f"s{spread}.pdf")
            print(report(f"spread {spread or 'default (2.0)'}", pdf, spread or 2.0), flush=True)


if __name__ == "__main__":
    main()
