"""Built-in icons packed by their real shapes on small decks: more ink, still legal, same bytes.

Dobble itself now draws its icons on discs (tests/test_badges.py); these tests build it as it
was, bare icons (tests/bare_icons.py), the drawing a deck gets with the badge off."""

import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from generator import parallel
from generator.build import build
from generator.layout import packing
from generator.render import symbols
from pnp_model.definition import load

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import art_deck  # noqa: E402
from bare_icons import bare_dobble  # noqa: E402

PAGES = range(0, 55, 6)  # 10 of the 55 cards


@pytest.fixture(scope="module")
def dobble_cards(tmp_path_factory):
    """Dobble's fronts with bare icons, one card a page."""
    tmp = tmp_path_factory.mktemp("dobble")
    pdf = tmp / "fronts.pdf"
    deck = bare_dobble(tmp / "bare")
    r = subprocess.run([sys.executable, "-m", "generator", "build", str(deck), "--single", "--bleed",
                        "0mm", "--no-backs", "-o", str(pdf)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return pdf


def test_dobble_icons_cover_a_third_of_the_card_clear_of_the_rim(dobble_cards):
    """Ink share of the 85 mm card circle at 150 dpi: 26.9 % mean when the icons were packed
    by their bounding circles; 32.0 % packed by their shapes at Dobble's sizes (min_size 0.16,
    max_size 0.42; 35.1 % at the defaults 0.12 and 0.5, with smaller icons and twice the
    time)."""
    found = art_deck.card_ink(dobble_cards, pages=PAGES)
    assert statistics.mean(c for c, _ in found) >= 0.31
    assert min(c for c, _ in found) >= 0.25
    assert sum(rim for _, rim in found) == 0


def test_dobble_icons_share_no_ink(dobble_cards):
    for page in PAGES[:4]:
        assert art_deck.symbol_overlap(dobble_cards, page) == 0


def fresh_build(deck, out):
    packing._pool.cache_clear()
    build(deck, out)
    return out.read_bytes()


def test_cards_laid_out_ahead_on_every_core_are_the_cards_laid_out_one_by_one(
        tmp_path, monkeypatch):
    deck = load(bare_dobble(tmp_path / "bare"))
    monkeypatch.setattr(parallel, "busy", lambda: False)  # fork as on an idle machine
    ahead = fresh_build(deck, tmp_path / "ahead.pdf")
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    monkeypatch.setattr(symbols._Kit, "pack_ahead", lambda *a: None)
    one_by_one = fresh_build(deck, tmp_path / "one.pdf")
    assert ahead == one_by_one


def test_dobble_icons_stay_findable(dobble_cards):
    """Shape packing shrinks an icon that fits nowhere; min_size keeps the smallest one big
    (read from the PDF: 6.7 mm at the default min_size 0.12, 9.3 mm at Dobble's 0.16)."""
    from pdfgeom import smallest_placed_form_mm

    smallest = smallest_placed_form_mm(dobble_cards)
    assert 8.0 <= smallest < 30
