"""Printer profiles: saved, listed, shown, removed in the config folder (a temporary one here),
and applied to builds: a build with a profile is byte for byte the build with its options
given by hand, and differs from a build without it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from generator.cli import main


@pytest.fixture
def pnp(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CONFIG", str(tmp_path / "config"))

    def run(*args):
        return CliRunner().invoke(main, list(args))
    return run


def test_save_list_show_remove(pnp, tmp_path):
    assert "no printer profiles" in pnp("printer", "list").output
    r = pnp("printer", "save", "home", "--back-offset", "1mm,-0.5mm", "--flip", "short",
            "--margin", "8mm")
    assert r.exit_code == 0 and "(default)" in r.output
    assert (tmp_path / "config" / "printers.json").exists()
    pnp("printer", "save", "office", "--margin", "5mm")
    listed = json.loads(pnp("printer", "list", "--json").output)
    assert listed["default"] == "home" and set(listed["printers"]) == {"home", "office"}
    shown = json.loads(pnp("printer", "show", "home", "--json").output)
    assert shown["back_offset_mm"] == [1.0, -0.5] and shown["flip"] == "short"
    assert shown["margin_mm"] == 8.0
    assert pnp("printer", "remove", "home").exit_code == 0
    listed = json.loads(pnp("printer", "list", "--json").output)
    assert listed["default"] is None and set(listed["printers"]) == {"office"}
    r = pnp("printer", "remove", "home")
    assert r.exit_code == 2 and r.output.startswith("error: no printer profile 'home'")
    r = pnp("printer", "save", "../evil")
    assert r.exit_code == 2 and r.output.startswith("error: a printer name")


def test_a_build_with_a_profile_differs_exactly_by_it(pnp, tmp_path):
    pnp("printer", "save", "home", "--back-offset", "1.5mm,-0.5mm", "--flip", "short",
        "--margin", "9mm")
    r = pnp("build", "decktet", "-o", str(tmp_path / "profile.pdf"))  # the default applies
    assert r.exit_code == 0 and "printer profile home: back offset 1.5mm,-0.5mm" in r.output
    pnp("build", "decktet", "--printer", "none", "-o", str(tmp_path / "plain.pdf"))
    by_hand = pnp("build", "decktet", "--printer", "none", "--back-offset", "1.5mm,-0.5mm",
                  "--flip", "short", "--margin", "9mm", "-o", str(tmp_path / "hand.pdf"))
    assert by_hand.exit_code == 0
    profile, plain = (tmp_path / "profile.pdf").read_bytes(), (tmp_path / "plain.pdf").read_bytes()
    assert profile != plain
    # the profile's build is the build with its three settings given by hand, byte for byte
    assert profile == (tmp_path / "hand.pdf").read_bytes()
    # an option given on the command line wins over the profile
    pnp("build", "decktet", "--flip", "long", "--back-offset", "0mm,0mm", "--margin", "6mm", "-o",
        str(tmp_path / "over.pdf"))
    assert (tmp_path / "over.pdf").read_bytes() == plain


def test_the_margin_of_a_profile_keeps_marks_clear_of_it(pnp, tmp_path):
    """A printer that cannot print 14 mm from the edge: crop marks stay inside it."""
    import pypdfium2 as pdfium
    from pdfgeom import drawing, page_streams

    from pnp_model.units import MM

    pnp("printer", "save", "wide", "--margin", "14mm")
    pnp("build", "dominoes", "--printer", "wide", "-o", str(tmp_path / "m.pdf"))
    pnp("build", "dominoes", "--printer", "none", "-o", str(tmp_path / "n.pdf"))
    for name, margin in (("m", 14 * MM), ("n", 6 * MM)):
        data = (tmp_path / f"{name}.pdf").read_bytes()
        page = drawing(page_streams(data)[0])
        w, h = pdfium.PdfDocument(data)[0].get_size()
        near = min(min(x, w - x, y, h - y) for seg in page.strokes for x, y in seg)
        assert page.strokes and near >= margin - 0.01, (name, near / MM)
    assert (tmp_path / "m.pdf").read_bytes() != (tmp_path / "n.pdf").read_bytes()


def test_none_is_not_a_printer_name(pnp, tmp_path):
    """`--printer none` asks for no profile, so a profile saved as `none` became the default
    of every build and could never be picked by name: its name is refused."""
    for name in ("none", "None"):
        r = pnp("printer", "save", name, "--back-offset", "2mm,0mm")
        assert r.exit_code == 2 and "--printer none" in r.output, r.output
    assert "no printer profiles" in pnp("printer", "list").output


def test_a_margin_no_paper_could_print_with_is_refused_and_a_profiles_value_is_named(pnp,
                                                                                     tmp_path):
    """`printer save big --margin 500mm` was accepted; builds then blamed --paper or --margin,
    flags never typed. The bound is the one `build --margin` has; a profile's value that does
    not fit is named at the profile."""
    r = pnp("printer", "save", "big", "--margin", "500mm")
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert r.output.startswith("error: a printer margin of 500 mm") and r.output.endswith(
        "(--margin)\n"), r.output
    assert "no printer profiles" in pnp("printer", "list").output
    r = pnp("build", "decktet", "--margin", "500mm", "-o", str(tmp_path / "d.pdf"))
    assert r.exit_code == 2 and r.output.startswith("error: a printer margin of 500 mm")
    # within the bound, but too wide for a card on A5: the profile is named, not a flag
    assert pnp("printer", "save", "wide", "--margin", "45mm").exit_code == 0
    r = pnp("build", "decktet", "--paper", "a5", "-o", str(tmp_path / "d.pdf"))
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert r.output.rstrip().endswith("(--paper, printer profile wide: margin)"), r.output
    r = pnp("build", "lighthouse", "--only", "board", "--paper", "120x120mm", "-o",
            str(tmp_path / "l.pdf"))
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert r.output.rstrip().endswith("(--paper, printer profile wide: margin)"), r.output
    # a profile saved before the bound existed is named at the profile too
    path = tmp_path / "config" / "printers.json"
    data = json.loads(path.read_text())
    data["printers"]["wide"]["margin_mm"] = 500
    path.write_text(json.dumps(data))
    r = pnp("build", "lighthouse", "-o", str(tmp_path / "l.pdf"))
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert r.output.startswith("error: a printer margin of 500 mm")
    assert r.output.rstrip().endswith("(printer profile wide: margin)"), r.output
