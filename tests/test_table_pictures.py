"""The board as a picture (SVG), as `referee show --svg` writes it and `referee serve` shows it:
every bundled game draws its position, and what a player reads off it is what the position is."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee import engine, registry
from tests import example_game, table_matches
from tests.test_game_contract import opening

BUNDLED = ["coda", "dobble-connect", "duplicon", "thricewise", "tripple-domino"]
SVG = "{http://www.w3.org/2000/svg}"


def sample_picture(name: str) -> tuple[engine.Rules, object, ET.Element]:
    g = registry.game(name)
    state = opening(g)[2]
    return g, state, ET.fromstring(g.picture(state))


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in g.get("class", "").split()]


@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_game_draws_its_sample_position(name):
    g, _, root = sample_picture(name)
    assert root.tag == f"{SVG}svg" and root.get("viewBox")
    assert g.title.split()[0] in root.find(f"{SVG}title").text


def test_a_game_without_a_picture_module_draws_none():
    """The hook's default finds picture.py beside the game's rules; a game without one (the
    example game lives in tests/) has no picture and the commands say so."""
    state = example_game.GAME.setup(("ana", "bob"), {"step": "3"})
    assert example_game.GAME.picture(state) is None


def test_tripple_domino_puts_each_number_on_its_vertex_and_each_tile_in_its_cell():
    g, state, root = sample_picture("tripple-domino")
    placed = {e.get("data-cell"): e.get("data-tile") for e in groups(root, "placed")}
    assert placed == {f"{c[0]}{c[1]},{c[2]}": "-".join(map(str, t))
                      for c, t in state.board.items()}
    numbers = {e.get("data-vertex"): texts(e) for e in groups(root, "number")}
    assert numbers == {f"{x},{y}": [str(n)] for (x, y), n in state.numbers.items()}
    # the latest tile is ringed, the free cells are offered in lower case as typed
    assert [e.get("data-cell") for e in groups(root, "placed")
            if "latest" in ET.tostring(e).decode()] == ["U-1,1"]
    assert "d-1,1" in [e.get("data-cell").lower() for e in groups(root, "free-cell")]


def test_dobble_connect_fills_each_card_with_its_team_colour():
    g, state, root = sample_picture("dobble-connect")
    printed = {"pink": "#e6007e", "orange": "#f29100", "green": "#46843c", "blue": "#3a3ad0",
               "black": "#1a1a1a"}
    cards = groups(root, "placed")
    assert len(cards) == len(state.board) == 4
    for e in cards:
        team = g.deck.colors[int(e.get("data-card"))]
        assert e.get("data-team") == team
        assert e.find(f"{SVG}polygon").get("fill") == printed[team]


def test_coda_shows_revealed_numbers_and_only_the_backs_of_hidden_tiles():
    g, state, root = sample_picture("coda")
    tiles = groups(root, "tile")
    revealed = [s for row in state.rows for s in row if s.tile is not None]
    assert len(groups(root, "revealed")) == len(revealed) > 0
    for e in groups(root, "hidden"):
        assert all(t.isdigit() for t in texts(e))  # at most its position under it
        assert len(texts(e)) <= 1
    assert len(tiles) == sum(len(r) for r in state.rows) + (state.drawn is not None)


def test_thricewise_draws_the_tableau_with_its_cells():
    g, state, root = sample_picture("thricewise")
    from referee.games.thricewise import card_by_id, cell_name

    drawn = {e.get("data-cell"): e.get("data-card") for e in groups(root, "placed")}
    assert drawn == {cell_name(c): card_by_id(i).name for c, i in state.cells.items()}


def test_duplicon_shows_seen_cards_by_type_and_unseen_ones_as_backs():
    g, state, root = sample_picture("duplicon")
    seen = {e.get("data-pos"): e.get("data-type") for e in groups(root, "seen-card")}
    assert seen == {p: t for p, t in state.grid.items() if t not in ("?", "")}
    assert len(groups(root, "unseen-card")) == sum(t == "?" for t in state.grid.values())


@pytest.fixture
def env(tmp_path):
    return {**os.environ, "REFEREE_DB": str(tmp_path / "m.sqlite3"),
            "REFEREE_CACHE": str(tmp_path / "cache")}


def test_show_svg_writes_the_picture_of_the_match(env, tmp_path):
    table_matches.tripple_domino_30(Path(env["REFEREE_DB"]))
    out = tmp_path / "board.svg"
    done = subprocess.run([sys.executable, "-m", "referee.cli", "show", "--svg", str(out)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == f"wrote {out}"
    root = ET.fromstring(out.read_text())
    assert len(groups(root, "placed")) == 30


def test_show_svg_into_a_missing_folder_is_a_one_line_error(env, tmp_path):
    subprocess.run([sys.executable, "-m", "referee.cli", "new", "duplicon", "--players",
                    "ana,bob"], env=env, capture_output=True, timeout=120, check=True)
    done = subprocess.run([sys.executable, "-m", "referee.cli", "show", "--svg",
                           str(tmp_path / "no" / "such" / "b.svg")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and re.fullmatch(r"error: cannot write .*\(--svg\)\n",
                                                 done.stderr), done.stderr
