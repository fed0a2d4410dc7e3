"""The bundled example game, Emberfall: what its definition promises, read from the built PDF."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from pdfgeom import drawing, page_streams

from generator.cli import main
from pnp_model.definition import load

UNIT_BACK, SPELL_BACK = (0x3A, 0x15, 0x10), (0x10, 0x23, 0x3D)
GOLD = (0xE0, 0xB4, 0x3A)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    out = tmp_path_factory.mktemp("emberfall") / "emberfall.pdf"
    r = CliRunner().invoke(main, ["build", "emberfall", "--single", "-o", str(out)])
    assert r.exit_code == 0, r.output
    return [drawing(c) for c in page_streams(out.read_bytes())]


def _rgb(fill) -> tuple[int, ...]:
    return tuple(round(v * 255) for v in fill.color)


def test_units_and_spells_have_their_own_backs(pages):
    cards = load("emberfall").cards
    backs = [_rgb(p.fills[0]) for p in pages[1::2]]
    assert backs == [UNIT_BACK if c["type"] == "unit" else SPELL_BACK for c in cards]
    assert {c["type"] for c in cards} == {"unit", "spell"}


def test_the_legendary_star_is_only_on_legendary_cards(pages):
    cards = load("emberfall").cards
    # the star: a gold fill in the top-right corner of the card (cost discs are top-left)
    starred = [any(_rgb(f) == GOLD and min(x for x, _ in f.points) > 40 * 72 / 25.4
                   for f in p.fills) for p in pages[0::2]]
    assert starred == [c["rarity"] == "legendary" for c in cards]
    assert any(starred)
