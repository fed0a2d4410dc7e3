"""The whole print matrix of crop marks, read from the built PDFs.

Run: python bench/bench_marks.py [--marks on|full] [--offset X,Y] [GAME ...]. For every bundled
template (or the GAMEs) on A4 and Letter, portrait and landscape, flipped on the long and the
short edge, builds every card (its face and back a rectangle of its own colour, so the cards are
found in the output), and prints per build: pages, cut-line ends with no mark on fronts and on
backs (by side), whether the build warned about each such side, and the smallest distance from
any mark to the paper's edge (the printer margin is 6 mm). The last line counts the problems:
an unmarked end no warning names, a mark inside the printer margin. The test suite checks a
cheaper part of this matrix (tests/test_print_matrix.py).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

MARGIN_MM = 6.0


def run(name: str, paper: str, orientation: str, flip: str, marks, offset, tmp: Path):
    from markcheck import coloured, colours_of, page_marks, placed
    from pdfgeom import page_streams

    from generator.build import Options, build, plan
    from pnp_model.errors import PnpError
    from pnp_model.units import MM

    deck = coloured(_deck(name))
    opts = Options(paper=paper, orientation=orientation, flip=flip, marks=marks,
                   back_offset=offset, parts=("all",))
    try:
        sheet = plan(deck, opts)
    except PnpError as e:
        return f"refused: {e}", 0
    out = tmp / "deck.pdf"
    result = build(deck, out, opts, sheet=sheet)
    colours = colours_of(deck)
    missing: dict[str, dict[str, int]] = {"front": {}, "back": {}}
    nearest = float("inf")
    for page, content in zip(sheet.pages, page_streams(out.read_bytes()), strict=True):
        found = page_marks(content, list(placed(content, colours).values()) if
                           deck.shape != "triangle" else [], deck.width, deck.height,
                           sheet.width, sheet.height)
        nearest = min(nearest, found.edge_distance)
        for side, n in found.missing.items():
            missing[page.side][side] = missing[page.side].get(side, 0) + n
    warnings = " ".join(result.notes)
    problems = 0
    said = []
    for face, sides in missing.items():
        for side, n in sides.items():
            warned = side in warnings
            problems += 0 if warned else 1
            said.append(f"{face} {side} {n}{'' if warned else ' UNWARNED'}")
    if nearest < MARGIN_MM * MM - 1e-3:
        problems += 1
    near = "no marks" if nearest == float("inf") else f"{nearest / MM:5.2f} mm"
    return (f"{result.pages:3d} p  edge {near}{'  IN MARGIN' if nearest < MARGIN_MM * MM - 1e-3 else ''}"
            f"  {', '.join(said) or 'all ends marked'}"), problems


def _deck(name: str):
    """A template's deck, or one component of a whole game named GAME/COMPONENT."""
    from pnp_model.game import load_game

    game, _, component = name.partition("/")
    return load_game(game).only((component,) if component else ()).components[0].deck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*")
    parser.add_argument("--marks", default=True, type=lambda v: {"on": True}.get(v, v))
    parser.add_argument("--offset", default="0,0")
    args = parser.parse_args()
    from pnp_model.catalog import bundled
    from pnp_model.game import load_game
    from pnp_model.units import MM

    offset = tuple(float(v) * MM for v in args.offset.split(","))
    names = args.games or [n if not g.whole else f"{n}/{c.name}" for n in sorted(bundled())
                           for g in [load_game(n)] for c in g.components]
    total, builds, start = 0, 0, time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            for paper in ("a4", "letter"):
                for orientation in ("portrait", "landscape"):
                    for flip in ("long", "short"):
                        text, problems = run(name, paper, orientation, flip, args.marks,
                                             offset, Path(tmp))
                        total += problems
                        builds += 1
                        print(f"{name:<15} {paper:<6} {orientation:<9} {flip:<5} {text}",
                              flush=True)
    print(f"{builds} builds, {total} problems (unwarned unmarked sides, marks in the margin), "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
