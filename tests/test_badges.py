"""Icons on tinted discs (`badge = "tint"`), as Dobble draws them: read from the rendered
cards (150 dpi), as the other symbol decks are measured (bench/art_deck.py)."""

import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import art_deck  # noqa: E402
from bare_icons import TEMPLATES, bare_dobble  # noqa: E402

PAGES = range(0, 55, 6)  # 10 of the 55 cards
DPI = 150
PX_MM = DPI / 25.4


def pnp(*args):
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True)


def fronts(deck, pdf: Path) -> Path:
    r = pnp("build", str(deck), "--single", "--bleed", "0mm", "--no-backs", "-o", str(pdf))
    assert r.returncode == 0, r.stderr
    return pdf


@pytest.fixture(scope="module")
def dobble_cards(tmp_path_factory):
    """Dobble's fronts, one card a page (the template by its folder: this checkout's)."""
    return fronts(TEMPLATES / "dobble", tmp_path_factory.mktemp("badges") / "fronts.pdf")


def ink(px):
    return (255 - px).max(axis=2) > art_deck.INK


def test_dobble_inks_60_percent_of_its_cards_and_nothing_within_1_mm_of_the_rim(dobble_cards):
    """Ink share of the 85 mm card circle: 32.0 % mean with bare icons packed by their
    shapes; 63.3 % on discs (min 62.1 % over the 55 cards)."""
    found = art_deck.card_ink(dobble_cards, pages=PAGES)
    cover = [c for c, _ in found]
    assert statistics.mean(cover) >= 0.60
    assert min(cover) >= 0.58
    assert sum(rim for _, rim in found) == 0


def test_each_icon_is_a_disc_of_its_own_pale_tint_with_the_glyph_in_full_colour(dobble_cards):
    """Each symbol rendered alone: round ink filling its circle (a bare glyph fills ~45 %),
    no pixel shared with another symbol, none within 1.5 mm of the rim, a tint that prints
    (> 48 from white) yet is far lighter than the glyph, and the glyph large in its disc."""
    for page in PAGES[:3]:
        renders = art_deck.symbol_renders(dobble_cards, page, DPI)
        masks = [ink(px) for px in renders]
        inked = sum(m.astype(np.int32) for m in masks)
        assert int((inked > 1).sum()) == 0
        h, w = inked.shape
        ys, xs = np.nonzero(inked)
        farthest = np.hypot(xs + 0.5 - w / 2, ys + 0.5 - h / 2).max()
        assert farthest <= min(w, h) / 2 - 1.5 * PX_MM
        for px, mask in zip(renders, masks, strict=True):
            ys, xs = np.nonzero(mask)
            across = xs.max() - xs.min() + 1
            assert abs(across - (ys.max() - ys.min() + 1)) <= 2  # as tall as wide
            assert mask.sum() >= 0.95 * np.pi * (across / 2) ** 2
            depth = (255 - px).max(axis=2)  # how far each pixel is from white
            # the disc's colour: the ring outside the glyph's circle (80 % of the disc across)
            r = np.hypot(xs - xs.mean(), ys - ys.mean())
            ring = (r > 0.84 * across / 2) & (r < 0.94 * across / 2)
            tint_depth = np.bincount(depth[ys[ring], xs[ring]]).argmax()
            assert 48 < tint_depth <= 80
            glyph = depth[mask] >= 2 * tint_depth  # the glyph: at least twice as deep
            assert glyph.sum() >= 0.15 * mask.sum()


def test_the_smallest_icon_stays_findable(dobble_cards):
    """Read from the PDF: the smallest disc is 17.9 mm across, its glyph's circle 80 % of it
    (14.3 mm); bare icons packed by shape went down to 9.3 mm."""
    from pdfgeom import smallest_placed_form_mm

    assert 16.0 <= smallest_placed_form_mm(dobble_cards) < 30


def test_the_id_stays_clear_of_the_discs(dobble_cards):
    """The card's id (small grey text at the bottom, under the discs' area) is never drawn
    on a disc: with the text taken off the page, the strip the id sits in holds no ink."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    def id_strip(page: int, text: bool):
        doc = pdfium.PdfDocument(str(dobble_cards))
        try:
            pg = doc[page]
            if not text:
                for obj in list(pg.get_objects(max_depth=0)):
                    if obj.type == raw.FPDF_PAGEOBJ_TEXT:
                        pg.remove_obj(obj)
                pg.gen_content()
            px = np.asarray(pg.render(scale=DPI / 72).to_pil().convert("RGB"), dtype=np.int16)
        finally:
            doc.close()
        h, w, _ = px.shape
        return ink(px[int(h - 3.0 * PX_MM):int(h - 1.2 * PX_MM),
                      int(w / 2 - 4 * PX_MM):int(w / 2 + 4 * PX_MM)])

    for page in PAGES:
        assert id_strip(page, text=True).sum() > 20  # the id is there
        assert id_strip(page, text=False).sum() == 0, page


def test_badge_off_draws_bare_icons_as_before(tmp_path):
    """`badge = "none"` is the default: the same bytes as no badge line, bare glyphs
    (each inks well under its circle) and no shared pixel."""
    off = fronts(bare_dobble(tmp_path / "off", 'badge = "none"\n'), tmp_path / "off.pdf")
    default = fronts(bare_dobble(tmp_path / "default"), tmp_path / "default.pdf")
    assert off.read_bytes() == default.read_bytes()
    renders = art_deck.symbol_renders(off, 0, DPI)
    for px in renders:
        mask = ink(px)
        ys, xs = np.nonzero(mask)
        across = max(xs.max() - xs.min(), ys.max() - ys.min()) + 1
        assert mask.sum() < 0.8 * np.pi * (across / 2) ** 2
    assert art_deck.symbol_overlap(off, 0, DPI) == 0


def test_an_unknown_badge_style_is_a_one_line_error(tmp_path):
    deck = bare_dobble(tmp_path / "glow", 'badge = "glow"\n')
    r = pnp("build", str(deck), "-o", str(tmp_path / "x.pdf"))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "badge" in lines[0] and "glow" in lines[0], r.stderr
    assert "game.toml" in lines[0]


def test_each_card_may_choose_its_badge_from_a_column(tmp_path):
    """`badge = "{style}"`: the cards of a 'tint' row get discs, the others bare icons (not
    whatever the first card chose)."""
    root = tmp_path / "mixed"
    root.mkdir()
    (root / "cards.csv").write_text("name,style,symbols\none,tint,cat dog sun\n"
                                    "two,none,moon star fish\nthree,tint,bell key frog\n")
    (root / "game.toml").write_text('[deck]\nfile = "cards.csv"\nshape = "circle"\n'
                                    'size = "85x85mm"\n[[face]]\ntype = "symbols"\nx = "3mm"\ny = "3mm"\n'
                                    'w = "79mm"\nh = "79mm"\nbadge = "{style}"\n')
    pdf = fronts(root, tmp_path / "mixed.pdf")
    for page, discs in ((0, True), (1, False), (2, True)):
        for px in art_deck.symbol_renders(pdf, page, DPI):
            mask = ink(px)
            ys, xs = np.nonzero(mask)
            across = max(xs.max() - xs.min(), ys.max() - ys.min()) + 1
            filled = mask.sum() / (np.pi * (across / 2) ** 2)
            assert (filled >= 0.95) == discs, (page, filled)
