"""`image` elements: SVG drawn as vector, and the three fit modes, measured on rendered pixels."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pdfgeom import drawing, streams

from generator.cli import main

DPI = 100
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">'
       '<rect x="0" y="0" width="50" height="50" fill="#ff0000"/>'
       '<rect x="50" y="0" width="50" height="50" fill="#0000ff"/></svg>')


def _art(root: Path, kind: str) -> str:
    """A picture twice as wide as tall, red on the left half, blue on the right."""
    if kind == "svg":
        (root / "art.svg").write_text(SVG)
        return "art.svg"
    from PIL import Image

    im = Image.new("RGB", (400, 200), "#0000ff")
    im.paste((255, 0, 0), (0, 0, 200, 200))
    im.save(root / "art.png")
    return "art.png"


def _build(tmp_path: Path, kind: str, fit: str) -> Path:
    root = tmp_path / "g"
    root.mkdir()
    name = _art(root, kind)
    (root / "cards.csv").write_text("name\nOne\n")
    (root / "game.toml").write_text(f"""\
[deck]
source = "csv"
file = "cards.csv"
size = "poker"

[[face]]
type = "image"
file = "{name}"
x = "12mm"
y = "20mm"
w = "40mm"
h = "40mm"
fit = "{fit}"
""")
    out = tmp_path / "out.pdf"
    r = CliRunner().invoke(main, ["build", str(root), "--single", "--bleed", "0mm", "--no-backs",
                                  "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


def _colour_at(image, x_mm: float, y_mm: float) -> str:
    px = image.getpixel((round(x_mm / 25.4 * DPI), round(y_mm / 25.4 * DPI)))
    r, g, b = px[:3]
    if r > 200 and g < 60 and b < 60:
        return "red"
    if b > 200 and r < 60 and g < 60:
        return "blue"
    if min(r, g, b) > 230:
        return "white"
    return f"{px}"


# Probes (mm from the card's top-left): the box is x 12..52, y 20..60.
PROBES = {"left inside": (14, 40), "right inside": (50, 40), "top inside": (20, 22),
          "left of box": (8, 40), "right of box": (56, 40)}
EXPECTED = {
    # whole picture, 40x20 mm, centred: the top of the box stays empty
    "contain": {"left inside": "red", "right inside": "blue", "top inside": "white",
                "left of box": "white", "right of box": "white"},
    # fills the box, distorted
    "stretch": {"left inside": "red", "right inside": "blue", "top inside": "red",
                "left of box": "white", "right of box": "white"},
    # fills the box at 80x40 mm, cropped to it: nothing outside the box
    "cover": {"left inside": "red", "right inside": "blue", "top inside": "red",
              "left of box": "white", "right of box": "white"},
}


@pytest.mark.parametrize("kind", ["png", "svg"])
@pytest.mark.parametrize("fit", ["contain", "stretch", "cover"])
def test_fit_modes_place_the_picture_as_promised(tmp_path, kind, fit):
    out = _build(tmp_path, kind, fit)
    image = pdfium.PdfDocument(out)[0].render(scale=DPI / 72).to_pil().convert("RGB")
    seen = {probe: _colour_at(image, *mm) for probe, mm in PROBES.items()}
    assert seen == EXPECTED[fit]


def test_cover_crops_at_the_box_edge(tmp_path):
    """The overflow is cut at the box: 1 mm inside each side edge is art, 1 mm outside is not."""
    out = _build(tmp_path, "svg", "cover")
    image = pdfium.PdfDocument(out)[0].render(scale=DPI / 72).to_pil().convert("RGB")
    assert [_colour_at(image, x, 40) for x in (11, 13, 51, 53)] == ["white", "red", "blue",
                                                                    "white"]


def test_an_svg_image_is_vector_art_in_the_pdf(tmp_path):
    pdf = _build(tmp_path, "svg", "contain").read_bytes()
    assert b"/Subtype /Image" not in pdf
    assert re.search(rb"/Subtype /Form", pdf)
    fills = [f for s in streams(pdf) for f in drawing(s).fills]
    assert {tuple(f.color) for f in fills} >= {(1, 0, 0), (0, 0, 1)}  # the SVG's two rects


def test_svg_art_references_no_font_it_does_not_embed(tmp_path):
    """reportlab starts SVG drawings in Helvetica, unembedded; print shops reject that."""
    from generator.preflight import unembedded_fonts

    assert unembedded_fonts(_build(tmp_path, "svg", "contain").read_bytes()) == []
    root = tmp_path / "symbols"
    (root / "art").mkdir(parents=True)
    for i in range(7):
        (root / "art" / f"s{i}.svg").write_text(SVG.replace("#0000ff", f"#0000{i}0"))
    (root / "game.toml").write_text('[deck]\nsource = "plane"\nshape = "circle"\n'
                                    'size = "60x60mm"\noptions = { order = 2, symbols = '
                                    '"folder:art" }\n\n[[face]]\ntype = "symbols"\n')
    out = tmp_path / "symbols.pdf"
    r = CliRunner().invoke(main, ["build", str(root), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert unembedded_fonts(out.read_bytes()) == []


@pytest.mark.parametrize("kind", ["png", "svg"])
def test_copies_of_a_card_with_art_are_one_distinct_face(tmp_path, kind):
    """Exports draw each distinct face once: the first card to use a picture (which puts the
    picture in the PDF) must not count as a face of its own."""
    from generator.exports import distinct
    from pnp_model.definition import load

    _build(tmp_path, kind, "cover")
    root = tmp_path / "g"
    (root / "cards.csv").write_text("name,qty\nOne,3\n")
    deck = load(root)
    assert [f.copies for f in distinct(deck, deck.cards)] == [3]


@pytest.mark.parametrize("fit, bled", [("cover", True), ("stretch", True), ("contain", False)])
def test_a_picture_filling_the_card_fills_the_bleed_too(tmp_path, fit, bled):
    root = tmp_path / "g"
    root.mkdir()
    _art(root, "svg")
    (root / "cards.csv").write_text("name\nOne\n")
    (root / "game.toml").write_text('[deck]\nsource = "csv"\nfile = "cards.csv"\n'
                                    'size = "poker"\n\n[[face]]\ntype = "image"\n'
                                    f'file = "art.svg"\nfit = "{fit}"\n')
    out = tmp_path / "out.pdf"
    r = CliRunner().invoke(main, ["build", str(root), "--single", "--no-backs", "--bleed", "3mm",
                                  "-o", str(out)])
    assert r.exit_code == 0, r.output
    image = pdfium.PdfDocument(out)[0].render(scale=DPI / 72).to_pil().convert("RGB")
    # 1 mm from the page edge: in the 3 mm bleed, outside the trimmed card
    corners = [_colour_at(image, 1, 1), _colour_at(image, 68.5, 93.9)]
    assert corners == (["red", "blue"] if bled else ["white", "white"])
