"""Fold-and-glue sheets, measured from the PDF: every back's trim box is its front's mirrored
across the drawn fold line, for every bundled template that can fold; refusals say why."""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner
from markcheck import coloured, colours_of
from pdfgeom import drawing, page_streams

from generator.build import Options, build, cards_of
from generator.cli import main
from pnp_model.catalog import bundled
from pnp_model.game import load_game
from pnp_model.units import MM

TOLERANCE = 0.05 * MM
# triangles cannot fold; a whole game's components fold one deck at a time (not yet as one game)
FOLDABLE = [g for g, folder in bundled().items()
            if g != "tripple-domino" and not load_game(str(folder)).whole]


def _box(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _fold_line(page):
    """The longest stroked segment on the page: the dashed fold line spans the whole block."""
    (x1, y1), (x2, y2) = max(page.strokes, key=lambda s: math.dist(*s))
    return ("vertical", x1) if abs(x1 - x2) < 1e-6 else ("horizontal", y1)


@pytest.mark.parametrize("game", FOLDABLE)
def test_every_back_is_its_front_mirrored_across_the_fold(game, tmp_path):
    deck = coloured(game)
    ids = colours_of(deck)
    out = build(deck, tmp_path / "fold.pdf", Options(fold=True)).path
    seen = 0
    for content in page_streams(out.read_bytes()):
        page = drawing(content)
        axis, line = _fold_line(page)
        boxes: dict[int, list] = {}
        for f in page.fills:
            key = tuple(round(v, 2) for v in f.color)
            if key in ids and f.points:
                boxes.setdefault(ids[key], []).append(_box(f.points))
        for card, found in boxes.items():
            assert len(found) == 2, f"card {card}: {len(found)} boxes, not a front and a back"
            front, back = sorted(found, key=lambda b: b[0] if axis == "vertical" else -b[1])
            if axis == "vertical":  # fronts left of the line, backs right
                mirrored = (2 * line - front[2], front[1], 2 * line - front[0], front[3])
            else:  # fronts above the line, backs below
                mirrored = (front[0], 2 * line - front[3], front[2], 2 * line - front[1])
            assert max(abs(a - b) for a, b in zip(mirrored, back, strict=True)) <= TOLERANCE, \
                (game, card, front, back, axis, line)
            seen += 1
    assert seen == len(cards_of(deck, ()))


def test_fold_sheets_are_single_sided_with_marks_at_both_ends_of_the_fold(tmp_path):
    out = build(coloured("decktet"), tmp_path / "f.pdf", Options(fold=True)).path
    data = out.read_bytes()
    assert b"/Duplex" not in data or b"/Simplex" in data
    page = drawing(page_streams(data)[0])
    axis, line = _fold_line(page)
    assert axis == "vertical"
    (_, low), (_, high) = sorted(max(page.strokes, key=lambda s: math.dist(*s)))
    on_line = [s for s in page.strokes if abs(s[0][0] - line) < 1e-6 and abs(s[1][0] - line) < 1e-6]
    assert any(max(p[1] for p in s) < low for s in on_line), "no mark below the fold line"
    assert any(min(p[1] for p in s) > high for s in on_line), "no mark above the fold line"


def test_a_shape_that_cannot_fold_is_refused_with_the_reason(tmp_path):
    r = CliRunner().invoke(main, ["build", "tripple-domino", "--fold", "-o",
                                  str(tmp_path / "t.pdf")])
    assert r.exit_code == 2
    assert r.output.strip().startswith("error: cannot fold: triangular tiles")
    assert "--fold" in r.output and "Traceback" not in r.output
