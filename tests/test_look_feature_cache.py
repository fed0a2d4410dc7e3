"""The reference pack's SIFT features kept on disk (referee/camera/feature_cache.py): a second
`referee look` computes none and prints the same; a render edited, another OpenCV or a cache
file damaged, truncated or copied under another key is computed again, never trusted; a pack
whose folder cannot be written caches in the user's cache folder."""

from __future__ import annotations

import json
import random
import shutil

import pytest

from tests.programs import look as _look

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from tests import synthetic_symbol_photos as sp  # noqa: E402 - needs cv2
from tests.test_look_symbols import pack as whole_pack  # noqa: E402, F401 - the fixture

CARDS = ["003-card-3", "009-card-9", "017-card-17", "030-card-30"]


@pytest.fixture
def pack(whole_pack, tmp_path):  # noqa: F811
    """A pack of four cards of the whole one (four renders to compute, not 55)."""
    source, renders = whole_pack
    folder = tmp_path / "pack"
    folder.mkdir()
    data = json.loads((source / "look.json").read_text())
    data["cards"] = [c for c in data["cards"] if c["id"] in CARDS]
    (folder / "look.json").write_text(json.dumps(data))
    for c in data["cards"]:
        shutil.copy(source / c["image"], folder / c["image"])
    return folder, renders


@pytest.fixture
def counted(monkeypatch):
    """How many renders SIFT is run on, from now on (photos are read with SIFT too, so only
    the pack's features are counted: detectAndCompute with a mask)."""
    calls = []
    real = cv2.SIFT_create

    class Counting:
        def __init__(self, sift):
            self.sift = sift

        def detectAndCompute(self, img, mask):  # noqa: N802 - OpenCV's name
            if mask is not None:
                calls.append(img.shape)
            return self.sift.detectAndCompute(img, mask)

    monkeypatch.setattr(cv2, "SIFT_create", lambda *a, **k: Counting(real(*a, **k)))
    return calls


def _features(folder, cache=True):
    from referee.camera import features, pack

    ref = features.reference(pack.read(folder), cache=folder if cache else None)
    return ref.points, ref.shape, ref.card, ref.symbol


def _same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_the_second_look_computes_no_feature_and_prints_the_same(pack, tmp_path, counted):
    folder, renders = pack
    photo = sp.photograph(["003-card-3", "017-card-17"], renders, tmp_path / "two.jpg",
                          random.Random(5), card_px=300, tilt=25, blur=1.2, width=1600,
                          height=1200)
    first = _look(photo.path, "--game", "dobble", "--pack", folder, "--json")
    assert first.returncode == 0, first.stderr
    assert len(list((folder / ".features").glob("*.npz"))) == len(CARDS)
    second = _look(photo.path, "--game", "dobble", "--pack", folder, "--json")
    assert second.stdout == first.stdout
    assert [c["id"] for c in json.loads(second.stdout)["cards"]] == ["003-card-3",
                                                                     "017-card-17"]
    fresh = _features(folder, cache=False)
    counted.clear()
    assert _same(_features(folder), fresh)  # read back bit for bit
    assert counted == []  # and SIFT not run on any render


def test_an_edited_render_or_another_opencv_is_computed_again(pack, counted, monkeypatch):
    folder, _ = pack
    before = _features(folder)
    assert len(counted) == len(CARDS)
    edited = folder / "009-card-9.png"
    img = cv2.imread(str(edited), cv2.IMREAD_UNCHANGED)
    cv2.circle(img, (250, 250), 60, (0, 0, 0, 255), -1)  # a blot over the middle symbols
    cv2.imwrite(str(edited), img)
    counted.clear()
    after = _features(folder)
    assert len(counted) == 1  # that render only
    assert len(list((folder / ".features").glob("*.npz"))) == len(CARDS)  # the old one gone
    assert _same(after, _features(folder, cache=False))
    assert not _same(after, before)
    monkeypatch.setattr(cv2, "__version__", "99.0.0")
    counted.clear()
    _features(folder)
    assert len(counted) == len(CARDS)


def test_a_damaged_or_foreign_cache_file_is_computed_again_and_rewritten(pack, counted):
    folder, _ = pack
    fresh = _features(folder)
    files = sorted((folder / ".features").glob("*.npz"))
    assert len(files) == len(CARDS)
    good = files[3].read_bytes()
    files[0].write_bytes(files[0].read_bytes()[:3000])  # truncated
    files[1].write_bytes(b"not an npz at all")
    files[2].write_bytes(good)  # another render's features under this one's key
    with files[3].open("wb") as f:  # what allow_pickle=True would run: objects
        np.savez(f, key=np.array(files[3].stem), points=np.array([{"x": 1}], dtype=object),
                 shape=np.zeros((1, 2), np.float32), descriptors=np.zeros((1, 128), np.float32))
    counted.clear()
    assert _same(_features(folder), fresh)
    assert len(counted) == 4
    counted.clear()
    assert _same(_features(folder), fresh)  # rewritten whole: read back, none computed
    assert counted == []


def test_a_pack_folder_that_cannot_be_written_caches_in_the_users_cache(pack, counted,
                                                                         tmp_path,
                                                                         monkeypatch):
    folder, _ = pack
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path / "user-cache"))
    (folder / ".features").write_text("a file where the cache's folder would be")
    fresh = _features(folder)
    assert len(list((tmp_path / "user-cache" / "look-features").glob("*.npz"))) == len(CARDS)
    counted.clear()
    assert _same(_features(folder), fresh)
    assert counted == []
