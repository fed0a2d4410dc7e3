"""Synthetic table photos of Duplicon's 3×3 grid printed with markers, with ground truth.

The cards are `pnp export duplicon --markers` renders (faces, and the one back every card
shares), laid in the grid a little unevenly (gaps, shifts, small turns, some upside down),
most face down, then photographed as tests/synthetic_photos.py photographs a Tripple Domino
board (tilt, turn, blur, glare, JPEG). A stray card of another game can lie beside the grid.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from referee.games.duplicon.model import POSITIONS
from tests.synthetic_hex_photos import lay
from tests.synthetic_photos import camera

BACK = "back"  # the truth of a face-down card: the photo must not say which it is


@dataclass
class GridPhoto:
    path: Path
    truth: dict[str, int | str]  # place -> card id, or BACK (a place left out: a hole)
    card_px: float  # a card's width in the photo (mean), pixels
    blur: float  # Gaussian sigma, pixels


@dataclass
class Renders:
    faces: dict[int, np.ndarray]  # card id -> its face (BGRA)
    back: np.ndarray
    types: dict[int, str]  # card id -> type key, for the cards that lie in the grid
    width_mm: float
    height_mm: float


def export_cards(folder: Path, dpi: int = 150) -> Renders:
    """The faces and the back, through `pnp export duplicon --markers`."""
    subprocess.run([sys.executable, "-m", "generator", "export", "duplicon", "--markers",
                    "--dpi", str(dpi), "-o", str(folder), "--json"], check=True,
                   capture_output=True, timeout=600)
    rows = json.loads((folder / "manifest.json").read_text())
    from pnp_model.definition import load

    deck = load("duplicon")
    types = {c.id: f"{c.get('color')}-{c.get('shape')}" for c in deck.cards
             if c.get("kind") == "type"}
    faces = {cid: _opaque(cv2.imread(str(folder / row["face"]))) for row in rows
             for cid in row["ids"]}
    return Renders(faces, _opaque(cv2.imread(str(folder / rows[0]["back"]))), types,
                   deck.width * 25.4 / 72, deck.height * 25.4 / 72)


def _opaque(img: np.ndarray) -> np.ndarray:
    return np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])


def grid(renders: Renders, rng: random.Random, face_up: int = 2, holes: int = 0
         ) -> dict[str, int | str]:
    """The 9 places: `face_up` of them show a face (cards of the grid, each once), `holes`
    are empty, the rest face down."""
    places = list(POSITIONS)
    rng.shuffle(places)
    ids = rng.sample(sorted(renders.types), face_up)
    truth: dict[str, int | str] = {p: BACK for p in places[holes + face_up:]}
    truth.update(zip(places[holes:holes + face_up], ids, strict=True))
    return truth


def photograph(truth, renders: Renders, out: Path, rng: random.Random, card_px: float = 300,
               tilt: float = 25, blur: float = 1.0, width: int = 2400, height: int = 1800,
               stray: np.ndarray | None = None, stray_turn: float | None = None) -> GridPhoto:
    """A photo of the grid: gaps of 3-12 mm between cards, each card shifted up to 2 mm and
    turned up to 4° (or upside down); `stray`, a render (BGRA) of another game's card, lies
    beside the grid, turned `stray_turn` degrees (at random when None)."""
    px_mm = card_px * 1.3 / renders.width_mm  # the table drawn finer than the photo shows it
    w, h = renders.width_mm * px_mm, renders.height_mm * px_mm
    gap = rng.uniform(3, 12) * px_mm
    margin = 0.6 * h  # table around the grid (and room for a stray card beside it)
    room = 1.2 * h if stray is not None else 0  # the stray card's, right of the grid
    size = (int(3 * (w + gap) + 2 * margin + room), int(3 * (h + gap) + 2 * margin))
    table = np.full((size[1], size[0], 3), rng.choice([(70, 100, 140), (60, 60, 60),
                                                       (120, 130, 125)]), np.uint8)
    centres = {}
    for place, card in truth.items():
        col, row = "abc".index(place[0]), int(place[1]) - 1
        centre = np.array([margin + col * (w + gap) + w / 2, margin + row * (h + gap) + h / 2])
        centre += [rng.uniform(-2, 2) * px_mm, rng.uniform(-2, 2) * px_mm]
        centres[place] = centre
        img = renders.back if card == BACK else renders.faces[card]
        lay(table, img, centre, w, rng.uniform(-4, 4) + rng.choice([0, 180]))
    if stray is not None:  # to the right of the grid, as large as it prints beside a card
        at = np.array([margin + 3 * (w + gap) + 0.6 * h, margin + 1.5 * (h + gap)])
        turn = rng.uniform(0, 360) if stray_turn is None else stray_turn
        lay(table, stray, at, 0.8 * w, turn)
    hmat = camera(table, out, rng, card_px / w, tilt, blur, width, height)
    widths = []
    for c in centres.values():
        ends = np.float32([[c - [w / 2, 0], c + [w / 2, 0]]])
        a, b = cv2.perspectiveTransform(ends, hmat)[0]
        widths.append(float(np.linalg.norm(a - b)))
    return GridPhoto(out, dict(truth), float(np.mean(widths)) if widths else 0.0, blur)


def score(truth, renders: Renders, cards) -> tuple[int, int]:
    """(cards read right, cards read wrong) of `referee look --json`'s cards: a face in its
    place with its id and type, a back in its place face down with no id."""
    right = wrong = 0
    for card in cards:
        place, _, shown = card["position"].partition("=")
        want = truth.get(place)
        if card.get("face_down"):
            ok = want == BACK and shown == "?" and card["id"] is None
        else:
            ok = want == card["id"] and shown == renders.types.get(card["id"])
        right, wrong = right + ok, wrong + (not ok)
    return right, wrong
