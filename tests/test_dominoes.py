"""Domino sets (triangular and classic), the set check `pnp verify` uses, pips, and the two
bundled domino templates."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest

from generator.render.pips import PATTERNS, draw_pips, pip_centres
from generator.render.registry import Ctx
from pnp_model.components import Card
from pnp_model.definition import load
from pnp_model.designs.dominoes import canonical, check_set, classic_set, triangle_set
from pnp_model.errors import PnpError


def tiles(*readings: str, start: int = 1) -> list[Card]:
    out = []
    for i, r in enumerate(readings):
        keys = ("a", "b", "c")[: len(r.split("-"))]
        out.append(Card(start + i, dict(zip(keys, r.split("-"), strict=True))))
    return out


def test_the_triangular_set_has_56_tiles_of_three_kinds():
    tiles_ = triangle_set(5)
    assert len(tiles_) == 56
    kinds = Counter(len(set(t)) for t in tiles_)
    assert kinds == {1: 6, 2: 30, 3: 20}


def test_triangular_tiles_read_ascending_clockwise_and_are_unique_under_turning():
    tiles_ = triangle_set(5)
    assert all(a <= b <= c for a, b, c in tiles_)
    assert len({canonical(t) for t in tiles_}) == 56
    # no tile is the mirror image of another: 0-2-1 (mirror of 0-1-2) is a different tile
    mirrors = {canonical((a, c, b)) for a, b, c in tiles_ if len({a, b, c}) == 3}
    assert not mirrors & {canonical(t) for t in tiles_}


@pytest.mark.parametrize("top,count", [(6, 28), (9, 55), (12, 91)])
def test_classic_sets(top, count):
    assert len(classic_set(top)) == count
    assert len(set(classic_set(top))) == count


def test_turning_a_tile_keeps_it_flipping_makes_another():
    assert canonical((1, 2, 0)) == canonical((0, 1, 2)) == canonical((2, 0, 1))
    assert canonical((0, 2, 1)) != canonical((0, 1, 2))
    assert canonical((5, 3)) == canonical((3, 5))


def test_the_bundled_tripple_domino_set_is_complete_and_unique():
    deck = load("tripple-domino")
    assert len(deck.cards) == 56
    assert check_set(deck.cards, top=5) == []
    for card in deck.cards:
        assert int(card["value"]) == int(card["a"]) + int(card["b"]) + int(card["c"])
    assert deck.card(56).fields["a"] == "5" and deck.card(56)["value"] == "15"


def test_check_set_finds_a_missing_tile():
    cards = tiles(*(f"{a}-{b}-{c}" for a, b, c in triangle_set(5) if (a, b, c) != (1, 2, 3)))
    problems = check_set(cards, top=5)
    assert len(problems) == 1
    assert "1-2-3" in problems[0].why and "missing" in problems[0].why


def test_check_set_finds_a_turned_duplicate():
    cards = tiles(*(f"{a}-{b}-{c}" for a, b, c in triangle_set(5)), "2-0-1", start=1)
    problems = check_set(cards, top=5)
    assert len(problems) == 1
    first = triangle_set(5).index((0, 1, 2)) + 1
    assert problems[0].cards == (first, 57)
    assert "0-1-2 appears 2 times" in problems[0].why


def test_check_set_finds_a_mirror_image():
    readings = [f"{a}-{b}-{c}" for a, b, c in triangle_set(5)]
    where = readings.index("0-1-2")
    readings[where] = "0-2-1"
    problems = check_set(tiles(*readings), top=5)
    assert [p.cards for p in problems] == [(where + 1,)]
    assert "mirror image of 0-1-2" in problems[0].why


def test_check_set_for_classic_dominoes():
    full = [f"{a}-{b}" for a, b in classic_set(6)]
    assert check_set(tiles(*full)) == []
    problems = check_set(tiles(*full, "5-2"))
    assert len(problems) == 1 and "2-5 appears 2 times" in problems[0].why
    problems = check_set(tiles(*full[:-1]))  # without 6-6 the highest value seen is 6 still
    assert any("6-6" in p.why for p in problems)
    problems = check_set(tiles(*full, "7-1"), top=6)
    assert any("values must be 0 to 6" in p.why for p in problems)


def test_check_set_names_a_card_that_is_not_a_number():
    problems = check_set(tiles("0-x"))
    assert problems[0].cards == (1,) and "whole numbers" in problems[0].why


def test_the_bundled_dominoes_are_a_double_six_set():
    deck = load("dominoes")
    assert len(deck.cards) == 28
    assert check_set(deck.cards) == []
    assert deck.properties["count"] == 28


def _copy_with(tmp_path, old, new):
    root = tmp_path / "dom"
    shutil.copytree(load("dominoes").root, root)
    toml = root / "game.toml"
    text = toml.read_text()
    assert old in text
    toml.write_text(text.replace(old, new))
    return root


def test_double_nine_is_one_option_away(tmp_path):
    deck = load(_copy_with(tmp_path, "max = 6", "max = 9"))
    assert len(deck.cards) == 55
    assert check_set(deck.cards, top=9) == []


def test_a_bad_max_is_a_user_error(tmp_path):
    with pytest.raises(PnpError) as err:
        load(_copy_with(tmp_path, "max = 6", 'max = "nine"'))
    assert "options.max" in err.value.where


# --- pips ---------------------------------------------------------------------------------


@pytest.mark.parametrize("value", range(10))
def test_pip_patterns_show_the_value(value):
    centres = pip_centres(value, 0, 0, 20, 20)
    assert len(centres) == value == len(set(centres))
    assert all(0 < x < 20 and 0 < y < 20 for x, y in centres)


def test_pip_patterns_are_symmetric_under_a_half_turn():
    # a domino turned end for end still shows the same pattern
    for value in PATTERNS:
        centres = set(pip_centres(value, 0, 0, 10, 10))
        assert {(10 - x, 10 - y) for x, y in centres} == centres


def test_pips_stay_in_the_square_centred_in_a_wide_box():
    xs = [x for x, _ in pip_centres(9, 0, 0, 40, 20)]
    assert min(xs) > 10 and max(xs) < 30


class Recorder:
    """A stand-in canvas that remembers what was drawn."""

    def __init__(self):
        self.circles, self.strings = [], []

    def circle(self, x, y, r, stroke=1, fill=0):
        self.circles.append((x, y, r))

    def drawCentredString(self, x, y, text):  # noqa: N802 - reportlab's name
        self.strings.append(text)

    def stringWidth(self, text, name, size):  # noqa: N802
        return 0.6 * size * len(text)

    def __getattr__(self, name):
        return lambda *a, **k: None


def _draw(value: str):
    deck = load("dominoes")
    el = next(e for e in deck.face if e.kind == "pips")
    el = type(el)(el.kind, {**el.params, "value": value}, el.where)
    canvas = Recorder()
    draw_pips(Ctx(canvas, deck, deck.card(7), 0.0), el)
    return canvas


def test_the_drawer_draws_one_circle_per_pip_and_numerals_above_nine():
    assert len(_draw("6").circles) == 6
    assert len(_draw("0").circles) == 0
    drawn = _draw("12")
    assert drawn.circles == [] and drawn.strings == ["12"]


def test_a_pips_value_that_is_not_a_number_names_the_card():
    with pytest.raises(PnpError) as err:
        _draw("seven")
    assert "card 7" in err.value.where and "pips" in err.value.where


# --- building the templates ------------------------------------------------------------------


@pytest.mark.parametrize("game,pages", [("tripple-domino", 2), ("dominoes", 2)])
def test_the_templates_build_to_a_pdf(tmp_path, game, pages):
    from generator.build import Options, build

    out = tmp_path / f"{game}.pdf"
    result = build(load(game), out, Options(backs=True))
    assert out.read_bytes().startswith(b"%PDF")
    assert result.pages == pages  # one sheet of fronts and its backs
    if game == "tripple-domino":
        assert result.info["cuts"] == 22  # auto orientation: landscape needs one cut fewer
        portrait = build(load(game), out, Options(backs=True, orientation="portrait"))
        assert portrait.info["cuts"] == 23


def test_corner_numbers_keep_a_safe_margin_inside_the_tile():
    """Each corner number, turned as the renderer turns it (clockwise about its baseline
    anchor), stays at least 3 mm inside the triangle and sits nearest its own corner."""
    import math

    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator.render.fonts import font
    from pnp_model.units import MM

    deck = load("tripple-domino")
    w, h = deck.width, deck.height
    tri = [(w / 2, 0.0), (w, h), (0.0, h)]  # element coordinates, y down: a, b, c clockwise

    def edge_distance(pt):
        out = []
        for (x1, y1), (x2, y2) in zip(tri, tri[1:] + tri[:1], strict=True):
            # inside is to the right of each clockwise edge in y-down coordinates
            out.append(((x2 - x1) * (pt[1] - y1) - (y2 - y1) * (pt[0] - x1))
                       / math.dist((x1, y1), (x2, y2)))
        return min(out)

    corners = [e for e in deck.face if e.kind == "text" and e.get("text") in ("{a}", "{b}",
                                                                              "{c}")]
    assert [e.get("text") for e in corners] == ["{a}", "{b}", "{c}"]
    for el, corner in zip(corners, tri, strict=True):
        name, size = font(el.get("font")), el.get("size")
        theta = math.radians(el.get("rotate", 0.0))
        ax, ay = el.get("x"), el.get("y")
        cap = 0.73 * size
        for digit in "012345":
            half = stringWidth(digit, name, size) / 2
            box = [(-half, 0.0), (half, 0.0), (half, -cap), (-half, -cap)]  # y down
            # clockwise on the page by theta, in y-down coordinates
            pts = [(ax + x * math.cos(theta) - y * math.sin(theta),
                    ay + x * math.sin(theta) + y * math.cos(theta)) for x, y in box]
            assert min(edge_distance(p) for p in pts) >= 3 * MM
            centre = (sum(p[0] for p in pts) / 4, sum(p[1] for p in pts) / 4)
            nearest = min(tri, key=lambda c, centre=centre: math.dist(c, centre))
            assert nearest == corner
            # the glyph's top points at its corner
            up = (math.sin(theta), -math.cos(theta))
            to_corner = (corner[0] - centre[0], corner[1] - centre[1])
            cos = (up[0] * to_corner[0] + up[1] * to_corner[1]) / math.hypot(*to_corner)
            assert cos > 0.999
