"""Synthetic table photos of Dobble Connect cards printed with markers, with ground truth.

The cards are `pnp export dobble-connect --markers` renders, laid edge to edge on the hex grid
around a black start card at 0,0, each in one of its six turns, then photographed as
tests/synthetic_photos.py photographs a Tripple Domino board (tilt, turn, blur, glare, JPEG).
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

from tests.synthetic_photos import camera

R3 = math.sqrt(3)


@dataclass
class HexPhoto:
    path: Path
    truth: dict[int, tuple[int, int]]  # card id -> hex
    card_px: float  # a card's width in the photo (mean), pixels


def export_cards(folder: Path, dpi: int = 150) -> tuple[dict[int, np.ndarray], dict[int, str]]:
    """(card id -> its face render, BGRA; card id -> colour), through `pnp export --markers`."""
    subprocess.run([sys.executable, "-m", "generator", "export", "dobble-connect", "--markers",
                    "--dpi", str(dpi), "-o", str(folder), "--json"], check=True,
                   capture_output=True, timeout=600)
    rows = json.loads((folder / "manifest.json").read_text())
    from pnp_model.definition import load

    colors = {c.id: c.fields["color"] for c in load("dobble-connect").cards}
    return ({cid: cv2.imread(str(folder / row["face"]), cv2.IMREAD_UNCHANGED)
             for row in rows for cid in row["ids"]}, colors)


NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def board(n: int, colors: dict[int, str], rng: random.Random,
          teams: tuple[str, ...] = ("pink", "orange", "green", "blue")
          ) -> dict[int, tuple[int, int]]:
    """n cards of the `teams`' colours grown from a black card at 0,0, each next to one
    already down."""
    black = sorted(c for c, col in colors.items() if col == "black")
    others = sorted(c for c, col in colors.items() if col in teams)
    rng.shuffle(others)
    out = {rng.choice(black): (0, 0)}
    taken = {(0, 0)}
    while len(out) < n:
        q, r = rng.choice(sorted(taken))
        dq, dr = rng.choice(NEIGHBOURS)
        cell = (q + dq, r + dr)
        if cell not in taken:
            taken.add(cell)
            out[others.pop()] = cell
    return out


def photograph(layout, renders, out: Path, rng: random.Random, card_px: float = 300,
               tilt: float = 25, blur: float = 1.0, width: int = 2400,
               height: int = 1800) -> HexPhoto:
    """A photo of the board: each card in a random one of its six turns."""
    w_px = card_px * 1.3  # the board drawn finer than the photo shows it
    centres = {cid: (w_px * (q + r / 2), w_px * R3 / 2 * r) for cid, (q, r) in layout.items()}
    pts = np.array(list(centres.values()))
    lo = pts.min(axis=0) - w_px * 1.2
    size = (pts.max(axis=0) + w_px * 1.2 - lo).astype(int) + 1
    table = np.full((size[1], size[0], 3), rng.choice([(70, 100, 140), (60, 60, 60),
                                                       (120, 130, 125)]), np.uint8)
    for cid, centre in centres.items():
        lay(table, renders[cid], np.array(centre) - lo, w_px, rng.randrange(6) * 60)
    hmat = camera(table, out, rng, card_px / w_px, tilt, blur, width, height)
    widths = []
    for centre in centres.values():
        c = np.array(centre) - lo
        ends = np.float32([[c - [w_px / 2, 0], c + [w_px / 2, 0]]])
        a, b = cv2.perspectiveTransform(ends, hmat)[0]
        widths.append(float(np.linalg.norm(a - b)))
    return HexPhoto(out, dict(layout), float(np.mean(widths)))


def lay(table, img, centre, width_px: float, turn: float) -> None:
    """The card's render (BGRA, transparent outside its shape) centred at `centre`, its
    width `width_px`, turned `turn` degrees clockwise."""
    h, w = img.shape[:2]
    # the render holds the card's box: its width is the hexagon's
    m = cv2.getRotationMatrix2D((w / 2, h / 2), -turn, width_px / w)
    m[:, 2] += centre - np.array([w / 2, h / 2])
    size = (table.shape[1], table.shape[0])
    colour = cv2.warpAffine(img[:, :, :3], m, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(img[:, :, 3], m, size, flags=cv2.INTER_AREA)[..., None] / 255.0
    table[:] = (colour * alpha + table * (1 - alpha)).astype(np.uint8)


def score(truth: dict[int, tuple[int, int]], cards) -> tuple[int, int]:
    """(cards read right, cards read wrong) of `referee look --json`'s cards against the
    truth, the same up to the board's turn (one of six) about the start card."""
    read = {}
    for card in cards:
        cell, _, cid = card["position"].partition(" ")
        q, r = map(int, cell.split(","))
        read[int(cid)] = (q, r)
    best = (0, len(read))
    for k in range(6):
        right = sum(1 for cid, h in read.items() if cid in truth and _turn(truth[cid], k) == h)
        best = max(best, (right, len(read) - right))
    return best


def _turn(h, k):
    q, r = h
    for _ in range(k):  # a sixth of a turn clockwise about 0,0 in axial coordinates
        q, r = -r, q + r
    return q, r
