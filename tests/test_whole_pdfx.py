"""`pnp build GAME --single --pdfx` for a whole game: one PDF/X-1a file per component, each
keeping every rule tests/pdfx_check.py reads from the file, with every piece on its own page."""

from __future__ import annotations

import json

import pikepdf
from click.testing import CliRunner

from generator.cli import main
from pnp_model.game import load_game
from tests.pdfx_check import check


def test_a_whole_game_is_a_pdfx_file_per_component(tmp_path):
    out = tmp_path / "lighthouse.pdf"
    r = CliRunner().invoke(main, ["build", "lighthouse", "--single", "--pdfx", "-o", str(out),
                                  "--json"])
    assert r.exit_code == 0, r.output
    said = json.loads(r.output)[0]
    game = load_game("lighthouse")
    files = {f["component"]: tmp_path / f"lighthouse-{f['component']}.pdf"
             for f in said["files"]}
    assert sorted(files) == sorted(c.name for c in game.components)
    for comp in game.components:
        data = files[comp.name].read_bytes()
        assert check(data) == {}, comp.name
        pdf = pikepdf.open(files[comp.name])
        sides = 2 if comp.deck.has_backs else 1
        assert len(pdf.pages) == len(comp.deck.cards) * sides, comp.name
        # each page is one piece with its bleed: the trim is the piece's own size
        trim = [float(v) for v in pdf.pages[0].TrimBox]
        assert abs((trim[2] - trim[0]) - comp.deck.width) < 0.01, comp.name
        assert abs((trim[3] - trim[1]) - comp.deck.height) < 0.01, comp.name
    assert "rules.png" in said["not in PDF/X"]
    assert not out.exists()  # no half game: only the components' files


def test_the_text_names_each_file(tmp_path):
    r = CliRunner().invoke(main, ["build", "lighthouse", "--single", "--pdfx", "--only",
                                  "tokens,weather", "-o", str(tmp_path / "l.pdf")])
    assert r.exit_code == 0, r.output
    assert "tokens (tokens): " in r.output and str(tmp_path / "l-tokens.pdf") in r.output
    assert str(tmp_path / "l-weather.pdf") in r.output
    assert not (tmp_path / "l-voyages.pdf").exists()


def test_pdfx_of_a_whole_game_without_single_is_a_one_line_error(tmp_path):
    r = CliRunner().invoke(main, ["build", "lighthouse", "--pdfx", "-o", str(tmp_path / "l.pdf")])
    assert r.exit_code == 2
    assert r.output == "error: PDF/X needs a trim box on every page: add --single (--pdfx)\n"
