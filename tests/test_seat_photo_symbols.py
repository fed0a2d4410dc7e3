""""Photograph the table" on a seat's page when the table holds a symbol deck (a score sheet
kept for Dobble): a synthetic photo of two cards uploaded from Chromium at 390 px comes back
with the cards read, the symbol they share named, and the overlay with that symbol ringed on
both; nothing to confirm, nothing recorded. Without the reference pack where `referee look`
finds it, the page says how to make one. Screenshots kept in $TABLE_SHOTS when set."""

from __future__ import annotations

import random

import pytest

from tests.browser import PHONE
from tests.test_seat_photo import send_photo, upload
from tests.test_seats_api import Seated, log
from tests.test_seats_pages import open_seat, shot
from tests.test_table_page import env, referee, serve  # noqa: F401  (fixtures)

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from tests import synthetic_symbol_photos as sp  # noqa: E402 - needs cv2

TWO = ["003-card-3", "017-card-17"]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A folder where `referee serve` runs, the Dobble pack in output/dobble-look/ as `pnp
    export dobble --format look` writes it by default."""
    folder = tmp_path_factory.mktemp("table")
    return folder, sp.export_pack(folder / "output" / "dobble-look")


@pytest.fixture
def dobble(env):  # noqa: F811
    """A score sheet of ana and bob kept for Dobble."""
    done = referee(env, "new", "scorepad", "--players", "ana,bob", "--option",
                   "game-name=dobble")
    assert done.returncode == 0, done.stderr
    return env


def _symbols(card_id: int) -> set[str]:
    from pnp_model.definition import load

    return set(next(c for c in load("dobble").cards if c.id == card_id).symbols)


def test_two_cards_their_shared_symbol_named_and_ringed_on_the_phone(dobble, serve, table,  # noqa: F811
                                                                     browser, tmp_path):
    folder, renders = table
    photo = sp.photograph(TWO, renders, tmp_path / "two.jpg", random.Random(5), card_px=300,
                          tilt=20, blur=0.8, width=1600, height=1200)
    (common,) = _symbols(3) & _symbols(17)
    served = Seated(serve("--seats", cwd=folder))
    context, page = open_seat(browser, served, "bob")
    assert page.viewport_size == PHONE
    assert page.locator("label[for=seat-photo]").inner_text() == "Photograph the table"
    before = log(dobble)
    got = send_photo(page, photo.path)
    assert got["status"] == 200, got
    assert page.inner_text("#seat-photo-status").startswith("2 cards read: check the outlines")
    assert page.locator("#seat-photo-shared li").all_inner_texts() == [
        f"003-card-3 and 017-card-17 share: {common}"]
    assert page.locator("#seat-photo-shared strong").inner_text() == common
    assert page.locator("#seat-photo-dispute").is_hidden()  # no position to settle from
    assert page.locator("#seat-photo-position").is_hidden()
    assert page.inner_text("#seat-photo-why") == ""
    overlay = page.locator("#seat-photo-overlay")
    overlay.scroll_into_view_if_needed()
    box = overlay.bounding_box()
    assert 300 < box["width"] <= 390
    # the overlay as the phone shows it: both cards outlined in green, the shared symbol ringed
    # in orange on each (two rings, apart, each the size of a symbol, not of a card)
    drawn = cv2.imdecode(np.frombuffer(overlay.screenshot(), np.uint8), cv2.IMREAD_COLOR)
    green = np.all(np.abs(drawn.astype(int) - [60, 180, 60]) < 45, axis=2)
    orange = np.all(np.abs(drawn.astype(int) - [0, 140, 255]) < 60, axis=2).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(orange)
    rings = sorted((s for s in stats[1:] if s[cv2.CC_STAT_AREA] > 20),
                   key=lambda s: -s[cv2.CC_STAT_AREA])[:2]
    assert len(rings) == 2, stats
    card_px = 300 * drawn.shape[1] / 1600 * 1.3  # at most: the overlay is cut to the cards
    for ring in rings:
        assert 0.08 * card_px < ring[cv2.CC_STAT_WIDTH] < 0.6 * card_px, ring
    (x0, y0), (x1, y1) = ([r[cv2.CC_STAT_LEFT], r[cv2.CC_STAT_TOP]] for r in rings)
    assert np.hypot(x1 - x0, y1 - y0) > 0.5 * min(r[cv2.CC_STAT_WIDTH] for r in rings) * 2
    assert green.sum() > 200
    shot(page, "seat-photo-dobble", tmp_path)
    assert log(dobble) == before  # read and shown, nothing recorded
    status, answer = served.call("POST", "/api/photo/dispute", {"photo": got["data"]["key"]},
                                 seat="bob", headers={"origin": served.base,
                                                      "content-type": "application/json"})
    assert status == 409 and "no position" in answer["error"]
    context.close()


def test_without_the_reference_pack_the_page_says_how_to_make_it(dobble, serve, table,  # noqa: F811
                                                                  browser, tmp_path):
    _, renders = table
    photo = sp.photograph(TWO[:1], renders, tmp_path / "one.jpg", random.Random(2),
                          width=800, height=600)
    served = Seated(serve("--seats", cwd=tmp_path))  # no output/dobble-look/ here
    context, page = open_seat(browser, served, "ana")
    got = send_photo(page, photo.path)
    assert got["status"] == 400
    said = page.inner_text("#seat-photo-status")
    assert said.startswith("✗ no reference pack of dobble in output/dobble-look/")
    assert "pnp export dobble --format look" in said
    assert page.locator("#seat-photo-overlay").is_hidden()
    assert upload(served, "ana", photo.path.read_bytes())[0] == 400  # the same, from a script
    context.close()


def test_look_reads_the_deck_of_the_current_score_sheet(dobble, table, tmp_path):
    """`referee look PHOTO` with no --game, the current match a score sheet kept for Dobble:
    the Dobble cards are read, as from the seat's page."""
    from tests.programs import look

    folder, renders = table
    photo = sp.photograph(TWO, renders, tmp_path / "two.jpg", random.Random(7), card_px=300,
                          tilt=10, width=1600, height=1200)
    done = look(photo.path, cwd=folder, env=dobble)
    assert done.returncode == 0, done.stderr
    (common,) = _symbols(3) & _symbols(17)
    assert f"003-card-3 and 017-card-17 share: {common}" in done.stdout
