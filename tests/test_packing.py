"""Symbol layout: varied sizes, no overlap, nothing outside the card, well filled, repeatable."""

import math
import statistics

import pytest

from generator.layout.packing import Region, card_layout, coverage, pack, pack_dense


def assert_legal(spots, region):
    for a in spots:
        if region.sides == 0:
            assert math.hypot(a.x, a.y) + a.r <= region.r * (1 + 1e-6)
        else:
            for nx, ny, apothem in region.normals():
                assert nx * a.x + ny * a.y + a.r <= apothem * (1 + 1e-6)
    for i, a in enumerate(spots):
        for b in spots[i + 1:]:
            assert math.hypot(a.x - b.x, a.y - b.y) >= (a.r + b.r) * (1 - 1e-6)


@pytest.mark.parametrize("region, n", [(Region(100.0), 8), (Region(50.0, 6), 10),
                                       (Region(50.0, 6, flat=True), 10)])
def test_order_7_and_9_decks_are_legal_varied_and_well_filled(region, n):
    covers = []
    for card_id in range(1, 56):
        spots = card_layout(n, region, seed=0, card_id=card_id)
        assert len(spots) == n
        assert_legal(spots, region)
        radii = [s.r for s in spots]
        assert max(radii) >= 2 * min(radii)
        covers.append(coverage(spots, region))
    assert statistics.mean(covers) >= 0.45


def test_layout_is_deterministic_per_seed_and_card():
    region = Region(100.0)
    assert card_layout(8, region, 3, 17) == card_layout(8, region, 3, 17)
    assert card_layout(8, region, 3, 17) != card_layout(8, region, 3, 18)
    assert card_layout(8, region, 3, 17) != card_layout(8, region, 4, 17)


def test_rotations_are_random_unless_turned_off():
    spots = card_layout(8, Region(1.0), 0, 1)
    assert len({round(s.angle) for s in spots}) > 1
    assert {s.angle for s in card_layout(8, Region(1.0), 0, 1, rotate_symbols=False)} == {0.0}


@pytest.mark.parametrize("n", [1, 2, 3, 5, 14, 20])
def test_other_symbol_counts_stay_legal(n):
    spots = pack(n, Region(1.0), seed=n)
    assert len(spots) == n
    assert_legal(spots, Region(1.0))
    assert coverage(spots, Region(1.0)) > 0.3


def test_coverage_of_one_full_circle_is_one():
    from generator.layout.packing import Spot

    assert coverage([Spot(0, 0, 2.0, 0)], Region(2.0)) == pytest.approx(1.0)


@pytest.mark.parametrize("region", [Region(100.0), Region(50.0, 6), Region(50.0, 6, flat=True)])
@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 12, 16])
def test_dense_layouts_are_legal_keep_the_spread_and_fill_more(region, n):
    """Greedy dense packing (icons on discs): no overlap, inside, the sizes' spread kept, and
    for 8 circles 73 % of a circle covered on average, 75 % of a hexagon (the relaxation
    packer: 59 %, 57 %)."""
    dense = [pack_dense(n, region, f"s{i}", spread=1.6) for i in range(12)]
    for spots in dense:
        assert len(spots) == n
        assert_legal(spots, region)
        radii = [s.r for s in spots]
        if n > 1:  # relative_sizes: 1 down to 1/spread, the middle ones jittered by 4 %
            assert 1.6 * (1 - 1e-6) <= max(radii) / min(radii) <= 1.6 * 1.05
    if n == 8:
        assert statistics.mean(coverage(s, region) for s in dense) >= 0.70
        relaxed = [pack(n, region, f"s{i}", spread=1.6) for i in range(12)]
        assert statistics.mean(coverage(s, region) for s in relaxed) < 0.65
    assert dense == [pack_dense(n, region, f"s{i}", spread=1.6) for i in range(12)]


def test_dense_card_layouts_come_from_the_dense_pool():
    region = Region(100.0)
    covers = [coverage(card_layout(8, region, 0, card_id, spread=1.6, dense=True), region)
              for card_id in range(1, 56)]
    assert min(covers) >= 0.70
