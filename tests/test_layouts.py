"""Named layouts with `extends`, chosen per card: each card's face and back read from the PDF."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pdfgeom import drawing, page_streams

from generator.cli import main

CARDS = "name,type\nFireball,spell\nGoblin,creature\nShield,spell\n"
RED, GREEN, BLUE = (1, 0, 0), (0, 1, 0), (0, 0, 1)
PURPLE, YELLOW, DARK = (0.5, 0, 0.5), (1, 1, 0), (0, 0.5, 0)
GAME = """\
[deck]
source = "csv"
file = "cards.csv"
size = "poker"
layout = "{type}"

[layouts.base]
[[layouts.base.face]]
id = "frame"
type = "rect"
bleed = true
fill = "#ff0000"

[[layouts.base.face]]
id = "title"
type = "text"
text = "{name}"
x = "50%"
y = "10mm"
align = "center"

[[layouts.base.face]]
id = "badge"
type = "rect"
x = "5mm"
y = "70mm"
w = "5mm"
h = "5mm"
fill = "#00ff00"

[[layouts.base.back]]
id = "background"
type = "rect"
bleed = true
fill = "#0000ff"

[layouts.spell]
extends = "base"
[[layouts.spell.face]]
id = "frame"
fill = "#800080"

[[layouts.spell.face]]
id = "badge"
remove = true

[[layouts.spell.face]]
type = "ellipse"
x = "20mm"
y = "40mm"
w = "10mm"
h = "10mm"
fill = "#ffff00"

[[layouts.spell.back]]
id = "background"
fill = "#008000"

[layouts.creature]
extends = "base"
"""


def _game(tmp_path: Path, toml: str = GAME, cards: str = CARDS) -> Path:
    root = tmp_path / "g"
    root.mkdir(exist_ok=True)
    (root / "game.toml").write_text(toml)
    (root / "cards.csv").write_text(cards)
    return root


def _colours(c) -> tuple:
    return tuple(round(v, 1) for v in c)


def _pages(root: Path, tmp_path: Path, *args: str) -> list[list[tuple]]:
    """The fill colours each page draws, in drawing order (front, back, front, back...)."""
    out = tmp_path / "out.pdf"
    r = CliRunner().invoke(main, ["build", str(root), "--single", "-o", str(out), *args])
    assert r.exit_code == 0, r.output
    return [[_colours(f.color) for f in drawing(c).fills if len(f.color) == 3]
            for c in page_streams(out.read_bytes())]


def test_each_card_draws_its_own_layout_face_and_back(tmp_path):
    pages = _pages(_game(tmp_path), tmp_path)
    fronts, backs = pages[0::2], pages[1::2]
    spell_face, creature_face = [PURPLE, YELLOW], [RED, GREEN]
    assert [[c for c in p if c != (0, 0, 0)] for p in fronts] == [spell_face, creature_face,
                                                                 spell_face]
    assert backs == [[DARK], [BLUE], [DARK]]


def test_an_inherited_element_keeps_its_place_and_what_was_not_overridden(tmp_path):
    root = _game(tmp_path, GAME.replace('fill = "#800080"', 'fill = "#800080"\nx = "1mm"\n'
                                        'y = "1mm"\nw = "2mm"\nh = "2mm"'))
    front = [f for f in drawing(page_streams(_build(root, tmp_path))[0]).fills
             if _colours(f.color) == PURPLE][0]
    xs = [p[0] for p in front.points]
    assert round(max(xs) - min(xs), 1) == round(2 * 72 / 25.4, 1)  # overridden w
    # bleed = true still comes from base: the rect reaches 3 mm past the trim's left edge
    root2 = _game(tmp_path, GAME)
    front2 = [f for f in drawing(page_streams(_build(root2, tmp_path, "--bleed", "3mm"))[0]).fills
              if _colours(f.color) == PURPLE][0]
    assert round(min(p[0] for p in front2.points), 1) == 0.0


def _build(root: Path, tmp_path: Path, *args: str) -> bytes:
    out = tmp_path / "b.pdf"
    r = CliRunner().invoke(main, ["build", str(root), "--single", "--bleed", "0mm", "-o", str(out), *args])
    assert r.exit_code == 0, r.output
    return out.read_bytes()


def test_an_empty_choice_uses_the_top_level_elements(tmp_path):
    toml = GAME + '\n[[face]]\ntype = "rect"\nbleed = true\nfill = "#0000ff"\n'
    pages = _pages(_game(tmp_path, toml, CARDS + "Plain,\n"), tmp_path)
    assert pages[6] == [BLUE] and pages[7] == []  # the default layout has no back


def _error(root: Path) -> str:
    r = CliRunner().invoke(main, ["build", str(root), "-o", str(root / "x.pdf")])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    return lines[0]


@pytest.mark.parametrize("old, new, cards, words", [
    ("", "", CARDS + "Trap,trap\n", ["card #4 (Trap) asks for layout 'trap'",
                                     "layouts: base, spell, creature", "[deck].layout"]),
    ('extends = "base"\n[[layouts.spell.face]]', 'extends = "spel"\n[[layouts.spell.face]]',
     CARDS, ["extends 'spel', which is not a layout", "[layouts.spell].extends"]),
    ("[layouts.base]\n", '[layouts.base]\nextends = "creature"\n', CARDS,
     ["in a circle", "base -> creature -> base"]),
    ('layout = "{type}"\n', "", CARDS, ["no card chooses one"]),
    ('layout = "{type}"', 'layout = "{kind}"', CARDS, ["no column 'kind'", "[deck].layout"]),
    ('id = "badge"\nremove', 'id = "badges"\nremove', CARDS,
     ["no inherited element has the id 'badges'", "[[layouts.spell.face]] #2"]),
    ('id = "frame"\nfill = "#800080"', 'id = "frames"\nfill = "#800080"', CARDS,
     ["no type, but no inherited element has the id 'frames'", "[[layouts.spell.face]] #1"]),
    ('fill = "#800080"', 'fill = "#800080"\nsise = 3', CARDS,
     ["unknown parameter 'sise'", "[[layouts.spell.face]] #1"]),
    ("[layouts.creature]\n", "[layouts.creature]\nbacks = 1\n", CARDS,
     ["unknown key 'backs' in a layout", "[layouts.creature]"]),
], ids=["unknown-layout", "unknown-parent", "circle", "no-choice", "unknown-column",
        "remove-unknown", "override-unknown", "unknown-parameter", "unknown-key"])
def test_layout_mistakes_are_one_line_naming_where(tmp_path, old, new, cards, words):
    line = _error(_game(tmp_path, GAME.replace(old, new, 1) if old else GAME, cards))
    for word in words:
        assert word in line, line


def test_a_very_long_extends_chain_is_one_line(tmp_path):
    chain = "".join(f'[layouts.l{i}]\nextends = "l{i + 1}"\n' for i in range(2000))
    toml = GAME.replace('layout = "{type}"', 'layout = "l0"') + chain + "[layouts.l2000]\n"
    line = _error(_game(tmp_path, toml))
    assert "more than 20 deep" in line, line
