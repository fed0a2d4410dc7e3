"""Deck verification finds planted defects, names the cards, and checks declared properties."""

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.verify import check_deck, check_symbols
from pnp_model.catalog import bundled
from pnp_model.definition import load
from pnp_model.designs.planes import plane
from pnp_model.errors import PnpError


def deck(q):
    return [(i + 1, tuple(f"s{p}" for p in line)) for i, line in enumerate(plane(q))]


def test_a_swapped_symbol_is_found_and_named():
    cards = deck(7)
    cid, syms = cards[4]
    outsider = next(s for s in cards[20][1] if s not in syms)
    cards[4] = (cid, (outsider,) + syms[1:])
    rep = check_symbols(cards)
    assert not rep.ok
    bad = [v for v in rep.violations if v.check == "pairs"]
    assert bad and all(5 in v.cards for v in bad)
    # card 5 lost its link to the cards through the removed symbol and doubled one with others
    assert any(len(v.shared) == 0 for v in bad) and any(len(v.shared) == 2 for v in bad)
    two = next(v for v in bad if len(v.shared) == 2)
    assert outsider in two.shared and "share 2, not 1" in two.why


def test_a_duplicate_card_is_named():
    cards = deck(5) + [(32, deck(5)[9][1])]
    rep = check_symbols(cards)
    dup = [v for v in rep.violations if v.check == "duplicate"]
    assert [v.cards for v in dup] == [(10, 32)]
    assert rep.totals["pairs"] == 1


def test_repeat_and_size_problems():
    rep = check_symbols([(1, ("a", "b", "a")), (2, ("a", "c", "d")), (3, ("b", "c", "e"))])
    assert rep.totals["repeat"] == 1 and rep.violations[0].cards == (1,)
    assert rep.totals["per_card"] == 1  # card 1 has 2 distinct symbols, the others 3


def test_pairs_other_than_one():
    # complements of the Fano plane's lines: 7 cards of 4 symbols, any two share exactly 2
    cards = [(i + 1, tuple(str(p) for p in range(7) if p not in line))
             for i, line in enumerate(plane(2))]
    assert check_symbols(cards, pairs=2).ok
    rep = check_symbols(cards, pairs=1)
    assert rep.totals["pairs"] == 21


def test_listing_is_capped_but_the_count_is_complete():
    cards = [(i, ("a", "b", f"x{i}")) for i in range(1, 31)]  # every pair shares 2
    rep = check_symbols(cards, limit=20)
    assert rep.totals["pairs"] == 30 * 29 // 2
    assert len([v for v in rep.violations if v.check == "pairs"]) == 20


def test_declared_appearances_and_symbol_count():
    cards = deck(3)[:12]
    rep = check_symbols(cards, symbols=13, appearances=4)
    assert rep.totals["symbols"] == 0
    assert rep.totals["appearances"] == 4  # the dropped card's 4 symbols now appear 3 times


def test_order_31_checks_every_pair():
    # Its speed is measured by bench/bench_symbols.py, not here.
    rep = check_symbols(deck(31))
    assert rep.ok and rep.facts["pairs_checked"] == 993 * 992 // 2


def test_a_domino_set_missing_a_tile_and_holding_a_mirror_image_fails(tmp_path):
    rows = ["a,b,c"] + [f"{a},{b},{c}" for a, b, c in
                        [(0, 0, 0), (0, 0, 1), (0, 1, 1), (1, 1, 1)]] + ["0,1,0"]
    (tmp_path / "cards.csv").write_text("\n".join(rows) + "\n")
    (tmp_path / "game.toml").write_text(
        '[deck]\nfile = "cards.csv"\n[verify]\ndomino_set = true\n'
        '[[face]]\ntype = "text"\ntext = "{a}"\n')
    rep = check_deck(load(tmp_path))
    assert not rep.ok and rep.totals["domino_set"] >= 1
    assert any(5 in v.cards for v in rep.violations)  # 0-1-0 is 0-0-1 again


@pytest.mark.parametrize("name", sorted(bundled()))
def test_every_bundled_template_passes(name):
    from pnp_model.game import load_game

    for component in load_game(name).components:  # a whole game: each component's [verify]
        rep = check_deck(component.deck)
        assert rep.ok, (component.name, rep.violations[:3])
        assert rep.checks


def definition(tmp_path, verify, rows="kind,color\nx,red\nx,red\ny,blue\n"):
    (tmp_path / "cards.csv").write_text(rows)
    (tmp_path / "game.toml").write_text(
        f'[deck]\nfile = "cards.csv"\n[verify]\n{verify}\n[[face]]\ntype = "text"\ntext = "x"\n')
    return load(tmp_path)


def test_declared_count_unique_and_per(tmp_path):
    d = definition(tmp_path, 'count = 4\nunique = ["kind", "color"]\n'
                             'per.kind = { x = 1, y = 1, z = 0 }')
    rep = check_deck(d)
    assert rep.totals == {"count": 1, "unique": 1, "per": 1}
    unique = next(v for v in rep.violations if v.check == "unique")
    assert unique.cards == (1, 2) and "kind='x'" in unique.why
    per = next(v for v in rep.violations if v.check == "per")
    assert "kind = 'x': 2 cards, not 1" in per.why


def test_values_missing_from_a_per_table_are_reported(tmp_path):
    rep = check_deck(definition(tmp_path, "per.kind = { x = 2 }"))
    assert rep.totals["per"] == 1
    assert "'y' is not declared" in rep.violations[0].why and rep.violations[0].cards == (3,)


@pytest.mark.parametrize("verify, message", [
    ("counts = 3", "unknown key 'counts'"),
    ('unique = ["colour"]', "no field 'colour'"),
    ("count = -1", "whole number"),
    ("per.kind = 3", "table of value = count"),
])
def test_mistakes_in_the_verify_table_are_user_errors(tmp_path, verify, message):
    with pytest.raises(PnpError, match=message):
        check_deck(definition(tmp_path, verify))


def test_cli_verify_template_ok_and_json():
    r = CliRunner().invoke(main, ["verify", "dobble"])
    assert r.exit_code == 0 and "OK" in r.output and "share exactly 1 symbol" in r.output
    r = CliRunner().invoke(main, ["verify", "dobble-connect", "--json"])
    data = json.loads(r.output)
    assert data["ok"] and data["cards"] == 90 and data["facts"]["symbols"] == 91


def test_cli_verify_csv_lists_twenty_pairs_and_a_count(tmp_path):
    lines = ["card,s1,s2,s3"] + [f"{i},a,b,x{i}" for i in range(1, 11)]
    (tmp_path / "bad.csv").write_text("\n".join(lines) + "\n")
    r = CliRunner().invoke(main, ["verify", str(tmp_path / "bad.csv")])
    assert r.exit_code == 1
    assert "FAILED" in r.output and "cards #1 and #2 share 2, not 1: a, b" in r.output
    assert "… and 25 more" in r.output
    r = CliRunner().invoke(main, ["verify", str(tmp_path / "bad.csv"), "--pairs", "2"])
    assert r.exit_code == 0


def test_cli_verify_reads_plane_output(tmp_path):
    out = CliRunner().invoke(main, ["plane", "--order", "4"]).output
    (tmp_path / "p.csv").write_text(out)
    r = CliRunner().invoke(main, ["verify", str(tmp_path / "p.csv"), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["cards"] == 21


@pytest.mark.parametrize("sep", [";", "\t"])
def test_cli_verify_reads_plane_output_saved_with_semicolons_or_tabs(tmp_path, sep):
    """A European Excel saves `;`, a TSV tabs: the header was read as a card (FAILED, 8 cards)."""
    out = CliRunner().invoke(main, ["plane", "--order", "2"]).output
    (tmp_path / "p.csv").write_text(out.replace(",", sep))
    r = CliRunner().invoke(main, ["verify", str(tmp_path / "p.csv")])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("p.csv: OK — 7 cards, 7 symbols")


def test_cli_verify_csv_with_a_header_alone_lists_no_cards(tmp_path):
    """A header and no rows said "OK — 0 cards": the same error as an empty file."""
    (tmp_path / "h.csv").write_text("card,s1\n")
    (tmp_path / "e.csv").write_text("")
    for name in ("h.csv", "e.csv"):
        r = CliRunner().invoke(main, ["verify", str(tmp_path / name)])
        assert r.exit_code == 2, r.output
        assert r.output == f"error: the CSV lists no cards ({tmp_path / name})\n"


def test_cli_verify_missing_file_is_one_line_error(tmp_path):
    r = CliRunner().invoke(main, ["verify", str(tmp_path / "none.csv")])
    assert r.exit_code == 2 and r.output.startswith("error: ") and r.output.count("\n") == 1


def test_cli_verify_csv_naming_one_card_id_twice_is_an_error_naming_both_lines(tmp_path):
    """Two rows with id 1 were checked as two cards and reported as "cards #1 and #1 share
    0": which rows, nobody could tell."""
    (tmp_path / "ids.csv").write_text("card,s1,s2\n1,a,b\n2,b,c\n1,c,a\n")
    r = CliRunner().invoke(main, ["verify", str(tmp_path / "ids.csv")])
    assert r.exit_code == 2, r.output
    assert r.output == "error: card id 1 is also on line 2 (ids.csv:4)\n"


def test_cli_verify_csv_with_space_separated_symbols(tmp_path):
    (tmp_path / "cards.csv").write_text("a b c\nc d e\ne f a\na c\n")
    r = CliRunner().invoke(main, ["verify", str(tmp_path / "cards.csv")])
    assert r.exit_code == 1
    assert "card #4 has 2 symbols, not 3" in r.output
    assert "cards #1 and #4 share 2, not 1: a, c" in r.output


def test_user_definition_listing_symbols_in_its_csv(tmp_path):
    (tmp_path / "cards.csv").write_text(
        "name,symbols\nA,cat dog fish\nB,fish bird cow\nC,cow cat ant\nD,cat;bird;ant\n")
    (tmp_path / "game.toml").write_text(
        '[deck]\nfile = "cards.csv"\n[verify]\nper_card = 3\n[[face]]\ntype = "symbols"\n')
    deck = load(tmp_path)
    assert deck.cards[3].symbols == ("cat", "bird", "ant")
    r = CliRunner().invoke(main, ["verify", str(tmp_path)])
    assert r.exit_code == 1 and "cards #3 and #4 share 2, not 1: cat, ant" in r.output


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sets(st.integers(0, 9), max_size=6), min_size=2, max_size=12),
       st.integers(0, 3))
def test_bitset_pair_check_agrees_with_set_intersections(decks, n):
    cards = [(i + 1, tuple(sorted(map(str, s)))) for i, s in enumerate(decks)]
    rep = check_symbols(cards, pairs=n, limit=10_000)
    naive = {(a[0], b[0]) for i, a in enumerate(cards) for b in cards[i + 1:]
             if len(set(a[1]) & set(b[1])) != n}
    assert rep.totals["pairs"] == len(naive)
    assert {v.cards for v in rep.violations if v.check == "pairs"} == naive
