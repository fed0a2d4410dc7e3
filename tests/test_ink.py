"""Total ink within the limit a shop accepts, measured on Ghostscript's CMYK render of the PDFs
the commands write (tests/inks.py), images included; `pnp check` names the page and card that
carry the most ink."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from generator.cli import main
from tests.inks import total_ink

TEMPLATES = Path(__file__).parents[1] / "templates"


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code in (0, 1), result.output
    return result


def ember(tmp_path: Path, fire: str, dark_art: bool = False) -> Path:
    """A copy of emberfall with its fire colour changed (and its landscape art painted a very
    dark teal, which a plain conversion puts near 280 % of ink)."""
    game = tmp_path / "ember"
    shutil.copytree(TEMPLATES / "emberfall", game)
    toml = game / "game.toml"
    toml.write_text(re.sub(r'(?m)^fire = "#[0-9a-f]{6}"', f'fire = "{fire}"', toml.read_text()))
    if dark_art:
        for name in ("peaks.png", "pines.png"):
            with Image.open(game / "art" / name) as im:
                size = im.size
            Image.new("RGB", size, (0, 8, 8)).save(game / "art" / name)
    return game


def most(pdf: Path) -> float:
    return max(float(page.max()) for page in total_ink(pdf))


def test_drivethrucards_gets_at_most_240_percent(tmp_path):
    """The issue's deck: fire = #2a0808 reached 245 % at DriveThruCards (240 % its limit)."""
    game = ember(tmp_path, "#2a0808")
    run("export", game, "--shop", "drivethrucards", "-o", tmp_path / "dtc")
    assert most(tmp_path / "dtc" / "ember-drivethrucards.pdf") <= 240.5


def test_the_limit_is_the_shops_figure_or_300_images_included(tmp_path):
    """Near-black teal fills and art: a --cmyk build keeps them dark up to 300 %, the
    DriveThruCards file within its 240 %."""
    game = ember(tmp_path, "#000808", dark_art=True)
    run("build", game, "--single", "--cmyk", "-o", tmp_path / "cmyk.pdf")
    home = most(tmp_path / "cmyk.pdf")
    assert 250 < home <= 300.5
    run("export", game, "--shop", "drivethrucards", "-o", tmp_path / "dtc")
    pages = total_ink(tmp_path / "dtc" / "ember-drivethrucards.pdf")
    assert max(float(p.max()) for p in pages) <= 240.5
    # the art is capped too: a page showing it is mostly at the limit, not over it
    assert max(float((p > 235).mean()) for p in pages) > 0.2


def test_check_names_the_page_and_card_with_the_most_ink(tmp_path):
    game = ember(tmp_path, "#000808")
    said = run("check", game).output
    line = next(ln for ln in said.splitlines() if ln.startswith("total ink"))
    found = re.match(r"total ink at most (\d+) % \(limit 300 %\), on page (\d+): "
                     r"card #(\d+) \((.+)\) (front|back)$", line)
    assert found, line
    percent, card = int(found[1]), int(found[3])
    # measured: each card's front in a --single --cmyk build (a front then its back)
    run("build", game, "--single", "--cmyk", "-o", tmp_path / "cards.pdf")
    fronts = total_ink(tmp_path / "cards.pdf")[::2]
    per_card = [float(p.max()) for p in fronts]
    assert percent == pytest.approx(max(per_card), abs=2)
    assert per_card[card - 1] == pytest.approx(max(per_card), abs=2)
    with_shop = run("check", game, "--shop", "drivethrucards").output
    assert re.search(r"total ink at most 2[34]\d % \(limit 240 %\)", with_shop), with_shop
