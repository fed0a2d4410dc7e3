"""The definition loader: valid definitions load with stable ids; every kind of bad input is
reported in one line that names the file and the field, CSV line or card."""

from pathlib import Path

import pytest

from pnp_model.definition import load
from pnp_model.errors import PnpError
from pnp_model.units import to_mm


def test_valid_definition_expands_qty_and_numbers_cards(mini):
    deck = load(mini)
    assert [c.id for c in deck.cards] == [1, 2, 3, 4, 5, 6]
    assert [c["name"] for c in deck.cards] == ["Alpha"] * 2 + ["Beta"] + ["Gamma"] * 3
    assert [c["copy"] for c in deck.cards[:2]] == ["1", "2"]
    assert round(to_mm(deck.width), 2) == 63.5 and round(to_mm(deck.height), 2) == 88.9
    assert deck.has_backs


def test_ids_are_stable_across_loads(mini):
    assert load(mini).cards == load(mini).cards


def test_bundled_templates_load_by_name():
    decktet = load("decktet")
    assert len(decktet.cards) == 45 and len(decktet.select()) == 36
    assert len(decktet.select(("extended",))) == 9
    assert len(load("duplicon").cards) == 99
    assert len(load("coda").cards) == 26


def _edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / name
    text = path.read_text()
    assert old in text, f"test setup: {old!r} not in {name}"
    path.write_text(text.replace(old, new, 1))  # one mistake: one line


BAD_INPUTS = [
    # (file, old, new, expected words in the message)
    ("game.toml", 'size = "poker"', 'size = "jumbo"', ["unknown size 'jumbo'", "[deck].size"]),
    ("game.toml", 'corner_radius = "3mm"', 'corner_radius = "3xx"', ["unknown unit", "corner_radius"]),
    ("game.toml", '[deck]', '[deck\n', ["malformed TOML", "game.toml"]),
    ("game.toml", 'text = "{name}"', 'text = "{title}"', ["no column 'title'", "[[face]] #2"]),
    ("game.toml", 'type = "text"', 'type = "txt"', ["unknown element type 'txt'", "[[face]] #2"]),
    ("game.toml", 'size = 12', 'sise = 12', ["unknown parameter 'sise'", "[[face]] #2"]),
    ("game.toml", 'file = "cards.csv"', 'file = "cardz.csv"', ["'cardz.csv' not found"]),
    ("game.toml", 'source = "csv"', 'source = "magic"', ["unknown card source 'magic'"]),
    ("game.toml", 'team = "#123456"', 'team = "#12345"', ["not #rrggbb", "[colors]"]),
    ("game.toml", 'bleed = true', 'bleed = "yes"', ["expected true or false", "bleed"]),
    ("game.toml", '[deck]', '[deck]\nshape = "oval"', ["unknown card shape 'oval'"]),
    ("game.toml", '[deck]', '[deck]\ncolour = "red"', ["unknown key 'colour' in [deck]"]),
    ("cards.csv", "Alpha,red,2", "Alpha,red,-2", ["qty cannot be negative", "cards.csv:2"]),
    ("cards.csv", "Beta,#00ff00,1", "Beta,#00ff00,one", ["qty must be a whole number",
                                                        "cards.csv:3"]),
    ("cards.csv", "Gamma,team,3", "Gamma,teal,3", ["unknown colour 'teal'", "card 4"]),
    ("cards.csv", "Beta,#00ff00,1", "Beta,#00ff00,1,extra", ["more values than the header",
                                                            "cards.csv:3"]),
    ("cards.csv", "name,color,qty", "name,name,qty", ["empty or repeated column"]),
    # one value left out moved the next one under the wrong column (a qty read as a colour)
    ("cards.csv", "Beta,#00ff00,1", "Beta,1", ["has 2 values and the header 3 columns",
                                              "cards.csv:3"]),
    # typos that used to pass silently, and values that used to crash the renderer
    ("game.toml", "[colors]", "[colours]", ["unknown table [colours]"]),
    ("game.toml", 'title = "Mini"', 'titel = "Mini"', ["unknown key 'titel' in [game]"]),
    ("game.toml", 'text = "{name}"', 'text = "{name:d}"', ["bad placeholder", "[[face]] #2"]),
    ("game.toml", 'text = "{name}"', 'text = "{name"', ["bad placeholder", "[[face]] #2"]),
    ("game.toml", "size = 12", "size = 0", ["more than 0", "[[face]] #2 (text).size"]),
    ("game.toml", 'align = "center"', 'align = "centre"', ["align must be one of", ".align"]),
    ("game.toml", 'fill = "team"', 'fill = "team"\nopacity = 5', ["opacity", "[[back]] #1"]),
    ("game.toml", "[deck]", '[deck]\ndefault_parts = "basic"', ["default_parts must be a list"]),
    ("game.toml", "[colors]", '[print]\nbleed = "-3mm"\n[colors]', ["negative", "[print].bleed"]),
    ("game.toml", "[colors]", '[print]\npaper = "a9"\n[colors]', ["unknown paper 'a9'",
                                                                   "[print].paper"]),
    ("game.toml", "[colors]", '[print]\nback_offset = ["50mm", "0mm"]\n[colors]',
     ["more than 20 mm", "back_offset"]),
    ("game.toml", "[[back]]", '[[face]]\ntype = "image"\nfile = "a.png"\nfit = "crop"\n[[back]]',
     ["fit must be one of contain, stretch, cover", "[[face]] #3"]),
    ("game.toml", "[[back]]", '[[face]]\ntype = "symbols"\n[[back]]',
     ["no card has symbols", "[[face]] #3"]),
    ("game.toml", "size = 12", "size = 12\nshrink = true", ["needs the width w", "[[face]] #2"]),
    ("cards.csv", "Alpha,red,2", "Alpha,red,20000", ["more than 10000", "cards.csv:2"]),
    ("cards.csv", "name,color,qty", "id,color,qty", ["column cannot be named 'id'", "cards.csv:2"]),
    ("cards.csv", "Beta,#00ff00,1", '"Beta,#00ff00,1', ["malformed CSV", "cards.csv:"]),
]


@pytest.mark.parametrize("fname, old, new, words", BAD_INPUTS,
                         ids=[w[0] for *_, w in BAD_INPUTS])
def test_bad_input_is_reported_with_what_and_where(mini, fname, old, new, words):
    _edit(mini, fname, old, new)
    with pytest.raises(PnpError) as e:
        load(mini)
    message = str(e.value)
    assert "\n" not in message
    for word in words:
        assert word in message


def test_missing_image_names_the_file_and_card(mini):
    _edit(mini, "game.toml", "[[back]]", '[[face]]\ntype = "image"\nfile = "art/{name}.png"\n\n[[back]]')
    (mini / "art").mkdir()
    from PIL import Image

    for name in ("Alpha", "Beta"):
        Image.new("RGB", (4, 4)).save(mini / "art" / f"{name}.png")
    with pytest.raises(PnpError, match=r"missing image 'art/Gamma.png' \(card 4"):
        load(mini)


def test_unknown_game_lists_bundled_templates():
    with pytest.raises(PnpError, match="decktet"):
        load("no-such-game")


def test_definition_loader_does_not_import_reportlab():
    import subprocess
    import sys

    code = ("import sys; from pnp_model.definition import load; load('decktet'); "
            "print(any(m.startswith(('reportlab', 'PIL')) for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_renderer_does_not_import_the_loader():
    """Render draws what the plan says: it takes the card values it needs from cardvalues,
    never the definition reader (design: the plan carries everything render needs)."""
    import subprocess
    import sys

    code = ("import sys, generator.render.pdf, generator.render.registry as r; r.load_drawers(); "
            "print(sorted(m for m in sys.modules if m in ('pnp_model.definition', "
            "'pnp_model.sources', 'pnp_model.layouts')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_file_saved_in_another_encoding_names_the_line(mini):
    with open(mini / "cards.csv", "ab") as f:
        f.write("Café,red,1\n".encode("latin-1"))
    with pytest.raises(PnpError, match=r"not UTF-8 text .*\(cards.csv:5\)"):
        load(mini)
