"""Cutting machines, measured from the output: each machine's registration marks where its
software looks for them, and the exported cut lines (SVG and DXF) on the PDF's drawn trim
outlines within 0.05 mm, for every card shape."""

from __future__ import annotations

import re

import ezdxf
import pytest
from click.testing import CliRunner
from markcheck import coloured
from pdfgeom import drawing, page_streams

from generator.build import Options, build, plan
from generator.cli import main
from generator.cut.files import export_cut
from pnp_model.units import INCH, MM

TOL = 0.05 * MM


def _box(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _near(a, b, tol=TOL):
    return all(abs(u - v) <= tol for u, v in zip(a, b, strict=True))


def _pages(pdf_path):
    return [drawing(c) for c in page_streams(pdf_path.read_bytes())]


def _black_boxes(page):
    return sorted(_box(f.points) for f in page.fills if f.color in ((0, 0, 0), (0,)) and f.points)


def _card_boxes(page):
    return [_box(f.points) for f in page.fills if f.points and f.color not in ((0, 0, 0), (0,))]


def test_silhouette_type1_marks_at_10mm_inset_with_cards_clear(tmp_path):
    out = build(coloured("decktet"), tmp_path / "s.pdf", Options(cutter="silhouette",
                                                                   backs=True)).path
    pages = _pages(out)
    front, back = pages[0], pages[1]
    w, h = 297 * MM, 210 * MM  # the build chose A4 landscape (checked below)
    i, s, a, t = 10 * MM, 5 * MM, 20 * MM, 0.5 * MM  # Silhouette Studio's published defaults
    expected = sorted([(i, h - i - s, i + s, h - i),  # filled square, top left
                       (w - i - a, h - i - t, w - i, h - i), (w - i - t, h - i - a, w - i, h - i),
                       (i, i, i + a, i + t), (i, i, i + t, i + a)])  # the two L corners
    found = _black_boxes(front)
    assert len(found) == 5 and all(_near(f, e) for f, e in zip(found, expected, strict=True)), found
    assert _black_boxes(back) == [], "marks on the back page would face away from the camera"
    for x0, y0, x1, y1 in _card_boxes(front):  # art (bleed included) never touches a mark
        for mx0, my0, mx1, my1 in expected:
            assert x1 <= mx0 or x0 >= mx1 or y1 <= my0 or y0 >= my1


@pytest.mark.parametrize("game", ["decktet", "tripple-domino"])
def test_cricut_keeps_the_cards_in_its_print_then_cut_area(game, tmp_path):
    out = build(coloured(game), tmp_path / "c.pdf", Options(cutter="cricut",
                                                              orientation="portrait")).path
    page = _pages(out)[0]
    assert _black_boxes(page) == []  # Design Space prints its own frame
    aw, ah = 6.75 * INCH, 9.25 * INCH
    left, bottom = (210 * MM - aw) / 2, (297 * MM - ah) / 2
    boxes = _card_boxes(page)
    assert boxes
    for x0, y0, x1, y1 in boxes:
        assert x0 >= left - TOL and x1 <= left + aw + TOL
        assert y0 >= bottom - TOL and y1 <= bottom + ah + TOL


def test_brother_scanncut_keeps_10mm_clear_and_draws_no_marks(tmp_path):
    deck = coloured("emberfall")
    out = build(deck, tmp_path / "b.pdf", Options(cutter="brother")).path
    import pypdfium2 as pdfium

    w, h = pdfium.PdfDocument(str(out))[0].get_size()
    for page in _pages(out):
        assert _black_boxes(page) == []
        for x0, y0, x1, y1 in _card_boxes(page):
            assert min(x0, y0, w - x1, h - y1) >= 10 * MM - TOL


def _svg_paths(text):
    height = float(re.search(r'viewBox="0 0 [\d.]+ ([\d.]+)"', text).group(1))
    for d in re.findall(r'<path d="([^"]+)"', text):
        # every endpoint: M x,y / L x,y / and the last pair of an arc
        pairs = re.findall(r"(?:[ML]|A[\d.]+,[\d.]+ \d \d \d )(-?[\d.]+),(-?[\d.]+)", d)
        pts = [(float(x) * MM, (height - float(y)) * MM) for x, y in pairs]
        if " 0 1 1 " in d:  # a circle: two half arcs from its leftmost to its rightmost point
            (x0, y0), (x1, _) = pts[:2]
            pts += [((x0 + x1) / 2, y0 - (x1 - x0) / 2), ((x0 + x1) / 2, y0 + (x1 - x0) / 2)]
        yield pts


def _dxf_paths(path):
    for e in ezdxf.readfile(path).modelspace():
        if e.dxftype() == "CIRCLE":
            cx, cy, r = e.dxf.center.x, e.dxf.center.y, e.dxf.radius
            pts = [(cx - r, cy), (cx + r, cy), (cx, cy - r), (cx, cy + r)]
        else:
            assert e.closed
            pts = [(x, y) for x, y, *_ in e.get_points("xy")]
        yield [(x * MM, y * MM) for x, y in pts]


def _on_the_pdf_outlines(cut_paths, page, game):
    outlines = [p for p in page.stroke_paths if len(p) >= 3]  # the cut guides (no crop marks)
    assert len(cut_paths) == len(outlines), game
    for pts in cut_paths:
        match = [o for o in outlines if _near(_box(o), _box(pts))]
        assert match, (game, _box(pts))
        for x, y in pts:
            assert any(abs(x - u) <= TOL and abs(y - v) <= TOL for u, v in match[0]), (game, x, y)


@pytest.mark.parametrize("game", ["decktet", "dobble", "dobble-connect", "tripple-domino",
                                  "dominoes"])
def test_cut_files_lie_on_the_printed_trim_outlines(game, tmp_path):
    deck = coloured(game)
    opts = Options(cutter="silhouette")
    pdf = build(deck, tmp_path / "g.pdf", opts).path
    export_cut(deck, plan(deck, opts), tmp_path / "cut")
    fronts = [p for p, c in zip(_pages(pdf), page_streams(pdf.read_bytes()), strict=True)
              if _black_boxes(p)]  # front pages carry the registration marks
    assert fronts
    for n, page in enumerate(fronts, 1):
        svg = list(_svg_paths((tmp_path / "cut" / f"sheet-{n}.svg").read_text()))
        _on_the_pdf_outlines(svg, page, game)
        _on_the_pdf_outlines(list(_dxf_paths(tmp_path / "cut" / f"sheet-{n}.dxf")), page, game)


def test_export_cut_from_the_command_line(tmp_path):
    r = CliRunner().invoke(main, ["export", "dominoes", "--format", "cut", "--cutter", "cricut",
                                  "-o", str(tmp_path / "c"), "--json"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "c" / "sheet-1.svg").exists() and (tmp_path / "c" / "sheet-1.dxf").exists()
    r = CliRunner().invoke(main, ["export", "dominoes", "--format", "cut", "--paper", "b9"])
    assert r.exit_code == 2 and r.output.startswith("error: ") and "(--paper)" in r.output


def test_export_cut_lays_the_sheet_out_with_the_builds_flags_and_printer(tmp_path, monkeypatch):
    """`export --format cut` refused --gutter and ignored the default printer profile's margin,
    so its lines were for another layout than the sheet `build --cutter --gutter 4mm` printed
    (landscape 4x2 against portrait 2x2): with the same flags, each line lies on the sheet."""
    monkeypatch.setenv("PNP_CONFIG", str(tmp_path / "config"))

    def run(*args):
        return CliRunner().invoke(main, list(args))

    assert run("printer", "save", "home", "--margin", "9mm").exit_code == 0  # the default
    flags = ["--cutter", "silhouette", "--gutter", "4mm", "--orientation", "portrait"]
    pdf = tmp_path / "g.pdf"
    assert run("build", "dominoes", *flags, "-o", str(pdf)).exit_code == 0
    r = run("export", "dominoes", "--format", "cut", *flags, "-o", str(tmp_path / "cut"))
    assert r.exit_code == 0, r.output
    fronts = [p for p in _pages(pdf) if _black_boxes(p)]
    assert fronts and not (tmp_path / "cut" / f"sheet-{len(fronts) + 1}.svg").exists()
    for n, page in enumerate(fronts, 1):
        _on_the_pdf_outlines(list(_svg_paths((tmp_path / "cut" / f"sheet-{n}.svg").read_text())),
                             page, "dominoes")
    r = run("export", "dominoes", "--gutter", "4mm", "-o", str(tmp_path / "png"))
    assert r.exit_code == 2 and "--format cut" in r.output


@pytest.mark.parametrize("game,bleed,paper", [("coda", 3 * MM, None), ("dominoes", 3 * MM, None),
                                              ("dobble", 0, None), ("decktet", 0, None),
                                              ("tripple-domino", 0, "letter")])
def test_nothing_is_printed_within_5mm_of_a_silhouette_mark(game, bleed, paper, tmp_path):
    """Measured in rendered pixels: around every registration mark, a 5 mm ring holds no ink
    (card art, footer, anything). silhouette-card-maker's letter sheet leaves 2 mm between a
    card and an L, and its guide has users cover that card while the sensor registers.
    (Triangular tiles kept only the printer's margin, and ran over the L marks.)"""
    import numpy as np
    import pypdfium2 as pdfium

    out = build(coloured(game), tmp_path / "s.pdf", Options(cutter="silhouette", bleed=bleed,
                                                            paper=paper)).path
    marks = _black_boxes(_pages(out)[0])
    assert len(marks) == 5
    dpi = 100
    page = pdfium.PdfDocument(str(out))[0]
    pixels = np.asarray(page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L"))
    height = pixels.shape[0]
    ink = pixels < 245
    px = dpi / 72  # pixels a point
    covered = np.zeros_like(ink)
    for x0, y0, x1, y1 in marks:  # the marks themselves, and half a pixel of antialiasing
        covered[max(0, int((height - y1 * px) - 1)):int(height - y0 * px + 2),
                max(0, int(x0 * px - 1)):int(x1 * px + 2)] = True
    for x0, y0, x1, y1 in marks:
        r = 5 * MM
        ring = np.zeros_like(ink)
        ring[max(0, int(height - (y1 + r) * px)):int(height - (y0 - r) * px),
             max(0, int((x0 - r) * px)):int((x1 + r) * px)] = True
        stray = ring & ink & ~covered
        assert not stray.any(), (game, (x0 / MM, y0 / MM), int(stray.sum()))


def test_a_wider_margin_holds_with_a_cutter(tmp_path):
    """--margin (or a printer profile's) wider than the machine's room is kept, from the PDF."""
    import pypdfium2 as pdfium

    out = build(coloured("coda"), tmp_path / "b.pdf", Options(cutter="brother", margin=20 * MM)).path
    w, h = pdfium.PdfDocument(str(out))[0].get_size()
    boxes = [b for page in _pages(out) for b in _card_boxes(page)]
    assert boxes and min(min(x0, y0, w - x1, h - y1) for x0, y0, x1, y1 in boxes) >= 20 * MM - TOL


def test_a_whole_game_for_a_cutter_nests_no_piece_where_the_machine_cannot_cut_it(tmp_path):
    """A board's tiled pages carry no registration marks, and a deck's free room lies partly
    outside its marks' frame: a token nested there would be printed but never cut."""
    pages = {}
    for extra in ([], ["--no-nesting"]):
        out = tmp_path / f"lighthouse{len(extra)}.pdf"
        done = CliRunner().invoke(main, ["build", "lighthouse", "--cutter", "silhouette", *extra,
                                         "-o", str(out)])
        assert done.exit_code == 0, done.output
        pages[bool(extra)] = len(page_streams(out.read_bytes()))
    assert pages[False] == pages[True], "pieces were nested onto pages the cutter cannot cut"


def test_export_cut_of_one_component_of_a_whole_game_lies_on_the_built_sheet(tmp_path):
    """A whole game is built for a cutter, but its cut lines were refused ('--format cut takes
    one deck'): `--component NAME` exports that component's, each line on the built PDF's
    outline of that component's sheets (`build --only NAME`, the same flags)."""
    def run(*args):
        return CliRunner().invoke(main, list(args))

    for name in ("tokens", "voyages"):
        pdf = tmp_path / f"{name}.pdf"
        r = run("build", "lighthouse", "--cutter", "silhouette", "--only", name, "-o", str(pdf))
        assert r.exit_code == 0, r.output
        r = run("export", "lighthouse", "--format", "cut", "--cutter", "silhouette",
                "--component", name, "-o", str(tmp_path / f"{name}-cut"))
        assert r.exit_code == 0, r.output
        fronts = [p for p in _pages(pdf) if _black_boxes(p)]
        assert fronts and not (tmp_path / f"{name}-cut" / f"sheet-{len(fronts) + 1}.svg").exists()
        for n, page in enumerate(fronts, 1):
            svg = (tmp_path / f"{name}-cut" / f"sheet-{n}.svg").read_text()
            _on_the_pdf_outlines(list(_svg_paths(svg)), page, name)
            _on_the_pdf_outlines(list(_dxf_paths(tmp_path / f"{name}-cut" / f"sheet-{n}.dxf")),
                                 page, name)
    r = run("export", "lighthouse", "--format", "cut", "--cutter", "silhouette")
    assert r.exit_code == 2 and r.output == (
        "error: lighthouse holds several components (board, voyages, weather, tokens, tiles): "
        "--format cut needs --component NAME (--component)\n"), r.output
    r = run("export", "lighthouse", "--format", "cut", "--component", "board")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "(--component)" in r.output
    r = run("export", "decktet", "--format", "png", "--component", "board")
    assert r.exit_code == 2 and "--component" in r.output
