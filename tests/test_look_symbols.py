"""`referee look PHOTO --game dobble`: symbol-deck cards found by their features against the
reference pack `pnp export --format look` writes, the symbol two cards share named and circled,
and a card the pack does not hold never taken for another."""

from __future__ import annotations

import json
import random

import pytest

from tests.programs import look as _look

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from tests import synthetic_symbol_photos as sp  # noqa: E402 - needs cv2


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pack")
    return folder, sp.export_pack(folder)



def _symbols(card_id: int) -> set[str]:
    from pnp_model.definition import load

    return set(next(c for c in load("dobble").cards if c.id == card_id).symbols)


def test_the_pack_says_where_each_symbol_is_drawn(pack):
    folder, renders = pack
    data = json.loads((folder / "look.json").read_text())
    for card in data["cards"][:5]:
        img = renders[card["id"]]
        assert {s["symbol"] for s in card["symbols"]} == _symbols(card["card"])
        # the render's ink (anything but the cream card and the clear outside) lies in the
        # symbols' circles, and each circle is mostly ink
        ink = (img[:, :, 3] > 128) & (np.abs(img[:, :, :3].astype(int)
                                             - [247, 253, 255]).sum(axis=2) > 40)
        inside = np.zeros(ink.shape, bool)
        for s in card["symbols"]:
            disc = np.zeros(ink.shape, np.uint8)
            cv2.circle(disc, (round(s["x"]), round(s["y"])), round(s["r"]), 1, -1)
            assert ink[disc > 0].mean() > 0.9, (card["id"], s["symbol"])
            inside |= disc > 0
        assert ink[~inside].sum() < 0.01 * ink.sum()


def test_two_cards_their_shared_symbol_named_and_circled_on_both(pack, tmp_path):
    folder, renders = pack
    photo = sp.photograph(["003-card-3", "017-card-17"], renders, tmp_path / "two.jpg",
                          random.Random(5), card_px=300, tilt=25, blur=1.2, width=1600,
                          height=1200)
    out = tmp_path / "overlay.png"
    done = _look(photo.path, "--game", "dobble", "--pack", folder, "--json", "--overlay", out)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert sp.score(photo, data["cards"]) == (2, 0)
    (common,) = _symbols(3) & _symbols(17)
    assert [s["symbol"] for s in data["shared"]] == [common]
    drawn = cv2.imread(str(out))
    ring = np.all(np.abs(drawn.astype(int) - [0, 140, 255]) < 40, axis=2)  # the orange ring
    for card in data["cards"]:
        assert card["shared"]["symbol"] == common
        x, y = card["shared"]["center"]
        r = card["shared"]["radius"]
        assert r < 0.25 * photo.card_px
        yy, xx = np.nonzero(ring)
        d = np.hypot(xx - x, yy - y)
        assert ((d > 0.9 * r) & (d < 1.4 * r)).sum() > 3 * r  # a ring drawn around it
    text = _look(photo.path, "--game", "dobble", "--pack", folder)
    assert f"003-card-3 and 017-card-17 share: {common}" in text.stdout


def test_a_few_photos_no_wrong_card_and_every_large_card_found(pack, tmp_path):
    from referee.camera import detect, symbol_deck

    folder, renders = pack
    ref = symbol_deck.reference(folder)
    rng = random.Random(3)
    for n in range(3):
        ids = rng.sample(sorted(renders), 8)
        photo = sp.photograph(ids, renders, tmp_path / f"{n}.jpg", rng,
                              card_px=rng.uniform(260, 380), tilt=rng.uniform(0, 35),
                              blur=rng.uniform(0.3, 1.5))
        data = symbol_deck.read(ref, detect.load(photo.path, colour=True), photo.path.name)
        assert sp.score(photo, data["cards"]) == (8, 0), n


def test_a_card_the_pack_does_not_hold_is_not_seen_never_guessed(pack, tmp_path):
    from referee.camera import detect, features
    from referee.camera import pack as packs

    folder, renders = pack
    faces = packs.read(folder)
    absent = {"005-card-5", "040-card-40"}
    ref = features.reference([f for f in faces if f.id not in absent])
    photo = sp.photograph(["005-card-5", "012-card-12", "040-card-40"], renders,
                          tmp_path / "p.jpg", random.Random(9), card_px=340, tilt=10,
                          blur=0.5)
    found = features.find(ref, detect.load(photo.path, colour=True))
    assert [f["face"].id for f in found] == ["012-card-12"]


def test_a_damaged_pack_is_one_line_exit_2(pack, tmp_path):
    folder, renders = pack
    photo = sp.photograph(["001-card-1"], renders, tmp_path / "one.jpg", random.Random(1),
                          width=800, height=600)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "look.json").write_text('{"format": "pnp look pack 1", "size": [502, 502], '
                                   '"cards": [{"id": "x", "card": 1, "image": "../a.png", '
                                   '"symbols": []}]}')
    done = _look(photo.path, "--game", "dobble", "--pack", bad)
    assert done.returncode == 2
    assert done.stderr.startswith("error: image '../a.png' is not a file name (")
    assert len(done.stderr.strip().splitlines()) == 1
