"""`pnp preview`, `pnp watch` and `pnp serve` of a game of several components (lighthouse):
each shows the one PDF `pnp build` writes, read back from what they write or serve, and the
live page offers every component's pieces, one component at a time by its picker."""

from __future__ import annotations

import io
import shutil

import numpy as np
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from generator.cli import main
from pnp_model.catalog import bundled
from pnp_model.game import load_game
from pnp_model.units import MM
from tests.browser import DESKTOP
from tests.test_pnp_serve import Served, loaded, opened
from tests.test_watch import pages, watching  # noqa: F401 (a fixture)

DPI = 40
LIGHTHOUSE = {"board": "board", "voyages": "deck", "weather": "deck", "tokens": "tokens",
              "tiles": "tiles"}


def rendered(pdf_bytes: bytes, index: int) -> np.ndarray:
    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        return np.asarray(doc[index].render(scale=DPI / 72).to_pil().convert("RGB"), dtype=int)
    finally:
        doc.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("built")
    r = CliRunner().invoke(main, ["build", "lighthouse", "-o", str(folder / "l.pdf")])
    assert r.exit_code == 0, r.output
    return (folder / "l.pdf").read_bytes()


@pytest.mark.parametrize("page", [2, 3, 9, 10])  # the contents, a board sheet, fronts, backs
def test_preview_shows_the_page_of_the_whole_games_pdf(built, page, tmp_path):
    out = tmp_path / "p.png"
    r = CliRunner().invoke(main, ["preview", "lighthouse", "--page", str(page), "--dpi",
                                  str(DPI), "-o", str(out)])
    assert r.exit_code == 0, r.output
    shown = np.asarray(Image.open(out).convert("RGB"), dtype=int)
    want = rendered(built, page - 1)
    assert shown.shape == want.shape and np.abs(shown - want).max() <= 2


def test_preview_of_a_piece_names_its_component(tmp_path):
    r = CliRunner().invoke(main, ["preview", "lighthouse", "--card", "2", "--component",
                                  "weather", "--dpi", "100", "-o", str(tmp_path / "c.png")])
    assert r.exit_code == 0, r.output
    deck = load_game("lighthouse").only(("weather",)).components[0].deck
    bleed = deck.print.bleed / MM
    with Image.open(tmp_path / "c.png") as im:  # a mini card, 44.45 x 63.5 mm, and its bleed
        assert abs(im.width - (44.45 + 2 * bleed) / 25.4 * 100) <= 1
        assert abs(im.height - (63.5 + 2 * bleed) / 25.4 * 100) <= 1
    r = CliRunner().invoke(main, ["preview", "lighthouse", "--card", "2"])
    assert r.exit_code == 2 and r.output == (
        "error: lighthouse holds several components (board, voyages, weather, tokens, tiles): "
        "--card needs --component NAME (--component)\n")


def test_preview_past_the_last_page_is_one_line(tmp_path):
    r = CliRunner().invoke(main, ["preview", "lighthouse", "--page", "99", "-o",
                                  str(tmp_path / "p.png")])
    assert r.exit_code == 2 and r.output == (
        "error: lighthouse has 14 pages; there is no page 99 (--page)\n")
    assert not (tmp_path / "p.png").exists()


def test_watch_rebuilds_the_whole_game_on_a_save(tmp_path, watching):  # noqa: F811
    game = tmp_path / "lighthouse"
    shutil.copytree(bundled()["lighthouse"], game)
    out = tmp_path / "out" / "l.pdf"
    w = watching(game, "-o", out, cwd=tmp_path)
    assert "in 5 components on 14 pages" in w.expect("out", "built ")
    w.expect("out", "watching ")
    assert pages(out) == 14
    first = out.read_bytes()
    voyages = game / "voyages.csv"
    lines = voyages.read_text().splitlines()
    voyages.write_text("\n".join(lines[:-4]) + "\n")  # fewer voyage cards
    assert "[voyages.csv]" in w.expect("out", "built ")
    assert out.read_bytes() != first
    assert w.stop() == 0


@pytest.fixture(scope="module")
def served_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("serve-game")
    s = Served("lighthouse", "-o", folder / "l.pdf", cwd=folder)
    s.pdf = folder / "l.pdf"
    yield s
    assert s.stop() == 0


def test_serve_shows_every_page_and_every_components_pieces(browser, served_game):  # noqa: F811
    page = opened(browser, served_game.url, DESKTOP)
    doc = pdfium.PdfDocument(served_game.pdf.read_bytes())
    count = len(doc)
    doc.close()
    assert page.locator("figure.page").count() == count == 14
    assert "contents" in page.locator("#page-2 figcaption").inner_text()
    options = page.locator("#component option").all_inner_texts()
    assert options == ["all components"] + [f"{n} ({k})" for n, k in LIGHTHOUSE.items()]
    # every piece of every component is listed once: 1 board, 16 + 12 cards, 30 + 16 pieces
    labels = page.locator("#card-list .card .name b").all_inner_texts()
    assert len(labels) == len(set(labels))
    per = {name: sum(1 for t in labels if t.startswith(f"{name} #")) for name in LIGHTHOUSE}
    distinct = page.evaluate("() => window.pnpState.manifest.cards.length")
    assert sum(per.values()) == distinct and all(per.values()), per
    # the picker shows one component's pieces and only the pages they are on
    page.select_option("#component", "weather")
    shown = page.locator("#card-list .card:not([hidden]) .name b").all_inner_texts()
    assert shown and all(t.startswith("weather #") for t in shown)
    assert len(shown) == per["weather"]
    visible = [c.inner_text() for c in page.locator("figure.page:not([hidden]) figcaption").all()]
    assert visible == ["page 13 · weather · front", "page 14 · weather · back"]
    page.select_option("#component", "")
    assert page.locator("figure.page:not([hidden])").count() == 14
    assert page.errors == []


def test_serve_a_piece_opens_with_its_own_components_image(browser, served_game):  # noqa: F811
    page = opened(browser, served_game.url, DESKTOP)
    page.select_option("#component", "tokens")
    tile = page.locator("#card-list .card:not([hidden])").first
    tile.scroll_into_view_if_needed()
    tile.click()
    page.wait_for_selector("#zoom[open]")
    assert page.locator("#zoom-title").inner_text().startswith("tokens #")
    loaded(page, '#zoom-sides img[data-side="front"]')
    src = page.locator('#zoom-sides img[data-side="front"]').get_attribute("src")
    got = Image.open(io.BytesIO(page.request.get(served_game.url + src).body()))
    assert abs(got.width / got.height - 1) < 0.05  # a round 22 mm token, not a card
    assert page.errors == []


def test_preview_of_page_0_of_a_whole_game_is_refused_as_for_a_deck(tmp_path):
    """Pages count from 1: `--page 0` of a whole game wrote page 1; a deck's is refused."""
    for game, count in (("lighthouse", 14), ("decktet", 8)):
        r = CliRunner().invoke(main, ["preview", game, "--page", "0", "-o",
                                      str(tmp_path / "p.png")])
        assert r.exit_code == 2 and r.output == (
            f"error: {game} has {count} pages; there is no page 0 (--page)\n"), r.output
        assert not (tmp_path / "p.png").exists()
