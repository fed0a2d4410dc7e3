"""Fuzzed definitions: any TOML value in any parameter of [game], [deck], [print] or an element
builds (exit 0) or is one line `error: ...` (exit 2), never a traceback.

Seeded (derandomize) and bounded, so the suite stays reproducible and fast.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PIL import Image

from generator.cli import main
from pnp_model.definition import DECK_KEYS, GAME_KEYS, PRINT_KEYS
from pnp_model.elements import COMMON, ELEMENTS

DELETE = object()  # a mutation that removes the key

BASE: dict = {
    "game": {"title": "Fuzz", "description": "a fuzzed deck"},
    "deck": {"source": "csv", "file": "cards.csv", "size": "mini", "corner_radius": "2mm"},
    "print": {"bleed": "1mm", "gutter": "2mm"},
    "colors": {"team": "#123456"},
    "face": [
        {"type": "rect", "bleed": True, "fill": "{color}"},
        {"type": "ellipse", "x": "10%", "y": "10%", "w": "20mm", "h": "10mm", "stroke": "team"},
        {"type": "line", "x": "2mm", "y": "2mm", "x2": "20mm", "y2": "20mm"},
        {"type": "text", "text": "{name}", "x": "50%", "y": "20mm", "size": 10,
         "align": "center"},
        {"type": "shape", "name": "star", "x": "50%", "y": "50%", "size": "8mm"},
        {"type": "pips", "value": "{n}", "x": "5mm", "y": "30mm", "w": "15mm", "h": "15mm"},
        {"type": "image", "file": "pic.png", "x": "1mm", "y": "1mm", "w": "5mm", "h": "5mm"},
        {"type": "symbols", "x": "0mm", "y": "40%", "w": "100%", "h": "50%"},
    ],
    "back": [{"type": "rect", "bleed": True, "fill": "team"}],
}
CARDS = "name,color,n,symbols\nAlpha,red,3,sun moon\nBeta,#00ff00,0,moon star\n"


class Raw(str):
    """TOML text written as it is: an integer too long for Python's str(int)."""


def toml(value) -> str:
    """A TOML value (nan, inf and any string included)."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else str(value)  # nan, inf, -inf
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {toml(v)}" for k, v in value.items()) + " }"


def document(data: dict) -> str:
    """A game.toml: plain values first (a table replaced by a value), then [tables], [[arrays]]."""
    def is_array(v) -> bool:
        return isinstance(v, list) and bool(v) and all(isinstance(r, dict) for r in v)

    out = [f"{json.dumps(k)} = {toml(v)}" for k, v in data.items()
           if not isinstance(v, dict) and not is_array(v)]
    for name, table in data.items():
        if isinstance(table, dict) or is_array(table):
            for row in table if is_array(table) else [table]:
                out.append(f"[[{name}]]" if is_array(table) else f"[{name}]")
                out += [f"{json.dumps(k)} = {toml(v)}" for k, v in row.items()]
    return "\n".join(out) + "\n"


def _targets() -> list[tuple]:
    """Every parameter a definition has: (table, key) or (table, element index, key); a
    table itself is ("*", table)."""
    targets = [("game", k) for k in sorted(GAME_KEYS)] + [("deck", k) for k in sorted(DECK_KEYS)]
    targets += [("print", k) for k in sorted(PRINT_KEYS)] + [("deck", "misspelt")]
    targets += [("*", table) for table in ("game", "deck", "print", "colors", "face", "back")]
    for side in ("face", "back"):
        for i, el in enumerate(BASE[side]):
            targets += [(side, i, k) for k in sorted({**COMMON, **ELEMENTS[el["type"]]})]
    return targets


WORDS = ["3mm", "0", "-1mm", "50%", "150%", "nan%", "1e308", "1e999%", "200in", "5081mm", "poker",
         "63x88mm", "0x0mm", "{name}", "{nosuch}", "{", "red", "#12345", "circle", "left",
         "auto", "long", "a4", "csv", "plane", "dominoes", "triangles", "", "..", "../../x",
         "a\x00b", "/tmp/x", "pic.png", "cards.csv", "icons", "words:cards.csv"]
scalars = st.one_of(
    st.sampled_from(WORDS),
    st.integers(min_value=-10**6, max_value=10**6),
    st.sampled_from([2**63, -2**63, 10**30, 10**400]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=6),
)
values = st.one_of(
    scalars, st.lists(scalars, max_size=3),
    st.dictionaries(st.sampled_from(["max", "order", "file", "cards", "seed", "symbols", "x"]),
                    st.one_of(st.integers(-3, 25), scalars), max_size=2),
    st.just(DELETE),
)
mutations = st.lists(st.tuples(st.sampled_from(_targets()), values), min_size=1, max_size=3)


def mutated(changes) -> dict:
    data = json.loads(json.dumps(BASE))
    for target, value in changes:
        table = data if target[0] == "*" else data.get(target[0])
        if len(target) == 3:
            table = table[target[1]] if isinstance(table, list) and target[1] < len(table) else None
        if not isinstance(table, dict):
            continue  # an earlier change replaced or removed the whole table
        if value is DELETE:
            table.pop(target[-1], None)
        else:
            table[target[-1]] = value
    return data


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fuzz")
    (root / "cards.csv").write_text(CARDS)
    Image.new("RGB", (8, 8), "red").save(root / "pic.png")
    return root


def test_the_base_definition_builds(folder):
    (folder / "game.toml").write_text(document(BASE))
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(folder / "out.pdf")])
    assert result.exit_code == 0, result.output


def test_the_serialiser_writes_what_tomllib_reads():
    value = {"a": [float("inf"), -0.5, 1e308, 10**30, "x\x00\x7f\"\\é", True, {"b": 1}]}
    assert tomllib.loads(f"v = {toml(value)}")["v"] == value


@settings(derandomize=True, max_examples=400, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(changes=mutations)
# seeds from issue 28: each was a traceback, an unbounded echo or art read from outside
@example(changes=[(("game", "misspelt"), Raw("9" * 5_000))])  # tomllib: over 4,300 digits
@example(changes=[(("deck", "corner_radius"), Raw("1" * 4_301))])
@example(changes=[(("face", 3, "w"), "-3mm")])  # a negative text box: reportlab assertion
@example(changes=[(("face", 3, "w"), "-50%")])
@example(changes=[(("game", "title"), "T" * 6_000)])  # past the text limit
@example(changes=[(("face", 6, "file"), "/etc/hostname")])  # art outside the folder
@example(changes=[(("face", 6, "file"), "../pic.png")])
@example(changes=[(("deck", "file"), "/etc/passwd")])
@example(changes=[(("game", "assets"), ["/"])])
@example(changes=[(("face", 3, "y"), "２0mm")])  # fullwidth digits
def test_any_value_anywhere_builds_or_is_one_line_error(folder, changes):
    (folder / "game.toml").write_text(document(mutated(changes)))
    result = CliRunner().invoke(main, ["build", str(folder), "-o", str(folder / "out.pdf")])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        lines = result.output.strip().splitlines()  # one line per mistake, all in one run
        assert 1 <= len(lines) <= len(changes), result.output
        assert all(line.startswith("error: ") for line in lines), result.output
        assert all(len(line) <= 600 for line in lines), result.output
