"""An offset never changes the layout, and `pnp calibrate` prints on the sheet the build uses:
page sizes and card positions read from the PDFs both commands write."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pdfgeom import drawing, page_streams

from generator.cli import main


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


def page_size(pdf: Path) -> tuple[float, float]:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return doc[0].get_size()
    finally:
        doc.close()


def turn(pdf: Path) -> str:
    w, h = page_size(pdf)
    return "landscape" if w > h else "portrait"


def front_cards(pdf: Path) -> int:
    """Cards drawn on the first front page: the fills of the card size (trim or bleed)."""
    fills = drawing(page_streams(pdf.read_bytes())[0]).fills
    boxes = set()
    for f in fills:
        xs, ys = [p[0] for p in f.points], [p[1] for p in f.points]
        w, h = max(xs) - min(xs), max(ys) - min(ys)
        if abs(w - 180) < 3 and abs(h - 252) < 3:  # a poker card, 63.5 x 88.9 mm
            boxes.add((round(min(xs)), round(min(ys))))
    return len(boxes)


def test_a_back_offset_keeps_emberfalls_portrait_3x3(tmp_path):
    plain, moved = tmp_path / "plain.pdf", tmp_path / "moved.pdf"
    run("build", "emberfall", "-o", plain)
    run("build", "emberfall", "--back-offset", "1mm,-0.5mm", "-o", moved)
    assert turn(plain) == turn(moved) == "portrait"
    assert page_size(moved) == pytest.approx(page_size(plain))
    assert front_cards(moved) == front_cards(plain) == 9
    assert len(pdfium.PdfDocument(str(moved))) == len(pdfium.PdfDocument(str(plain)))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibrate_game_prints_on_the_sheet_its_build_uses(tmp_path, paper):
    built, calibration = tmp_path / "built.pdf", tmp_path / "cal.pdf"
    run("build", "emberfall", "--paper", paper, "-o", built)
    said = run("calibrate", "emberfall", "--paper", paper, "-o", calibration).output
    assert page_size(calibration) == pytest.approx(page_size(built))
    assert f"{paper} {turn(built)}" in said


def test_calibrate_without_a_game_matches_a_new_games_build(tmp_path):
    """`pnp calibrate --paper letter` and `pnp build --paper letter` of a new game (poker cards)
    print on the same sheet: letter landscape, where calibrate used to print portrait."""
    game = tmp_path / "mine"
    run("new", game, "--blank")
    built, calibration = tmp_path / "built.pdf", tmp_path / "cal.pdf"
    run("build", game, "--paper", "letter", "-o", built)
    run("calibrate", "--paper", "letter", "-o", calibration)
    assert page_size(calibration) == pytest.approx(page_size(built))
    assert turn(calibration) == "landscape"


def test_calibrate_uses_the_default_printer_profile_as_the_build_does(tmp_path, monkeypatch):
    """A default profile turning over the short edge, with a 10 mm margin: the build printed
    decktet landscape, short edge, and calibrate a portrait sheet over the long edge, saying it
    was the build's and advising `--flip long`, which would have overwritten the profile's."""
    monkeypatch.setenv("PNP_CONFIG", str(tmp_path / "config"))
    run("printer", "save", "home", "--flip", "short", "--margin", "10mm")
    built, calibration = tmp_path / "built.pdf", tmp_path / "cal.pdf"
    run("build", "decktet", "--paper", "letter", "-o", built)
    said = run("calibrate", "decktet", "--paper", "letter", "-o", calibration).output
    assert page_size(calibration) == pytest.approx(page_size(built))
    assert b"/DuplexFlipShortEdge" in built.read_bytes()
    assert b"/DuplexFlipShortEdge" in calibration.read_bytes()
    assert "printer profile home" in said and "pnp printer save home --back-offset X,Y" in said
    assert "--flip" not in said


def test_calibrate_a_whole_game_on_its_first_double_sided_components_sheet(tmp_path):
    """`pnp calibrate lighthouse` refused ("this command takes one deck"): it now prints on the
    sheet of the first component printed on both sides (voyages), or of --component."""
    built, calibration = tmp_path / "built.pdf", tmp_path / "cal.pdf"
    run("build", "lighthouse", "--only", "voyages", "--paper", "letter", "-o", built)
    said = run("calibrate", "lighthouse", "--paper", "letter", "-o", calibration).output
    doc = pdfium.PdfDocument(str(built))
    # page 3: after the contents page and a blank one (a double-sided part starts on a front)
    assert page_size(calibration) == pytest.approx(doc[2].get_size())
    assert "`pnp build lighthouse` prints voyages on" in said
    r = CliRunner().invoke(main, ["calibrate", "lighthouse", "--component", "nope"])
    assert r.exit_code == 2 and "no component 'nope'" in r.output


@pytest.mark.parametrize("component", ["board", "tiles"])
def test_calibrating_a_one_sided_component_is_refused_naming_the_two_sided(tmp_path, component):
    """--component board blamed the board's size and suggested a --single calibrate lacks;
    --component tiles wrote a duplex sheet for pieces that have no back."""
    out = tmp_path / "cal.pdf"
    r = CliRunner().invoke(main, ["calibrate", "lighthouse", "--component", component,
                                  "-o", str(out)])
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert r.output.startswith(f"error: {component} is printed on one side")
    assert "(printed on both sides: voyages, weather) (--component)" in r.output
    assert not out.exists()
