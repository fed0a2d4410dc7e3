"""`when`/`unless` comparisons, read from what the PDF draws on each card, and their errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pdfgeom import drawing, page_streams

from generator.cli import main

CARDS = """\
name,type,cost
Fireball,spell,3
Goblin,creature,10
Shield,spell,9
Wall,creature,
"""

HEAD = """\
[deck]
source = "csv"
file = "cards.csv"
size = "poker"
"""


def _marker(n: int, condition: str) -> str:
    """A small rect in a colour of its own, drawn when the condition holds."""
    return (f'\n[[face]]\ntype = "rect"\nx = "{5 + 5 * n}mm"\ny = "5mm"\nw = "4mm"\nh = "4mm"\n'
            f'fill = "#{n:02x}0000"\n{condition}\n')


def _game(tmp_path: Path, toml: str, cards: str = CARDS) -> Path:
    root = tmp_path / "g"
    root.mkdir(exist_ok=True)
    (root / "game.toml").write_text(HEAD + toml)
    (root / "cards.csv").write_text(cards)
    return root


def _markers_per_card(root: Path, tmp_path: Path) -> list[set[int]]:
    """For each card's page, the numbers of the markers drawn on it (read from the PDF)."""
    out = tmp_path / "out.pdf"
    r = CliRunner().invoke(main, ["build", str(root), "--single", "--no-backs", "-o", str(out)])
    assert r.exit_code == 0, r.output
    found = []
    for content in page_streams(out.read_bytes()):
        colors = {f.color for f in drawing(content).fills}
        found.append({round(c[0] * 255) for c in colors if len(c) == 3 and c[1:] == (0, 0)})
    return found


CASES = [
    ('when = "{type} == spell"', {"Fireball", "Shield"}),
    ('when = "{cost} > 9"', {"Goblin"}),  # as numbers: 10 > 9 (as text "10" < "9")
    ('when = "{cost} == 3.0"', {"Fireball"}),
    ('when = "{name} != Goblin"', {"Fireball", "Shield", "Wall"}),
    ('when = "{type} in (spell, trap) and not {cost} < 5"', {"Shield"}),
    ('when = "{cost} <= 3 or {name} == \'Wall\'"', {"Fireball", "Wall"}),  # empty: not <= 3
    ('when = "{cost}"', {"Fireball", "Goblin", "Shield"}),  # plain: non-empty
    ('unless = "{type} == creature"', {"Fireball", "Shield"}),
    ('when = "{type} not in (spell)"', {"Goblin", "Wall"}),
    ('when = "not ({type} == spell or {cost} >= 10)"', {"Wall"}),
    ('when = "Shield in {name}"', {"Shield"}),
]


def test_conditions_compare_fields_per_card(tmp_path):
    toml = "".join(_marker(n, cond) for n, (cond, _) in enumerate(CASES, 1))
    per_card = _markers_per_card(_game(tmp_path, toml), tmp_path)
    names = ["Fireball", "Goblin", "Shield", "Wall"]
    for n, (cond, expected) in enumerate(CASES, 1):
        drawn = {names[i] for i, markers in enumerate(per_card) if n in markers}
        assert drawn == expected, cond


def _error(root: Path) -> str:
    r = CliRunner().invoke(main, ["build", str(root), "-o", str(root / "x.pdf")])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    assert not (root / "x.pdf").exists()
    return lines[0]


@pytest.mark.parametrize("condition, words", [
    ('when = "{type} = spell"', ["cannot read the condition", "write =="]),
    ('when = "{type} =="', ["cannot read the condition", "ends where a value"]),
    ('when = "({type} == spell"', ["cannot read the condition", "without its )"]),
    ('unless = "{type} == spell spell"', ["cannot read the condition", "unexpected 'spell'"]),
    ('when = "{type} in (a b)"', ["cannot read the condition", "(a, b, c)"]),
    ('when = "{kind} == spell"', ["no column 'kind'"]),
])
def test_an_unreadable_condition_is_one_line_naming_element_and_file(tmp_path, condition, words):
    line = _error(_game(tmp_path, _marker(1, condition)))
    for word in [*words, "game.toml", "[[face]] #1 (rect)"]:
        assert word in line, line


def test_ordering_a_word_is_an_error_naming_the_card(tmp_path):
    root = _game(tmp_path, _marker(1, 'when = "{type} > 3"'))
    r = CliRunner().invoke(main, ["build", str(root), "-o", str(root / "x.pdf")])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()  # all mistakes in one run: one line per value
    assert len(lines) == 2, r.output
    assert "'spell' is not a number" in lines[0] and "card #1 (Fireball)" in lines[0], lines
    assert "'creature' is not a number" in lines[1] and "card #2 (Goblin)" in lines[1], lines
    assert all("[[face]] #1 (rect).when" in line for line in lines), lines
    assert lines[0].endswith("; also card #3)") and lines[1].endswith("; also card #4)"), lines


@pytest.mark.parametrize("condition", ["(" * 2400 + "{type}" + ")" * 2400,
                                       "not " * 1200 + "{type}"])  # within the text limit
def test_a_condition_nested_absurdly_deep_is_one_short_line(tmp_path, condition):
    line = _error(_game(tmp_path, _marker(1, f'when = "{condition}"')))
    assert "nested more than 40 deep" in line and len(line) < 200, line


def test_any_text_parses_or_is_a_user_error_and_never_crashes_on_any_card():
    """Fuzzed conditions and card values: parse() and holds() raise PnpError or nothing."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from pnp_model.conditions import parse
    from pnp_model.errors import PnpError

    pieces = st.sampled_from(["{a}", "{b}", "==", "!=", "<", ">=", "in", "not", "and", "or",
                              "(", ")", ",", "'x y'", '"', "3", "-2.5", "spell", "nan", "=",
                              "!", "{", "}", "{}", "é", " "])
    values = st.sampled_from(["", "3", "10", "spell", "a, b", "nan", "inf", "-0", " 7 "])

    @settings(derandomize=True, max_examples=600, deadline=None, database=None)
    @given(st.lists(pieces, max_size=12), values, values)
    def check(tokens, a, b):
        source = " ".join(tokens)
        try:
            condition, _ = parse(source, "w")
        except PnpError:
            return
        try:
            condition.holds(lambda t: t.replace("{a}", a).replace("{b}", b), lambda: "card")
        except PnpError:
            pass

    check()
