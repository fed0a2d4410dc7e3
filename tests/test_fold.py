"""Fold-and-glue sheets, measured from the PDF: every back's trim box is its front's mirrored
across the drawn fold line, for every bundled template that can fold; refusals say why."""

from __future__ import annotations

import json
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
# triangles cannot fold; a whole game folds component by component (tested on its own below)
FOLDABLE = [g for g, folder in bundled().items()
            if g != "tripple-domino" and not load_game(str(folder)).whole]


def _box(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _fold_line(page):
    """The longest stroked segment on the page: the dashed fold line spans the whole block."""
    (x1, y1), (x2, y2) = max(page.strokes, key=lambda s: math.dist(*s))
    return ("vertical", x1) if abs(x1 - x2) < 1e-6 else ("horizontal", y1)


def _mirrored_pairs(pdf: bytes, ids: dict, pages=None) -> int:
    """How many cards the pages show as a front and a back mirrored across the fold line (the
    longest stroke), within TOLERANCE; fails on a card that is not."""
    seen = 0
    for n, content in enumerate(page_streams(pdf), 1):
        if pages is not None and n not in pages:
            continue
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
                (n, card, front, back, axis, line)
            seen += 1
    return seen


@pytest.mark.parametrize("game", FOLDABLE)
def test_every_back_is_its_front_mirrored_across_the_fold(game, tmp_path):
    deck = coloured(game)
    out = build(deck, tmp_path / "fold.pdf", Options(fold=True)).path
    assert _mirrored_pairs(out.read_bytes(), colours_of(deck)) == len(cards_of(deck, ()))


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


@pytest.mark.parametrize("flags, named", [(["--fold", "--no-backs"], "--fold, --no-backs"),
                                          (["--cutter", "silhouette", "--marks", "full"],
                                           "--cutter, --marks")])
def test_flags_that_contradict_each_other_are_refused(tmp_path, flags, named):
    """`--fold --no-backs` printed every back anyway and `--cutter ... --marks full` drew no
    marks, both with exit 0: the flag that cannot be honoured is named, nothing written."""
    out = tmp_path / "e.pdf"
    r = CliRunner().invoke(main, ["build", "emberfall", *flags, "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert r.output.count("\n") == 1 and r.output.strip().endswith(f"({named})")
    assert not out.exists()


TAB = (0.89, 0.89, 0.89)  # the glue tabs' light grey (#e3e3e3)
MARGIN = 6 * MM  # the printer margin nothing is printed in
MIN_TAB, GAP = 3 * MM, 1 * MM  # the documented smallest tab, and its gap to its card's bleed


def _overlap(a, b, eps=1e-3):
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


def _room(card, side, others, paper_w, paper_h):
    """The free room beyond one side of a card's bleed box: to the printer margin, or half the
    way to the next card ahead (the two facing edges share it)."""
    x0, y0, x1, y1 = card
    if side in ("top", "bottom"):
        ahead = [(b[1] - y1) / 2 if side == "top" else (y0 - b[3]) / 2 for b in others
                 if b[0] < x1 and b[2] > x0 and (b[1] >= y1 if side == "top" else b[3] <= y0)]
        edge = paper_h - MARGIN - y1 if side == "top" else y0 - MARGIN
    else:
        ahead = [(b[0] - x1) / 2 if side == "right" else (x0 - b[2]) / 2 for b in others
                 if b[1] < y1 and b[3] > y0 and (b[0] >= x1 if side == "right" else b[2] <= x0)]
        edge = paper_w - MARGIN - x1 if side == "right" else x0 - MARGIN
    return min([edge, *ahead])


@pytest.mark.parametrize("game,paper", [("decktet", "a4"), ("dobble", "letter"),
                                        ("emberfall", "a4"), ("dominoes", "a4")])
def test_glue_tabs_lie_along_the_open_edges_of_the_backs_where_room_allows(game, paper, tmp_path):
    """From the PDF: every open edge of a back (not the one facing the fold) with room for a
    tab has one, beside its bleed; no tab touches a card's art, a crop mark, the fold line,
    the printer margin or the fronts' half."""
    deck = coloured(game)
    ids = colours_of(deck)
    out = build(deck, tmp_path / "fold.pdf", Options(fold=True, paper=paper)).path
    import pypdfium2 as pdfium

    paper_w, paper_h = pdfium.PdfDocument(str(out))[0].get_size()
    tabs_seen = 0
    for content in page_streams(out.read_bytes()):
        page = drawing(content)
        axis, line = _fold_line(page)
        cards = [_box(f.points) for f in page.fills
                 if tuple(round(v, 2) for v in f.color) in ids and f.points]
        tabs = [_box(f.points) for f in page.fills
                if tuple(round(v, 2) for v in f.color) == TAB and f.points]
        tabs_seen += len(tabs)
        for t in tabs:
            assert not any(_overlap(t, c) for c in cards), (t, "on a card")
            assert min(t[0], t[1], paper_w - t[2], paper_h - t[3]) >= MARGIN - 1e-3, t
            assert t[0] >= line if axis == "vertical" else t[3] <= line, (t, "not on the backs")
            for (x1, y1), (x2, y2) in page.strokes:  # crop marks, fold line, fold-end marks
                assert not _overlap(t, (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)),
                                    eps=-1e-3 if x1 == x2 or y1 == y2 else 1e-3), (t, "on a mark")
        backs = [c for c in cards if (c[0] >= line if axis == "vertical" else c[3] <= line)]
        fold_side = "left" if axis == "vertical" else "top"
        for b in backs:
            for side in {"left", "right", "top", "bottom"} - {fold_side}:
                beside = [t for t in tabs if _beside(t, b, side)]
                room = _room(b, side, [c for c in cards if c != b], paper_w, paper_h)
                if room - GAP >= MIN_TAB:
                    assert len(beside) == 1, (b, side, room / MM)
                else:
                    assert not beside, (b, side, room / MM)
    assert tabs_seen, "no glue tab on any page"


def _beside(tab, card, side, tol=0.05 * MM):
    """Whether the tab starts GAP beyond the card's bleed on that side, within its length."""
    x0, y0, x1, y1 = card
    if side in ("top", "bottom"):
        near = abs(tab[1] - (y1 + GAP)) <= tol if side == "top" else abs(tab[3] - (y0 - GAP)) <= tol
        return near and tab[0] >= x0 and tab[2] <= x1
    near = abs(tab[0] - (x1 + GAP)) <= tol if side == "right" else abs(tab[2] - (x0 - GAP)) <= tol
    return near and tab[1] >= y0 and tab[3] <= y1


def test_a_whole_game_folds_each_component_that_can_and_says_why_not_the_others(tmp_path):
    """lighthouse --fold: its two decks fold (every back its front mirrored, measured on their
    pages), the board larger than half a sheet and the one-sided tokens and tiles print as
    before, and the build says why for each."""
    from test_whole_game import coloured_game

    game, out = coloured_game(Options(fold=True), tmp_path)
    r = CliRunner().invoke(main, ["build", "lighthouse", "--fold", "--json",
                                  "-o", str(tmp_path / "plain.pdf")])
    assert r.exit_code == 0, r.output
    rows = {c["component"]: c for c in json.loads(r.output)[0]["components"]}
    assert rows["voyages"]["print"] == rows["weather"]["print"] == "fold-and-glue"
    assert rows["board"]["fold"] == "not folded (a 500x350 mm board is larger than half a " \
                                    "sheet of a4)"
    assert rows["tokens"]["fold"] == rows["tiles"]["fold"] == \
        "not folded (one-sided: no back to fold behind it)"
    decks = {c.name: c.deck for c in game.components}
    for name in ("voyages", "weather"):
        first, _, last = rows[name]["pages"].partition("-")
        pages = range(int(first), int(last or first) + 1)
        ids = colours_of(decks[name])
        assert _mirrored_pairs(out.read_bytes(), ids, pages) == len(decks[name].cards)
    text = CliRunner().invoke(main, ["build", "lighthouse", "--fold", "-o",
                                     str(tmp_path / "said.pdf")]).output
    assert "board (board): 1 x 500x350 mm, 6 sheets" in text
    assert "not folded (a 500x350 mm board is larger than half a sheet of a4)" in text


def test_a_double_sided_component_that_cannot_fold_refuses_the_build(tmp_path):
    r = CliRunner().invoke(main, ["build", "lighthouse", "--fold", "--paper", "100x100mm",
                                  "-o", str(tmp_path / "t.pdf")])
    assert r.exit_code == 2, r.output
    assert r.output.startswith("error: voyages: ") and r.output.strip().endswith("(--fold)")
    assert "Traceback" not in r.output and not (tmp_path / "t.pdf").exists()
