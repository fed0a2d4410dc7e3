"""`pnp check` names the colours that tell cards apart and that a colour-vision deficiency makes
too alike (CIEDE2000 of the simulated colours below the documented threshold)."""

from __future__ import annotations

import json

import pytest
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
{colors}

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


def _deck(tmp_path, *colours: str, names="ab"):
    """A deck of two cards per suit, each suit (a, b, ... or `names`) filled in its colour."""
    root = tmp_path / "suits"
    root.mkdir(parents=True)
    colors = "\n".join(f'{n} = "{c}"' for n, c in zip(names, colours, strict=True))
    (root / "game.toml").write_text(GAME.replace("{colors}", colors))
    (root / "cards.csv").write_text("n,suit\n" + "".join(
        f"{2 * i + k + 1},{n}\n" for i, n in enumerate(names) for k in range(2)))
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


# Tritan confusion lines: colours a tritanope cannot tell apart lie, in the CIE 1931 xy diagram,
# on one line through the tritan copunctal point (Smith and Pokorny 1975; Wyszecki and Stiles,
# Color Science, table 8.2.5) and have the same luminance Y. The line through white joins violet
# blue to yellow; steeper lines join sky blue to green.
TRITAN_COPUNCTAL = (0.1748, 0.0052)


def _xyY(hex_colour: str) -> tuple[float, float, float]:
    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(hex_colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b
    return x / (x + y + z), y / (x + y + z), y


def _on_one_tritan_line(a: str, b: str) -> bool:
    """Within 1 degree of one line through the copunctal point, luminance within 3 %."""
    import math

    (xa, ya, ya_lum), (xb, yb, yb_lum) = _xyY(a), _xyY(b)
    cx, cy = TRITAN_COPUNCTAL
    turn = math.degrees(math.atan2(ya - cy, xa - cx) - math.atan2(yb - cy, xb - cx))
    return abs(turn) < 1 and abs(ya_lum - yb_lum) < 0.03 * max(ya_lum, yb_lum)


@pytest.mark.parametrize("blue, other", [("#c391f0", "#b4aa50"), ("#73afff", "#00c837")],
                         ids=["lavender-blue/olive-yellow", "sky-blue/green"])
def test_a_pair_on_one_tritan_confusion_line_is_flagged_for_tritanopia_only(tmp_path, blue,
                                                                            other):
    """A blue/yellow and a blue/green pair chosen from the tritan confusion lines (not from the
    simulation) are flagged for tritanopia and for nothing else. A saturated blue and yellow
    are not such a pair: they differ in lightness, which a tritanope still sees."""
    assert _on_one_tritan_line(blue, other)
    code, found = _check(_deck(tmp_path, blue, other))
    assert code == 1
    assert [f["deficiency"] for f in found] == ["tritanopia"]
    assert [p["value"] for p in found[0]["pair"]] == ["a", "b"]
    assert not _on_one_tritan_line("#0000ff", "#ffff00")
    assert _check(_deck(tmp_path / "saturated", "#0000ff", "#ffff00")) == (0, [])


OKABE_ITO = {"black": "#000000", "orange": "#e69f00", "skyblue": "#56b4e9",
             "bluishgreen": "#009e73", "yellow": "#f0e442", "blue": "#0072b2",
             "vermillion": "#d55e00", "reddishpurple": "#cc79a7"}


def test_okabe_itos_palette_passes_but_for_orange_and_purple_under_tritanopia(tmp_path):
    """Okabe and Ito's palette, made for protans and deutans: its seven first colours pass for
    all three deficiencies; its reddish purple meets its orange for a tritanope."""
    seven = [n for n in OKABE_ITO if n != "reddishpurple"]
    assert _check(_deck(tmp_path, *(OKABE_ITO[n] for n in seven), names=seven)) == (0, [])
    code, found = _check(_deck(tmp_path / "all", *OKABE_ITO.values(), names=list(OKABE_ITO)))
    assert code == 1
    assert [(f["deficiency"], sorted(p["value"] for p in f["pair"])) for f in found] == [
        ("tritanopia", ["orange", "reddishpurple"])]


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


def _symbol_deck(tmp_path, symbols: str, extra: str = "", name: str = "shapes"):
    root = tmp_path / name
    root.mkdir()
    (root / "game.toml").write_text(SYMBOLS.replace(
        'options = { order = 2, symbols = ["square", "square-full", "heart", "star", "bell", '
        '"sun", "moon"] }', f"options = {{ order = 2, symbols = {symbols} }}") + extra)
    return root


def test_symbol_colours_a_deficiency_merges_are_named_with_their_symbols(tmp_path):
    """Each symbol keeps one palette colour on every card; red and green symbols lose that cue
    for a deuteranope, and the finding names the symbols drawn in each colour. Okabe-Ito's
    colours keep it."""
    icons = '["heart", "star", "bell", "sun", "moon", "anchor", "key"]'
    red_green = '\ncolors = ["#d62728", "#2ca02c", "#000000"]\n'
    r = CliRunner().invoke(main, ["check", str(_symbol_deck(tmp_path, icons, red_green)),
                                  "--json"])
    found = [f for f in json.loads(r.output) if f.get("check") == "colour-vision"]
    assert r.exit_code == 1
    assert [f["deficiency"] for f in found] == ["deuteranopia"], found
    red, green = (p["symbols"] for p in found[0]["pair"])  # 7 symbols in turn: 3, 2 and 2
    assert (len(red), len(green)) == (3, 2) and not set(red) & set(green)
    assert set(red + green) < set(json.loads(icons))
    assert ", ".join(red) in found[0]["message"] and ", ".join(green) in found[0]["message"]
    safe = '\ncolors = ["#e69f00", "#56b4e9", "#009e73", "#000000"]\n'
    r = CliRunner().invoke(main, ["check", str(_symbol_deck(tmp_path, icons, safe, "safe")),
                                  "--json"])
    assert r.exit_code == 0 and json.loads(r.output) == [], r.output


def _shape_png(path, draw) -> None:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (200, 200), "white")  # a plain background the build removes
    draw(ImageDraw.Draw(image))
    image.save(path)


def test_look_alike_silhouettes_of_the_users_own_art_are_named(tmp_path):
    """A symbol deck of the user's own PNG and SVG art: a square and its near copy (an SVG
    with slightly rounded corners, drawn at another size) are named; five clearly different
    shapes are not."""
    root = tmp_path / "art"
    (root / "art").mkdir(parents=True)
    ink = "#1a4f8a"
    shapes = {
        "square": lambda d: d.rectangle((30, 30, 170, 170), fill=ink),
        "disc": lambda d: d.ellipse((20, 20, 180, 180), fill=ink),
        "triangle": lambda d: d.polygon([(100, 15), (185, 180), (15, 180)], fill=ink),
        "bar": lambda d: d.rectangle((20, 85, 180, 115), fill=ink),
        "cross": lambda d: (d.rectangle((80, 15, 120, 185), fill=ink),
                            d.rectangle((15, 80, 185, 120), fill=ink)),
        "ring": lambda d: (d.ellipse((20, 20, 180, 180), fill=ink),
                           d.ellipse((60, 60, 140, 140), fill="white")),
    }
    for name, draw in shapes.items():
        _shape_png(root / "art" / f"{name}.png", draw)
    (root / "art" / "tile.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">'
        '<rect x="4" y="4" width="56" height="56" rx="3" fill="#1a4f8a"/></svg>')
    (root / "game.toml").write_text(SYMBOLS.replace(
        'options = { order = 2, symbols = ["square", "square-full", "heart", "star", "bell", '
        '"sun", "moon"] }', 'options = { order = 2, symbols = "folder:art" }'))
    r = CliRunner().invoke(main, ["check", str(root), "--json"])
    found = [f for f in json.loads(r.output) if f.get("check") == "look-alike"]
    assert r.exit_code == 1, r.output
    assert [sorted(f["symbols"]) for f in found] == [["square", "tile"]], found
    assert found[0]["overlap"] >= 0.9


def test_the_bundled_symbol_decks_palettes_stay_apart_for_every_deficiency():
    """The built-in palette Dobble and Dobble Connect draw their icons in: no two of its
    colours merge for a protanope, a deuteranope or a tritanope."""
    from generator.access.colours import check
    from generator.build import cards_of
    from pnp_model.definition import load

    for game in ("dobble", "dobble-connect"):
        deck = load(game)
        assert [str(f) for f in check(deck, cards_of(deck, ())) if f.a.symbols] == [], game


def test_no_bundled_template_tells_its_cards_apart_by_colours_a_deficiency_merges():
    """Our own templates pass our own check (Dobble Connect's team borders were orange and
    green, alike for a protanope, and green and blue for a tritanope)."""
    from generator.access.colours import check
    from generator.build import cards_of
    from pnp_model.catalog import bundled
    from pnp_model.game.reading import load_game

    for game in bundled():
        for deck in (c.deck for c in load_game(game).components):
            assert [str(f) for f in check(deck, cards_of(deck, ()))] == [], game
