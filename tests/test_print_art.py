"""What the drawing prints, measured from rendered pixels and the PDF's fonts: opacity,
outline-only shapes, square bleed past rounded corners, embedded fonts only."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.preflight import unembedded_fonts
from pnp_model.catalog import bundled


def render(pdf_path, page: int = 0, dpi: int = 150):
    doc = pdfium.PdfDocument(pdf_path)
    return doc[page].render(scale=dpi / 72).to_pil().convert("RGB")


def build(mini, tmp_path, extra_toml: str = "", *args: str):
    toml = mini / "game.toml"
    toml.write_text(toml.read_text() + extra_toml)
    out = tmp_path / "out.pdf"
    r = CliRunner().invoke(main, ["build", str(mini), "--single", "-o", str(out), *args])
    assert r.exit_code == 0, r.output
    return out


def test_opacity_is_kept_when_the_element_sets_its_colour(mini, tmp_path):
    out = build(mini, tmp_path, '\n[[face]]\ntype = "rect"\nx = "10mm"\ny = "40mm"\nw = "20mm"\n'
                                'h = "20mm"\nfill = "#000000"\nopacity = 0.5\n')
    px = render(out).getpixel((int(20 / 25.4 * 150), int(50 / 25.4 * 150)))
    # half-transparent black over the card's red: half the red's brightness, not black
    assert 90 < px[0] < 125 and px[1] < 30


def test_an_outline_only_shape_is_not_filled(mini, tmp_path):
    out = build(mini, tmp_path, '\n[[face]]\ntype = "shape"\nname = "hexagon"\nx = "50%"\n'
                                'y = "60mm"\nsize = "30mm"\nstroke = "#0000ff"\n'
                                'stroke_width = "1mm"\n')
    image = render(out)
    inside = image.getpixel((image.width // 2, int(60 / 25.4 * 150)))
    assert inside[0] > 150 and inside[2] < 100  # the red card shows through, not black


def test_a_dark_back_bleeds_square_past_rounded_corners(mini, tmp_path):
    out = build(mini, tmp_path)  # corner_radius 3 mm, no bleed, back filled #123456
    back = render(out, page=1, dpi=300)
    for xy in ((1, 1), (back.width - 2, 1), (1, back.height - 2)):
        assert max(back.getpixel(xy)) < 120, f"white notch at {xy}"


@pytest.mark.parametrize("name", sorted(bundled()))
def test_no_bundled_build_references_a_font_it_does_not_embed(name, tmp_path):
    out = tmp_path / f"{name}.pdf"
    r = CliRunner().invoke(main, ["build", name, "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert unembedded_fonts(out.read_bytes()) == []


def test_print_shop_pages_have_no_cut_outline_unless_asked(mini, tmp_path):
    def grey_pixels(out) -> int:
        colours = render(out, dpi=300).getcolors(1 << 24)
        return sum(n for n, c in colours if max(c) - min(c) < 20 and 100 < c[0] < 200)

    assert grey_pixels(build(mini, tmp_path)) == 0
    assert grey_pixels(build(mini, tmp_path, "", "--guides")) > 40


@pytest.mark.parametrize("shape", ["rect", "circle", "hexagon"])
def test_a_requested_bleed_is_on_every_side_of_every_shape(mini, tmp_path, shape):
    """Art that reaches the trim (here a card-sized ellipse or a bleed rect) bleeds 3 mm past it
    on every side, front and back, measured 1 mm inside the bleed edge of a --single page."""
    toml = mini / "game.toml"
    text = toml.read_text().replace('size = "poker"', f'shape = "{shape}"\nsize = "60x60mm"')
    if shape != "rect":  # the face art is a card-sized ellipse, the back a bleed rect
        text = text.replace('[[face]]\ntype = "rect"\nbleed = true',
                            '[[face]]\ntype = "ellipse"\nx = "0mm"\ny = "0mm"\nw = "60mm"\n'
                            'h = "60mm"', 1)
    toml.write_text(text)
    out = build(mini, tmp_path, "", "--bleed", "3mm")
    for page in (0, 1):
        image = render(out, page, dpi=300)
        c = image.width / 2
        r = 32 * 300 / 25.4  # trim radius 30 mm + 2 mm: inside the 3 mm bleed
        if shape == "hexagon":  # the hexagon's flat sides are its nearest points
            r = (30 * 3 ** 0.5 / 2 + 2) * 300 / 25.4
        for dx, dy in ((r, 0), (-r, 0), (0, r), (0, -r)) if shape != "hexagon" else \
                ((0, r), (0, -r)):
            px = image.getpixel((int(c + dx), int(c + dy)))
            assert min(px) < 200, f"page {page + 1}: no bleed at {dx:+.0f},{dy:+.0f} px ({px})"


def test_art_spills_into_half_the_gutter_evenly(mini, tmp_path):
    """Fronts and backs bleed min(gutter / 2, 2 mm) past the trim, growing with the gutter."""
    from pdfgeom import drawing, page_streams

    from pnp_model import units

    card_w = units.size("poker")[0]
    spills = []
    for gutter in (1, 2, 3, 4, 5):
        out = tmp_path / f"g{gutter}.pdf"
        r = CliRunner().invoke(main, ["build", str(mini), "--gutter", f"{gutter}mm", "-o", str(out)])
        assert r.exit_code == 0, r.output
        pages = page_streams(out.read_bytes())
        for content in pages[:2]:
            widths = [max(p[0] for p in f.points) - min(p[0] for p in f.points)
                      for f in drawing(content).fills if len(f.points) == 4]
            spills.append(round((max(widths) - card_w) / 2 / units.MM, 2))
    assert spills == [0.5, 0.5, 1.0, 1.0, 1.5, 1.5, 2.0, 2.0, 2.0, 2.0]


def test_triangle_tiles_refuse_bleed_and_gutter_with_the_reason(tmp_path):
    for flag in ("--bleed", "--gutter"):
        r = CliRunner().invoke(main, ["build", "tripple-domino", flag, "2mm",
                                      "-o", str(tmp_path / "t.pdf")])
        assert r.exit_code == 2
        assert "edge to edge" in r.output and flag in r.output


def test_a_decktet_card_shows_every_suit_large(tmp_path):
    """A Decktet card is known by all its suits: the centre shows each in its colour."""
    from generator.preview import preview_card
    from pnp_model.definition import load

    deck = load("decktet")
    card = next(c for c in deck.cards if c.get("suit3"))
    out = tmp_path / "card.png"
    preview_card(deck, card.id, out, dpi=100)
    from PIL import Image

    with Image.open(out) as im:
        w, h = im.size
        centre = im.convert("RGB").crop((w // 5, h // 5, w * 4 // 5, h * 11 // 20))
        colours = centre.getcolors(1 << 20)
    paper = (0xfb, 0xf7, 0xee)
    for suit in (card["suit1"], card["suit2"], card["suit3"]):
        ink = tuple(int(deck.colors[suit][i:i + 2], 16) for i in (1, 3, 5))
        tint = tuple(round(0.3 * a + 0.7 * b) for a, b in zip(ink, paper, strict=True))
        area = sum(n for n, c in colours if all(abs(a - b) <= 6 for a, b in zip(c, tint, strict=True)))
        assert area > 100, f"{suit}: {area} px of its tint in the centre"


def _image_deck(mini, tmp_path, px: int, fmt: str = "PNG"):
    from PIL import Image

    Image.new("RGB", (px, px), "blue").save(mini / f"art.{fmt.lower()}", fmt)
    return build(mini, tmp_path, f'\n[[face]]\ntype = "image"\nfile = "art.{fmt.lower()}"\n'
                                 'x = "10mm"\ny = "30mm"\nw = "40mm"\nh = "40mm"\n')


def test_art_below_300_ppi_is_a_warning_naming_file_card_and_ppi(mini, tmp_path):
    toml = mini / "game.toml"
    text = toml.read_text()
    _image_deck(mini, tmp_path, 1000)  # 1000 px over 40 mm: 635 ppi, no warning
    toml.write_text(text)
    r = CliRunner().invoke(main, ["build", str(mini), "-o", str(tmp_path / "a.pdf")])
    assert "warning" not in r.output
    _image_deck(mini, tmp_path, 200)  # 200 px over 40 mm: 127 ppi
    r = CliRunner().invoke(main, ["build", str(mini), "-o", str(tmp_path / "b.pdf")])
    assert r.exit_code == 0
    assert "warning: mini: art.png prints at 127 ppi on card #1 (Alpha)" in r.output


def test_a_jpeg_is_embedded_as_it_is(mini, tmp_path):
    import base64
    import re

    out = _image_deck(mini, tmp_path, 300, "JPEG")
    original = (mini / "art.jpeg").read_bytes()
    data = out.read_bytes()
    streams = [m.group(2).strip() for m in re.finditer(
        rb"/Filter\s*\[?\s*(/ASCII85Decode\s*)?/DCTDecode[^>]*>>\s*stream\r?\n(.*?)endstream",
        data, re.S)]
    decoded = [base64.a85decode(s[:-2].replace(b"\n", b"")) if s.endswith(b"~>") else s
               for s in streams]
    assert original in decoded
