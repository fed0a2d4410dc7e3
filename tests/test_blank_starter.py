"""`pnp new --blank`: a minimal game that builds, every key of its tables explained."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from generator.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("how", [["--blank"], ["--from", "blank"], []])
def test_the_blank_starter_builds_two_card_types(tmp_path, monkeypatch, how):
    monkeypatch.chdir(tmp_path)
    result = run("new", "mygame", *how)
    assert result.exit_code == 0, result.output
    assert "blank starter" in result.output
    assert sorted(p.name for p in Path("mygame").iterdir()) == ["cards.csv", "game.toml"]
    built = run("build", "mygame")
    assert built.exit_code == 0, built.output
    assert built.output.startswith("mygame: 8 cards on 2 pages")
    colours = {}
    for card in (1, 8):  # a creature and an action: the band is the type's colour
        assert run("preview", "mygame", "--card", card, "--dpi", 30).exit_code == 0
        png = Image.open(f"output/mygame-card-{card}.png").convert("RGB")
        colours[card] = png.getpixel((png.width // 2, round(8 / 25.4 * 30)))
    assert colours == {1: (0x8F, 0x3F, 0x2F), 8: (0x2F, 0x6F, 0x9F)}


def test_every_key_of_the_starters_tables_has_a_comment(tmp_path):
    assert run("new", tmp_path / "g", "--blank").exit_code == 0
    text = (tmp_path / "g" / "game.toml").read_text()
    data = tomllib.loads(text)
    for table in ("game", "deck", "print"):
        for key in data[table]:
            line = next(ln for ln in text.splitlines() if re.match(rf"{key}\s*=", ln))
            assert "#" in line.split("=", 1)[1], line
    assert (tmp_path / "g" / "cards.csv").read_text().startswith("name,type,cost,text,qty\n")


def test_blank_and_a_template_together_are_refused(tmp_path):
    result = run("new", tmp_path / "g", "--blank", "--from", "coda")
    assert result.exit_code == 2
    assert result.output.strip() == "error: give --blank or --from TEMPLATE, not both (pnp new)"
    assert not (tmp_path / "g").exists()
