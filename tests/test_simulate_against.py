"""`referee simulate --deck NEW --against OLD`: the same seeds on both decks, the per-seat
differences with 95 % intervals, and a plain verdict."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from referee.cli import main

TEMPLATE = Path(__file__).resolve().parents[1] / "templates" / "tripple-domino"


def against(tmp_path, new: Path, old: Path, *more: str):
    return CliRunner().invoke(main, [
        "simulate", "tripple-domino", "--players", "2", "--games", "60", "--workers", "1",
        "--bot", "greedy", "--deck", str(new), "--against", str(old), *more],
        env={"REFEREE_DB": str(tmp_path / "m.sqlite3")})


def copy(tmp_path, name: str, max_corner: int = 5) -> Path:
    folder = tmp_path / name
    shutil.copytree(TEMPLATE, folder)
    toml = folder / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        "options = { max = 5 }", f"options = {{ max = {max_corner} }}"), encoding="utf-8")
    return folder


def test_an_unchanged_copy_shows_no_difference(tmp_path):
    done = against(tmp_path, copy(tmp_path, "same"), TEMPLATE, "--json")
    assert done.exit_code == 0, done.output
    rows = json.loads(done.stdout)["differences"]
    assert len(rows) == 4 and not any(r["significant"] for r in rows)


def test_smaller_tiles_show_as_a_significant_shift_with_its_interval(tmp_path):
    """Corners 0-4 instead of 0-5: fewer points to score, beyond noise on the same seeds."""
    done = against(tmp_path, copy(tmp_path, "small", 4), copy(tmp_path, "old"))
    assert done.exit_code == 0, done.output
    shifted = [line for line in done.stdout.splitlines() if "points less (" in line]
    assert shifted, done.stdout
    low, high = shifted[0].split("(")[1].split(")")[0].split(" to ")
    assert float(low) < float(high) < 0


def test_against_needs_the_new_deck(tmp_path):
    done = CliRunner().invoke(main, ["simulate", "tripple-domino", "--players", "2",
                                     "--against", str(TEMPLATE)],
                              env={"REFEREE_DB": str(tmp_path / "m.sqlite3")})
    assert done.exit_code == 2
    assert done.output.strip() == ("error: --against compares with --deck: give the new deck "
                                   "too (--against)")


def tile_list(tmp_path, name: str, boosted: dict[str, int] | None = None) -> Path:
    """The template with its tiles written out as a card list (the same 56 tiles in the same
    order, so the same ids and deals), where a designer can change one tile's value."""
    from itertools import combinations_with_replacement

    folder = copy(tmp_path, name)
    toml = folder / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'source = "triangles"', 'source = "csv"\nfile = "cards.csv"').replace(
        "options = { max = 5 }", ""), encoding="utf-8")
    rows = ["a,b,c,value"]
    for tile in combinations_with_replacement(range(6), 3):
        key = "-".join(map(str, tile))
        rows.append(f"{','.join(map(str, tile))},{(boosted or {}).get(key, sum(tile))}")
    (folder / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder


def test_one_much_stronger_tile_is_the_top_outlier_and_shifts_the_seats(tmp_path):
    """Issue 41's acceptance: 0-0-1, the weakest tile, scores 60 instead of 1. The comparison
    names it first among the cards and shows the seats' scores moved beyond noise; the
    unchanged card list against the same folder shows nothing beyond noise. One round a game:
    over a whole game the target that ends it absorbs the extra points (it ends sooner).
    --plot draws it: red bars (beyond noise) in the score and card panels, none in the wins
    panel; no red at all for the unchanged list."""
    old = tile_list(tmp_path, "old")
    done = against(tmp_path, tile_list(tmp_path, "strong", {"0-0-1": 60}), old, "--json",
                   "--max-rounds", "1", "--plot", str(tmp_path / "strong.png"))
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    top = result["card_win_rates"][0]
    assert top["card"] == "0-0-1" and top["outlier"], result["card_win_rates"][:3]
    moved = [r for r in result["differences"] if r["significant"]]
    assert {(r["seat"], r["figure"]) for r in moved} == {(1, "score"), (2, "score")}, moved
    assert all(r["mean"] > 0 for r in moved)
    assert red_by_panel(tmp_path / "strong.png") == [False, True, True]
    done = against(tmp_path, tile_list(tmp_path, "same"), old, "--json", "--max-rounds", "1",
                   "--plot", str(tmp_path / "same.png"))
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert not any(r["significant"] for r in result["differences"])
    assert result["card_win_rates"][0]["card"] != "0-0-1"
    assert red_by_panel(tmp_path / "same.png") == [False, False, False]


def red_by_panel(png: Path) -> list[bool]:
    """Whether each third of the picture (the plot's three panels) holds a red bar: at least
    a 6x6 block's worth of pixels of the red the plot marks 'beyond noise' with."""
    from PIL import Image

    with Image.open(png) as im:
        rgb = im.convert("RGB")
        third = rgb.width // 3
        out = []
        for k in range(3):
            panel = rgb.crop((k * third, 0, (k + 1) * third, rgb.height))
            data = panel.tobytes()
            red = sum(1 for i in range(0, len(data), 3)
                      if data[i] > 190 and data[i + 1] < 70 and data[i + 2] < 70)
            out.append(red >= 36)
        return out
