"""The symbols drawer: icons as one embedded font, images and SVGs embedded once, words."""

import io
import re

import pytest
from PIL import Image, ImageDraw
from reportlab.pdfgen.canvas import Canvas

from generator.render.registry import Ctx, load_drawers
from generator.render.symbols import enclosing_circle, glyph_circle, region_for
from pnp_model.definition import load

TOML = """[deck]
source = "plane"
shape = "circle"
size = "60x60mm"
options = {{ order = 2, symbols = "{symbols}" }}

[[face]]
type = "symbols"
"""


def render(deck) -> bytes:
    """Every card's face on its own page, like the real renderer, with one shared cache."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(deck.width, deck.height), invariant=1)
    drawers, cache = load_drawers(), {}
    for card in deck.cards:
        for el in deck.face:
            c.saveState()
            drawers[el.kind](Ctx(c, deck, card, 0.0, cache), el)
            c.restoreState()
        c.showPage()
    c.save()
    return buf.getvalue()


def definition(tmp_path, symbols):
    (tmp_path / "game.toml").write_text(TOML.format(symbols=symbols))
    return load(tmp_path)


def test_icons_are_one_embedded_font_and_deterministic():
    deck = load("dobble")
    pdf = render(deck)
    assert pdf == render(deck)
    # the icon font is embedded (subset) once: one font program beside the id text's font
    assert pdf.count(b"/FontFile2") == 2
    assert len(re.findall(rb"/BaseFont /[A-Z]+\+FontAwesome6Free-Solid", pdf)) == 1
    assert len(pdf) < 400_000


def test_each_png_is_embedded_once_however_many_cards_show_it(tmp_path):
    art = tmp_path / "art"
    art.mkdir()
    for i in range(7):
        im = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
        ImageDraw.Draw(im).ellipse((8, 8, 30 + 4 * i, 56), fill=(40 * i, 90, 200, 255))
        im.save(art / f"pic{i}.png")
    pdf = render(definition(tmp_path, "folder:art"))
    # 7 symbols, each on 3 of the 7 cards: 7 images (plus their 7 alpha masks), not 21
    assert len(re.findall(rb"/Subtype /Image", pdf)) == 14


def test_svg_symbols_are_vector_forms_drawn_once(tmp_path):
    art = tmp_path / "art"
    art.mkdir()
    for i in range(7):
        (art / f"shape{i}.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
            f'<rect x="10" y="20" width="80" height="{30 + i * 5}" fill="#{i}0a0f0"/></svg>')
    pdf = render(definition(tmp_path, "folder:art"))
    assert len(re.findall(rb"/Subtype /Form", pdf)) == 7
    assert b"/Subtype /Image" not in pdf


def test_words_are_drawn_as_text(tmp_path):
    import pypdfium2 as pdfium

    words = ["apple", "river", "stone", "cloud", "ember", "frost", "maple"]
    (tmp_path / "words.txt").write_text("\n".join(words))
    deck = definition(tmp_path, "words:words.txt")
    doc = pdfium.PdfDocument(render(deck))
    first = doc[0].get_textpage().get_text_range()
    for word in deck.cards[0].symbols:
        assert word in first.replace("\r", "").replace("\n", "")


def test_glyph_circles_are_tighter_than_the_box():
    from reportlab.pdfbase import pdfmetrics

    load("dobble")
    render(load("dobble"))  # registers the icon font
    from pnp_model.designs.icons import codepoints

    face = pdfmetrics.getFont("FontAwesomeFreeSolid").face
    x, y, r = glyph_circle("FontAwesomeFreeSolid", codepoints()["circle"])
    assert r == pytest.approx(256, rel=0.01)  # the circle icon is 512 units across
    assert face.unitsPerEm == 512
    # a rounded icon's circle is well inside the circle around its 512 x 512 box
    x, y, r = glyph_circle("FontAwesomeFreeSolid", codepoints()["bus"])
    assert r < 0.85 * 512 * 2**0.5 / 2


def test_enclosing_circle_holds_every_point():
    pts = [(0, 0), (4, 0), (2, 3), (1, 1), (3, 0.5)]
    cx, cy, r = enclosing_circle(pts)
    assert all(((px - cx) ** 2 + (py - cy) ** 2) ** 0.5 <= r + 1e-9 for px, py in pts)
    assert r < 2.6


def test_region_follows_the_card_shape():
    assert region_for("circle", 100, 80).r == 40
    tall = region_for("hexagon", 86.6, 100)
    assert tall.sides == 6 and not tall.flat and tall.r == pytest.approx(50, rel=1e-3)
    assert region_for("hexagon", 100, 86.6).flat


def test_a_list_of_names_draws_known_icons_and_the_rest_as_words(tmp_path):
    import pypdfium2 as pdfium

    names = ["cat", "dog", "fish", "tree", "sun", "moon", "Zebra"]
    (tmp_path / "game.toml").write_text(
        TOML.format(symbols="icons").replace('"icons"', str(names).replace("'", '"')))
    deck = load(tmp_path)
    pdf = render(deck)
    assert b"FontAwesome6Free-Solid" in pdf
    text = "".join(pdfium.PdfDocument(pdf)[i].get_textpage().get_text_range()
                   for i in range(len(deck.cards)))
    assert text.count("Zebra") == 3  # the one unknown name, as a word on its 3 cards


def test_a_large_svg_is_drawn_whole_not_clipped_to_the_page(tmp_path):
    import pypdfium2 as pdfium

    art = tmp_path / "art"
    art.mkdir()
    for i in range(7):
        size = 3000 if i == 0 else 100
        (art / f"s{i}.svg").write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">'
            f'<circle cx="{size / 2}" cy="{size / 2}" r="{size * 0.45}" '
            f'fill="{"#ff0000" if i == 0 else "#0000ff"}"/></svg>')
    deck = definition(tmp_path, "folder:art")
    page = next(i for i, c in enumerate(deck.cards) if "s0" in c.symbols)
    image = pdfium.PdfDocument(render(deck))[page].render(scale=1).to_pil().convert("RGB")
    px = image.tobytes()
    rgb = list(zip(px[0::3], px[1::3], px[2::3], strict=True))
    red = sum(1 for r, g, b in rgb if r > 200 and g < 60 and b < 60)
    blue = sum(1 for r, g, b in rgb if b > 200 and r < 60 and g < 60)
    # the red symbol fills its place like the blue ones do: 2 blue symbols on the card
    assert red > 0.2 * blue


def test_svg_symbols_get_a_tight_circle_through_transforms(tmp_path):
    from svglib.svglib import svg2rlg

    from generator.render.svg import drawing_points as _drawing_points

    svg = tmp_path / "dot.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">'
                   '<g transform="translate(200 100) scale(2)">'
                   '<circle cx="0" cy="0" r="40" fill="red"/></g></svg>')
    pts, pad = _drawing_points(svg2rlg(str(svg)))
    cx, cy, r = enclosing_circle(pts)
    # svglib reads px as 0.75 pt and turns y up: the circle is at (150, 225) pt, radius 60 pt
    assert r == pytest.approx(60, rel=0.01) and pad == 0
    assert cx == pytest.approx(150, abs=0.5) and cy == pytest.approx(225, abs=0.5)


@pytest.mark.parametrize("suffix, content", [(".svg", "<svg oops"), (".png", "not a png")])
def test_unreadable_symbol_files_are_user_errors(tmp_path, suffix, content):
    from pnp_model.errors import PnpError

    art = tmp_path / "art"
    art.mkdir()
    for i in range(7):
        (art / f"s{i}{suffix}").write_text(content)
    with pytest.raises(PnpError, match="cannot read"):
        render(definition(tmp_path, "folder:art"))
