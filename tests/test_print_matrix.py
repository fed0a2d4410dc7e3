"""The print matrix, measured from the PDFs: every bundled template on A4 and Letter, portrait and
landscape, flipped on the long and the short edge, with and without a back offset.

Each card of a template is given a face and a back of its own colour; the test reads the drawn
PDF back (tests/pdfgeom.py), turns the back page over as the paper turns, and checks that every
back lands behind the front of the same colour within 0.1 mm, moved by exactly the offset.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from pdfgeom import centre, drawing, page_streams

from generator import units
from generator.build import Options, build, plan
from generator.catalog import bundled
from generator.components import Card, Element
from generator.definition import load
from generator.errors import PnpError

MM = units.MM
TOLERANCE = 0.1 * MM
OFFSET = (1.5 * MM, -0.75 * MM)


def colour_of(card_id: int) -> str:
    return f"#{(card_id * 37) % 256:02x}{card_id // 256 * 40 + 20:02x}{(card_id * 11) % 256:02x}"


def coloured(name: str):
    """The template with each card's face and back a full-bleed rectangle of its own colour."""
    deck = load(name)
    cards = tuple(Card(c.id, {**c.fields, "tc": colour_of(c.id)}, c.part, c.symbols)
                  for c in deck.cards)
    art = (Element("rect", {"bleed": True, "fill": "{tc}"}, "test"),)
    return replace(deck, cards=cards, face=art, back=art)


def placed(page_content: bytes, card_colours: dict) -> dict[int, tuple[float, float]]:
    """Card id -> centre of its coloured rectangle on the page."""
    out = {}
    for f in drawing(page_content).fills:
        key = tuple(round(v, 2) for v in f.color)
        if key in card_colours and f.points:
            out[card_colours[key]] = centre(f.points)
    return out


def physical_turn(x: float, y: float, w: float, h: float, flip: str) -> tuple[float, float]:
    """Where a point of the front is seen from the back, in the back page's coordinates:
    the paper turns over its long or short edge, whatever the page's orientation."""
    long_is_horizontal = w > h
    about_horizontal_axis = (flip == "long") == long_is_horizontal
    return (x, h - y) if about_horizontal_axis else (w - x, y)


def rgb(hex_colour: str) -> tuple[float, ...]:
    return tuple(round(int(hex_colour[i:i + 2], 16) / 255, 2) for i in (1, 3, 5))


CASES = [(name, paper, orientation, flip)
         for name in sorted(bundled()) for paper in ("a4", "letter")
         for orientation in ("portrait", "landscape") for flip in ("long", "short")]


@pytest.mark.parametrize("name,paper,orientation,flip", CASES)
def test_every_back_lands_behind_its_front(name, paper, orientation, flip, tmp_path):
    deck = coloured(name)
    if not deck.has_backs:
        pytest.skip(f"{name} has no backs")
    colours = {rgb(colour_of(c.id)): c.id for c in deck.cards}
    for offset in ((0.0, 0.0), OFFSET):
        opts = Options(paper=paper, orientation=orientation, flip=flip, back_offset=offset,
                       parts=("all",))
        try:
            sheet = plan(deck, opts)
        except PnpError as e:  # a card too large for this orientation is refused, not misprinted
            assert "does not fit" in str(e)
            return
        out = tmp_path / f"{name}.pdf"
        build(deck, out, opts, sheet=sheet)
        contents = page_streams(out.read_bytes())
        w, h = sheet.width, sheet.height
        assert (w > h) == (orientation == "landscape")
        checked = 0
        for front_page, back_page in zip(contents[::2], contents[1::2], strict=True):
            fronts, backs = placed(front_page, colours), placed(back_page, colours)
            assert fronts.keys() == backs.keys()
            for card_id, (fx, fy) in fronts.items():
                ex, ey = physical_turn(fx, fy, w, h, flip)
                bx, by = backs[card_id]
                assert abs(bx - (ex + offset[0])) < TOLERANCE and \
                    abs(by - (ey + offset[1])) < TOLERANCE, (
                        f"card #{card_id}: back at {bx / MM:.1f},{by / MM:.1f} mm, front seen "
                        f"from the back at {ex / MM:.1f},{ey / MM:.1f} mm")
                checked += 1
        assert checked == len(deck.cards)
