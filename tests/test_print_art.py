"""What the drawing prints, measured from rendered pixels and the PDF's fonts: opacity,
outline-only shapes, square bleed past rounded corners, embedded fonts only."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from generator.catalog import bundled
from generator.cli import main
from generator.preflight import unembedded_fonts


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
