"""Shop presets for MakePlayingCards and PrinterStudio, measured on the exported images.

The expected pixel sizes are the shops' published upload sizes, written out here (MPC poker
822×1122, bridge 747×1122, tarot 897×1497, mini 597×822, domino 597×1122, business 672×1122),
not recomputed by the rule the code uses.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from PIL import Image

from generator.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def _resize(mini, size: str) -> None:
    toml = mini / "game.toml"
    toml.write_text(toml.read_text().replace('size = "poker"', f'size = "{size}"'))


def test_makeplayingcards_poker_is_822_by_1122_with_the_usual_names(mini, tmp_path):
    out = tmp_path / "mpc"
    r = run("export", str(mini), "--shop", "makeplayingcards", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.glob("*.png")) == [
        "001-alpha.png", "002-beta.png", "003-gamma.png", "back.png"]
    assert [m["copies"] for m in json.loads((out / "manifest.json").read_text())] == [2, 1, 3]
    for name in ("001-alpha.png", "back.png"):
        with Image.open(out / name) as im:
            assert im.size == (822, 1122)
            assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)


@pytest.mark.parametrize(("size", "pixels"), [
    ("2.25x3.5in", (747, 1122)),   # bridge
    ("2.75x4.75in", (897, 1497)),  # tarot
    ("1.75x2.5in", (597, 822)),    # mini
    ("1.75x3.5in", (597, 1122)),   # domino
    ("2x3.5in", (672, 1122)),      # business
    ("3.5x5.75in", (1122, 1797)),  # large
])
def test_makeplayingcards_sizes_match_its_published_pixels(mini, tmp_path, size, pixels):
    _resize(mini, size)
    out = tmp_path / "mpc"
    r = run("export", str(mini), "--shop", "MakePlayingCards", "-o", str(out))
    assert r.exit_code == 0, r.output
    with Image.open(out / "002-beta.png") as im:
        assert im.size == pixels


def test_the_bleed_is_36_pixels_of_the_card_art_on_each_side(mini, tmp_path):
    """A green background into the bleed under a white rectangle 0.1 in inside the trim: the
    white starts at pixel 36 + 30 (with 1/8 in = 37.5 px of bleed it would start at 68)."""
    toml = mini / "game.toml"
    toml.write_text(toml.read_text().replace('[[face]]\ntype = "text"', (
        '[[face]]\ntype = "rect"\nx = "0.1in"\ny = "0.1in"\nw = "2.3in"\nh = "3.3in"\n'
        'fill = "#ffffff"\n\n[[face]]\ntype = "text"')))
    out = tmp_path / "mpc"
    r = run("export", str(mini), "--shop", "makeplayingcards", "-o", str(out))
    assert r.exit_code == 0, r.output
    with Image.open(out / "002-beta.png") as im:
        row = [im.convert("RGB").getpixel((x, 561)) for x in range(0, 100)]
    white = [x for x, p in enumerate(row) if min(p) > 240]
    assert white and white[0] == 66, row[60:70]
    assert all(p[1] > 200 and p[0] < 40 for p in row[:65])  # green from the bleed on


def test_printerstudio_prints_poker_at_822_by_1122(mini, tmp_path):
    out = tmp_path / "ps"
    r = run("export", str(mini), "--shop", "printerstudio", "-o", str(out))
    assert r.exit_code == 0, r.output
    with Image.open(out / "003-gamma.png") as im:
        assert im.size == (822, 1122)


def test_a_size_the_shop_does_not_offer_is_refused_naming_the_ones_it_does(mini, tmp_path):
    _resize(mini, "tarot")
    r = run("export", str(mini), "--shop", "printerstudio", "-o", str(tmp_path / "ps"))
    assert r.exit_code == 2
    assert r.output.count("\n") == 1 and "Traceback" not in r.output
    assert "PrinterStudio does not print" in r.output and "poker 2.5×3.5 in" in r.output
    assert not (tmp_path / "ps").exists()
    (mini / "game.toml").write_text((mini / "game.toml").read_text().replace(
        'size = "tarot"', 'size = "poker-eu"'))
    r = run("export", str(mini), "--shop", "makeplayingcards", "-o", str(tmp_path / "mpc"))
    assert r.exit_code == 2
    assert "MakePlayingCards does not print" in r.output
    assert "bridge 2.25×3.5 in" in r.output and "domino 1.75×3.5 in" in r.output


@pytest.mark.parametrize("flags", [["--format", "tts"], ["--format", "look"],
                                   ["--format", "cut", "--cutter", "silhouette"],
                                   ["--dpi", "72"], ["--bleed", "10mm"]])
def test_an_option_the_shop_preset_would_drop_is_refused(mini, tmp_path, flags):
    """`--shop thegamecrafter --format tts` wrote the shop's PNGs and no TTS file, and --dpi or
    --bleed beside --shop were ignored (825x1125 px whatever was asked), all with exit 0."""
    out = tmp_path / "x"
    r = run("export", str(mini), "--shop", "thegamecrafter", *flags, "-o", str(out))
    assert r.exit_code == 2, r.output
    assert r.output.count("\n") == 1 and r.output.startswith("error: --shop")
    assert not out.exists()


def _face_text(mini, text: str, x: str, size: float = 8) -> None:
    toml = mini / "game.toml"
    toml.write_text(toml.read_text() + f'\n[[face]]\ntype = "text"\ntext = "{text}"\nx = "{x}"\n'
                    f'y = "45mm"\nsize = {size}\n')


def _gap_mm(mini, tmp_path) -> float:
    """How far the leftmost drawn text is from the trim, read from a one-card page."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    out = tmp_path / "gap.pdf"
    assert run("build", str(mini), "--single", "--part", "all", "-o", str(out)).exit_code == 0
    page = pdfium.PdfDocument(str(out))[0]
    trim_left = page.get_trimbox()[0]
    lefts = [obj.get_bounds()[0] for obj in page.get_objects()
             if obj.type == raw.FPDF_PAGEOBJ_TEXT]
    return (min(lefts) - trim_left) * 25.4 / 72


@pytest.mark.parametrize("shop", ["thegamecrafter", "drivethrucards", "printninja"])
def test_the_shops_safe_zone_is_an_eighth_of_an_inch(mini, tmp_path, shop):
    """Text 3.1 mm inside the trim passes a 3 mm safe zone and fails the shop's 3.175 mm."""
    _face_text(mini, "Iron", "2.8mm")  # the I's side bearing puts its ink ~0.3 mm further in
    gap = _gap_mm(mini, tmp_path)
    assert 3.0 < gap < 3.175, gap  # drawn between the two safe zones
    plain = json.loads(run("check", str(mini), "--json").output)
    assert not [f for f in plain if f["check"] == "safe-zone"]
    at_shop = run("check", str(mini), "--shop", shop, "--json")
    assert at_shop.exit_code == 1
    safe = [f for f in json.loads(at_shop.output) if f["check"] == "safe-zone"]
    assert len(safe) == 1 and "(safe zone 3.175 mm)" in safe[0]["message"]
    assert safe[0]["cards"] == [1, 2, 3, 4, 5, 6]  # the cards, not only the first face


def test_text_under_the_shops_minimum_is_a_preflight_line_naming_the_cards(mini, tmp_path):
    _face_text(mini, "tiny", "10mm", size=5)
    r = run("export", str(mini), "--shop", "printninja", "-o", str(tmp_path / "pn"))
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.output.splitlines() if ln.startswith("preflight:")]
    tiny = [ln for ln in lines if "'tiny' is 5.0 pt (below 6 pt)" in ln]
    assert len(tiny) == 1 and "6 cards (#1, #2, #3, #4, #5, #6)" in tiny[0], lines


def test_printninja_is_a_cmyk_pdfx_file_with_an_eighth_inch_bleed(mini, tmp_path):
    import pikepdf
    import pypdfium2 as pdfium

    r = run("export", str(mini), "--shop", "PrintNinja", "-o", str(tmp_path))
    assert r.exit_code == 0, r.output
    pdf = tmp_path / "mini-printninja.pdf"
    doc = pdfium.PdfDocument(str(pdf))
    assert len(doc) == 12  # a back then a front for each of the 6 cards
    assert doc[0].get_size() == pytest.approx((2.75 * 72, 3.75 * 72), abs=0.01)
    with pikepdf.open(pdf) as p:
        assert str(p.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
