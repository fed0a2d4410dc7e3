"""`referee look` on synthetic photos of Tripple Domino boards printed with markers: precision,
recall, whole boards read exactly, and seconds a photo (the reading only, one core).

    python bench/bench_look.py [--photos 40] [--seed 1] [--game dobble-connect|dobble|duplicon]

Photos: 30-tile boards filling the frame (every other one 12 MP) and smaller ones, tilted
0-35°, turned ±20°, blur σ 0-1.6 px, glare, JPEG (tests/synthetic_photos.py). Acceptance
(issue 42): precision ≥ 99.5 %, recall ≥ 98 % for tiles ≥ 250 px with σ < 1.6, ≥ 90 % of
full-frame 30-tile boards exact, < 0.5 s a photo. --game dobble-connect: boards of 5-25
hexagonal cards, each in one of its six turns, cards 200-420 px wide
(tests/synthetic_hex_photos.py). --game dobble: 2-12 round cards scattered among clutter, read
by their features against the reference pack (tests/synthetic_symbol_photos.py; < 2 s a
photo); the pack's features are timed apart, computed (a first `look`: 4.06 s of one core) and
read back from the disk cache beside the pack (every later `look`: 0.17 s, FLANN's index
included). A whole `referee look --game dobble` of a two-card 1600 x 1200 photo: 4.1 s the first
time, 1.2 s once the cache is made (wall, loaded 2-core machine).
--game duplicon:
the 3×3 grid, 0-3 cards face up and the rest face down (every back the same marker), one
photo in five with a hole, cards 200-420 px wide, some upside down
(tests/synthetic_grid_photos.py); a back read counts right only in its place face down.
Measured (--game duplicon --photos 40 --seed 1, one core, a shared machine at load ~4.5):
precision 100 % (0 wrong of 352), recall 100 % of the 194 cards >= 250 px (352 of 352 in
all), 0.21 s a photo median, 0.30 s max.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402

from referee import registry  # noqa: E402
from referee.camera.look import look  # noqa: E402
from tests import synthetic_photos as sp  # noqa: E402


class Tally:
    """Right and wrong reads over the photos, those of big enough cards apart, and the time
    of each read."""

    def __init__(self) -> None:
        self.right = self.wrong = self.truth_big = self.right_big = 0
        self.times: list[float] = []

    def timed(self, read, *args):
        """read(*args), its CPU time kept."""
        start = time.process_time()
        out = read(*args)
        self.times.append(time.process_time() - start)
        return out

    def add(self, ok: int, bad: int, truth: int, big: bool) -> None:
        self.right, self.wrong = self.right + ok, self.wrong + bad
        if big:
            self.truth_big += truth
            self.right_big += ok

    def report(self, big: str) -> None:
        seen = self.right + self.wrong
        print(f"precision {self.right / max(1, seen):.2%} ({self.wrong} wrong of {seen})")
        print(f"recall ({big}) {self.right_big / max(1, self.truth_big):.2%} of "
              f"{self.truth_big}")
        times = sorted(self.times)
        print(f"seconds a photo: median {times[len(times) // 2]:.3f}, max {times[-1]:.3f}")


def snap(photograph, truth, renders, path: Path, rng: random.Random, n: int):
    """One synthetic photo of cards 200-420 px, tilted up to 35°, blurred up to σ 1.6, every
    other one 12 MP."""
    size = (4000, 3000) if n % 2 == 0 else (2400, 1800)
    return photograph(truth, renders, path, rng, card_px=rng.uniform(200, 420),
                      tilt=rng.uniform(0, 35), blur=rng.uniform(0, 1.6), width=size[0],
                      height=size[1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--photos", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="tripple-domino",
                    choices=["tripple-domino", "dobble-connect", "dobble", "duplicon"])
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.game == "dobble-connect":
        hexes(args)
        return
    if args.game == "dobble":
        symbols(args)
        return
    if args.game == "duplicon":
        grids(args)
        return
    game = registry.game("tripple-domino")
    rng = random.Random(args.seed)
    tally, boards, exact = Tally(), 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        renders = sp.export_tiles(Path(tmp) / "renders", dpi=200)
        for n in range(args.photos):
            tiles = 30 if n % 2 == 0 else rng.randrange(5, 30)
            layout = sp.board(tiles, rng)
            size = (4000, 3000) if n % 4 == 0 else (2400, 1800)  # a 12 MP phone, or less
            photo = sp.photograph(layout, renders, Path(tmp) / f"{n}.jpg", rng,
                                  tile_px=rng.uniform(200, 420), tilt=rng.uniform(0, 35),
                                  blur=rng.uniform(0, 1.6), width=size[0], height=size[1])
            data, _ = tally.timed(look, game, photo.path)
            ok, bad = sp.score(layout, sp.parsed(data["cards"]))
            tally.add(ok, bad, len(layout), photo.tile_px >= 250)
            if len(layout) == 30:
                boards += 1
                exact += ok == 30 and bad == 0
            print(f"photo {n}: {len(layout)} tiles, {photo.tile_px:.0f} px, blur "
                  f"{photo.blur:.1f}: {ok} right, {bad} wrong, {tally.times[-1]:.2f} s")
    tally.report("tiles >= 250 px")
    print(f"30-tile boards read exactly: {exact}/{boards}")


def hexes(args) -> None:
    """The same figures for Dobble Connect boards."""
    from tests import synthetic_hex_photos as hp

    game = registry.game("dobble-connect")
    rng = random.Random(args.seed)
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        renders, colors = hp.export_cards(Path(tmp) / "renders", dpi=200)
        for n in range(args.photos):
            layout = hp.board(rng.randrange(5, 26), colors, rng)
            photo = snap(hp.photograph, layout, renders, Path(tmp) / f"{n}.jpg", rng, n)
            data, _ = tally.timed(look, game, photo.path)
            ok, bad = hp.score(layout, data["cards"])
            tally.add(ok, bad, len(layout), photo.card_px >= 250)
            print(f"photo {n}: {len(layout)} cards, {photo.card_px:.0f} px: {ok} right, "
                  f"{bad} wrong, {tally.times[-1]:.2f} s")
    tally.report("cards >= 250 px")


def grids(args) -> None:
    """The same figures for Duplicon's grid; recall counts the cards of 250 px or more."""
    from tests import synthetic_grid_photos as gp

    game = registry.game("duplicon")
    rng = random.Random(args.seed)
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        renders = gp.export_cards(Path(tmp) / "renders", dpi=200)
        for n in range(args.photos):
            truth = gp.grid(renders, rng, face_up=rng.randrange(4), holes=int(n % 5 == 4))
            photo = snap(gp.photograph, truth, renders, Path(tmp) / f"{n}.jpg", rng, n)
            data, _ = tally.timed(look, game, photo.path)
            ok, bad = gp.score(truth, renders, data["cards"])
            tally.add(ok, bad, len(truth), photo.card_px >= 250)
            print(f"photo {n}: {len(truth)} cards, {photo.card_px:.0f} px, blur "
                  f"{photo.blur:.1f}: {ok} right, {bad} wrong, {tally.times[-1]:.2f} s")
    tally.report("cards >= 250 px")


def symbols(args) -> None:
    """The same figures for Dobble cards read by their features."""
    from referee.camera import detect, symbol_deck
    from tests import synthetic_symbol_photos as ssp

    rng = random.Random(args.seed)
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "pack"
        renders = ssp.export_pack(folder)
        for run in ("computed", "read from the disk cache"):  # a first and a second `look`
            symbol_deck._REFERENCES.clear()
            start = time.process_time()
            ref = symbol_deck.reference(folder)
            print(f"the pack's features, {run}: {time.process_time() - start:.2f} s")
        for n in range(args.photos):
            ids = rng.sample(sorted(renders), rng.randrange(2, 13))
            photo = snap(ssp.photograph, ids, renders, Path(tmp) / f"{n}.jpg", rng, n)
            image = detect.load(photo.path, colour=True)
            data = tally.timed(symbol_deck.read, ref, image, photo.path.name)
            ok, bad = ssp.score(photo, data["cards"])
            tally.add(ok, bad, len(ids), photo.card_px >= 250 and photo.blur < 1.6)
            print(f"photo {n}: {len(ids)} cards, {photo.card_px:.0f} px, blur {photo.blur:.1f}:"
                  f" {ok} right, {bad} wrong, {tally.times[-1]:.2f} s")
    tally.report("cards >= 250 px, blur < 1.6")


if __name__ == "__main__":
    main()
