"""Synthetic table photos of symbol-deck cards (Dobble), with ground truth.

The cards are the renders of `pnp export dobble --format look` (the reference pack `referee
look` reads), scattered face up on a table with some clutter, each turned at random, then
photographed by tests/synthetic_photos.py's camera (tilt, turn, blur, glare, noise, JPEG).
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tests.synthetic_hex_photos import lay
from tests.synthetic_photos import camera


@dataclass
class SymbolPhoto:
    path: Path
    truth: dict[str, tuple[float, float]]  # pack id -> the card's centre in the photo, pixels
    card_px: float  # a card's diameter in the photo (mean), pixels
    blur: float


def export_pack(folder: Path, game: str = "dobble") -> dict[str, np.ndarray]:
    """pack id -> the card's render (BGRA), through `pnp export GAME --format look`."""
    subprocess.run([sys.executable, "-m", "generator", "export", game, "--format", "look",
                    "-o", str(folder), "--json"], check=True, capture_output=True, timeout=600)
    data = json.loads((folder / "look.json").read_text())
    return {c["id"]: cv2.imread(str(folder / c["image"]), cv2.IMREAD_UNCHANGED)
            for c in data["cards"]}


def photograph(ids: list[str], renders, out: Path, rng: random.Random, card_px: float = 300,
               tilt: float = 25, blur: float = 1.0, width: int = 2400, height: int = 1800,
               clutter: int = 6) -> SymbolPhoto:
    """The cards `ids` scattered apart on a table (a loose grid, jittered), each turned at
    random, among a few coloured shapes, photographed."""
    d = card_px * 1.3  # the table drawn finer than the photo shows it
    cols = max(1, math.ceil(math.sqrt(len(ids) * 4 / 3)))
    rows = math.ceil(len(ids) / cols)
    cell = d * 1.25
    size = (int(cols * cell + d), int(rows * cell + d))
    table = np.full((size[1], size[0], 3), rng.choice([(70, 100, 140), (60, 60, 60),
                                                       (120, 130, 125)]), np.uint8)
    shapes = np.random.default_rng(rng.randrange(1 << 30))
    for _ in range(clutter):  # pens, coins, a phone: shapes of no card
        c = tuple(int(v) for v in shapes.integers(0, 255, 3))
        x, y = int(shapes.integers(0, size[0])), int(shapes.integers(0, size[1]))
        if shapes.random() < 0.5:
            cv2.circle(table, (x, y), int(d * shapes.uniform(0.05, 0.2)), c, -1)
        else:
            cv2.rectangle(table, (x, y), (x + int(d * shapes.uniform(0.1, 0.6)),
                                          y + int(d * 0.08)), c, -1)
    centres = {}
    for n, cid in enumerate(ids):
        r, c = divmod(n, cols)
        at = np.array([d / 2 + c * cell + cell / 2, d / 2 + r * cell + cell / 2])
        at += [rng.uniform(-0.1, 0.1) * d, rng.uniform(-0.1, 0.1) * d]
        lay(table, renders[cid], at, d, rng.uniform(0, 360))
        centres[cid] = at
    hmat = camera(table, out, rng, card_px / d, tilt, blur, width, height)
    truth, widths = {}, []
    for cid, at in centres.items():
        ends = np.float32([[at, at - [d / 2, 0], at + [d / 2, 0]]])
        c, a, b = cv2.perspectiveTransform(ends, hmat)[0]
        truth[cid] = (float(c[0]), float(c[1]))
        widths.append(float(np.linalg.norm(a - b)))
    return SymbolPhoto(out, truth, float(np.mean(widths)), blur)


def score(photo: SymbolPhoto, cards) -> tuple[int, int]:
    """(cards read right, cards read wrong) of `referee look --json`'s cards: right when the
    id is on the table and its centre within a fifth of a card's width of the truth."""
    right = wrong = 0
    for card in cards:
        at = photo.truth.get(card["id"])
        ok = at is not None and math.dist(at, card["center"]) < 0.2 * photo.card_px
        right, wrong = right + ok, wrong + (not ok)
    return right, wrong
