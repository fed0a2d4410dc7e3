"""`referee look PHOTO` for Dobble Connect: a synthetic photo of cards printed with markers
(tests/synthetic_hex_photos.py), laid on the hex grid each in one of its six turns, read back
as the Q,R CARD lines of a position that `referee new --position` takes; a card never guessed."""

from __future__ import annotations

import json
import random
import subprocess

import pytest

from tests.programs import REFEREE
from tests.programs import look as _look

cv2 = pytest.importorskip("cv2")

from tests import synthetic_hex_photos as hp  # noqa: E402 - needs cv2


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    return hp.export_cards(tmp_path_factory.mktemp("renders"), dpi=150)



def test_a_tilted_blurred_photo_of_a_board_of_20_cards_is_read_exactly(cards, tmp_path):
    renders, colors = cards
    rng = random.Random(8)
    layout = hp.board(20, colors, rng)
    photo = hp.photograph(layout, renders, tmp_path / "board.jpg", rng, card_px=260, tilt=30,
                          blur=1.2, width=4000, height=3000)  # a 12 MP phone
    assert photo.card_px >= 250
    done = _look(photo.path, "--game", "dobble-connect", "--json", "--overlay",
                 tmp_path / "overlay.png")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert hp.score(layout, data["cards"]) == (20, 0)
    assert data["not_seen"] == []
    start = next(c for c in data["cards"] if c["position"].startswith("0,0 "))
    assert colors[start["id"]] == "black" and len(start["corners"]) == 6
    overlay = cv2.imread(str(tmp_path / "overlay.png"))
    assert overlay.shape[:2] == cv2.imread(str(photo.path)).shape[:2]


def test_the_board_read_is_a_position_referee_new_takes(cards, tmp_path):
    renders, colors = cards
    rng = random.Random(12)
    layout = hp.board(9, colors, rng, teams=("pink", "orange"))
    photo = hp.photograph(layout, renders, tmp_path / "b.jpg", rng, card_px=300, tilt=15)
    done = _look(photo.path, "--game", "dobble-connect")
    assert done.returncode == 0, done.stderr
    (tmp_path / "pos.txt").write_text(done.stdout)
    import os

    env = {**os.environ, "REFEREE_DB": str(tmp_path / "m.sqlite3")}
    made = subprocess.run([REFEREE, "new", "dobble-connect", "--players", "ana,bob",
                           "--position", str(tmp_path / "pos.txt")], capture_output=True,
                          text=True, timeout=60, env=env)
    assert made.returncode == 0, made.stderr
    shown = subprocess.run([REFEREE, "position"], capture_output=True, text=True, timeout=60,
                           env=env).stdout
    lines = [x for x in shown.splitlines() if x[:1] in "-0123456789"]
    assert sorted(lines) == sorted(x for x in done.stdout.splitlines() if x[:1] != "#")


def test_without_its_black_start_card_no_card_is_placed(cards, tmp_path):
    """The board's frame is the start card's: without it, every card is listed as not seen."""
    renders, colors = cards
    rng = random.Random(2)
    layout = hp.board(7, colors, rng)
    del layout[next(c for c, h in layout.items() if h == (0, 0))]
    photo = hp.photograph(layout, renders, tmp_path / "n.jpg", rng, card_px=300, tilt=10)
    data = json.loads(_look(photo.path, "--game", "dobble-connect", "--json").stdout)
    assert data["cards"] == []
    assert sorted(c["id"] for c in data["not_seen"]) == sorted(layout)
    assert {c["why"] for c in data["not_seen"]} == {"no black start card read"}


def test_with_markers_the_icons_keep_clear_of_the_marker_and_stay_findable(tmp_path):
    """The icons keep to the hexagon's upper part with --markers: the smallest, read from the
    PDF, still over 6 mm (5.4 mm when the marker's room took spread 1.6's sizes)."""
    from pdfgeom import smallest_placed_form_mm

    from tests.programs import PNP

    pdf = tmp_path / "dc.pdf"
    r = subprocess.run([PNP, "build", "dobble-connect", "--single", "--no-backs", "--markers",
                        "-o", str(pdf)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert 6.0 <= smallest_placed_form_mm(pdf) < 20
