"""Legend cards of symbol decks, read from the built PDF: one more card of the deck's shape, with
its back, every symbol drawn once with its name, inside the cut outline, text 6 pt or more."""

import ctypes
import json
import math
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from generator.layout.legend import display_name
from pnp_model.definition import load

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import art_deck  # noqa: E402
import pdfgeom  # noqa: E402

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
MM = 72 / 25.4


def pnp(*args):
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True)


def small_dobble(tmp_path, extra_deck=""):
    """The dobble template at order 3: 13 cards of 4 icons, 13 symbols (one legend card)."""
    toml = (TEMPLATES / "dobble" / "game.toml").read_text()
    toml = toml.replace("order = 7, cards = 55", "order = 3").replace("count = 55", "count = 13")
    toml = toml.replace("per_card = 8", "per_card = 4").replace("symbols = 57", "symbols = 13")
    toml = toml.replace('[deck]\n', f'[deck]\n{extra_deck}')
    root = tmp_path / "small"
    root.mkdir()
    (root / "game.toml").write_text(toml)
    return root


def outlines(pdf: Path, page: int, wider_than_mm: float):
    """Cut guides of a page: stroked, unfilled paths as wide as a card (pdfium's bounds)."""
    def stroked_only(o) -> bool:
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        raw.FPDFPath_GetDrawMode(o.raw, ctypes.byref(fill), ctypes.byref(stroke))
        return bool(stroke.value) and not fill.value

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [o.get_bounds() for o in doc[page].get_objects(max_depth=0)
                if o.type == raw.FPDF_PAGEOBJ_PATH and stroked_only(o)
                and o.get_bounds()[2] - o.get_bounds()[0] > wider_than_mm * MM]
    finally:
        doc.close()


def page_text(pdf: Path, page: int) -> str:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return " ".join(doc[page].get_textpage().get_text_range().split())
    finally:
        doc.close()


def said(text: str, name: str) -> int:
    """How often the name stands in the text as whole words."""
    return len(re.findall(rf"(?<!\w){re.escape(name)}(?!\w)", text))


def forms_placed(pdf: Path) -> list[Counter]:
    """Per page, how often each form XObject (a symbol drawn once) is placed."""
    return [Counter(re.findall(rb"/(\S+) Do", s)) for s in pdfgeom.page_streams(pdf.read_bytes())]


def test_a_legend_card_follows_the_playing_cards_with_their_back(tmp_path):
    root = small_dobble(tmp_path)
    plain, legend = tmp_path / "plain.pdf", tmp_path / "legend.pdf"
    assert pnp("build", str(root), "-o", str(plain)).returncode == 0
    r = pnp("build", str(root), "--legend", "-o", str(legend))
    assert r.returncode == 0, r.stderr
    assert "13 cards + 1 legend card on 6 pages" in r.stdout
    # 2x3 circles a page: 13 cards on 3 front pages, the legend is the 14th circle of page 3
    fronts = [len(outlines(legend, p, 80)) for p in (0, 2, 4)]
    assert fronts == [6, 6, 2]
    assert [len(outlines(plain, p, 80)) for p in (0, 2, 4)] == [6, 6, 1]
    for a, b in zip(outlines(legend, 4, 80), outlines(legend, 0, 80)[:2], strict=True):
        assert a == pytest.approx(b, abs=0.5)  # same size, in the next place of the grid
    # its back is the deck's back, behind it: two DOBBLE backs on the last back page
    assert page_text(legend, 5).count("DOBBLE") == 2
    assert page_text(plain, 5).count("DOBBLE") == 1
    assert "Font Awesome" in page_text(legend, 5)
    # the playing cards are the same bytes of drawing: the legend only adds
    assert pdfgeom.page_streams(plain.read_bytes())[0] == pdfgeom.page_streams(
        legend.read_bytes())[0]


def test_the_legend_names_every_symbol_once_drawn_as_on_the_cards(tmp_path):
    root = small_dobble(tmp_path)
    pdf = tmp_path / "single.pdf"
    r = pnp("build", str(root), "--legend", "--single", "--no-backs", "-o", str(pdf))
    assert r.returncode == 0, r.stderr
    placed = forms_placed(pdf)
    assert len(placed) == 14  # one card a page: 13 cards, then the legend
    on_cards = Counter()
    for page in placed[:13]:
        on_cards.update(page)
    assert len(on_cards) == 13 and set(on_cards.values()) == {4}  # a plane of order 3
    assert placed[13] == Counter({name: 1 for name in on_cards})  # the same forms, once each
    text = page_text(pdf, 13)
    names = {s for card in load(str(root)).cards for s in card.symbols}
    assert len(names) == 13
    for name in names:
        assert said(text, display_name(name)) == 1, (name, text)
    assert text.startswith("Symbols")
    for page in range(13):
        assert said(page_text(pdf, page), display_name(sorted(names)[0])) == 0


def test_symbol_names_come_from_icon_names_and_art_file_stems(tmp_path):
    assert display_name("hand-holding-heart") == "Hand holding heart"
    assert display_name("red_fox") == "Red fox"
    assert display_name("Blue  Whale") == "Blue Whale"
    root = art_deck.make_deck(tmp_path / "art", order=2)
    for old, new in (("symbol000", "red_fox"), ("symbol001", "snow-owl")):
        (root / "art" / f"{old}.png").rename(root / "art" / f"{new}.png")
    pdf = tmp_path / "art.pdf"
    r = pnp("build", str(root), "--legend", "--single", "-o", str(pdf))
    assert r.returncode == 0, r.stderr
    text = page_text(pdf, 7)
    assert "Red fox" in text and "Snow owl" in text and "Symbol002" in text
    assert len(forms_placed(pdf)[7]) == 7  # each image, drawn as on the cards


def text_sizes_and_boxes(pdf: Path, page: int):
    """Printed size (font size times the object's scale) and bounds of each text object, and
    the bounds of each placed form, on one page."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        texts, forms = [], []
        for o in doc[page].get_objects(max_depth=0):
            if o.type == raw.FPDF_PAGEOBJ_TEXT:
                size = ctypes.c_float()
                raw.FPDFTextObj_GetFontSize(o.raw, ctypes.byref(size))
                a, b, c, d, _, _ = o.get_matrix().get()
                texts.append((size.value * math.sqrt(abs(a * d - b * c)), o.get_bounds()))
            elif o.type == raw.FPDF_PAGEOBJ_FORM:
                forms.append(o.get_bounds())
        return texts, forms, doc[page].get_size()
    finally:
        doc.close()


def inside(shape: str, w: float, h: float, x: float, y: float, margin: float) -> bool:
    """Whether (x, y) (page = card, origin bottom-left) is inside the card's cut outline by
    at least margin."""
    dx, dy = x - w / 2, y - h / 2
    if shape == "circle":
        return math.hypot(dx, dy) <= w / 2 - margin
    if shape == "hexagon":  # pointy-topped: sides at 0, 60, 120... degrees from the x axis
        apothem = w / 2
        return all(dx * math.cos(math.radians(a)) + dy * math.sin(math.radians(a))
                   <= apothem - margin for a in range(0, 360, 60))
    return margin <= x <= w - margin and margin <= y <= h - margin


def words_deck(tmp_path):
    root = tmp_path / "words"
    root.mkdir()
    (root / "words.txt").write_text("cat\ndog\nbig red balloon\nsun\nmoon\nstar\nfish\n")
    (root / "game.toml").write_text("""[deck]
source = "plane"
shape = "rect"
size = "poker"
options = { order = 2, symbols = "words:words.txt" }
[[face]]
type = "symbols"
""")
    return root


@pytest.mark.parametrize("game, shape, legend_cards, clear_mm", [
    ("small", "circle", 1, 1), ("dobble", "circle", 2, 1), ("dobble-connect", "hexagon", 10, 1),
    ("words", "rect", 1, 3)])  # symbols over the whole card: the 3 mm safe zone still holds
def test_the_legend_stays_inside_the_card_in_text_of_6_pt_or_more(tmp_path, game, shape,
                                                                   legend_cards, clear_mm):
    source = {"small": lambda: str(small_dobble(tmp_path)),
              "words": lambda: str(words_deck(tmp_path))}.get(game, lambda: game)()
    pdf = tmp_path / "single.pdf"
    r = pnp("build", source, "--legend", "--single", "--no-backs", "-o", str(pdf), "--json")
    assert r.returncode == 0, r.stderr
    built = json.loads(r.stdout)[0]
    assert built["legend cards"] == legend_cards
    symbols = {s for card in load(source).cards for s in card.symbols}
    listed = Counter()
    for page in range(built["pages"] - legend_cards, built["pages"]):
        texts, forms, (w, h) = text_sizes_and_boxes(pdf, page)
        assert texts
        for size, _ in texts:
            assert size >= 6 - 1e-6
        for left, bottom, right, top in [box for _, box in texts] + forms:
            for x, y in ((left, bottom), (left, top), (right, bottom), (right, top)):
                assert inside(shape, w, h, x, y, clear_mm * MM), (page, x, y)
        boxes = [box for _, box in texts] + forms
        for i, a in enumerate(boxes):  # names and symbols each in a place of their own
            for b in boxes[i + 1:]:
                assert min(a[2], b[2]) - max(a[0], b[0]) <= 0.1 or \
                    min(a[3], b[3]) - max(a[1], b[1]) <= 0.1, (page, a, b)
        listed.update(forms_placed(pdf)[page])
        if shape == "rect":  # words name themselves: each word is one text, no form
            listed.update(t for t in page_text(pdf, page).split())
    if shape == "rect":
        assert all(listed[word] == 1 for word in ("cat", "dog", "sun", "moon", "star", "fish"))
    else:
        assert len(listed) == len(symbols) and set(listed.values()) == {1}


def test_no_legend_ink_near_the_rim_of_a_round_card(tmp_path):
    """From the rendered page, as the symbol decks are checked: no ink within 1 mm of the rim."""
    pdf = tmp_path / "single.pdf"
    assert pnp("build", "dobble", "--legend", "--single", "--no-backs",
               "-o", str(pdf)).returncode == 0
    found = art_deck.card_ink(pdf, pages=[55, 56])
    assert [rim for _, rim in found] == [0, 0]
    assert all(cover > 0.05 for cover, _ in found)  # the legend is there: symbols and names


def test_verify_and_the_pair_property_do_not_count_legend_cards(tmp_path):
    root = small_dobble(tmp_path, extra_deck="legend = true\n")
    r = pnp("verify", str(root))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "13 cards" in r.stdout and "share exactly 1 symbol" in r.stdout
    assert len(load(str(root)).cards) == 13
    # the definition's legend = true is the default; --no-legend leaves it out
    r = pnp("build", str(root), "-o", str(tmp_path / "a.pdf"), "--json")
    assert json.loads(r.stdout)[0]["cards"] == 13
    assert json.loads(r.stdout)[0]["legend cards"] == 1
    r = pnp("build", str(root), "-o", str(tmp_path / "b.pdf"), "--json", "--no-legend")
    assert "legend cards" not in json.loads(r.stdout)[0]


def test_legend_mistakes_are_one_line_errors(tmp_path):
    root = small_dobble(tmp_path, extra_deck='legend = "yes"\n')
    r = pnp("build", str(root), "-o", str(tmp_path / "x.pdf"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "legend must be true or false" in r.stderr and "[deck].legend" in r.stderr
    r = pnp("build", "duplicon", "--legend", "-o", str(tmp_path / "y.pdf"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "not a symbol deck" in r.stderr and "--legend" in r.stderr
    assert not (tmp_path / "y.pdf").exists()


def test_legend_output_is_deterministic(tmp_path):
    root = small_dobble(tmp_path, extra_deck="legend = true\n")
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    assert pnp("build", str(root), "-o", str(a)).returncode == 0
    assert pnp("build", str(root), "-o", str(b)).returncode == 0
    assert a.read_bytes() == b.read_bytes()
