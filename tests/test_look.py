"""`referee look PHOTO`: a synthetic photo of a Tripple Domino board printed with markers
(tests/synthetic_photos.py) read back as the position, and the errors of a bad photo."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from tests.programs import REFEREE
from tests.programs import look as _look

cv2 = pytest.importorskip("cv2")

from tests import synthetic_photos as sp  # noqa: E402 - needs cv2


@pytest.fixture(scope="module")
def renders(tmp_path_factory):
    return sp.export_tiles(tmp_path_factory.mktemp("renders"), dpi=200)



def test_a_tilted_blurred_photo_of_a_30_tile_board_is_read_exactly(renders, tmp_path):
    rng = random.Random(7)
    layout = sp.board(30, rng)
    photo = sp.photograph(layout, renders, tmp_path / "board.jpg", rng, tile_px=260, tilt=30,
                          blur=1.2)
    done = _look(photo.path, "--game", "tripple-domino", "--json", "--overlay",
                 tmp_path / "overlay.png")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    read = sp.parsed(data["cards"])
    assert sp.score(layout, read) == (30, 0)
    assert data["not_seen"] == []
    card = data["cards"][0]
    assert len(card["corners"]) == 3 and len(card["center"]) == 2
    overlay = cv2.imread(str(tmp_path / "overlay.png"))
    assert overlay.shape[:2] == cv2.imread(str(photo.path)).shape[:2]


def test_the_board_read_is_a_position_referee_new_takes(renders, tmp_path):
    rng = random.Random(11)
    layout = sp.board(12, rng)
    photo = sp.photograph(layout, renders, tmp_path / "b.jpg", rng, tile_px=300, tilt=15)
    done = _look(photo.path, "--game", "tripple-domino", "--turn", "ana")
    assert done.returncode == 0, done.stderr
    position = tmp_path / "pos.txt"
    position.write_text(done.stdout)
    assert len([line for line in done.stdout.splitlines() if line[:1] in "UD"]) == 12
    made = subprocess.run([REFEREE, "--db", str(tmp_path / "m.sqlite3"), "new",
                           "tripple-domino", "--players", "ana,bob", "--position",
                           str(position)], capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr


def test_a_tile_seen_twice_is_listed_as_not_seen_never_placed(renders, tmp_path):
    """Two prints of one tile on the table: neither is guessed at."""
    rng = random.Random(3)
    layout = sp.board(6, rng)
    (cid, (cell, reading)), (other, _) = list(layout.items())[:2]
    twice = {**layout}
    twice[other] = layout[other]
    renders = {**renders, other: renders[cid]}  # the other tile printed with cid's marker
    photo = sp.photograph(twice, renders, tmp_path / "t.jpg", rng, tile_px=300, tilt=10)
    done = _look(photo.path, "--game", "tripple-domino", "--json")
    data = json.loads(done.stdout)
    assert {c["id"] for c in data["not_seen"]} == {cid}
    assert cid not in {c["id"] for c in data["cards"]}
    assert len(data["cards"]) == 4


def test_a_file_that_is_no_image_is_a_one_line_error(tmp_path):
    bad = tmp_path / "note.jpg"
    bad.write_text("not a photo")
    done = _look(bad, "--game", "tripple-domino")
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and "is not an image" in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_without_opencv_look_says_how_to_install_it(tmp_path):
    code = ("import sys\nsys.modules['cv2'] = None\nfrom referee.cli import main\n"
            "main(['look', 'x.jpg', '--game', 'tripple-domino'])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == ("error: reading a photo needs OpenCV: pip install "
                           "'pnp-toolkit[camera]' (referee look)\n")


def test_a_tile_lying_apart_turned_off_the_lattice_is_not_seen_never_placed(renders, tmp_path):
    """A tile a player holds over the table, turned between its turns and off every cell."""
    rng = random.Random(5)
    layout = sp.board(10, rng)
    spare = next(cid for cid in renders if cid not in layout)
    xs = [x for cell, _ in layout.values() for x in (cell[1],)]
    photo = sp.photograph(layout, renders, tmp_path / "l.jpg", rng, tile_px=300, tilt=10,
                          loose=[(spare, (max(xs) + 3.4, 0.3), 30)])
    done = _look(photo.path, "--game", "tripple-domino", "--json")
    data = json.loads(done.stdout)
    assert [c["id"] for c in data["not_seen"]] == [spare]
    assert sp.score(layout, sp.parsed(data["cards"])) == (10, 0)
    text = _look(photo.path, "--game", "tripple-domino").stdout
    assert f"# not seen: card {spare} at " in text
