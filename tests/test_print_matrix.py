"""The print matrix, measured from the PDFs: every bundled template (each component of a whole
game) on A4 and Letter, portrait and landscape, flipped on the long and the short edge, with and
without a back offset; and on A3, Tabloid, Legal, A5 and 300x200mm, each way up.

Each card of a template is given a face and a back of its own colour (tests/markcheck.py); the
test reads the drawn PDF back (tests/pdfgeom.py), turns the back page over as the paper turns,
and checks that every back lands behind the front of the same colour within 0.1 mm, moved by
exactly the offset; that every cut line has a crop mark beyond both ends, on the fronts and on
the (offset) backs, or that the build's warning names that side and the option that gives it
marks; and that no mark enters the paper's printer margin (6 mm on A4 and Letter, the documented
figure on the others: tests/test_printer_margins.py).
"""

from __future__ import annotations

import pytest
from markcheck import coloured, colours_of, page_marks, placed
from pdfgeom import page_streams
from test_printer_margins import DOCUMENTED

from generator.build import Options, build, plan
from pnp_model import units
from pnp_model.catalog import bundled
from pnp_model.errors import PnpError
from pnp_model.game import load_game

MM = units.MM
TOLERANCE = 0.1 * MM
OFFSET = (1.5 * MM, -0.75 * MM)


def physical_turn(x: float, y: float, w: float, h: float, flip: str) -> tuple[float, float]:
    """Where a point of the front is seen from the back, in the back page's coordinates:
    the paper turns over its long or short edge, whatever the page's orientation."""
    long_is_horizontal = w > h
    about_horizontal_axis = (flip == "long") == long_is_horizontal
    return (x, h - y) if about_horizontal_axis else (w - x, y)


def check_marks(content: bytes, centres, deck, sheet, warnings: list[str], where: str,
                margin: float = 6 * MM) -> None:
    """No mark in the printer margin; every unmarked cut-line end is on a side a warning names,
    with the option that gives full marks."""
    found = page_marks(content, list(centres), deck.width, deck.height, sheet.width,
                       sheet.height)
    assert found.edge_distance >= margin - 0.001, (
        f"{where}: a crop mark {found.edge_distance / MM:.2f} mm from the paper's edge, inside "
        f"the {margin / MM:g} mm printer margin")
    for side, n in found.missing.items():
        said = [w for w in warnings if side in w]
        assert said, f"{where}: {n} cut-line ends have no mark at the {side}, and no warning says so"
        # the option that gives every mark; for backs an offset moved, a grid (the offset
        # alone never changes the layout)
        assert any("--marks full" in w or "no grid" in w or "--grid" in w for w in said), said


def decks() -> list[str]:
    """Every bundled deck: a template's, or each component of a whole game as GAME/COMPONENT."""
    return [name if not game.whole else f"{name}/{c.name}"
            for name in sorted(bundled()) for game in [load_game(name)] for c in game.components]


def deck_of(name: str):
    game, _, component = name.partition("/")
    return load_game(game).only((component,) if component else ()).components[0].deck


CASES = [(name, paper, orientation, flip)
         for name in decks() for paper in ("a4", "letter")
         for orientation in ("portrait", "landscape") for flip in ("long", "short")]
# the other papers, each way up, flipped on the long edge (the short edge is the same code)
CASES += [(name, paper, orientation, "long")
          for name in decks() for paper in ("a3", "tabloid", "legal", "a5", "300x200mm")
          for orientation in ("portrait", "landscape")]


@pytest.mark.parametrize("name,paper,orientation,flip", CASES)
def test_backs_land_behind_fronts_and_every_trim_line_is_marked(name, paper, orientation, flip, tmp_path):
    deck = coloured(deck_of(name))
    if not deck.has_backs:
        pytest.skip(f"{name} has no backs")
    colours = colours_of(deck)
    for offset in ((0.0, 0.0), OFFSET):
        opts = Options(paper=paper, orientation=orientation, flip=flip, back_offset=offset,
                       parts=("all",))
        try:
            sheet = plan(deck, opts)
        except PnpError as e:  # a card too large for this orientation is refused, not misprinted
            assert "does not fit" in str(e)
            return
        out = tmp_path / "deck.pdf"
        result = build(deck, out, opts, sheet=sheet)
        contents = page_streams(out.read_bytes())
        w, h = sheet.width, sheet.height
        assert (w > h) == (orientation == "landscape")
        checked = 0
        for n, (front_page, back_page) in enumerate(zip(contents[::2], contents[1::2],
                                                        strict=True), 1):
            fronts, backs = placed(front_page, colours), placed(back_page, colours)
            if deck.shape != "triangle":
                for side, content, centres in (("front", front_page, fronts),
                                               ("back", back_page, backs)):
                    check_marks(content, centres.values(), deck, sheet, list(result.notes),
                                f"{name} {paper} {orientation} {flip} sheet {n} {side}, "
                                f"back offset {offset[0] / MM:g},{offset[1] / MM:g} mm",
                                DOCUMENTED[paper] * MM)
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


@pytest.mark.parametrize("paper,mm", [("a3", (297, 420)), ("tabloid", (279.4, 431.8)),
                                      ("legal", (215.9, 355.6)), ("a5", (148, 210)),
                                      ("300x200mm", (200, 300))])
def test_every_bundled_template_builds_on_the_other_papers(paper, mm, tmp_path):
    """`pnp build --all --paper P`: every template (the whole game too) on sheets of that paper
    (a whole game's board split to fit it), read from the written PDFs' page sizes."""
    import pypdfium2 as pdfium
    from click.testing import CliRunner

    from generator.cli import main

    r = CliRunner().invoke(main, ["build", "--all", "--paper", paper, "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    for name in bundled():
        pdf = pdfium.PdfDocument(str(tmp_path / f"{name}.pdf"))
        for page in pdf:
            w, h = sorted(page.get_size())
            assert abs(w - mm[0] * MM) < 0.01 and abs(h - mm[1] * MM) < 0.01, (name, w / MM, h / MM)
