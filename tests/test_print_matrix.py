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

from generator.build import Options, build, plan
from pnp_model import units
from pnp_model.catalog import bundled
from pnp_model.components import Card, Element
from pnp_model.definition import load
from pnp_model.errors import PnpError

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


def check_marks(content: bytes, centres, deck, warnings: list[str]) -> None:
    """Every trim line has a crop mark beyond both ends of the block, outside every card, or
    the build warned about that side."""
    page = drawing(content)
    marks = [seg for seg, depth in zip(page.strokes, page.stroke_depths, strict=True) if depth == 0]
    hw, hh = deck.width / 2, deck.height / 2
    boxes = [(x - hw, y - hh, x + hw, y + hh) for x, y in centres]
    left, bottom = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, top = max(b[2] for b in boxes), max(b[3] for b in boxes)

    def outside(seg) -> bool:
        (x1, y1), (x2, y2) = seg
        return all(max(x1, x2) <= b[0] + 0.01 or min(x1, x2) >= b[2] - 0.01 or
                   max(y1, y2) <= b[1] + 0.01 or min(y1, y2) >= b[3] - 0.01 for b in boxes)

    def has(side: str, along: float) -> bool:
        for seg in marks:
            (x1, y1), (x2, y2) = seg
            if side in ("top", "bottom") and abs(x1 - along) < 0.01 and abs(x2 - along) < 0.01:
                if (min(y1, y2) >= top if side == "top" else max(y1, y2) <= bottom):
                    return outside(seg)
            if side in ("left", "right") and abs(y1 - along) < 0.01 and abs(y2 - along) < 0.01:
                if (min(x1, x2) >= right if side == "right" else max(x1, x2) <= left):
                    return outside(seg)
        return False

    xs = {round(v, 3) for b in boxes for v in (b[0], b[2])}
    ys = {round(v, 3) for b in boxes for v in (b[1], b[3])}
    for side, lines in (("top", xs), ("bottom", xs), ("left", ys), ("right", ys)):
        missing = [v for v in lines if not has(side, v)]
        if missing:
            assert any(side in w for w in warnings), (
                f"{len(missing)} trim lines have no mark at the {side}, and no warning says so")


CASES = [(name, paper, orientation, flip)
         for name in sorted(bundled()) for paper in ("a4", "letter")
         for orientation in ("portrait", "landscape") for flip in ("long", "short")]


@pytest.mark.parametrize("name,paper,orientation,flip", CASES)
def test_backs_land_behind_fronts_and_every_trim_line_is_marked(name, paper, orientation, flip, tmp_path):
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
            if deck.shape == "rect" and offset == (0.0, 0.0):
                check_marks(front_page, fronts.values(), deck, sheet.info.get("warnings", []))
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


def test_a_build_says_which_sides_have_no_room_for_marks(tmp_path):
    from click.testing import CliRunner

    from generator.cli import main

    r = CliRunner().invoke(main, ["build", "decktet", "--paper", "letter", "-o",
                                  str(tmp_path / "d.pdf")])
    assert r.exit_code == 0
    assert "warning: decktet: no room for crop marks at the top and bottom" in r.output
    r = CliRunner().invoke(main, ["build", "coda", "--paper", "letter", "-o",
                                  str(tmp_path / "c.pdf")])
    assert "warning" not in r.output  # a grid as few pages long, with room, was chosen
