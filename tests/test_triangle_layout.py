"""Triangular tiles tessellate on the page: inside the printable area, equilateral, edge to
edge, cut with full-length straight lines, and with backs landing behind their fronts."""

from __future__ import annotations

import dataclasses
import math
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.layout.triangles import count_cuts, impose_triangles, plan
from pnp_model import units
from pnp_model.definition import load
from pnp_model.errors import PnpError
from pnp_model.units import MM

MARGIN = 6 * MM
TOL = 1e-6  # points: "exactly" for shared edges
PAPERS = [(p, o) for p in ("a4", "letter") for o in ("portrait", "landscape")]


@pytest.fixture(scope="module")
def deck():
    return load("tripple-domino")


def corners(p, w, h):
    """The tile's three corners on the page: the up triangle, turned 180° about its box centre
    when the placement says so (how the renderer draws it)."""
    pts = [(p.x, p.y), (p.x + w, p.y), (p.x + w / 2, p.y + h)]
    if p.rotation == 180:
        cx, cy = p.x + w / 2, p.y + h / 2
        pts = [(2 * cx - x, 2 * cy - y) for x, y in pts]
    else:
        assert p.rotation == 0
    return pts


def edges(pts):
    return [tuple(sorted((pts[i], pts[(i + 1) % 3]))) for i in range(3)]


def same_edge(e, f):
    return all(math.dist(a, b) < TOL for a, b in zip(e, f, strict=True))


def inside_triangle_strictly(pt, tri, eps=1e-3):
    """True when pt lies inside the triangle and not within eps of its edges."""
    (x1, y1), (x2, y2), (x3, y3) = tri
    d = (y2 - y3) * (x1 - x3) + (x3 - x2) * (y1 - y3)
    a = ((y2 - y3) * (pt[0] - x3) + (x3 - x2) * (pt[1] - y3)) / d
    b = ((y3 - y1) * (pt[0] - x3) + (x1 - x3) * (pt[1] - y3)) / d
    c = 1 - a - b
    return min(a, b, c) > eps


@pytest.mark.parametrize("paper,orientation", PAPERS)
def test_every_tile_is_inside_the_printable_area(deck, paper, orientation):
    w, h = units.paper(paper, orientation)
    sheet = impose_triangles(deck, deck.cards, w, h)
    placed = [p for page in sheet.pages for p in page.placements]
    assert sorted(p.card.id for p in placed) == list(range(1, 57))
    assert len(sheet.pages) == 1, "56 tiles of 40 mm fit one sheet of A4 or Letter"
    for p in placed:
        for x, y in corners(p, deck.width, deck.height):
            assert MARGIN - TOL <= x <= w - MARGIN + TOL
            assert MARGIN - TOL <= y <= h - MARGIN + TOL
    for x1, y1, x2, y2 in sheet.pages[0].marks:
        for x, y in ((x1, y1), (x2, y2)):
            assert MARGIN - TOL <= x <= w - MARGIN + TOL
            assert MARGIN - TOL <= y <= h - MARGIN + TOL


def test_tiles_are_equilateral_within_a_tenth_of_a_millimetre(deck):
    sheet = impose_triangles(deck, deck.cards, *units.paper("a4"))
    for p in sheet.pages[0].placements:
        a, b, c = corners(p, deck.width, deck.height)
        sides = [math.dist(a, b), math.dist(b, c), math.dist(c, a)]
        assert max(sides) - min(sides) < 0.1 * MM
        assert abs(sides[0] - 40 * MM) < 0.1 * MM


def test_adjacent_tiles_share_whole_edges_and_never_overlap(deck):
    sheet = impose_triangles(deck, deck.cards, *units.paper("a4"))
    tris = [corners(p, deck.width, deck.height) for p in sheet.pages[0].placements]
    all_edges = [e for t in tris for e in edges(t)]
    shared = 0
    for i, j in combinations(range(len(tris)), 2):
        common = [e for e in edges(tris[i]) for f in edges(tris[j]) if same_edge(e, f)]
        shared += len(common)
        # no corner of one tile inside the other: the tiles only meet at edges and corners
        assert not any(inside_triangle_strictly(pt, tris[j]) for pt in tris[i])
        centre_i = [sum(v) / 3 for v in zip(*tris[i], strict=True)]
        assert not inside_triangle_strictly(centre_i, tris[j])
    # a 7-row block of 8 alternating tiles: 7 shared edges in each row, 4 between each two rows
    assert shared == 7 * 7 + 6 * 4
    assert len(all_edges) == 168
    # every tile has at least one neighbour edge to edge
    for t in tris:
        assert any(same_edge(e, f) for e in edges(t) for u in tris if u is not t
                   for f in edges(u))


def test_down_tiles_are_up_tiles_turned_half_a_turn(deck):
    sheet = impose_triangles(deck, deck.cards, *units.paper("a4"))
    rotations = [p.rotation for p in sheet.pages[0].placements]
    assert rotations.count(0) == rotations.count(180) == 28
    row = sheet.pages[0].placements[:8]
    assert [p.rotation for p in row] in ([0, 180] * 4, [180, 0] * 4)
    # neighbours in a row are half a side apart and at the same height
    for left, right in zip(row, row[1:], strict=False):
        assert right.x - left.x == pytest.approx(deck.width / 2)
        assert right.y == pytest.approx(left.y)


def test_cut_count_for_the_56_tile_set(deck):
    sheet = impose_triangles(deck, deck.cards, *units.paper("a4"))
    assert sheet.info["cuts"] == 23
    assert sheet.info["tile_edges"] == 168
    assert sheet.info["block"] == "7x8"
    assert len(sheet.pages[0].marks) == 23  # one stroked line per cut on a full block


def _direction(seg):
    x1, y1, x2, y2 = seg
    angle = math.degrees(math.atan2(y2 - y1, x2 - x1)) % 180
    return round(angle) % 180


@pytest.mark.parametrize("paper,orientation", PAPERS)
def test_cut_lines_run_along_every_tile_edge_and_through_no_tile(deck, paper, orientation):
    w, h = units.paper(paper, orientation)
    sheet = impose_triangles(deck, deck.cards, w, h)
    page = sheet.pages[0]
    marks = page.marks
    assert {_direction(m) for m in marks} == {0, 60, 120}
    tris = [corners(p, deck.width, deck.height) for p in page.placements]

    def on_mark(pt):
        for x1, y1, x2, y2 in marks:
            dx, dy = x2 - x1, y2 - y1
            t = ((pt[0] - x1) * dx + (pt[1] - y1) * dy) / (dx * dx + dy * dy)
            if -TOL <= t <= 1 + TOL and math.dist(pt, (x1 + t * dx, y1 + t * dy)) < 1e-3:
                return True
        return False

    for tri in tris:
        for a, b in edges(tri):
            for t in (0.0, 0.25, 0.5, 0.75, 1.0):
                assert on_mark((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    for x1, y1, x2, y2 in marks:
        samples = [(x1 + t / 40 * (x2 - x1), y1 + t / 40 * (y2 - y1)) for t in range(41)]
        assert not any(inside_triangle_strictly(s, tri) for s in samples for tri in tris)


def test_cut_count_is_the_number_of_distinct_lines():
    # one tile: its three edges; two tiles edge to edge: the shared edge is one line
    assert count_cuts([("U", 0, 0)]) == 3
    assert count_cuts([("U", 0, 0), ("D", 0, 0)]) == 5
    # tip to tip, one above the other: both edges through the shared corner are collinear
    assert count_cuts([("U", 0, 0), ("D", -1, 1)]) == 4
    # the six tiles around the point (1, 1): 3 lines through the centre + 6 sides
    hexagon = [("U", 1, 1), ("U", 0, 1), ("U", 1, 0), ("D", 0, 1), ("D", 1, 0), ("D", 0, 0)]
    assert count_cuts(hexagon) == 9


def test_a_partial_page_still_gets_a_compact_block():
    rows, slots = plan(10, 7, 8)
    assert rows * slots >= 10 and rows * slots - 10 < slots
    # fewer cuts than tiles cut one by one
    assert rows <= 3


@pytest.mark.parametrize("flip", ["long", "short"])
def test_backs_land_exactly_behind_their_fronts(deck, flip):
    w, h = units.paper("a4")
    offset = (1 * MM, -0.5 * MM)
    sheet = impose_triangles(deck, deck.cards, w, h, backs=True, flip=flip, back_offset=offset)
    assert [p.side for p in sheet.pages] == ["front", "back"]
    fronts = {p.card.id: p for p in sheet.pages[0].placements}
    backs = {p.card.id: p for p in sheet.pages[1].placements}
    assert fronts.keys() == backs.keys()
    for cid, front in fronts.items():
        seen_through = [(w - x, y) if flip == "long" else (x, h - y)
                        for x, y in corners(front, deck.width, deck.height)]
        behind = [(x - offset[0], y - offset[1])
                  for x, y in corners(backs[cid], deck.width, deck.height)]
        for a, b in zip(sorted(seen_through), sorted(behind), strict=True):
            assert math.dist(a, b) < TOL


def test_fronts_butt_and_backs_bleed_over_their_neighbours(deck):
    sheet = impose_triangles(deck, deck.cards, *units.paper("a4"), backs=True)
    assert {p.bleed for p in sheet.pages[0].placements} == {0.0}
    assert min(p.bleed for p in sheet.pages[1].placements) >= 1 * MM
    # cut lines run along tile edges: on a misregistered back they would show inside the tiles
    assert sheet.pages[0].marks and not sheet.pages[1].marks


def test_back_apex_stays_over_front_apex_for_a_short_edge_flip(deck):
    w, h = units.paper("a4")
    sheet = impose_triangles(deck, deck.cards, w, h, backs=True, flip="short")
    front = sheet.pages[0].placements[0]
    back = sheet.pages[1].placements[0]
    assert back.rotation == (front.rotation + 180) % 360


def test_a_box_that_is_not_equilateral_is_a_user_error(deck):
    squashed = dataclasses.replace(deck, height=30 * MM)
    with pytest.raises(PnpError, match="34.641"):
        impose_triangles(squashed, deck.cards, *units.paper("a4"))


def test_a_tile_larger_than_the_paper_is_a_user_error(deck):
    huge = dataclasses.replace(deck, width=300 * MM, height=300 * MM * math.sqrt(3) / 2)
    with pytest.raises(PnpError, match="does not fit"):
        impose_triangles(huge, deck.cards, *units.paper("a4"))


def test_bigger_tiles_spill_onto_more_pages_in_card_order(deck):
    side = 60 * MM
    big = dataclasses.replace(deck, width=side, height=side * math.sqrt(3) / 2)
    sheet = impose_triangles(big, deck.cards, *units.paper("letter"))
    assert len(sheet.pages) > 1
    ids = [p.card.id for page in sheet.pages for p in page.placements]
    assert ids == list(range(1, 57))
    blocks = sheet.info["block"].split("+")
    assert len(blocks) == len(sheet.pages)
    recount = sum(len({_direction_and_offset(m) for m in page.marks}) for page in sheet.pages)
    assert sheet.info["cuts"] == recount


def _direction_and_offset(seg):
    """A mark's line: its direction and where it crosses the axis perpendicular to it."""
    x1, y1, _, _ = seg
    angle = math.radians(_direction(seg))
    return _direction(seg), round(-math.sin(angle) * x1 + math.cos(angle) * y1, 2)


def test_the_cli_reports_a_wrong_tile_box_in_one_line(tmp_path, deck):
    from click.testing import CliRunner

    from generator.cli import main

    root = tmp_path / "tiles"
    root.mkdir()
    text = (deck.root / "game.toml").read_text()
    (root / "game.toml").write_text(text.replace('size = "40x34.641mm"', 'size = "40x40mm"'))
    result = CliRunner().invoke(main, ["build", str(root), "-o", str(tmp_path / "t.pdf")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert '"40x34.641mm"' in lines[0] and "tiles/game.toml [deck].size" in lines[0]
    assert not (tmp_path / "t.pdf").exists()


@settings(max_examples=60, deadline=None)
@given(side_mm=st.floats(min_value=12, max_value=120), count=st.integers(1, 150),
       paper=st.sampled_from(PAPERS))
def test_any_tile_size_and_count_stays_printable_and_is_cut_once_per_line(side_mm, count,
                                                                          paper):
    base = load("tripple-domino")
    side = side_mm * MM
    deck = dataclasses.replace(base, width=side, height=side * math.sqrt(3) / 2)
    cards = tuple(dataclasses.replace(base.cards[0], id=i) for i in range(1, count + 1))
    w, h = units.paper(*paper)
    sheet = impose_triangles(deck, cards, w, h)
    placed = [p for page in sheet.pages for p in page.placements]
    assert [p.card.id for p in placed] == list(range(1, count + 1))
    for page in sheet.pages:
        seen = set()
        for p in page.placements:
            for x, y in corners(p, deck.width, deck.height):
                assert MARGIN - TOL <= x <= w - MARGIN + TOL
                assert MARGIN - TOL <= y <= h - MARGIN + TOL
            key = (round(p.x, 3), round(p.y, 3))
            assert key not in seen  # no two tiles in the same place
            seen.add(key)
    lines = sum(len({_direction_and_offset(m) for m in page.marks}) for page in sheet.pages)
    assert sheet.info["cuts"] == lines <= 3 * count
