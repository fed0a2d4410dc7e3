""""Photograph the table" on a seat's page (`referee serve --seats`): a synthetic photo of a
Tripple Domino board (tests/synthetic_photos.py) uploaded from Chromium at 390 px comes back
as the position and its overlay, and becomes a dispute's scratch match only once the player
confirms; an upload that is no photo, a decompression bomb or too large a file is refused with
one clear message and nothing recorded; without OpenCV the button says how to install it.
Screenshots kept in $TABLE_SHOTS when set, to look at."""

from __future__ import annotations

import json
import random
import struct
import sys
import zlib

import pytest

import tests.test_table_page as table_page
from tests.browser import PHONE
from tests.test_seats_api import Seated, domino, log, seated  # noqa: F401  (fixtures)
from tests.test_seats_pages import open_seat, shot
from tests.test_table_page import env, referee, serve  # noqa: F401  (fixtures)

cv2 = pytest.importorskip("cv2")

from tests import synthetic_photos as sp  # noqa: E402 - needs cv2


@pytest.fixture(scope="module")
def renders(tmp_path_factory):
    return sp.export_tiles(tmp_path_factory.mktemp("renders"), dpi=150)


@pytest.fixture
def board_photo(renders, tmp_path):
    rng = random.Random(21)
    layout = sp.board(9, rng)
    return layout, sp.photograph(layout, renders, tmp_path / "table.jpg", rng, tile_px=280,
                                 tilt=20, blur=0.8, width=2000, height=1500)


def png_bomb(side: int) -> bytes:
    """A real PNG of side x side black pixels, one bit each: a few hundred KB that a decoder
    would unpack to side² bytes of grey."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\0" * (1 + (side + 7) // 8)
    packer = zlib.compressobj(9)
    data = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 1, 0, 0,
                                                                 0, 0))
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def upload(s: Seated, seat: str | None, data: bytes, **headers) -> tuple[int, dict]:
    return s.call("POST", "/api/photo", data, seat=seat,
                  headers={"content-type": "image/jpeg", **headers})


def send_photo(page, path) -> dict:
    """The seat page's "photograph the table" field given a file: what the page's
    `seat-photo` event carries once the photo is read."""
    page.evaluate("""() => { window.__photo = null; document.addEventListener('seat-photo',
                      (e) => { window.__photo = e.detail; }, { once: true }); }""")
    page.locator("#seat-photo").set_input_files(str(path))
    return page.wait_for_function("() => window.__photo", timeout=90_000).json_value()


def position_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line[:1] in "UD"]


def test_a_photo_is_read_shown_and_becomes_a_dispute_only_when_confirmed(
        domino, seated, board_photo, browser, tmp_path):  # noqa: F811
    layout, photo = board_photo
    served = seated()
    context, page = open_seat(browser, served, "bob")
    assert page.viewport_size == PHONE
    assert page.locator("label[for=seat-photo]").inner_text() == "Photograph the table"
    field = page.locator("#seat-photo")
    assert field.get_attribute("accept") == "image/*"
    assert field.get_attribute("capture") == "environment"
    before = log(domino)
    got = send_photo(page, photo.path)
    assert got["status"] == 200, got
    shown = page.inner_text("#seat-photo-position")
    assert len(position_lines(shown)) == len(layout) == 9
    read = {}
    for line in position_lines(shown):  # the page shows the board read, cell by cell
        cell, _, reading = line.partition(" ")
        read[len(read)] = (sp.parse_cell(cell.lower()), tuple(map(int, reading.split("-"))))
    by_tile = {tuple(sorted(r)): cid for cid, (_, r) in layout.items()}
    read = {by_tile[tuple(sorted(r))]: (c, r) for c, r in read.values()}
    assert sp.score(layout, read) == (9, 0)
    assert "9 read" in page.inner_text("#seat-photo-status")
    # the overlay is shown, as wide as the phone's panel allows, cut to the board: on the
    # screen a tile is drawn larger than in the whole photo fitted to the panel
    size = page.evaluate("""() => { const i = document.getElementById('seat-photo-overlay');
        return [i.naturalWidth, i.naturalHeight, i.getBoundingClientRect().width]; }""")
    assert 300 < size[2] <= 390 and size[0] >= size[2]
    assert size[0] < 0.75 * 2000  # the board's part of the 2000 px photo, at its own pixels
    page.locator("#seat-photo-overlay").scroll_into_view_if_needed()
    shot(page, "seat-photo-read", tmp_path)
    assert log(domino) == before  # shown, not recorded
    # confirmed: a scratch match from that position, the seat's own match untouched
    page.evaluate("""() => { window.__made = null; document.addEventListener(
        'seat-photo-dispute', (e) => { window.__made = e.detail; }, { once: true }); }""")
    page.click("#seat-photo-dispute")
    made = page.wait_for_function("() => window.__made", timeout=30_000).json_value()
    assert made["status"] == 200, made
    assert f"match {made['data']['match']}" in page.inner_text("#seat-photo-made")
    shot(page, "seat-photo-dispute", tmp_path)
    matches = json.loads(referee(domino, "matches", "--json").stdout)
    scratch = next(m for m in matches if m["match"] == made["data"]["match"])
    assert scratch["scratch"] and scratch["players"] == ["ana", "bob"]
    written = referee(domino, "position", "--match", str(scratch["match"])).stdout
    assert sorted(position_lines(written)) == sorted(position_lines(shown))
    assert [e for e in json.loads(referee(domino, "log", "--json", "--match", "1").stdout)
            ["events"]] == before
    context.close()


def test_the_move_a_photo_shows_is_played_once_the_player_taps_it(domino, seated, renders,  # noqa: F811
                                                                  browser, tmp_path):
    """The table: 5-5-5 and bob's 4-5-5; ana lays 0-5-5 below them and photographs the
    table: her page offers that move, played as if typed, with the seat's own verdict."""
    from referee.games.tripple_domino.model import tiles

    assert referee(domino, "play", "4-5-5 D-1,0").returncode == 0
    ids = {t: cid for t, (cid, _) in tiles().items()}
    layout = {ids[(5, 5, 5)]: (("U", 0, 0), (5, 5, 5)), ids[(4, 5, 5)]: (("D", -1, 0), (5, 4, 5)),
              ids[(0, 5, 5)]: (("D", 0, -1), (0, 5, 5))}
    photo = sp.photograph(layout, renders, tmp_path / "laid.jpg", random.Random(4),
                          tile_px=300, tilt=15, width=2000, height=1500)
    served = seated()
    context, page = open_seat(browser, served, "ana")
    got = send_photo(page, photo.path)
    assert got["data"]["move"] == "0-5-5 D0,-1", got
    assert page.inner_text("#seat-photo-move") == "Play 0-5-5 D0,-1"
    assert len(log(domino)) == 3  # offered, not played
    page.evaluate("""() => { window.__verdict = null; document.addEventListener('seat-verdict',
                      (e) => { window.__verdict = e.detail; }, { once: true }); }""")
    page.click("#seat-photo-move")
    verdict = page.wait_for_function("() => window.__verdict").json_value()["data"]
    assert verdict["legal"] and verdict["event"] == 4 and verdict["player"] == "ana"
    assert log(domino)[-1]["text"].startswith("0-5-5 D0,-1")
    shot(page, "seat-photo-move", tmp_path)
    # a second photo of the same table: nothing new on it, so no move is offered
    again = send_photo(page, photo.path)
    assert again["data"]["move"] is None
    assert "no tile that is not on the table" in page.inner_text("#seat-photo-why")
    context.close()


def test_what_is_no_photo_is_refused_in_one_line_and_nothing_recorded(domino, seated,  # noqa: F811
                                                                        board_photo):
    served = seated()
    before = log(domino)
    status, out = upload(served, "bob", b"<html>not a photo</html>")
    assert status == 400 and out["error"] == ("the photo is not an image the referee reads "
                                              "(JPEG, PNG or WebP)")
    bomb = png_bomb(20_000)
    assert len(bomb) < 200_000
    status, out = upload(served, "bob", bomb, **{"content-type": "image/png"})
    assert status == 400, out
    assert out["error"] == ("the photo is a PNG of 20000 x 20000 pixels, more than 60 "
                            "megapixels: no phone photo is that large")
    _, photo = board_photo
    damaged = photo.path.read_bytes()[:3000]  # a JPEG cut short: its header, hardly any data
    status, out = upload(served, "bob", damaged)
    assert status in (200, 400) and "Traceback" not in json.dumps(out)
    status, out = upload(served, "bob", b"\xff\xd8" + b"\0" * (25 * 1024 * 1024))
    assert status == 413 and out["error"].startswith("the photo is over 25 MB")
    # only a seat uploads, from its own page
    assert upload(served, None, photo.path.read_bytes())[0] == 403
    assert upload(served, "bob", photo.path.read_bytes(),
                  origin="http://evil.example")[0] == 403
    assert log(domino) == before


def test_only_the_seat_that_took_it_sees_its_overlay_or_confirms_it(domino, seated,  # noqa: F811
                                                                     board_photo):
    served = seated()
    _, photo = board_photo
    status, out = upload(served, "bob", photo.path.read_bytes())
    assert status == 200 and len(position_lines(out["position"])) == 9
    status, _ = served.call("GET", "/" + out["overlay"], seat="ana")
    assert status == 404
    status, _ = served.call("POST", "/api/photo/dispute", {"photo": out["key"]}, seat="ana")
    assert status == 409
    assert len(json.loads(referee(domino, "matches", "--json").stdout)) == 1


def test_a_decompression_bomb_given_to_look_is_refused_before_it_is_decoded(tmp_path):
    """`referee look` reads the header first: a 400 MP PNG costs no 400 MB of memory (the
    child's peak, VmHWM, written as it exits)."""
    import subprocess

    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_bomb(20_000))
    code = ("import atexit, sys\n"
            "def peak():\n"
            "    kb = [x for x in open('/proc/self/status') if x.startswith('VmHWM')][0]\n"
            "    open(sys.argv[1], 'w').write(kb.split()[1])\n"
            "atexit.register(peak)\n"
            "from referee.cli import main\n"
            "main(sys.argv[2:])\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "peak"), "look",
                           str(bomb), "--game", "tripple-domino"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == (f"error: {bomb} is a PNG of 20000 x 20000 pixels, more than 60 "
                           "megapixels: no phone photo is that large (PHOTO)\n")
    assert int((tmp_path / "peak").read_text()) < 200_000  # KB: not the 400 MB it announces


def test_without_opencv_the_button_says_how_to_install_it(domino, serve, browser,  # noqa: F811
                                                          monkeypatch):
    monkeypatch.setattr(table_page, "REFEREE", [
        sys.executable, "-c", "import sys; sys.modules['cv2'] = None\n"
        "from referee.cli import main; main()"])
    served = Seated(serve("--seats"))
    context, page = open_seat(browser, served, "bob")
    assert page.locator("#seat-photo").count() == 0
    assert page.locator("button.seat-camera").is_disabled()
    assert "pip install 'pnp-toolkit[camera]'" in page.inner_text("#seat-photo-box")
    status, out = upload(served, "bob", b"\xff\xd8\xff")
    assert status == 400 and "pip install 'pnp-toolkit[camera]'" in out["error"]
    context.close()


def test_the_header_tells_the_size_of_each_kind_of_photo_and_nothing_else():
    """What a phone sends (JPEG with its EXIF block first, PNG, WebP) is sized from its
    header; a file cut before its size, or of another kind, is no photo."""
    import numpy as np

    from referee.camera.header import size

    image = np.zeros((23, 37, 3), np.uint8)
    for suffix, kind in ((".jpg", "JPEG"), (".png", "PNG"), (".webp", "WebP")):
        data = cv2.imencode(suffix, image)[1].tobytes()
        assert size(data) == (kind, 37, 23)
        assert size(data[:12]) is None
    jpeg = cv2.imencode(".jpg", image)[1].tobytes()
    exif = b"Exif\0\0" + b"\0" * 5000
    with_exif = jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + jpeg[2:]
    assert size(with_exif) == ("JPEG", 37, 23)
    assert size(b"GIF89a" + b"\0" * 20) is None


def test_a_game_read_from_no_photo_offers_no_button(env, seated):  # noqa: F811
    assert referee(env, "new", "scorepad", "--players", "ana,bob").returncode == 0
    served = seated()
    status, page = served.call("GET", f"/?seat={served.tokens['bob']}")
    page = page.get("text", "")
    assert status == 200 and "Your seat" in page and "Photograph the table" not in page
    status, out = upload(served, "bob", b"\xff\xd8\xff")
    assert status == 400 and out["error"] == "scorepad is not read from photos yet"


def test_a_dobble_connect_photo_from_a_seat_settles_a_dispute(env, seated, tmp_path):  # noqa: F811
    """A game played all at once: no turn line is added, and the grid read becomes the
    scratch match's board."""
    from tests import synthetic_hex_photos as hp

    assert referee(env, "new", "dobble-connect", "--players", "ana,bob").returncode == 0
    renders, colors = hp.export_cards(tmp_path / "renders", dpi=150)
    rng = random.Random(6)
    layout = hp.board(8, colors, rng, teams=("pink", "orange"))
    photo = hp.photograph(layout, renders, tmp_path / "dc.jpg", rng, card_px=300, tilt=20)
    served = seated()
    status, out = upload(served, "ana", photo.path.read_bytes())
    assert status == 200, out
    assert "turn" not in out["position"] and out["read"] == 8 and out["move"] is None
    status, made = served.call("POST", "/api/photo/dispute", {"photo": out["key"]}, seat="ana")
    assert status == 200, made
    written = referee(env, "position", "--match", str(made["match"])).stdout
    cards = sorted(x for x in written.splitlines() if x[:1] in "-0123456789")
    assert cards == sorted(f"{q},{r} {cid}" for cid, (q, r) in hp_turned(layout, out))


def hp_turned(layout, out):
    """The layout's cards at the hexes the photo's frame gives them (the board read up to a
    sixth of a turn about the start card: the one of six that fits)."""
    from tests import synthetic_hex_photos as hp

    read = {int(x.split()[1]): tuple(map(int, x.split()[0].split(",")))
            for x in out["position"].splitlines() if x[:1] in "-0123456789"}
    for k in range(6):
        turned = {cid: hp._turn(h, k) for cid, h in layout.items()}
        if turned == read:
            return turned.items()
    raise AssertionError(f"the photo's board {read} is no turn of {layout}")


def test_a_duplicon_grid_from_a_seat_keeps_face_down_cards_unnamed(env, seated, browser,  # noqa: F811
                                                                    tmp_path):
    """The grid read at 390 px: the `grid` line with every back as `?`, whose turn it is from
    the match, and a back lying apart listed as a face-down card, never by a card id."""
    from tests import synthetic_grid_photos as gp

    assert referee(env, "new", "duplicon", "--players", "ana,bob").returncode == 0
    renders = gp.export_cards(tmp_path / "renders", dpi=150)
    rng = random.Random(2)
    truth = gp.grid(renders, rng, face_up=2)
    photo = gp.photograph(truth, renders, tmp_path / "dup.jpg", rng, card_px=280, tilt=20,
                          stray=renders.back, stray_turn=45)
    served = seated()
    context, page = open_seat(browser, served, "ana")
    got = send_photo(page, photo.path)
    assert got["status"] == 200, got
    shown = page.inner_text("#seat-photo-position")
    grid = next(x for x in shown.splitlines() if x.startswith("grid "))
    faces = {p: renders.types[v] for p, v in truth.items() if v != gp.BACK}
    assert dict(w.split("=") for w in grid.split()[1:]) == {
        p: faces.get(p, "?") for p in truth}
    assert "turn ana" in shown
    assert page.inner_text("#seat-photo-unseen").strip() == (
        "not seen: a face-down card (turned across the grid)")
    shot(page, "seat-photo-duplicon", tmp_path)
    context.close()
