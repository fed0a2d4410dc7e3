"""`pnp preview --page` shows the page `pnp build` writes with the same print options, and
`pnp preview` / `pnp watch` print the warnings the build prints. Checked from the pixels of
the built PDF and of the preview, and from what the commands print."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from tests.test_card_text import ENDLESS, make_game
from tests.test_legend import small_dobble
from tests.test_watch import Watch, pages


def pnp(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True)


def built_page(pdf: Path, page: int, dpi: int) -> Image.Image:
    """Page `page` (1-based) of the built PDF, rendered at `dpi`."""
    doc = pdfium.PdfDocument(pdf.read_bytes())
    try:
        return doc[page - 1].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def assert_same_pixels(preview: Path, built: Image.Image) -> None:
    shown = Image.open(preview).convert("RGB")
    assert shown.size == built.size
    assert ImageChops.difference(shown, built).getbbox() is None


@pytest.mark.parametrize("flags", [["--paper", "letter", "--grid", "2x2"],
                                   ["--paper", "letter", "--orientation", "landscape",
                                    "--no-marks", "--bleed", "3mm"]])
def test_preview_page_is_the_page_the_build_writes_with_the_same_options(mini, tmp_path, flags):
    pdf = tmp_path / "built.pdf"
    assert pnp("build", mini, *flags, "-o", pdf).returncode == 0
    for page in (1, pages(pdf)):
        png = tmp_path / f"page-{page}.png"
        shown = pnp("preview", mini, "--page", page, "--dpi", 30, *flags, "-o", png)
        assert shown.returncode == 0, shown.stderr
        assert_same_pixels(png, built_page(pdf, page, 30))


def test_preview_page_shows_the_legend_card_the_build_adds(tmp_path):
    game = small_dobble(tmp_path)
    pdf = tmp_path / "built.pdf"
    built = pnp("build", game, "--legend", "-o", pdf)
    assert "+ 1 legend card" in built.stdout
    last_front = pages(pdf) - 1  # fronts and backs alternate; the legend is on the last front
    png = tmp_path / "legend.png"
    assert pnp("preview", game, "--legend", "--page", last_front, "--dpi", 30,
               "-o", png).returncode == 0
    assert_same_pixels(png, built_page(pdf, last_front, 30))
    without = tmp_path / "without.png"
    assert pnp("preview", game, "--page", last_front, "--dpi", 30, "-o", without).returncode == 0
    assert ImageChops.difference(Image.open(without).convert("RGB"),
                                 Image.open(png).convert("RGB")).getbbox() is not None


def test_preview_page_says_what_the_build_says_about_crop_marks(mini, tmp_path):
    flags = ["--grid", "3x3", "--paper", "letter"]
    built = pnp("build", mini, *flags, "-o", tmp_path / "b.pdf")
    said = [line for line in built.stderr.splitlines() if line.startswith("warning: ")]
    assert said and "no room for crop marks" in said[0]
    shown = pnp("preview", mini, "--page", 1, "--dpi", 20, *flags, "-o", tmp_path / "p.png")
    assert shown.returncode == 0, shown.stderr
    assert [line for line in shown.stderr.splitlines() if line.startswith("warning: ")] == said


def test_watch_card_prints_the_warnings_of_the_card_it_draws(tmp_path):
    game = make_game(tmp_path / "g", [{"name": "Fine", "rules": "Draw a card."},
                                      {"name": "Mana Leak", "rules": ENDLESS}])
    w = Watch(game, "--card", "2", "--dpi", "30", "-o", tmp_path / "c.png", cwd=tmp_path)
    try:
        line = w.expect("err", "warning: ")
        assert "card #2 (Mana Leak)" in line and "overflows its box" in line
    finally:
        assert w.stop() == 0


def test_preview_never_writes_over_the_games_own_files(mini, tmp_path):
    """`pnp preview GAME -o GAME/cards.csv` replaced the card list with a PNG (exit 0), and so
    the definition or a piece of art: the game's files are refused, a name not ending in .png
    too, while an earlier preview in the game's folder may be written again."""
    kept = {p: p.read_bytes() for p in Path(mini).rglob("*") if p.is_file()}
    for target in [*kept, tmp_path / "page.csv"]:
        r = pnp("preview", mini, "--card", 1, "--dpi", 20, "-o", target)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, (target, r.stderr)
        assert "(--output)" in r.stderr
    assert {p: p.read_bytes() for p in kept} == kept
    again = Path(mini) / "card-1.png"
    for _ in range(2):
        r = pnp("preview", mini, "--card", 1, "--dpi", 20, "-o", again)
        assert r.returncode == 0, r.stderr
    assert Image.open(again).size[0] > 0
