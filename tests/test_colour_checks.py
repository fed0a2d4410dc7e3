"""`pnp check` names the colours that tell cards apart and that a colour-vision deficiency makes
too alike (CIEDE2000 of the simulated colours below the documented threshold)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from generator.access.colours import THRESHOLD
from generator.cli import main
from pnp_model.colour import ciede2000, ciede2000_lab

GAME = """\
[game]
title = "Suits"
description = "two suits told apart by colour only"

[deck]
source = "csv"
file = "cards.csv"
size = "poker"

[colors]
a = "{a}"
b = "{b}"

[[face]]
type = "rect"
bleed = true
fill = "{suit}"

[[face]]
type = "text"
text = "{n}"
x = "50%"
y = "20mm"
size = 12
align = "center"
"""


def _deck(tmp_path, a: str, b: str):
    root = tmp_path / "suits"
    root.mkdir()
    (root / "game.toml").write_text(GAME.replace("{a}", a).replace("{b}", b))
    (root / "cards.csv").write_text("n,suit\n1,a\n2,a\n3,b\n4,b\n")
    return root


def _check(root):
    r = CliRunner().invoke(main, ["check", str(root), "--json"])
    return r.exit_code, [f for f in json.loads(r.output) if f.get("check") == "colour-vision"]


def test_red_and_green_suits_are_flagged_for_deuteranopia(tmp_path):
    code, found = _check(_deck(tmp_path, "#d62728", "#2ca02c"))
    assert code == 1
    deutan = [f for f in found if f["deficiency"] == "deuteranopia"]
    assert len(deutan) == 1 and deutan[0]["difference"] < THRESHOLD
    assert [p["cards"] for p in deutan[0]["pair"]] == [[1, 2], [3, 4]]
    assert "give each its own symbol" in deutan[0]["message"]
    assert not [f for f in found if f["deficiency"] == "tritanopia"]


def test_yellow_and_pink_suits_are_flagged_for_tritanopia_only(tmp_path):
    """Tritanopes lose the blue-yellow axis: yellow meets pink (and blue meets green); a
    saturated blue and yellow stay apart by lightness (see docs/guides/accessibility.md)."""
    code, found = _check(_deck(tmp_path, "#e8c020", "#e89ab0"))
    assert code == 1
    assert {f["deficiency"] for f in found} == {"tritanopia"}


def test_a_shape_per_suit_makes_the_colour_a_second_cue(tmp_path):
    """Red and green suits that each also show their own shape (duplicon's way) pass; the same
    shapes varying card by card, not suit by suit, do not count."""
    root = _deck(tmp_path, "#d62728", "#2ca02c")
    (root / "game.toml").write_text((root / "game.toml").read_text() + (
        '\n[[face]]\ntype = "shape"\nname = "{mark}"\nx = "50%"\ny = "60mm"\nsize = "9mm"\n'))
    (root / "cards.csv").write_text("n,suit,mark\n1,a,circle\n2,a,circle\n3,b,star\n4,b,star\n")
    assert _check(root) == (0, [])
    (root / "cards.csv").write_text("n,suit,mark\n1,a,circle\n2,a,star\n3,b,star\n4,b,circle\n")
    code, found = _check(root)
    assert code == 1 and {f["deficiency"] for f in found} == {"deuteranopia"}


def test_colour_blind_safe_suits_pass(tmp_path):
    code, found = _check(_deck(tmp_path, "#1f77b4", "#ff7f0e"))  # blue and orange
    assert found == [] and code == 0


def test_ciede2000_matches_sharmas_published_test_data():
    """Pairs 1, 7, 17 and 25 of Sharma, Wu and Dalal (2005), Table 1, to their 4 decimals."""
    for lab1, lab2, expected in (((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
                                 ((50, 0, 0), (50, -1, 2), 2.3669),
                                 ((50, 2.5, 0), (73, 25, -18), 27.1492),
                                 ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387),
                                  1.2644)):
        assert abs(ciede2000_lab(lab1, lab2) - expected) < 1e-4
    assert abs(ciede2000((0, 0, 0), (1, 1, 1)) - 100) < 0.01


SYMBOLS = """\
[game]
title = "Shapes"
description = "a symbol deck with two near-identical icons"

[deck]
source = "plane"
size = "60x60mm"
shape = "circle"
options = { order = 2, symbols = ["square", "square-full", "heart", "star", "bell", "sun", "moon"] }

[[face]]
type = "symbols"
x = "4mm"
y = "4mm"
w = "52mm"
h = "52mm"
"""


def test_near_identical_symbol_silhouettes_are_named(tmp_path):
    root = tmp_path / "shapes"
    root.mkdir()
    (root / "game.toml").write_text(SYMBOLS)
    r = CliRunner().invoke(main, ["check", str(root), "--json"])
    found = [f for f in json.loads(r.output) if f.get("check") == "look-alike"]
    assert r.exit_code == 1, r.output
    assert [f["symbols"] for f in found] == [["square", "square-full"]]
    assert found[0]["overlap"] >= 0.9 and "use a clearly different icon" in found[0]["message"]


def test_the_bundled_symbol_decks_have_no_look_alike_icons():
    from generator.access.lookalike import check
    from generator.build import cards_of
    from pnp_model.definition import load

    for game in ("dobble", "dobble-connect"):
        deck = load(game)
        assert check(deck, cards_of(deck, ())) == [], game
