"""Text that runs off its card or onto another text is a build warning (`--strict` fails),
checked against the text's extent as drawn in the PDF, read back with pdfium."""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from pnp_model.units import MM

NAME = "Brass Lantern of the Deep Doom"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def long_name(tmp_path) -> Path:
    """The blank starter with its first card renamed to a name too long for its band."""
    game = tmp_path / "x"
    assert run("new", game, "--blank").exit_code == 0
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("Scout,", f"{NAME},", 1))
    return game


def drawn_texts(pdf: Path, page: int = 0) -> dict[str, tuple[float, float, float, float]]:
    """Each text object on a page (a one-card page: the trim box's origin) by its text: its
    bounds in mm from the trim's left and top."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(str(pdf))
    p = doc[page]
    x0, _, _, y1 = p.get_trimbox()
    textpage = p.get_textpage()
    found = {}
    for obj in p.get_objects(max_depth=4):
        if obj.type != raw.FPDF_PAGEOBJ_TEXT:
            continue
        n = raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
        buf = ctypes.create_string_buffer(n)
        raw.FPDFTextObj_GetText(obj.raw, textpage.raw,
                                ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)), n)
        left, bottom, right, top = obj.get_bounds()
        found[buf.raw.decode("utf-16-le").rstrip("\x00").strip()] = (
            (left - x0) / MM, (y1 - top) / MM, (right - x0) / MM, (y1 - bottom) / MM)
    doc.close()
    return found


def test_a_long_name_past_the_safe_area_and_under_the_cost_fails_strict(long_name, tmp_path):
    pdf = tmp_path / "x.pdf"
    strict = run("build", long_name, "--single", "--part", "all", "--strict", "-o", pdf)
    assert strict.exit_code == 1 and not pdf.exists(), strict.output  # the last good PDF stays
    assert "--strict" in strict.output.splitlines()[-1]
    result = run("build", long_name, "--single", "--part", "all", "-o", pdf)
    assert result.exit_code == 0, result.output
    texts = drawn_texts(pdf)
    name, cost = texts[NAME], texts["1"]
    # what the PDF draws: the name ends past the trim (63.5 mm) and over the cost
    assert name[2] > 63.5
    assert name[0] < cost[2] and cost[0] < name[2] and name[1] < cost[3] and cost[1] < name[3]
    warned = [ln for ln in result.output.splitlines() if ln.startswith("warning:")]
    past = [ln for ln in warned if "past the safe area" in ln]
    assert len(past) == 1 and f"card #1 ({NAME}), game.toml [[face]] #3 (text)" in past[0]
    mm = float(re.search(r"runs ([\d.]+) mm past the safe area at the right", past[0])[1])
    assert mm == pytest.approx(name[2] - (63.5 - 3), abs=0.5)  # measured: its right edge
    over = [ln for ln in warned if "overlaps" in ln]
    assert len(over) == 1 and "[[face]] #4" in over[0] and "[[face]] #3" in over[0]
    assert warned == [ln for ln in strict.output.splitlines() if ln.startswith("warning:")]


def test_the_starter_as_written_builds_strict(tmp_path):
    """Its name band, cost and footer all sit inside the safe area and apart: no warning."""
    game = tmp_path / "x"
    assert run("new", game, "--blank").exit_code == 0
    result = run("build", game, "--strict", "-o", tmp_path / "x.pdf")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output


def test_serve_shows_the_warning_with_its_card(long_name, tmp_path):
    """`pnp serve` shows the build's warnings: the state its page gets names the card."""
    from generator.build import Options
    from generator.serve.live import LiveBuild

    live = LiveBuild(long_name, Options(), tmp_path / "x.pdf")
    live.rebuild()
    warnings = live.state()["manifest"]["warnings"]
    named = [w for w in warnings if "past the safe area" in w["text"]]
    assert len(named) == 1 and NAME in named[0]["text"] and named[0]["cards"] == [1], warnings
