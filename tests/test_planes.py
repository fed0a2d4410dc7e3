"""Projective planes as symbol decks: every listed order verifies; impossible ones are refused."""

import json

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.verify import check_symbols
from pnp_model.definition import load
from pnp_model.designs.planes import nearest_orders, plane, plane_rows, why_not
from pnp_model.errors import PnpError

ORDERS = [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31]


@pytest.mark.parametrize("q", ORDERS)
def test_every_listed_order_is_a_plane(q):
    lines = plane(q)
    cards = [(i + 1, tuple(map(str, line))) for i, line in enumerate(lines)]
    rep = check_symbols(cards, pairs=1, per_card=q + 1, symbols=q * q + q + 1,
                        appearances=q + 1)
    assert rep.ok, rep.violations[:3]
    assert len(lines) == q * q + q + 1


def test_plane_is_deterministic():
    assert plane(9) == plane(9)


@pytest.mark.parametrize("q", [6, 10])
def test_proven_impossible_orders_say_so_and_name_neighbours(q):
    text = why_not(q)
    assert "exists" in text and f"{q - 1} (" in text and f"{q + 1} (" in text
    with pytest.raises(ValueError):
        plane(q)


@pytest.mark.parametrize("q, kind", [(12, "open problem"), (15, "open problem"),
                                     (14, "Bruck–Ryser"), (22, "Bruck–Ryser")])
def test_other_orders_are_explained(q, kind):
    assert kind in why_not(q)


def test_nearest_orders():
    assert nearest_orders(12) == (11, 13)
    assert nearest_orders(15) == (13, 16)
    assert nearest_orders(2) == (None, 3)


def rows(tmp_path, **options):
    return plane_rows(options, tmp_path, "game.toml [deck]")


def test_partial_deck_is_the_first_lines(tmp_path):
    full = rows(tmp_path, order=7)
    part = rows(tmp_path, order=7, cards=55)
    assert len(full) == 57 and part == full[:55]
    assert len(set(full[0].symbols)) == 8


@pytest.mark.parametrize("options, message", [
    ({"order": 6}, "nearest orders that work: 5"),
    ({"per_card": 7}, "7 symbols per card would need a plane of order 6"),
    ({"order": 7, "per_card": 9}, "does not match"),
    ({"order": 3, "cards": 14}, "out of range 1..13"),
    ({"order": 3, "colors": [{"color": "red", "count": 5}], "cards": 13}, "add up to 5"),
    ({"order": 3, "colour": "red"}, "unknown option 'colour'"),
    ({"order": "seven"}, "whole number"),
    ({}, "needs order"),
    ({"order": 3, "symbols": "folder:nowhere"}, "not found"),
    ({"order": 3, "symbols": "emoji"}, "unknown symbol source"),
])
def test_bad_plane_options_are_user_errors(tmp_path, options, message):
    with pytest.raises(PnpError, match=message):
        rows(tmp_path, **options)


def test_colours_are_dealt_in_order_and_set_the_card_count(tmp_path):
    got = rows(tmp_path, order=3, colors=[{"color": "black", "count": 3},
                                          {"color": "pink", "count": 10}])
    assert len(got) == 13
    assert [r.fields["color"] for r in got] == ["black"] * 3 + ["pink"] * 10


def test_words_and_folders_name_the_symbols(tmp_path):
    (tmp_path / "words.txt").write_text("\n".join(f"word{i}" for i in range(7)) + "\n")
    got = rows(tmp_path, order=2, symbols="words:words.txt")
    assert {s for r in got for s in r.symbols} == {f"word{i}" for i in range(7)}
    art = tmp_path / "art"
    art.mkdir()
    for i in range(6):
        (art / f"pic{i}.png").write_bytes(b"")
    with pytest.raises(PnpError, match="has 6 symbols but the deck needs 7"):
        rows(tmp_path, order=2, symbols="folder:art")
    (art / "pic6.svg").write_bytes(b"")
    got = rows(tmp_path, order=2, symbols="folder:art")
    assert "pic6" in {s for r in got for s in r.symbols}


def test_dobble_templates_give_the_referee_names_and_colours():
    dobble = load("dobble")
    assert len(dobble.cards) == 55 and all(len(c.symbols) == 8 for c in dobble.cards)
    connect = load("dobble-connect")
    assert len(connect.cards) == 90 and connect.shape == "hexagon"
    colours = [c.fields["color"] for c in connect.cards]
    assert {k: colours.count(k) for k in set(colours)} == {
        "pink": 20, "orange": 20, "green": 20, "blue": 20, "black": 10}
    assert "anchor" in {s for c in connect.cards for s in c.symbols}


def test_pnp_plane_prints_csv_and_json():
    r = CliRunner().invoke(main, ["plane", "--order", "2"])
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert lines[0] == "card,s1,s2,s3" and len(lines) == 8
    r = CliRunner().invoke(main, ["plane", "--order", "3^2", "--cards", "90", "--format", "json"])
    data = json.loads(r.output)
    assert data["order"] == 9 and len(data["incidence"]) == 90 and data["per_card"] == 10


def test_pnp_plane_refuses_order_ten_in_one_line():
    r = CliRunner().invoke(main, ["plane", "--order", "10"])
    assert r.exit_code == 2
    assert r.output.count("\n") == 1 and r.output.startswith("error: no projective plane")


def test_seed_deals_lines_and_names_without_a_common_symbol_up_front(tmp_path):
    a, b = rows(tmp_path, order=7), rows(tmp_path, order=7, seed="other")
    assert a == rows(tmp_path, order=7) and a != b
    assert not set.intersection(*(set(r.symbols) for r in a[:8]))
    for deal in (a, b):
        assert check_symbols([(i, r.symbols) for i, r in enumerate(deal, 1)]).ok


def test_loading_a_symbol_deck_stays_free_of_drawing_libraries():
    import subprocess
    import sys

    code = ("import sys; from pnp_model.definition import load; load('dobble-connect'); "
            "print(sorted(m for m in ('reportlab', 'PIL', 'svglib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_user_deck_of_impossible_order_is_one_line_error(tmp_path):
    (tmp_path / "game.toml").write_text(
        '[deck]\nsource = "plane"\noptions = { per_card = 11 }\n[[face]]\ntype = "symbols"\n')
    r = CliRunner().invoke(main, ["verify", str(tmp_path)])
    assert r.exit_code == 2 and r.output.count("\n") == 1
    assert "order 10" in r.output and "9 (91 cards of 10 symbols)" in r.output
