"""Imposition and PDF output of card sheets: fitting, crop marks, duplex backs, determinism."""

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.build import Options, build, plan
from generator.layout.grid import PRINTER_MARGIN, fit, mirror
from pnp_model import units
from pnp_model.definition import load
from pnp_model.errors import PnpError

MM = units.MM


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_cards_fit_three_by_three_without_bleed(paper):
    g = fit(*units.paper(paper), *units.size("poker"))
    assert (g.cols, g.rows) == (3, 3)
    assert g.left >= PRINTER_MARGIN and g.bottom >= PRINTER_MARGIN


def test_bleed_and_gutter_reduce_the_grid_but_stay_inside_the_margin():
    w, h = units.paper("letter")
    g = fit(w, h, *units.size("poker"), bleed=3 * MM, gutter=2 * MM)
    assert g.cols * g.rows < 9
    assert g.left >= PRINTER_MARGIN and g.left + g.block_w <= w - PRINTER_MARGIN


@pytest.mark.parametrize("game, cards", [("decktet", 36), ("duplicon", 99), ("coda", 26)])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pages_cards_and_trim_size_match_the_definition(tmp_path, game, cards, paper):
    deck = load(game)
    result = build(deck, tmp_path / f"{game}.pdf", Options(paper=paper))
    assert result.cards == cards
    sheet = plan(deck, Options(paper=paper))
    fronts = [p for p in sheet.pages if p.side == "front"]
    assert len(fronts) == -(-cards // sheet.cards_per_page)
    pdf = pdfium.PdfDocument(str(tmp_path / f"{game}.pdf"))
    assert len(pdf) == result.pages == 2 * len(fronts)
    # Trim size, measured on a single-card page's TrimBox in the written PDF.
    single = build(deck, tmp_path / "single.pdf", Options(layout="single", bleed=3 * MM))
    page = pdfium.PdfDocument(str(single.path))[0]
    left, bottom, right, top = page.get_trimbox()
    assert abs((right - left) - deck.width) / MM < 0.1
    assert abs((top - bottom) - deck.height) / MM < 0.1
    eps = 1e-6
    for page in sheet.pages:
        for p in page.placements:
            assert p.x - p.bleed >= PRINTER_MARGIN - eps
            assert p.y - p.bleed >= PRINTER_MARGIN - eps
            assert p.x + deck.width + p.bleed <= sheet.width - PRINTER_MARGIN + eps
            assert p.y + deck.height + p.bleed <= sheet.height - PRINTER_MARGIN + eps


def test_crop_marks_sit_on_the_trim_lines():
    deck = load("decktet")
    sheet = plan(deck, Options(paper="a4", bleed=3 * MM))
    page = sheet.pages[0]
    xs = {round(x, 3) for p in page.placements for x in (p.x, p.x + deck.width)}
    ys = {round(y, 3) for p in page.placements for y in (p.y, p.y + deck.height)}
    vertical = {round(x1, 3) for x1, y1, x2, y2 in page.marks if x1 == x2}
    horizontal = {round(y1, 3) for x1, y1, x2, y2 in page.marks if y1 == y2}
    assert vertical == xs and horizontal == ys
    # ... and outside every card's bleed.
    for x1, y1, x2, y2 in page.marks:
        for p in page.placements:
            inside_x = p.x - p.bleed < min(x1, x2) < p.x + deck.width + p.bleed
            inside_y = p.y - p.bleed < min(y1, y2) < p.y + deck.height + p.bleed
            assert not (inside_x and inside_y)


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("game", ["decktet", "coda"])
def test_each_back_lands_behind_its_front(game, flip):
    deck = load(game)
    offset = (1 * MM, -0.5 * MM)
    sheet = plan(deck, Options(flip=flip, back_offset=offset))
    for front, back in zip(sheet.pages[::2], sheet.pages[1::2], strict=True):
        assert (front.side, back.side) == ("front", "back")
        backs = {p.card.id: p for p in back.placements}
        for p in front.placements:
            b = backs[p.card.id]
            # Turning the sheet over maps the back page onto the front by the same mirror.
            fx, fy = mirror(b.x - offset[0], b.y - offset[1], deck.width, deck.height,
                            sheet.width, sheet.height, flip)
            assert (fx, fy) == (pytest.approx(p.x), pytest.approx(p.y))
            if flip == "long":
                assert b.y - offset[1] == pytest.approx(p.y)
            else:
                assert b.x - offset[0] == pytest.approx(p.x)


def test_per_card_backs_follow_the_card(tmp_path):
    deck = load("coda")
    colours = {c.id: c["color"] for c in deck.cards}
    sheet = plan(deck, Options())
    back = sheet.pages[1]
    assert {colours[p.card.id] for p in back.placements} == {"black", "white"}


def test_same_input_gives_the_same_bytes(tmp_path):
    deck = load("duplicon")
    a = build(deck, tmp_path / "a.pdf").path.read_bytes()
    b = build(load("duplicon"), tmp_path / "b.pdf").path.read_bytes()
    assert a == b


def test_pdf_embeds_fonts_and_asks_for_no_scaling(tmp_path):
    data = build(load("decktet"), tmp_path / "d.pdf").path.read_bytes()
    assert b"/FontFile2" in data  # embedded TrueType
    assert b"/PrintScaling /None" in data
    assert b"/Duplex /DuplexFlipLongEdge" in data
    assert b"/Subtype /Image" not in data  # vector only, no raster


def test_failed_build_leaves_the_old_pdf(tmp_path, monkeypatch):
    out = tmp_path / "deck.pdf"
    out.write_bytes(b"old")
    import generator.render.pdf as pdf

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(pdf, "render", broken)
    with pytest.raises(RuntimeError):
        build(load("coda"), out)
    assert out.read_bytes() == b"old"
    assert list(tmp_path.iterdir()) == [out]


def test_write_atomic_never_leaves_a_temp_file(tmp_path, monkeypatch):
    import os

    from generator.build import write_atomic

    def failing_replace(src, dst):
        raise OSError("no space left")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(PnpError, match="cannot write .*x.pdf: no space left"):
        write_atomic(tmp_path / "x.pdf", b"data")
    assert list(tmp_path.iterdir()) == []


def test_a_built_pdf_is_an_ordinary_file_others_can_read(tmp_path):
    """mkstemp makes 0600; a PDF handed to a print queue or a shared folder must follow the umask."""
    import os

    old = os.umask(0o022)
    try:
        build(load("coda"), tmp_path / "coda.pdf")
    finally:
        os.umask(old)
    assert (tmp_path / "coda.pdf").stat().st_mode & 0o777 == 0o644


def test_parts_select_cards(tmp_path):
    deck = load("decktet")
    assert build(deck, tmp_path / "a.pdf", Options(parts=("extended",))).cards == 9
    assert build(deck, tmp_path / "b.pdf", Options(parts=("all",))).cards == 45


def test_user_definition_builds(mini, tmp_path):
    result = build(load(mini), tmp_path / "mini.pdf", Options(bleed=3 * MM))
    assert result.cards == 6 and result.pages == 2
    assert Path(result.path).stat().st_size > 1000
