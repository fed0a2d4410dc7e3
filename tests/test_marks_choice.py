"""`--marks full` and the warning that offers it, read from the built PDFs: the warning names the
unmarked sides, the cost in sheets that a full-marks build really takes, and a narrower gutter
when one marks every side on as few sheets; those builds mark both ends of every cut line."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pypdfium2 as pdfium
import pytest
from markcheck import coloured, colours_of, page_marks, placed
from pdfgeom import drawing, page_streams

from generator.build import Options, build

CASES = [("dominoes", "a4", "auto"), ("decktet", "letter", "auto"),
         ("duplicon", "letter", "portrait"), ("emberfall", "letter", "portrait")]


def unmarked(pdf: bytes, deck) -> dict[str, int]:
    """Cut-line ends with no mark, by side, over every page of the PDF."""
    doc = pdfium.PdfDocument(pdf)
    w, h = doc[0].get_size()
    doc.close()
    colours, out = colours_of(deck), {}
    for content in page_streams(pdf):
        found = page_marks(content, list(placed(content, colours).values()), deck.width,
                           deck.height, w, h)
        assert found.edge_distance >= 6 * 72 / 25.4 - 0.001
        for side, n in found.missing.items():
            out[side] = out.get(side, 0) + n
    return out


@pytest.mark.parametrize("game,paper,orientation", CASES)
def test_the_warning_offers_full_marks_at_the_cost_a_full_build_really_takes(
        game, paper, orientation, tmp_path):
    deck = coloured(game)
    fewest = build(deck, tmp_path / "fewest.pdf",
                   Options(paper=paper, orientation=orientation, parts=("all",)))
    missing = unmarked((tmp_path / "fewest.pdf").read_bytes(), deck)
    assert missing, f"{game} on {paper} was expected to lack some marks at the fewest sheets"
    (warning,) = [n for n in fewest.notes if "crop marks" in n]
    for side in missing:
        assert side in warning
    offer = re.search(r"--marks full for every mark on (\d+) sheets instead of (\d+) "
                      r"\(grid (\d+x\d+)", warning)
    assert offer, warning
    full = build(deck, tmp_path / "full.pdf",
                 Options(paper=paper, orientation=orientation, parts=("all",), marks="full"))
    assert not [n for n in full.notes if "crop marks" in n]
    assert unmarked((tmp_path / "full.pdf").read_bytes(), deck) == {}
    sheets = len(pdfium.PdfDocument(str(tmp_path / "full.pdf"))) // 2
    assert int(offer.group(1)) == sheets > int(offer.group(2)) == fewest.pages // 2
    assert full.info["grid"] == offer.group(3)
    narrower = re.search(r"--gutter (\S+)mm for every mark on as few sheets", warning)
    assert bool(narrower) == (game == "dominoes"), warning  # the one with a gutter to give
    if narrower:
        gutter = float(narrower.group(1)) * 72 / 25.4
        same = build(deck, tmp_path / "gutter.pdf", Options(paper=paper, orientation=orientation,
                                                            parts=("all",), gutter=gutter))
        assert not same.notes and same.pages == fewest.pages
        assert unmarked((tmp_path / "gutter.pdf").read_bytes(), deck) == {}


def test_marks_on_full_and_off_from_the_command_line(tmp_path):
    def run(*flags):
        out = tmp_path / "d.pdf"
        r = subprocess.run([sys.executable, "-m", "generator", "build", "dominoes", "-o",
                            str(out), "--json", *flags], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        marks = sum(1 for content in page_streams(out.read_bytes())
                    for depth in drawing(content).stroke_depths if depth == 0)
        return json.loads(r.stdout)[0], marks

    default, marked = run()
    assert "--marks full" in default["warnings"][0] and marked
    assert run("--marks") == (default, marked)
    full, _ = run("--marks", "full")
    assert full["grid"] == "6x4" and "warnings" not in full and full["pages"] == 4
    for off in (("--marks", "off"), ("--no-marks",)):
        info, marks = run(*off)
        assert marks == 0 and "warnings" not in info and info["grid"] == "6x5"
