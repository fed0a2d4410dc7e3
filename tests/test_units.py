import pytest

from pnp_model import units
from pnp_model.errors import PnpError


@pytest.mark.parametrize("text, mm", [
    ("63mm", 63.0), ("2.5in", 63.5), ("18pt", 18 * 25.4 / 72), ("1cm", 10.0), ("3", 3.0),
    (" 0.125in ", 3.175), ("-1mm", -1.0),
])
def test_lengths_in_any_unit(text, mm):
    assert units.to_mm(units.length(text)) == pytest.approx(mm)


def test_percentages_need_a_reference():
    assert units.length("50%", percent_of=200) == 100
    with pytest.raises(PnpError, match="percentage"):
        units.length("50%")


@pytest.mark.parametrize("bad", ["3xx", "mm", "three mm", "", "1..2mm"])
def test_bad_lengths_are_named(bad):
    with pytest.raises(PnpError) as e:
        units.length(bad, "deck.bleed")
    assert "deck.bleed" in str(e.value)


@pytest.mark.parametrize("name, w, h", [
    ("poker", 63.5, 88.9), ("bridge", 57.15, 88.9), ("tarot", 69.85, 120.65),
    ("mini", 44.45, 63.5), ("euro", 59, 92), ("63x88mm", 63, 88), ("2.5in x 3.5in", 63.5, 88.9),
    ("20x30", 20, 30),
])
def test_card_sizes(name, w, h):
    pw, ph = units.size(name)
    assert (units.to_mm(pw), units.to_mm(ph)) == (pytest.approx(w), pytest.approx(h))


def test_unknown_size_lists_the_names():
    with pytest.raises(PnpError, match="poker"):
        units.size("jumbo")


def test_paper_orientation():
    w, h = units.paper("letter", "landscape")
    assert (round(units.to_mm(w), 1), round(units.to_mm(h), 1)) == (279.4, 215.9)
    w, h = units.paper("a4")
    assert (round(units.to_mm(w)), round(units.to_mm(h))) == (210, 297)
