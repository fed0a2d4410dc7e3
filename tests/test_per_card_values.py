"""Numbers, lengths and choices written with {fields}: measured per card from the PDF, and a
bad value is one error line naming the card, the column and the value."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pdfgeom import drawing, page_streams

from generator.cli import main
from pnp_model.units import MM

HEAD = """\
[deck]
source = "csv"
file = "cards.csv"
size = "poker"
"""
CARDS = """\
name,left,width,tall,angle,tsize,al
Small,5,10mm,4,0,9,left
Wide,20,40mm,12,90,14,center
"""
MARKER = """
[[face]]
type = "rect"
x = "{left}"
y = "10mm"
w = "{width}"
h = "{tall}mm"
rotate = "{angle}"
fill = "#ff0000"

[[face]]
type = "text"
text = "{name}"
x = "50%"
y = "60mm"
size = "{tsize}"
align = "{al}"
"""


def _game(tmp_path: Path, toml: str, cards: str = CARDS) -> Path:
    root = tmp_path / "g"
    root.mkdir(exist_ok=True)
    (root / "game.toml").write_text(HEAD + toml)
    (root / "cards.csv").write_text(cards)
    return root


def _build(root: Path, tmp_path: Path):
    out = tmp_path / "out.pdf"
    r = CliRunner().invoke(main, ["build", str(root), "--single", "--no-backs", "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out.read_bytes()


def test_geometry_varies_per_card(tmp_path):
    pdf = _build(_game(tmp_path, MARKER), tmp_path)
    sizes = []
    for content in page_streams(pdf):
        red = [f for f in drawing(content).fills if f.color == (1, 0, 0)]
        assert len(red) == 1
        xs, ys = [p[0] for p in red[0].points], [p[1] for p in red[0].points]
        sizes.append(((max(xs) - min(xs)) / MM, (max(ys) - min(ys)) / MM))
    # card 1 as written; card 2 is 40x12 mm turned a quarter: 12 wide, 40 tall
    assert sizes[0] == pytest.approx((10, 4), abs=0.01)
    assert sizes[1] == pytest.approx((12, 40), abs=0.01)


def test_font_size_varies_per_card(tmp_path):
    import re

    pdf = _build(_game(tmp_path, MARKER), tmp_path)
    sizes = [float(re.search(rb"/F\d+\+\d+ ([\d.]+) Tf", c).group(1)) for c in page_streams(pdf)]
    assert sizes == [9, 14]


def _error(root: Path) -> str:
    r = CliRunner().invoke(main, ["build", str(root), "-o", str(root / "x.pdf")])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    assert not (root / "x.pdf").exists()
    return lines[0]


@pytest.mark.parametrize("column, bad, words", [
    ("tsize", "big", ["'{tsize}' is 'big'", "column tsize", "[[face]] #2 (text).size"]),
    ("left", "5 apples", ["'{left}' is '5 apples'", "column left", "unknown unit",
                          "[[face]] #1 (rect).x"]),
    ("angle", "left", ["'{angle}' is 'left'", "expected a number", "[[face]] #1 (rect).rotate"]),
    ("al", "middle", ["'{al}' is 'middle'", "align must be one of left, center, right"]),
])
def test_a_bad_per_card_value_names_card_column_and_value(tmp_path, column, bad, words):
    header, small, wide = CARDS.splitlines()
    cells = dict(zip(header.split(","), wide.split(","), strict=True))
    cells[column] = bad
    cards = "\n".join([header, small, ",".join(cells.values())]) + "\n"
    line = _error(_game(tmp_path, MARKER, cards))
    for word in [*words, "card #2 (Wide)", "game.toml"]:
        assert word in line, line


def test_a_per_card_value_names_only_known_columns(tmp_path):
    line = _error(_game(tmp_path, MARKER.replace("{tall}", "{height}")))
    assert "no column 'height'" in line and "[[face]] #1 (rect).h" in line, line


def test_the_font_varies_per_card(tmp_path):
    cards = "name,face\nPlain,sans\nStrong,sans-bold\n"
    toml = '\n[[face]]\ntype = "text"\ntext = "{name}"\nfont = "{face}"\ny = "20mm"\n'
    pdf = _build(_game(tmp_path, toml, cards), tmp_path)
    fonts = [drawing(c).fonts for c in page_streams(pdf)]
    assert len(fonts) == 2 and fonts[0] and fonts[1] and fonts[0] != fonts[1]
