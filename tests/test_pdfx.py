"""PDF/X-1a:2003 output (`pnp build --single --pdfx`, `pnp export --shop drivethrucards`), checked
from the written file by tests/pdfx_check.py, and each rule of that checker seen to catch a
file that breaks it."""

from __future__ import annotations

import io
import re

import pikepdf
import pytest
from click.testing import CliRunner
from PIL import Image, ImageDraw

from generator.cli import main
from tests.inks import PROFILE, as_srgb
from tests.pdfx_check import check

# A see-through grey disc, a PNG whose alpha fades (half-transparent pixels) and a plain RGB
# photo: the three things PDF/X-1a does not allow as they are.
EXTRA_FACE = """
[[face]]
type = "ellipse"
x = "10mm"
y = "10mm"
w = "30mm"
h = "30mm"
fill = "#000000"
opacity = 0.5

[[face]]
type = "image"
file = "glow.png"
x = "30mm"
y = "45mm"
w = "25mm"
h = "25mm"

[[face]]
type = "image"
file = "photo.png"
x = "5mm"
y = "70mm"
w = "15mm"
h = "10mm"
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def layered(mini):
    """The mini deck with transparent and raster art on every face."""
    toml = mini / "game.toml"
    toml.write_text(toml.read_text().replace("[[back]]", EXTRA_FACE + "\n[[back]]"))
    glow = Image.new("RGBA", (200, 200), (0, 0, 0, 0))
    ImageDraw.Draw(glow).ellipse((20, 20, 180, 180), fill=(255, 200, 0, 128))
    glow.save(mini / "glow.png")
    photo = Image.new("RGB", (150, 100), (40, 110, 170))  # a blue the press can print
    photo.save(mini / "photo.png")
    return mini


def _build(deck, out, *flags: str) -> bytes:
    r = run("build", str(deck), "--single", "--bleed", "0.125in", *flags, "-o", str(out))
    assert r.exit_code == 0, r.output
    return out.read_bytes()


def test_todays_cmyk_pdf_is_not_pdfx(layered, tmp_path):
    """The plain --cmyk PDF: what the checker must catch (and did, before --pdfx existed).
    Its colours are CMYK, raster art included (issue 31: its images were RGB)."""
    problems = check(_build(layered, tmp_path / "cmyk.pdf", "--cmyk"))
    assert {"pdfx version", "output intent", "transparency"} <= set(problems)
    assert "colour" not in problems, problems["colour"]


def test_pdfx_build_keeps_every_rule(layered, tmp_path):
    data = _build(layered, tmp_path / "x.pdf", "--pdfx")
    assert check(data) == {}
    pdf = pikepdf.open(io.BytesIO(data))
    assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
    intent = pdf.Root.OutputIntents[0]
    assert str(intent.OutputConditionIdentifier) == "CGATS TR 003"
    assert str(intent.RegistryName) == "http://www.color.org"
    # the declared intent is the profile the colours were converted through, embedded
    profile = intent.DestOutputProfile
    assert int(profile.N) == 4 and profile.read_bytes() == PROFILE.read_bytes()
    from PIL import ImageCms

    press = ImageCms.getOpenProfile(io.BytesIO(profile.read_bytes()))
    assert press.profile.xcolor_space.strip() == "CMYK" and press.profile.device_class == "prtr"
    # Text stays text: the card names are still drawn with a font, not as pixels.
    ops = [str(op) for _, op in pikepdf.parse_content_stream(pdf.pages[0])]
    assert "Tj" in ops or "TJ" in ops
    assert data == _build(layered, tmp_path / "again.pdf", "--pdfx")  # deterministic


def _pictures(data: bytes, page: int) -> list[Image.Image]:
    """The images a page draws, as stored (CMYK for PDF/X), largest first."""
    pdf = pikepdf.open(io.BytesIO(data))
    images = [pikepdf.PdfImage(x).as_pil_image()
              for x in pdf.pages[page].Resources.get("/XObject", {}).values()
              if x.get("/Subtype") == "/Image"]
    return sorted(images, key=lambda im: -im.width)


def near(inks, want, tol=3) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(inks, want, strict=True))


def test_flattened_pictures_carry_the_inks_of_what_the_card_shows(layered, tmp_path):
    """The disc, the glow and the photo become opaque CMYK pictures of the card there: each
    picture's corner (card showing round the art) has the inks of the vector background, so no
    box shows; seen through the embedded press profile, the half-transparent black over the red
    card #d62728 is (107, 20, 20) and the photo #286eaa."""
    data = _build(layered, tmp_path / "x.pdf", "--pdfx")
    disc, glow, photo = _pictures(data, 0)  # 30 mm, 25 mm and 15 mm wide
    assert disc.mode == glow.mode == photo.mode == "CMYK"
    ops = _content_ops(data, 0)
    background = re.search(r"\b([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) k\s+n?\s*[\d. -]+re\s+f", ops)
    red = tuple(round(float(v) * 255) for v in background.groups())
    for picture in (disc, glow):
        assert near(picture.getpixel((0, 0)), red), (picture.getpixel((0, 0)), red)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        profile = pdf.Root.OutputIntents[0].DestOutputProfile.read_bytes()

    def seen(picture):
        return as_srgb(picture, profile).getpixel((picture.width // 2, picture.height // 2))

    assert near(seen(disc), (107, 20, 20), tol=8), seen(disc)
    assert near(seen(photo), (40, 110, 170), tol=6), seen(photo)


def _content_ops(data: bytes, page: int) -> str:
    pdf = pikepdf.open(io.BytesIO(data))
    return pikepdf.unparse_content_stream(pikepdf.parse_content_stream(pdf.pages[page])).decode()


def test_drivethrucards_export_is_pdfx(layered, tmp_path):
    r = run("export", str(layered), "--shop", "drivethrucards", "-o", str(tmp_path))
    assert r.exit_code == 0, r.output
    assert check((tmp_path / "mini-drivethrucards.pdf").read_bytes()) == {}


def test_pdfx_without_single_pages_is_a_one_line_error(layered, tmp_path):
    r = run("build", str(layered), "--pdfx", "-o", str(tmp_path / "x.pdf"))
    assert r.exit_code == 2
    assert r.output == "error: PDF/X needs a trim box on every page: add --single (--pdfx)\n"
    assert not (tmp_path / "x.pdf").exists()


# --- the checker: every rule fails on a file that breaks it --------------------------------


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> bytes:
    from tests.conftest import CARDS_CSV, GAME_TOML

    root = tmp_path_factory.mktemp("good") / "mini"
    root.mkdir()
    (root / "game.toml").write_text(GAME_TOML)
    (root / "cards.csv").write_text(CARDS_CSV)
    data = _build(root, root / "x.pdf", "--pdfx")
    assert check(data) == {}
    return data


def _edit(data: bytes, change, **save) -> bytes:
    pdf = pikepdf.open(io.BytesIO(data))
    change(pdf)
    out = io.BytesIO()
    pdf.save(out, **save)
    return out.getvalue()


def _add_to_page(pdf, resources: dict, ops: bytes) -> None:
    page = pdf.pages[0]
    for kind, items in resources.items():
        if kind not in page.Resources:
            page.Resources[kind] = pikepdf.Dictionary()
        for k, v in items.items():
            page.Resources[kind][k] = v
    page.contents_add(pdf.make_stream(ops))


def _font_descriptor(pdf):
    font = next(iter(pdf.pages[0].Resources.Font.values()))
    return font.FontDescriptor


BREAKS = {
    "encryption": lambda d: _edit(d, lambda p: None, encryption=pikepdf.Encryption(
        owner="o", user="", R=3, aes=False, metadata=False)),
    "version": lambda d: _edit(d, lambda p: None, force_version="1.6"),
    "pdfx version": lambda d: _edit(d, lambda p: p.docinfo.__delitem__("/GTS_PDFXVersion")),
    "info": lambda d: _edit(d, lambda p: p.docinfo.__delitem__("/Title")),
    "trapped": lambda d: _edit(d, lambda p: p.docinfo.__setitem__(
        "/Trapped", pikepdf.Name("/Unknown"))),
    "document id": lambda d: re.sub(rb"/ID\s*\[", b"/Xx [", d),
    "output intent": lambda d: _edit(d, lambda p: p.Root.OutputIntents[0].__delitem__(
        "/OutputConditionIdentifier")),
    "trim box": lambda d: _edit(d, lambda p: p.pages[1].obj.__delitem__("/TrimBox")),
    "bleed box": lambda d: _edit(d, lambda p: p.pages[0].obj.__setitem__(
        "/BleedBox", pikepdf.Array([-5, -5, 500, 500]))),
    "fonts": lambda d: _edit(d, lambda p: _font_descriptor(p).__delitem__("/FontFile2")),
    "transparency": lambda d: _edit(d, lambda p: _add_to_page(
        p, {"/ExtGState": {"/Half": pikepdf.Dictionary(ca=0.5)}}, b"/Half gs")),
    "colour": lambda d: _edit(d, lambda p: _add_to_page(p, {}, b"1 0 0 rg 0 0 5 5 re f")),
}


@pytest.mark.parametrize("rule", sorted(BREAKS))
def test_each_rule_catches_a_file_that_breaks_it(good, rule):
    assert set(check(BREAKS[rule](good))) == {rule}


def test_an_rgb_or_soft_masked_image_is_caught(good):
    def rgb_image(pdf, smask: bool):
        img = pdf.make_stream(b"\x00\x00\xff" * 4, Type=pikepdf.Name.XObject,
                              Subtype=pikepdf.Name.Image, Width=2, Height=2,
                              BitsPerComponent=8, ColorSpace=pikepdf.Name.DeviceRGB)
        if smask:
            img.ColorSpace = pikepdf.Name.DeviceCMYK
            img.write(b"\x00" * 16)
            img.SMask = pdf.make_stream(b"\x80" * 4, Type=pikepdf.Name.XObject,
                                        Subtype=pikepdf.Name.Image, Width=2, Height=2,
                                        BitsPerComponent=8, ColorSpace=pikepdf.Name.DeviceGray)
        _add_to_page(pdf, {"/XObject": {"/Im9": img}}, b"q 5 0 0 5 0 0 cm /Im9 Do Q")

    assert set(check(_edit(good, lambda p: rgb_image(p, False)))) == {"colour"}
    assert set(check(_edit(good, lambda p: rgb_image(p, True)))) == {"transparency"}
