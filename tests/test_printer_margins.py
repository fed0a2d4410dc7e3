"""The printer margin per paper, measured from the rendered pages: nothing a build prints (cards,
crop marks, a board's map and ticks, the page's footer, the designer's pages) comes closer to the
paper's edge than that paper's documented margin, and --margin still wins over it."""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest

from generator.build import Options, build
from generator.whole.build import build_game
from pnp_model.definition import load
from pnp_model.game import load_game

MM = 72 / 25.4
DPI = 200
# the measuring tolerance: a page's width in pixels is rounded, and a line's edge greys the
# pixel beside it (antialiasing): two pixels, a quarter of a millimetre
PX = 2 * 25.4 / DPI

# the table in docs/guides/print-at-home.md#printer-margins, in mm
DOCUMENTED = {"a4": 6.0, "letter": 6.0, "a5": 5.0, "a3": 5.0, "tabloid": 5.0, "legal": 6.35,
              "300x200mm": 6.35}


def closest_ink_mm(path) -> float:
    """The least distance, in mm, from any page's edge to a pixel that is not paper white."""
    pdf = pdfium.PdfDocument(str(path))
    least = float("inf")
    for page in pdf:
        img = np.asarray(page.render(scale=DPI / 72).to_pil().convert("L"))
        ys, xs = np.nonzero(img < 250)
        if not len(xs):
            continue
        h, w = img.shape
        px = min(xs.min(), ys.min(), w - 1 - xs.max(), h - 1 - ys.max())
        least = min(least, px * PX)
    return least


@pytest.mark.parametrize("paper", sorted(DOCUMENTED))
def test_a_whole_game_stays_inside_each_papers_printer_margin(paper, tmp_path):
    out = tmp_path / "lighthouse.pdf"
    build_game(load_game("lighthouse"), out, Options(paper=paper))
    closest = closest_ink_mm(out)
    assert closest >= DOCUMENTED[paper] - PX, (
        f"{paper}: ink {closest:.2f} mm from the edge, inside the {DOCUMENTED[paper]} mm margin")


@pytest.mark.parametrize("paper", ["a4", "legal", "a5"])
def test_a_deck_stays_inside_the_papers_margin_footer_included(paper, tmp_path):
    out = tmp_path / "deck.pdf"
    # one row left on the last page: its footer is drawn under the cards
    build(load("decktet"), out, Options(paper=paper))
    assert closest_ink_mm(out) >= DOCUMENTED[paper] - PX


def test_the_margin_option_wins_over_the_papers(tmp_path):
    out = tmp_path / "lighthouse.pdf"
    build_game(load_game("lighthouse"), out, Options(paper="a5", margin=9 * MM))
    assert closest_ink_mm(out) >= 9 - PX
