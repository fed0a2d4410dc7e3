"""Decks of the user's own raster art: backgrounds removed, packed by ink, measured from renders."""

import io
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw
from reportlab.pdfgen.canvas import Canvas

from generator.render.art import clean

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import art_deck  # noqa: E402


def pnp(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True, cwd=cwd)


def drawing(tmp_path, name="ring.png", size=(120, 100), mode="RGB"):
    """A red ring (white inside) on a white background with wide margins."""
    im = Image.new("RGB", size, (255, 255, 255))
    ImageDraw.Draw(im).ellipse((30, 20, 80, 70), fill=(255, 255, 255), outline=(200, 0, 0),
                               width=8)
    path = tmp_path / name
    im.convert(mode).save(path)
    return path


def test_a_plain_background_becomes_transparent_and_the_art_is_trimmed(tmp_path):
    art = clean(drawing(tmp_path))
    assert art.note == ""
    assert art.image.mode == "RGBA"
    assert art.image.size == (51, 51)  # the ring's box, margins gone
    a = np.asarray(art.image.getchannel("A"))
    assert a[0, 0] == 0 and a[-1, -1] == 0  # background outside the ring is see-through
    assert a[25, 3] == 255  # the ring itself is solid
    assert a[25, 25] == 255  # the white inside the ring is drawing, not background: kept
    rgb = np.asarray(art.image.convert("RGB"))
    assert rgb[25, 3, 0] > 150 and rgb[25, 3, 1] < 60  # still red


@pytest.mark.parametrize("size", [(7, 5), (40, 41), (83, 120), (161, 77), (333, 250)])
def test_the_silhouette_marks_exactly_the_cells_holding_ink(size):
    """Cells are k half pixels centred on the art (so a pixel can straddle two cells): a
    cell is inked when a pixel it overlaps is, for even and odd paddings alike."""
    from generator.render.art import _silhouette

    rng = np.random.default_rng(sum(size))
    ink = (rng.random(size[::-1]) < 0.002) * 255
    ink[0, 0] = ink[-1, -1] = 255
    sil = _silhouette(Image.fromarray(ink.astype(np.uint8)))
    k = round(2 * sil.cell)  # a cell, in half pixels
    cols, rows = sil.size
    left, top = (cols * k - 2 * size[0]) // 2, (rows * k - 2 * size[1]) // 2
    want = np.zeros((rows, cols), bool)
    for y, x in np.argwhere(ink):  # the half pixels 2x, 2x + 1 and their cells
        for hy in (2 * y + top, 2 * y + 1 + top):
            for hx in (2 * x + left, 2 * x + 1 + left):
                want[hy // k, hx // k] = True
    assert (sil.mask == want).all()
    assert max(sil.size) <= 40  # MASK_CELLS


def test_jpeg_noise_counts_as_background(tmp_path):
    path = drawing(tmp_path, "ring.jpg")
    art = clean(path)
    assert art.note == ""
    assert art.image.size[0] <= 55 and art.image.size[1] <= 55
    assert np.asarray(art.image.getchannel("A"))[0, 0] == 0


def test_own_alpha_is_kept_and_trimmed(tmp_path):
    im = Image.new("RGBA", (100, 100), (0, 0, 0, 0))
    ImageDraw.Draw(im).rectangle((10, 40, 59, 49), fill=(0, 0, 255, 128))
    im.save(tmp_path / "bar.png")
    art = clean(tmp_path / "bar.png")
    assert art.image.size == (50, 10)
    assert np.asarray(art.image.getchannel("A")).max() == 128


def test_a_busy_border_is_kept_with_a_note_naming_the_file(tmp_path):
    im = Image.effect_noise((64, 64), 100).convert("RGB")
    im.save(tmp_path / "photo.png")
    art = clean(tmp_path / "photo.png")
    assert "photo.png" in art.note and "kept" in art.note
    assert art.image.size == (64, 64) and art.image.mode == "RGB"


def test_background_keep_leaves_the_art_as_it_is(tmp_path):
    art = clean(drawing(tmp_path), keep=True)
    assert art.image.size == (120, 100) and art.image.mode == "RGB"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The bench's opaque 57-symbol deck (12 of its cards), PNG and JPG, one card per page."""
    out = {}
    for fmt in ("png", "jpg"):
        root = art_deck.make_deck(tmp_path_factory.mktemp(fmt), fmt=fmt, cards=12)
        pdf = root / "cards.pdf"
        r = pnp("build", str(root), "--single", "--bleed", "0mm", "-o", str(pdf))
        assert r.returncode == 0, r.stderr
        out[fmt] = pdf
    return out


@pytest.mark.parametrize("fmt", ["png", "jpg"])
def test_opaque_art_covers_a_third_of_the_card_clear_of_the_rim(built, fmt):
    found = art_deck.card_ink(built[fmt])
    cover = [c for c, _ in found]
    assert statistics.mean(cover) >= 0.35
    assert min(cover) >= 0.25
    assert [rim for _, rim in found] == [0] * len(found)  # no ink within 1 mm of the rim


@pytest.mark.parametrize("fmt", ["png", "jpg"])
def test_no_two_symbols_share_ink(built, fmt):
    for page in (0, 5, 11):
        assert art_deck.symbol_overlap(built[fmt], page) == 0


def test_the_overlap_check_sees_overlapping_symbols(tmp_path):
    pdf = tmp_path / "two.pdf"
    c = Canvas(str(pdf), pagesize=(200, 200))
    c.beginForm("dot")
    c.circle(40, 40, 30, stroke=0, fill=1)
    c.endForm()
    for x in (50, 80):
        c.saveState()
        c.translate(x, 60)
        c.doForm("dot")
        c.restoreState()
    c.save()
    assert art_deck.symbol_overlap(pdf, 0) > 100


@pytest.mark.parametrize("fmt", ["png", "jpg"])
def test_no_white_square_shows_around_a_symbol(built, fmt):
    """On the white page, a kept background would be invisible: build on a dark card and
    look for near-white pixels between the symbols. JPG too: its noisy white must go as well
    (a JPEG is stored whole, as it is, its background hidden by a soft mask)."""
    root = built[fmt].parent
    toml = (root / "game.toml").read_text()
    (root / "game.toml").write_text(toml.replace('[[face]]\ntype = "symbols"', (
        '[[face]]\ntype = "rect"\nfill = "#2040a0"\n[[face]]\ntype = "symbols"')))
    pdf = root / "dark.pdf"
    assert pnp("build", str(root), "--single", "-o", str(pdf)).returncode == 0
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    px = np.asarray(doc[0].render(scale=150 / 72).to_pil().convert("RGB")).astype(int)
    doc.close()
    h, w, _ = px.shape
    yy, xx = np.mgrid[0:h, 0:w]
    inside = np.hypot(xx - w / 2, yy - h / 2) < w / 2 - 10
    white = (px.min(axis=2) > 225) & inside
    dark = (np.abs(px - (0x20, 0x40, 0xA0)).max(axis=2) < 16) & inside
    near_dark = np.zeros_like(dark)  # within 2 px of the card
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            near_dark |= np.roll(dark, (dy, dx), axis=(0, 1))
    # white inside a drawing (a ring's hole) is the drawing's own; white next to the
    # card is background left around a symbol (a 256-px square's margins: thousands)
    assert white.sum() > 0
    assert (white & near_dark).sum() < 50


def test_same_seed_same_bytes_and_images_embedded_once(tmp_path):
    root = art_deck.make_deck(tmp_path / "deck", order=2)
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    assert pnp("build", str(root), "-o", str(a)).returncode == 0
    assert pnp("build", str(root), "-o", str(b)).returncode == 0
    data = a.read_bytes()
    assert data == b.read_bytes()
    # 7 symbols, each stored once: an image, its transparency mask, a form placing it
    assert data.count(b"/Subtype /Image") == 14 and data.count(b"/SMask") == 7
    assert data.count(b"/Subtype /Form") == 7


def test_low_resolution_symbols_get_a_note_naming_them(tmp_path):
    root = art_deck.make_deck(tmp_path / "deck", order=2)
    small = root / "art" / "symbol003.png"
    original = small.read_bytes()
    Image.open(small).resize((40, 40)).save(small)
    r = pnp("build", str(root), "-o", str(tmp_path / "out.pdf"))
    assert r.returncode == 0
    notes = [line for line in r.stderr.splitlines() if line.startswith("warning:")]
    assert len(notes) == 1 and "symbol003.png" in notes[0] and "ppi" in notes[0]
    r = pnp("build", str(root), "-o", str(tmp_path / "out.pdf"), "--json")
    import json

    assert "symbol003.png" in json.loads(r.stdout)[0]["warnings"][0]
    (root / "game.toml").write_text((root / "game.toml").read_text().replace(
        "95mmx95mm", "20mmx20mm"))
    r = pnp("build", str(root), "-o", str(tmp_path / "out.pdf"))
    assert "symbol003.png" in r.stderr  # still soft at 20 mm: 40 px over ~8 mm
    small.write_bytes(original)  # 256 px over at most 10 mm: no note at all
    r = pnp("build", str(root), "-o", str(tmp_path / "out.pdf"))
    assert r.returncode == 0 and "warning:" not in r.stderr


def test_size_options_are_checked(tmp_path):
    root = art_deck.make_deck(tmp_path / "deck", order=2)
    toml = root / "game.toml"
    toml.write_text(toml.read_text() + 'max_size = 1.5\n')
    r = pnp("build", str(root), "-o", str(tmp_path / "out.pdf"))
    assert r.returncode == 2 and "max_size" in r.stderr and "Traceback" not in r.stderr
    toml.write_text(toml.read_text().replace("max_size = 1.5", 'background = "erase"'))
    r = pnp("build", str(root), "-o", str(tmp_path / "out.pdf"))
    assert r.returncode == 2 and "background must be one of remove, keep" in r.stderr
    toml.write_text(toml.read_text().replace('background = "erase"', "spread = 0"))
    r = pnp("build", str(root), "-o", str(tmp_path / "out.pdf"))
    assert r.returncode == 2 and "spread" in r.stderr and "Traceback" not in r.stderr
    # three symbols of 90 % of the card's width cannot all fit: built, with a note
    toml.write_text(toml.read_text().replace("spread = 0", "min_size = 0.9\nmax_size = 0.9"))
    r = pnp("build", str(root), "-o", str(tmp_path / "out.pdf"))
    assert r.returncode == 0 and "cannot hold all their symbols at min_size 0.9" in r.stderr


def test_min_size_keeps_the_smallest_symbol_findable(tmp_path):
    root = art_deck.make_deck(tmp_path / "deck", cards=6)
    toml = root / "game.toml"
    toml.write_text(toml.read_text() + "min_size = 0.22\nmax_size = 0.4\n")
    pdf = tmp_path / "out.pdf"
    assert pnp("build", str(root), "--single", "-o", str(pdf)).returncode == 0
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(str(pdf))
    for page in doc:
        for obj in page.get_objects(max_depth=0):
            if obj.type == raw.FPDF_PAGEOBJ_FORM:
                left, bottom, right, top = obj.get_bounds()
                # a symbol's box is at least its enclosing circle's diameter / sqrt(2)
                assert max(right - left, top - bottom) >= 0.22 * 95 / 25.4 * 72 / 2**0.5 - 1
    doc.close()


def test_the_check_renders_from_the_pdf_not_from_layout_numbers():
    # card_ink reads a rendered page: a blank page has no ink
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(200, 200))
    c.showPage()
    c.save()
    path = Path(__file__).parent / "_blank_tmp.pdf"
    try:
        path.write_bytes(buf.getvalue())
        assert art_deck.card_ink(path) == [(0.0, 0)]
    finally:
        path.unlink()


def page_text(pdf: Path, index: int) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return doc[index].get_textpage().get_text_range()
    finally:
        doc.close()


def test_own_art_backs_carry_no_icon_attribution(tmp_path):
    """The dobble template switched to the user's art: the Font Awesome credit goes away."""
    template = Path(__file__).resolve().parent.parent / "templates" / "dobble" / "game.toml"
    toml = template.read_text().replace("cards = 55", "cards = 6")  # one page is enough
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "game.toml").write_text(toml)
    icons_pdf = tmp_path / "icons.pdf"
    assert pnp("build", str(tmp_path / "icons"), "-o", str(icons_pdf)).returncode == 0
    assert "Font Awesome" in page_text(icons_pdf, 1)  # page 2: the backs of page 1
    root = art_deck.make_deck(tmp_path / "own")
    (root / "game.toml").write_text(toml.replace('symbols = "icons"', 'symbols = "folder:art"'))
    own_pdf = tmp_path / "own.pdf"
    r = pnp("build", str(root), "-o", str(own_pdf))
    assert r.returncode == 0, r.stderr
    assert "DOBBLE" in page_text(own_pdf, 1)
    assert "Font Awesome" not in page_text(own_pdf, 1)


@pytest.mark.parametrize("shape, per_page", [("circle", 6), ("hexagon", 6), ("rect", 4)])
def test_round_cards_drop_the_gutter_to_fit_another_row(tmp_path, shape, per_page):
    """95 mm cards, gutter 3 mm, on A4: circles and hexagons go 2x3 (cut along their own
    guides, nothing shared), rectangles keep their gutter at 2x2. Read from the PDF: the
    cut guides' boxes, inside the 6 mm printer margin and not overlapping. Without marks:
    with them, 7 cards take two sheets at 2x2 too, and marks on every side win."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    (tmp_path / "game.toml").write_text(f"""[deck]
source = "plane"
shape = "{shape}"
size = "95x95mm"
options = {{ order = 2 }}
[print]
gutter = "3mm"
[[face]]
type = "symbols"
""")
    pdf = tmp_path / "out.pdf"
    r = pnp("build", str(tmp_path), "--no-marks", "-o", str(pdf))
    assert r.returncode == 0, r.stderr
    doc = pdfium.PdfDocument(str(pdf))
    page = doc[0]
    width, height = page.get_size()
    mm = 72 / 25.4
    guides = [o.get_bounds() for o in page.get_objects(max_depth=0)
              if o.type == raw.FPDF_PAGEOBJ_PATH and o.get_bounds()[2] - o.get_bounds()[0] > 80 * mm]
    doc.close()
    assert len(guides) == per_page
    for left, bottom, right, top in guides:
        assert left >= 6 * mm - 1 and bottom >= 6 * mm - 1
        assert right <= width - 6 * mm + 1 and top <= height - 6 * mm + 1
    for i, a in enumerate(guides):
        for b in guides[i + 1:]:
            overlap_x = min(a[2], b[2]) - max(a[0], b[0])
            overlap_y = min(a[3], b[3]) - max(a[1], b[1])
            assert overlap_x <= 1 or overlap_y <= 1  # the 0.25 pt guide strokes may touch


def test_preflight_measures_symbols_placed_as_forms_at_their_printed_size(tmp_path):
    """`pnp check` reads each image's ppi through the form that places it: the lowest it finds
    is the one the build's note names (both from the placed size, not 1 px per point)."""
    import re

    root = art_deck.make_deck(tmp_path / "deck", cards=4)
    build = pnp("build", str(root), "-o", str(tmp_path / "out.pdf"))
    noted = min(int(v) for v in re.findall(r"\((\d+) ppi\)", build.stderr))
    check = pnp("check", str(root))
    # an image seen at several sizes is one finding with its range: "prints at 53–90 ppi"
    found = [int(v) for v in re.findall(r"prints at (\d+)(?:–\d+)? ppi",
                                        check.stdout + check.stderr)]
    assert found and abs(min(found) - noted) <= 1
    assert 72 not in found or noted == 72
    # each finding names its symbol file (printed trimmed: known by its cleaned size)
    lines = [line for line in check.stdout.splitlines() if "ppi" in line]
    assert lines and all(re.search(r"art/symbol\d{3}\.png: image of", line) for line in lines)


def test_sixteen_bit_grey_art_keeps_its_tones(tmp_path):
    """A 16-bit greyscale PNG (dark disc on light grey): Pillow's own conversion clips every
    value above 255 to white; the disc must survive and the background go."""
    px = np.full((64, 64), 50000, dtype=np.uint16)
    yy, xx = np.mgrid[0:64, 0:64]
    px[(yy - 32) ** 2 + (xx - 32) ** 2 < 15**2] = 8000
    Image.fromarray(px).save(tmp_path / "grey16.png")
    art = clean(tmp_path / "grey16.png")
    assert art.note == "" and 28 <= art.image.size[0] <= 31
    assert np.asarray(art.image.convert("L"))[15, 15] < 60  # the disc, dark as drawn


def test_dobble_connect_icons_stay_findable(tmp_path):
    """The smallest icon on any Dobble Connect hex, read from the PDF: over 6 mm at spread 1.6
    (5.0 mm by this measure at the old spread)."""
    from pdfgeom import smallest_placed_form_mm

    pdf = tmp_path / "dc.pdf"
    r = pnp("build", "dobble-connect", "--single", "--no-backs", "-o", str(pdf))
    assert r.returncode == 0, r.stderr
    smallest = smallest_placed_form_mm(pdf)
    assert 6.0 <= smallest < 20


def test_a_jpeg_symbol_is_stored_as_the_file_with_its_background_masked(tmp_path):
    """Issue 11 embeds every JPEG as it is: a cleaned JPEG symbol too, its removed background
    a soft mask (re-encoding its decoded pixels made the 57-symbol PDF 1.3 MB, not 0.5)."""
    import base64
    import re

    root = art_deck.make_deck(tmp_path / "deck", order=2, fmt="jpg")
    pdf = tmp_path / "out.pdf"
    r = pnp("build", str(root), "-o", str(pdf))
    assert r.returncode == 0, r.stderr
    data = pdf.read_bytes()
    streams = [m.group(2).strip() for m in re.finditer(
        rb"/Filter\s*\[?\s*(/ASCII85Decode\s*)?/DCTDecode[^>]*>>\s*stream\r?\n(.*?)endstream",
        data, re.S)]
    stored = {base64.a85decode(s[:-2].replace(b"\n", b"")) if s.endswith(b"~>") else s
              for s in streams}
    files = {p.read_bytes() for p in (root / "art").iterdir()}
    assert len(files) == 7 and stored == files
    assert data.count(b"/SMask") == 7


def test_a_picture_of_the_symbol_folder_on_no_card_is_named(tmp_path):
    """The deck takes as many pictures as its plane needs, by name: one more in the folder
    was left out without a word (the tutorial's deck and a copy of `sun`, named `extra`,
    lost `sun`). The build names the picture left out."""
    root = art_deck.make_deck(tmp_path / "deck", order=2)
    pictures = sorted((root / "art").iterdir())
    (root / "art" / "zz-extra.png").write_bytes(pictures[0].read_bytes())
    r = pnp("build", str(root), "-o", str(tmp_path / "out.pdf"))
    assert r.returncode == 0, r.stderr
    assert "1 picture(s) of folder 'art' on no card: zz-extra.png" in r.stderr
    quiet = pnp("build", str(art_deck.make_deck(tmp_path / "exact", order=2)), "-o",
                str(tmp_path / "exact.pdf"))
    assert "on no card" not in quiet.stderr


@pytest.fixture(scope="module")
def svg_built(tmp_path_factory):
    """The bench's drawings as SVG (vector, no background), 8 cards, one card per page."""
    root = art_deck.make_deck(tmp_path_factory.mktemp("svg"), fmt="svg", cards=8)
    pdf = root / "cards.pdf"
    r = pnp("build", str(root), "--single", "-o", str(pdf))
    assert r.returncode == 0, r.stderr
    return pdf


def test_svg_symbols_pack_by_their_shape_clear_of_the_rim(svg_built):
    """Packed by their enclosing circles the same drawings covered 24 % of the card (the
    57-card deck, 150 dpi renders); by their filled polygons over a third, as raster art."""
    found = art_deck.card_ink(svg_built)
    assert statistics.mean(c for c, _ in found) >= 0.33
    assert [rim for _, rim in found] == [0] * len(found)


def test_no_two_svg_symbols_share_ink(svg_built):
    for page in (0, 3, 7):
        assert art_deck.symbol_overlap(svg_built, page) == 0


def test_background_reached_through_a_winding_gap_goes_an_enclosed_one_stays(tmp_path):
    """Two nested frames, each open on the opposite side: the white in the middle is reached
    from the border only by a path that turns several times, so it is background; the white
    inside a closed frame beside them is drawing."""
    im = Image.new("RGB", (200, 120), (255, 255, 255))
    d = ImageDraw.Draw(im)
    d.rectangle((20, 20, 110, 100), outline=(0, 0, 0), width=6)
    d.rectangle((20, 50, 26, 70), fill=(255, 255, 255))  # the outer frame's gap, left
    d.rectangle((40, 38, 92, 82), outline=(0, 0, 0), width=6)
    d.rectangle((86, 50, 92, 70), fill=(255, 255, 255))  # the inner frame's gap, right
    d.rectangle((130, 30, 180, 90), outline=(0, 0, 0), width=6)  # closed
    im.save(tmp_path / "frames.png")
    art = clean(tmp_path / "frames.png")
    alpha = art.image.getchannel("A")
    left, top = art.offset
    assert alpha.getpixel((66 - left, 60 - top)) == 0  # the middle of the nested frames
    assert alpha.getpixel((155 - left, 60 - top)) == 255  # inside the closed frame


def test_spread_bounds_the_printed_sizes_on_every_card(tmp_path):
    """`spread = 1.6`: a card's largest symbol prints at most 1.6 times its smallest (they
    differed 2.1-3.4 times), measured from the PDF (each form's ink box times the matrix that
    places it); the spread is used, not collapsed. 3 % is one silhouette cell of rounding."""
    import bench_spread

    root = art_deck.make_deck(tmp_path / "deck", cards=6)
    (root / "game.toml").write_text((root / "game.toml").read_text() + "spread = 1.6\n")
    pdf = tmp_path / "out.pdf"
    r = pnp("build", str(root), "--single", "-o", str(pdf))
    assert r.returncode == 0, r.stderr
    extents = [e for e in bench_spread.symbol_extents(pdf) if e]
    assert len(extents) == 6 and all(len(e) == 8 for e in extents)
    ratios = [max(e) / min(e) for e in extents]
    assert all(1.6 * 0.97 <= r <= 1.6 * 1.03 for r in ratios), ratios


def pack_bench_deck(folder):
    """The bench's 57-card deck of own art (order 7, 95 mm), packed as a build packs it:
    [(the card's silhouettes, their placements, the region)] per card; the spread held."""
    from generator.layout import silhouettes
    from generator.render.symbols import RIM, region_for
    from pnp_model.definition import load

    root = art_deck.make_deck(folder)
    deck = load(root)
    shapes = {p.stem: clean(p).silhouette for p in sorted((root / "art").iterdir())}
    region = region_for(deck.shape, deck.width, deck.height)
    packed = []
    for card in deck.cards:
        sils = [shapes[s] for s in card.symbols]
        placed = silhouettes.pack_silhouettes(sils, region, f"0:{card.id}",
                                              silhouettes.Sizes(), rim=RIM)
        sizes = [p.size for p in placed]
        assert max(sizes) / min(sizes) <= 2.0 * (1 + 1e-9)
        packed.append((sils, placed, region))
    return packed


def test_packing_the_user_art_deck_draws_few_footprints(tmp_path, monkeypatch):
    """Honouring `spread` made packing a card of own art several times dearer: 57 cards drew
    5102 footprints (a symbol resampled onto the card's cells at one size and turn, most of
    what a placement try costs), and a cold build of the bench's deck spent twice its CPU.
    Each footprint is now drawn once per card (the layouts are the same); the spread holds."""
    from generator.layout import silhouettes

    drawn = []
    real = silhouettes._Grid.footprint
    monkeypatch.setattr(silhouettes._Grid, "footprint",
                        lambda grid, *args: drawn.append(1) or real(grid, *args))
    pack_bench_deck(tmp_path / "deck")
    assert len(drawn) <= 4000, len(drawn)


def test_packing_the_user_art_deck_tries_fewer_places_for_no_less_ink(tmp_path, monkeypatch):
    """With `spread` honoured, packing the bench's deck tried 4,346 placements (a symbol at
    one size and turn, every place on the card at once): two layouts each larger than the
    one that fitted, and growing symbols that had already failed to fit larger (one such try
    in 50 found a place). Fewer tries now (one layout less, and a symbol that fits nowhere
    larger keeps its size), in smaller growth steps: as much ink by the packer's own measure
    (the silhouettes' inked cells; 46.5 % of the card; renders: bench/bench_spread.py), the
    spread kept. Then 3,585 tries and 46.6 %; fewer again, and more ink, since growing first
    tries a symbol where it is, and the refining layout each symbol where the smaller layout
    put it (one position's test each, not a search of every place)."""
    import math

    from generator.layout import silhouettes

    tries = []
    real = silhouettes._try
    monkeypatch.setattr(silhouettes, "_try", lambda *args: tries.append(1) or real(*args))
    packed = pack_bench_deck(tmp_path / "deck")
    ink = [sum(s.area * p.scale ** 2 for s, p in zip(sils, placed, strict=True))
           / (math.pi * region.r ** 2) for sils, placed, region in packed]
    assert len(tries) <= 3300, len(tries)
    assert statistics.mean(ink) >= 0.47, statistics.mean(ink)


def test_a_symbol_goes_where_it_fits_most_snugly():
    """A symbol is placed only where its ink lands on no blocked cell, and among those places
    at one with the most blocked cells in its box grown by SNUG (snug against neighbours and
    the rim): checked cell by cell against random boards, now that the board's tests read a
    footprint's rows lazily and blur the crowding in two cut passes."""
    import random

    from generator.layout import cell_board

    rng, n, snug = random.Random(37), 40, cell_board.SNUG
    for _ in range(40):
        cells = {(i, j) for i in range(n) for j in range(n)
                 if i in (0, n - 1) or j in (0, n - 1) or rng.random() < 0.03}
        h, w = rng.choice((3, 7, 11)), rng.choice((3, 7, 11))  # odd: the blur is a plain mean
        ink = {(r, c) for r in range(h) for c in range(w) if rng.random() < 0.6}
        ink |= {(0, rng.randrange(w)), (h - 1, rng.randrange(w)), (rng.randrange(h), 0),
                (rng.randrange(h), w - 1)}  # the ink spans the whole box
        mask = Image.new("L", (w, h))
        mask.putdata([255 if (r, c) in ink else 0 for r in range(h) for c in range(w)])
        fp, _ = cell_board.footprint_and_box(mask.im)
        board = cell_board.Board(n, sum(1 << (i * n + j) for i, j in cells))
        fits = {(i, j) for i in range(n - h + 1) for j in range(n - w + 1)
                if not any((i + r, j + c) in cells for r, c in ink)}
        legal = board.legal(fp, w, h)
        assert {(b // n, b % n) for b in range(n * n) if legal >> b & 1} == fits

        crowding = {(i, j): sum((y, x) in cells or not (0 <= y < n and 0 <= x < n)
                                for y in range(i - snug, i + h + snug)
                                for x in range(j - snug, j + w + snug))
                    for i, j in fits}  # cells off the board count as blocked
        got = board.best(fp, w, h, random.Random(0))
        if not fits:
            assert got is None
            continue
        assert got in fits
        assert crowding[got] == max(crowding.values())
