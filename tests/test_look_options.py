"""`referee look`'s options that do not fit together, or name the wrong thing: each is one
line naming the option, exit 2, and never a photo read against the wrong cards or written over.
(A tester's findings: another game's deck read as Dobble Connect cards, the overlay written
over the photo, a pack made outside output/, a typo blamed on --pack.)"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from pnp_model.catalog import bundled
from tests.programs import PNP
from tests.programs import look as _look

pytest.importorskip("cv2")


@pytest.fixture
def table(tmp_path):
    """An empty folder with a blank photo, no match database, and a copy of Tripple Domino."""
    from PIL import Image

    Image.new("RGB", (400, 300), "white").save(tmp_path / "photo.png")
    shutil.copytree(bundled()["tripple-domino"], tmp_path / "mytd")
    env = {**os.environ, "REFEREE_DB": str(tmp_path / "none.sqlite3")}

    def look(*args, cwd=tmp_path):
        return _look("photo.png", *args, cwd=cwd, env=env)
    look.folder = tmp_path
    return look


def _refused(done, *words):
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("error: "), done.stderr
    for word in words:
        assert word in done.stderr, (word, done.stderr)


def test_a_deck_of_another_game_is_refused(table):
    """A copy of Tripple Domino given as Dobble Connect's deck: its tiles were read as cards."""
    _refused(table("--game", "dobble-connect", "--deck", "mytd"),
             "mytd prints markers from id 100, not dobble-connect's from 300", "(--deck)")
    _refused(table("--game", "tripple-domino", "--deck", "nosuch"), "no game 'nosuch'", "(--deck)")
    assert table("--game", "tripple-domino", "--deck", "mytd").returncode == 0


def test_the_overlay_never_writes_over_the_photo(table):
    photo = table.folder / "photo.png"
    before = photo.read_bytes()
    _refused(table("--game", "tripple-domino", "--overlay", "./photo.png"),
             "over the photo", "(--overlay)")
    assert photo.read_bytes() == before


@pytest.mark.parametrize("game, words", [
    ("trippel-domino", ["no game 'trippel-domino'", "tripple-domino", "(--game)"]),
    ("thricewise", ["thricewise is not read from photos", "(--game)"]),
    ("", ["no game ''", "(--game)"])])
def test_a_game_that_cannot_be_read_is_named_at_game(table, game, words):
    """A typo made a reference pack first and failed as `pnp export ... failed: error: ...
    (--pack)`; Thricewise, which the referee knows, was 'no game' without a place."""
    _refused(table("--game", game), *words)
    assert not (table.folder / "output").exists()


def test_no_game_and_no_match_lists_the_games_read(table):
    _refused(table(), "--game GAME", "dobble-connect, duplicon, tripple-domino", "dobble")


def test_options_of_the_other_kind_of_reading_are_refused(table):
    """Markers and symbol decks read differently: --pack with a marker game read the tiles as
    Dobble cards (0 read, exit 0); --deck and --turn with a symbol deck did nothing."""
    (table.folder / "pack").mkdir()
    _refused(table("--game", "tripple-domino", "--pack", "pack"), "(--pack)")
    _refused(table("--game", "dobble", "--deck", "mytd"), "(--deck)")
    _refused(table("--game", "dobble", "--turn", "ana"), "(--turn)")


def test_a_game_given_as_a_folder_gets_its_pack_in_output(table):
    """`--game ../myg` made output/../myg-look, beside the game; and a pack given beside
    --game must be that game's."""
    made = subprocess.run([PNP, "new", "myg", "--blank"], cwd=table.folder, capture_output=True,
                          text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    (table.folder / "sub").mkdir()
    shutil.move(table.folder / "photo.png", table.folder / "sub" / "photo.png")
    done = table("--game", "../myg", cwd=table.folder / "sub")
    assert done.returncode == 0, done.stderr
    assert "-o output/myg-look" in done.stderr
    assert (table.folder / "sub" / "output" / "myg-look" / "look.json").is_file()
    assert not (table.folder / "sub" / "myg-look").exists()
    other = table("--game", "dobble", "--pack", "output/myg-look", cwd=table.folder / "sub")
    _refused(other, "the pack in output/myg-look is of myg, not of dobble", "(--pack)")
