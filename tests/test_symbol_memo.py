"""The build memo of a user's-art deck: a rebuild reads back the cleaned art and the layouts,
prints the same bytes, and cleans again exactly what changed."""

import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from generator import parallel
from generator.build import build
from generator.layout import silhouettes
from generator.render import art
from pnp_model.definition import load

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import art_deck  # noqa: E402


@pytest.fixture
def counted(monkeypatch):
    """Every image cleaned and card packed in this process (no helper process), by name."""
    monkeypatch.setattr(parallel, "can_fork", lambda: False)
    calls = {"cleaned": [], "packed": 0}
    real_clean, real_pack = art.clean, silhouettes.pack_silhouettes

    def clean(path, keep=False):
        calls["cleaned"].append(Path(path).name)
        return real_clean(path, keep)

    def pack(*args, **kwargs):
        calls["packed"] += 1
        return real_pack(*args, **kwargs)

    monkeypatch.setattr(art, "clean", clean)
    monkeypatch.setattr(silhouettes, "pack_silhouettes", pack)
    return calls


@pytest.mark.parametrize("fmt", ["png", "jpg"])
def test_a_rebuild_reads_the_work_back_and_prints_the_same_bytes(tmp_path, counted, fmt):
    root = art_deck.make_deck(tmp_path / "deck", order=3, fmt=fmt)
    build(load(root), tmp_path / "cold.pdf")
    assert len(counted["cleaned"]) == 13 and counted["packed"] == 13
    build(load(root), tmp_path / "warm.pdf")
    assert len(counted["cleaned"]) == 13 and counted["packed"] == 13  # nothing done again
    assert (tmp_path / "warm.pdf").read_bytes() == (tmp_path / "cold.pdf").read_bytes()


def test_a_changed_image_is_cleaned_again_with_its_cards(tmp_path, counted, monkeypatch):
    root = art_deck.make_deck(tmp_path / "deck", order=3)
    build(load(root), tmp_path / "before.pdf")
    changed = root / "art" / "symbol005.png"
    im = Image.open(changed).convert("RGB")
    ImageDraw.Draw(im).rectangle((20, 20, 90, 60), fill=(0, 90, 200))  # a new stroke
    im.save(changed)
    counted["cleaned"].clear()
    counted["packed"] = 0
    build(load(root), tmp_path / "after.pdf")
    deck = load(root)
    showing = sum("symbol005" in card.symbols for card in deck.cards)
    assert counted["cleaned"] == ["symbol005.png"] and counted["packed"] == showing == 4
    # what a build that never saw the old image prints
    monkeypatch.setenv("PNP_CACHE", str(tmp_path / "fresh"))
    build(load(root), tmp_path / "fresh.pdf")
    assert (tmp_path / "after.pdf").read_bytes() == (tmp_path / "fresh.pdf").read_bytes()
    assert (tmp_path / "after.pdf").read_bytes() != (tmp_path / "before.pdf").read_bytes()


def test_other_options_are_not_read_back(tmp_path, counted):
    """The background option decides the cleaning; a seed decides the layouts."""
    root = art_deck.make_deck(tmp_path / "deck", order=2)
    build(load(root), tmp_path / "one.pdf")
    toml = root / "game.toml"
    toml.write_text(toml.read_text().replace('type = "symbols"',
                                             'type = "symbols"\nbackground = "keep"'))
    build(load(root), tmp_path / "kept.pdf")
    assert len(counted["cleaned"]) == 14  # 7 images, cleaned once per option
    toml.write_text(toml.read_text().replace('background = "keep"', "seed = 5"))
    packed = counted["packed"]
    build(load(root), tmp_path / "seeded.pdf")
    assert len(counted["cleaned"]) == 14 and counted["packed"] == packed + 7


def test_an_unwritable_cache_folder_changes_nothing(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("PNP_CACHE", str(blocker / "cache"))
    root = art_deck.make_deck(tmp_path / "deck", order=2)
    build(load(root), tmp_path / "a.pdf")
    monkeypatch.setenv("PNP_CACHE", str(tmp_path / "ok"))
    build(load(root), tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_a_rebuild_names_each_file_in_its_notes(tmp_path):
    """Two files of the same bytes are two symbols: each note names its own file."""
    root = art_deck.make_deck(tmp_path / "deck", order=2)
    busy = Image.effect_noise((64, 64), 100).convert("RGB")  # a border of no one colour
    for name in ("symbol001.png", "symbol002.png"):
        busy.save(root / "art" / name)
    for _ in range(2):  # built, then rebuilt from the memo
        notes = " ".join(build(load(root), tmp_path / "out.pdf").notes)
        assert "symbol001.png: its border" in notes and "symbol002.png: its border" in notes


def test_art_kept_as_it_is_rebuilds_to_the_same_bytes(tmp_path):
    """With background = "keep" the PDF stores the pixels themselves: a rebuild makes them
    again from the file (the memo keeps no pixels) and prints the same bytes."""
    root = art_deck.make_deck(tmp_path / "deck", order=2)
    toml = root / "game.toml"
    toml.write_text(toml.read_text().replace('type = "symbols"',
                                             'type = "symbols"\nbackground = "keep"'))
    build(load(root), tmp_path / "cold.pdf")
    build(load(root), tmp_path / "warm.pdf")
    assert (tmp_path / "warm.pdf").read_bytes() == (tmp_path / "cold.pdf").read_bytes()


def test_a_damaged_memo_is_not_read_back(tmp_path, monkeypatch):
    """Cut-off or garbled memo files are computed again, never printed."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE", str(cache))
    root = art_deck.make_deck(tmp_path / "deck", order=2, fmt="jpg")
    build(load(root), tmp_path / "cold.pdf")
    stored = sorted((cache / "art").iterdir())
    for path in stored[:3]:
        path.write_bytes(path.read_bytes()[:-10])  # cut off
    stored[3].write_bytes(b"{}\n")
    data = bytearray(stored[4].read_bytes())
    data[-100] ^= 0xFF  # one byte garbled in its JPEG
    stored[4].write_bytes(bytes(data))
    for layouts in cache.glob("layouts-*.json"):
        layouts.write_text('{"x": [[1, 2]]}')
    build(load(root), tmp_path / "warm.pdf")
    assert (tmp_path / "warm.pdf").read_bytes() == (tmp_path / "cold.pdf").read_bytes()
