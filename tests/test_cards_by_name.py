"""Cards named the way designers name them: `--card` takes an id, a name or a range, and
`pnp list GAME` shows the ids, names and copies to pick from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from generator.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def pixels(path: Path) -> bytes:
    return Image.open(path).convert("RGB").tobytes()


def test_a_card_by_name_is_the_card_with_that_id(tmp_path):
    by_name, by_id = tmp_path / "name.png", tmp_path / "id.png"
    assert run("preview", "decktet", "--card", "pact", "--dpi", 40, "-o", by_name).exit_code == 0
    pact = [r for r in json.loads(run("list", "decktet", "--json").output) if r["name"] == "Pact"]
    assert len(pact) == 1 and len(pact[0]["ids"]) == 1
    assert run("preview", "decktet", "--card", pact[0]["ids"][0], "--dpi", 40,
               "-o", by_id).exit_code == 0
    other = tmp_path / "other.png"
    run("preview", "decktet", "--card", "Market", "--dpi", 40, "-o", other)
    assert pixels(by_name) == pixels(by_id) != pixels(other)


def test_a_name_with_copies_and_odd_spacing_gives_its_first_copy(mini, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("preview", mini, "--card", "  GAMMA ", "--dpi", 30)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"wrote {Path('output/mini-card-4.png')}"]
    assert [p.name for p in (tmp_path / "output").iterdir()] == ["mini-card-4.png"]


def test_a_range_writes_one_png_per_card(mini, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("preview", mini, "--card", "2-4", "--dpi", 30)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == [
        "mini-card-2.png", "mini-card-3.png", "mini-card-4.png"]
    imgs = {n: pixels(tmp_path / "output" / f"mini-card-{n}.png") for n in (2, 3, 4)}
    assert imgs[2] != imgs[3] != imgs[4]  # Alpha (red), Beta (green), Gamma (team blue)


@pytest.mark.parametrize("spec, words", [
    ("Mana Leek", ["no card named 'Mana Leek'", "did you mean 'Mana Leak'?", "(--card)"]),
    ("Zzyzx", ["no card named 'Zzyzx'", "pnp list", "(--card)"]),
    ("9", ["has cards #1 to #4; there is no card #9", "(--card)"]),
    ("3-1", ["runs backwards", "(--card)"]),
    ("2-7", ["there is no card #7", "(--card)"]),
])
def test_a_card_that_is_not_there_is_one_line_with_suggestions(mini, spec, words):
    (mini / "cards.csv").write_text("name,color\nMana Leak,red\nCounterspell,blue\n"
                                    "Mana Drain,red\nOpt,blue\n")
    result = run("preview", mini, "--card", spec)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    for word in words:
        assert word in lines[0]


def test_list_game_shows_ids_names_and_copies(mini):
    result = run("list", mini)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "ids   copies  name",
        "#1-2       2  Alpha",
        "#3         1  Beta",
        "#4-6       3  Gamma",
        "mini: 6 cards, 3 different",
    ]
    data = json.loads(run("list", mini, "--json").output)
    assert data == [
        {"ids": [1, 2], "name": "Alpha", "copies": 2, "part": ""},
        {"ids": [3], "name": "Beta", "copies": 1, "part": ""},
        {"ids": [4, 5, 6], "name": "Gamma", "copies": 3, "part": ""},
    ]


def test_list_game_names_the_parts(tmp_path):
    lines = run("list", "decktet").output.splitlines()
    assert lines[1] == "#1        1  Ace of Moons  [basic]"
    assert lines[-1] == "decktet: 45 cards, 45 different"
