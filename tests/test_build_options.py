"""`pnp build`'s options as a user meets them: --strict keeps the last good PDF, options that
cannot go together are refused alike, -o says plainly whether it is a file or a folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

WORDY = "word " * 400


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def blank(tmp_path: Path, monkeypatch, name: str = "g") -> Path:
    monkeypatch.chdir(tmp_path)
    assert run("new", name, "--blank").exit_code == 0
    return tmp_path / name


def test_strict_leaves_the_last_good_pdf_untouched(tmp_path, monkeypatch):
    game = blank(tmp_path, monkeypatch)
    assert run("build", "g").exit_code == 0
    good = (tmp_path / "output" / "g.pdf").read_bytes()
    (game / "cards.csv").write_text(f"name,type,cost,text,qty\nA,action,1,{WORDY},1\n")
    result = run("build", "g", "--strict")
    assert result.exit_code == 1
    assert (tmp_path / "output" / "g.pdf").read_bytes() == good  # the overflowing card is not
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("error:") and "did not write output/g.pdf" in last, last
    assert run("build", "g").exit_code == 0  # without --strict the warnings do not stop it
    assert (tmp_path / "output" / "g.pdf").read_bytes() != good


CLASHES = [  # options that ask for what another rules out, each tried alone on a blank game
    (["--fold", "--back-offset", "3mm,3mm"], "--fold, --back-offset"),
    (["--fold", "--grid", "2x2"], "--fold, --grid"),
    (["--fold", "--flip", "short"], "--fold, --flip"),
    (["--fold", "--no-backs"], "--fold, --no-backs"),
    (["--single", "--orientation", "landscape"], "--single, --orientation"),
    (["--single", "--marks", "full"], "--single, --marks"),
    (["--single", "--back-offset", "2mm,2mm"], "--single, --back-offset"),
    (["--single", "--grid", "2x2"], "--single, --grid"),
    (["--single", "--gutter", "2mm"], "--single, --gutter"),
    (["--single", "--margin", "8mm"], "--single, --margin"),
    (["--single", "--paper", "a3", "--bleed", "2mm"], "--paper, --bleed"),
    (["--cutter", "silhouette", "--marks", "full"], "--cutter, --marks"),
    (["--cutter", "silhouette", "--single"], "--cutter, --single"),
    (["--marks", "full", "--no-marks"], "--marks, --no-marks"),
]


@pytest.mark.parametrize("flags, named", CLASHES)
def test_every_clash_is_refused_alike_naming_both_options(tmp_path, monkeypatch, flags, named):
    blank(tmp_path, monkeypatch)
    result = run("build", "g", *flags)
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1, result.output
    assert result.output.startswith("error: ") and result.output.strip().endswith(f"({named})")
    assert not (tmp_path / "output" / "g.pdf").exists()


def test_a_default_yields_to_the_option_given(tmp_path, monkeypatch):
    """A game.toml that folds still builds --single or --grid: only options typed clash."""
    game = blank(tmp_path, monkeypatch)
    toml = game / "game.toml"
    toml.write_text(toml.read_text().replace("[print] ", "[print]\nfold = true\n#", 1))
    assert "fold" in run("build", "g").output
    for flags, said in ((["--single"], "bleed 3 mm"), (["--grid", "2x2"], "grid 2x2")):
        result = run("build", "g", *flags)
        assert result.exit_code == 0 and said in result.output and "fold" not in result.output


@pytest.mark.parametrize("flags", [["--bleed", "3000mm"], ["--bleed", "3000mm", "--single",
                                                            "--pdfx"]])
def test_a_bleed_past_any_shop_is_refused_at_bleed(tmp_path, monkeypatch, flags):
    blank(tmp_path, monkeypatch)
    result = run("build", "g", *flags)
    assert result.exit_code == 2 and result.output.strip().endswith("(--bleed)"), result.output
    assert run("build", "g", "--single", "--bleed", "5mm").exit_code == 0


@pytest.mark.parametrize("given, written", [("mine.pdf", "mine.pdf"), ("new/", "new/g.pdf"),
                                            ("dist", "dist/g.pdf")])
def test_o_is_a_pdf_file_or_a_folder(tmp_path, monkeypatch, given, written):
    blank(tmp_path, monkeypatch)
    (tmp_path / "dist").mkdir()
    result = run("build", "g", "-o", given)
    assert result.exit_code == 0 and result.output.strip().endswith(f"-> {written}")
    assert (tmp_path / written).read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("given, said", [("out.png", "neither a .pdf file nor a folder"),
                                         ("", "-o is empty")])
def test_o_that_is_neither_is_refused(tmp_path, monkeypatch, given, said):
    """`-o out.png` made a folder out.png holding g.pdf; `-o ''` wrote ./g.pdf."""
    blank(tmp_path, monkeypatch)
    result = run("build", "g", "-o", given)
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert said in result.output and result.output.strip().endswith("(--output)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g"]  # nothing written anywhere


def test_full_marks_offered_at_no_cost_do_not_claim_a_saving(tmp_path):
    """emberfall on Letter with --grid 3x3 offered "every mark on 3 sheets instead of 3"."""
    import re

    import pypdfium2 as pdfium

    forced, full = tmp_path / "forced.pdf", tmp_path / "full.pdf"
    result = run("build", "emberfall", "--paper", "letter", "--grid", "3x3", "-o", str(forced))
    (warning,) = [line for line in result.output.splitlines() if "crop marks" in line]
    assert "instead of" not in warning, warning
    offer = re.search(r"--marks full and no --grid for every mark on as few sheets \((\d+)\)",
                      warning)
    assert offer, warning
    result = run("build", "emberfall", "--paper", "letter", "--marks", "full", "-o", str(full))
    assert "crop marks" not in result.output  # every mark, as offered
    sheets = [len(pdfium.PdfDocument(str(p))) // 2 for p in (forced, full)]
    assert sheets == [int(offer.group(1))] * 2


def test_one_of_a_thing_is_said_in_the_singular(tmp_path, monkeypatch):
    """"1 cards", "1 pieces in 1 components": counts of one read as English."""
    game = blank(tmp_path, monkeypatch)
    (game / "cards.csv").write_text("name,type,cost,text,qty\nA,action,1,Hi.,1\n")
    said = run("build", "g").output
    assert said.startswith("g: 1 card on 2 pages (") and "1 cards" not in said
    said = run("build", "lighthouse", "--only", "board", "-o", "board.pdf").output
    assert said.startswith("lighthouse: 1 piece in 1 component on ")
    said = run("export", "g", "--format", "tts", "-o", "tts").output
    assert said.startswith("g: 1 card on 1 TTS sheet -> "), said
    said = run("export", "g", "-o", "png").output
    assert said.startswith("g: 1 distinct face of 1 card -> "), said


@pytest.mark.parametrize("flags, files", [([], ["game.pdf"]),
                                          (["--single", "--pdfx"], ["game-voyages.pdf"])])
def test_strict_keeps_a_whole_games_last_good_files(tmp_path, monkeypatch, flags, files):
    """A game of several components, one PDF or a PDF/X file per component: none replaced."""
    import shutil

    from pnp_model.catalog import bundled

    monkeypatch.chdir(tmp_path)
    shutil.copytree(bundled()["lighthouse"], tmp_path / "game")
    args = ("build", "game", "--only", "voyages", "-o", "out/game.pdf", "--strict", *flags)
    assert run(*args).exit_code == 0
    good = {f: (tmp_path / "out" / f).read_bytes() for f in files}
    voyages = tmp_path / "game" / "voyages.csv"
    voyages.write_text(voyages.read_text().replace("Move your boat two spaces.", WORDY, 1))
    result = run(*args)
    assert result.exit_code == 1 and "did not write out/game.pdf" in result.output
    assert {f: (tmp_path / "out" / f).read_bytes() for f in files} == good
