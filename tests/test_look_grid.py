"""`referee look PHOTO` for Duplicon: a synthetic photo of the 3×3 grid printed with markers
(tests/synthetic_grid_photos.py), most cards face down, read back as the `grid` line of a
position that `referee new --position` takes: every card in its place, a face-down card face
down (all backs carry one marker: the photo never says which card it is), never a guess."""

from __future__ import annotations

import json
import os
import random
import subprocess

import pytest

from tests.programs import REFEREE
from tests.programs import look as _look

cv2 = pytest.importorskip("cv2")

from tests import synthetic_grid_photos as gp  # noqa: E402 - needs cv2


@pytest.fixture(scope="module")
def renders(tmp_path_factory):
    return gp.export_cards(tmp_path_factory.mktemp("renders"), dpi=150)


def _read(photo, *args):
    done = _look(photo.path, "--game", "duplicon", "--json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_tilted_blurred_photo_puts_every_card_in_its_place_the_backs_face_down(renders,
                                                                                 tmp_path):
    rng = random.Random(4)
    truth = gp.grid(renders, rng, face_up=3)
    photo = gp.photograph(truth, renders, tmp_path / "grid.jpg", rng, card_px=300, tilt=30,
                          blur=1.2, width=4000, height=3000)  # a 12 MP phone
    data = _read(photo, "--overlay", tmp_path / "overlay.png")
    assert gp.score(truth, renders, data["cards"]) == (9, 0)
    assert data["not_seen"] == []
    backs = [c for c in data["cards"] if c.get("face_down")]
    assert len(backs) == 6 and {c["id"] for c in backs} == {None}
    assert all(len(c["corners"]) == 4 for c in data["cards"])
    grid = next(x for x in data["position"].splitlines() if x.startswith("grid "))
    assert grid.count("=?") == 6 and len(grid.split()) == 10
    overlay = cv2.imread(str(tmp_path / "overlay.png"))
    assert overlay.shape[:2] == cv2.imread(str(photo.path)).shape[:2]


def test_no_card_is_read_wrong_on_a_set_of_photos(renders, tmp_path):
    """Precision 100 % over tilts to 35°, blur to σ 1.6, cards 200-420 px, some upside down;
    and every card of 250 px or more found."""
    rng = random.Random(11)
    right = wrong = big = big_right = 0
    for n in range(8):
        truth = gp.grid(renders, rng, face_up=rng.randrange(0, 4))
        photo = gp.photograph(truth, renders, tmp_path / f"{n}.jpg", rng,
                              card_px=rng.uniform(200, 420), tilt=rng.uniform(0, 35),
                              blur=rng.uniform(0, 1.6))
        ok, bad = gp.score(truth, renders, _read(photo)["cards"])
        right, wrong = right + ok, wrong + bad
        if photo.card_px >= 250:
            big, big_right = big + len(truth), big_right + ok
    assert wrong == 0 and right >= 70
    assert big_right == big > 0


def test_a_stray_tripple_domino_tile_beside_the_grid_is_not_put_in_it(renders, tmp_path):
    """Its marker is of Tripple Domino's range: no card of this game, so not in the grid, not
    even listed as not seen."""
    from tests import synthetic_photos as sp

    tile = next(iter(sp.export_tiles(tmp_path / "tiles", dpi=150).values()))
    rng = random.Random(5)
    truth = gp.grid(renders, rng, face_up=2)
    photo = gp.photograph(truth, renders, tmp_path / "s.jpg", rng, card_px=300, tilt=20,
                          stray=gp._opaque(tile))
    data = _read(photo)
    assert gp.score(truth, renders, data["cards"]) == (9, 0)
    assert data["not_seen"] == []


def test_a_duplicon_card_beside_the_grid_is_listed_apart_not_put_in_it(renders, tmp_path):
    """A card of the game lying beside the grid (a play zone's, say) is read, but lies
    outside its three columns (or, turned, across the grid): not seen in the grid, and the
    grid still read whole."""
    rng = random.Random(6)
    truth = gp.grid(renders, rng, face_up=2)
    other = next(i for i in sorted(renders.types) if i not in truth.values())
    for turn, why in ((3, "outside the grid's three columns and rows"),
                      (45, "turned across the grid")):
        photo = gp.photograph(truth, renders, tmp_path / f"d{turn}.jpg", rng, card_px=260,
                              tilt=20, stray=renders.faces[other], stray_turn=turn)
        data = _read(photo)
        assert gp.score(truth, renders, data["cards"]) == (9, 0)
        assert [(c["id"], c["why"]) for c in data["not_seen"]] == [(other, why)]


def test_a_hole_is_said_never_filled(renders, tmp_path):
    """A place with no card read is left out of the grid line and named: a hole and a card
    not seen look alike, so the photo guesses neither."""
    rng = random.Random(9)
    truth = gp.grid(renders, rng, face_up=1, holes=1)
    hole = next(p for p in "a1 b1 c1 a2 b2 c2 a3 b3 c3".split() if p not in truth)
    photo = gp.photograph(truth, renders, tmp_path / "h.jpg", rng, card_px=300, tilt=15)
    data = _read(photo)
    assert gp.score(truth, renders, data["cards"]) == (8, 0)
    grid = next(x for x in data["position"].splitlines() if x.startswith("grid "))
    assert len(grid.split()) == 9 and f"{hole}=" not in grid
    assert f"# no card read at {hole}:" in data["position"]


def test_with_a_whole_column_missing_no_card_is_placed(renders, tmp_path):
    """Two columns seen: which two of a-c cannot be told, so every card is listed as not
    seen, never placed in a guessed column."""
    rng = random.Random(3)
    truth = {p: v for p, v in gp.grid(renders, rng, face_up=2).items() if p[0] != "c"}
    photo = gp.photograph(truth, renders, tmp_path / "c.jpg", rng, card_px=300, tilt=10)
    data = _read(photo)
    assert data["cards"] == []
    assert len(data["not_seen"]) == 6
    assert {c["why"] for c in data["not_seen"]} == {
        "fewer than three columns seen: which is which cannot be told"}
    assert not any(x.startswith("grid ") for x in data["position"].splitlines())


def test_the_grid_read_is_a_position_referee_new_takes(renders, tmp_path):
    rng = random.Random(12)
    truth = gp.grid(renders, rng, face_up=2)
    photo = gp.photograph(truth, renders, tmp_path / "b.jpg", rng, card_px=300, tilt=15)
    done = _look(photo.path, "--game", "duplicon")
    assert done.returncode == 0, done.stderr
    (tmp_path / "pos.txt").write_text(done.stdout)
    env = {**os.environ, "REFEREE_DB": str(tmp_path / "m.sqlite3")}
    made = subprocess.run([REFEREE, "new", "duplicon", "--players", "ana,bob", "--position",
                           str(tmp_path / "pos.txt")], capture_output=True, text=True,
                          timeout=60, env=env)
    assert made.returncode == 0, made.stderr
    shown = subprocess.run([REFEREE, "position"], capture_output=True, text=True, timeout=60,
                           env=env).stdout
    # the referee writes only the cards the table has seen: the two faces, in their places
    faces = {p: renders.types[v] for p, v in truth.items() if v != gp.BACK}
    grid = next(x for x in shown.splitlines() if x.startswith("grid "))
    assert dict(w.split("=") for w in grid.split()[1:]) == faces
