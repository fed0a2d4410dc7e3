"""Synthetic table photos of Tripple Domino tiles printed with markers, with ground truth.

The tiles are `pnp export tripple-domino --markers` renders (what the PDF prints), laid out as
a board that keeps the rules' vertex numbers, then photographed: a perspective tilt, a turn,
blur, glare, noise and JPEG. Used by tests/test_look.py and bench/bench_look.py; needs OpenCV.
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

from referee.games.tripple_domino.board import corners
from referee.games.tripple_domino.model import parse_cell, rotations, tiles

R3 = math.sqrt(3)


@dataclass
class Photo:
    path: Path
    truth: dict[int, tuple[tuple[str, int, int], tuple[int, int, int]]]  # card id -> cell, reading
    tile_px: float  # a tile's side in the photo (mean), pixels
    blur: float  # Gaussian sigma, pixels


def export_tiles(folder: Path, dpi: int = 300) -> dict[int, np.ndarray]:
    """card id -> the tile's exported render (BGR), through `pnp export --markers`."""
    subprocess.run([sys.executable, "-m", "generator", "export", "tripple-domino", "--markers",
                    "--dpi", str(dpi), "-o", str(folder), "--json"], check=True,
                   capture_output=True, timeout=300)
    rows = json.loads((folder / "manifest.json").read_text())
    out = {}
    for row in rows:
        img = cv2.imread(str(folder / row["face"]), cv2.IMREAD_UNCHANGED)
        if img.shape[2] == 4:  # transparent outside the triangle: over white
            alpha = img[:, :, 3:4] / 255.0
            img = (img[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
        for cid in row["ids"]:
            out[cid] = img
    return out


def board(n: int, rng: random.Random) -> dict[int, tuple[tuple[str, int, int], tuple]]:
    """n tiles grown from U0,0, every vertex number agreeing (D3), each tile once."""
    by_tile = {t: cid for t, (cid, _) in tiles().items()}
    free = list(by_tile)
    rng.shuffle(free)
    first = free.pop()
    start = rng.choice(rotations(first))
    cells = {("U", 0, 0): start}
    numbers = dict(zip(corners(("U", 0, 0)), start, strict=True))
    out = {by_tile[first]: (("U", 0, 0), start)}
    tries = 0
    while len(out) < n and tries < 5000:
        tries += 1
        from referee.games.tripple_domino.board import free_cells

        cell = rng.choice(sorted(free_cells(cells)))
        vs = corners(cell)
        options = [(t, r) for t in free for r in rotations(t)
                   if all(numbers.get(v, x) == x for v, x in zip(vs, r, strict=True))]
        if not options:
            continue
        t, r = rng.choice(options)
        free.remove(t)
        cells[cell] = r
        numbers.update(zip(vs, r, strict=True))
        out[by_tile[t]] = (cell, r)
    return out


def _vertex(v, side):
    return side * (v[0] + v[1] / 2), -side * R3 / 2 * v[1]


def _loose_corners(at, turn: float, side_px: float):
    """A tile lying off the lattice: its corners (apex first, clockwise) with its centre at
    `at` (in tile sides from the lattice origin, y down) turned `turn` degrees clockwise."""
    r = side_px / R3  # centre to corner
    cx, cy = at[0] * side_px, at[1] * side_px
    out = []
    for j in range(3):
        a = math.radians(-90 + turn + 120 * j)
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(out)


def _board_image(layout, renders, side_px: float, rng: random.Random, loose=()):
    """The board laid on a table, in board pixels, and the offset of the lattice origin;
    loose: (card id, centre, turn) of tiles lying apart from the board (_loose_corners)."""
    pts = np.array([_vertex(v, side_px) for c, _ in layout.values() for v in corners(c)]
                   + [p for cid, at, turn in loose for p in _loose_corners(at, turn, side_px)])
    margin = side_px * 0.8
    lo = pts.min(axis=0) - margin
    size = (pts.max(axis=0) + margin - lo).astype(int) + 1
    table = np.full((size[1], size[0], 3), rng.choice([(70, 100, 140), (60, 60, 60),
                                                       (120, 130, 125)]), np.uint8)
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 6, table.shape)
    table = np.clip(table + noise, 0, 255).astype(np.uint8)
    for cid, (cell, reading) in layout.items():
        img = renders[cid]
        h, w = img.shape[:2]
        tile = tuple(sorted(reading))
        k = next(k for k in range(3) if all(reading[(k + j) % 3] == tile[j] for j in range(3)))
        cell_pts = np.array([_vertex(v, side_px) for v in corners(cell)]) - lo
        centre = cell_pts.mean(axis=0)
        cell_pts = centre + (cell_pts - centre) * 0.985  # a cutting gap between tiles
        _lay(table, img, np.float32([cell_pts[k], cell_pts[(k + 1) % 3], cell_pts[(k + 2) % 3]]))
    for cid, at, turn in loose:
        _lay(table, renders[cid], np.float32(_loose_corners(at, turn, side_px) - lo))
    return table, lo


def _lay(table, img, dst) -> None:
    """The tile's render laid with its apex, then its other corners clockwise, on dst."""
    h, w = img.shape[:2]
    src = np.float32([[w / 2, 0], [w, h], [0, h]])
    m = cv2.getAffineTransform(src, dst)
    warped = cv2.warpAffine(img, m, (table.shape[1], table.shape[0]), flags=cv2.INTER_AREA)
    mask = np.zeros(table.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(dst).astype(np.int32), 255)
    table[mask > 0] = warped[mask > 0]


def photograph(layout, renders, out: Path, rng: random.Random, tile_px: float = 300,
               tilt: float = 25, blur: float = 1.0, width: int = 2400, height: int = 1800,
               quality: int = 88, glare: bool = True, loose=()) -> Photo:
    """A photo of the board: turned up to ±20°, tilted by `tilt` degrees (a camera looking
    down at an angle), scaled so that a tile's side is about tile_px, blurred, with glare."""
    side_px = tile_px * 1.3  # the board drawn finer than the photo shows it
    img, lo = _board_image(layout, renders, side_px, rng, loose)
    hmat = camera(img, out, rng, tile_px / side_px, tilt, blur, width, height, quality, glare)
    sides = []
    for cell, _ in layout.values():
        v = np.float32([[_vertex(x, side_px) for x in corners(cell)]]) - lo
        q = cv2.perspectiveTransform(v.astype(np.float32), hmat)[0]
        sides.append(np.mean([np.linalg.norm(q[i] - q[(i + 1) % 3]) for i in range(3)]))
    return Photo(out, dict(layout), float(np.mean(sides)), blur)


def camera(img, out: Path, rng: random.Random, scale: float, tilt: float, blur: float,
           width: int, height: int, quality: int = 88, glare: bool = True):
    """The table image `img` photographed into `out` (JPEG): turned up to ±20°, tilted by
    `tilt` degrees, scaled by `scale` (less when the table would leave the frame), blurred,
    with glare and noise. -> the homography from table pixels to photo pixels."""
    h, w = img.shape[:2]
    turn = math.radians(rng.uniform(-20, 20))
    # the camera's tilt about the photo's horizontal axis: a projective term in y
    p = math.tan(math.radians(tilt)) / max(h, w) * rng.choice([1, -1]) * 0.9
    proj = np.array([[1, 0, 0], [0, 1, 0], [0, p, 1]], float)
    rot = np.array([[math.cos(turn), -math.sin(turn), 0], [math.sin(turn), math.cos(turn), 0],
                    [0, 0, 1]])
    centre = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], float)
    hmat = rot @ proj @ centre
    box = cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), hmat)[0]
    span = box.max(axis=0) - box.min(axis=0)
    fit = min(width / span[0], height / span[1])
    scale = min(scale, fit)  # the board stays in the frame
    place = np.array([[scale, 0, width / 2 - scale * (box.min(axis=0)[0] + span[0] / 2)],
                      [0, scale, height / 2 - scale * (box.min(axis=0)[1] + span[1] / 2)],
                      [0, 0, 1]])
    hmat = place @ hmat
    table = tuple(int(v) for v in img[2, 2])
    photo = cv2.warpPerspective(img, hmat, (width, height), flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=table)
    if glare:
        yy, xx = np.mgrid[0:height, 0:width]
        gx, gy = rng.uniform(0, width), rng.uniform(0, height)
        r = rng.uniform(0.1, 0.25) * width
        light = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r))[..., None]
        photo = np.clip(photo + light * rng.uniform(40, 90), 0, 255).astype(np.uint8)
    if blur > 0:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 3, photo.shape)
    photo = np.clip(photo + noise, 0, 255).astype(np.uint8)
    cv2.imwrite(str(out), photo, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return hmat


def _vertex_sets(read):
    """card id -> {(vertex, number)} of a board given as card id -> (cell, reading)."""
    return {cid: {(v, n) for v, n in zip(corners(c), r, strict=True)}
            for cid, (c, r) in read.items()}


def _turned(vs, k):
    for _ in range(k):
        vs = {((-v[1], v[0] + v[1]), n) for v, n in vs}
    return vs


def score(truth, read) -> tuple[int, int]:
    """(tiles read right, tiles read wrong) of a reading against the truth, the same up to
    where the board's origin is and which of its six turns is up."""
    if not read:
        return 0, 0
    t, r = _vertex_sets(truth), _vertex_sets(read)
    anchor = min(set(t) & set(r), default=None)
    if anchor is None:
        return 0, len(r)
    best = (0, len(r))
    for k in range(6):
        tt = {cid: _turned(vs, k) for cid, vs in t.items()}
        a_t = min(v for v, _ in tt[anchor])
        a_r = min(v for v, _ in r[anchor])
        dx, dy = a_r[0] - a_t[0], a_r[1] - a_t[1]
        right = sum(1 for cid, vs in r.items() if cid in tt and
                    {((v[0] + dx, v[1] + dy), n) for v, n in tt[cid]} == vs)
        if right > best[0]:
            best = (right, len(r) - right)
    return best


def parsed(cards) -> dict[int, tuple]:
    """card id -> (cell, reading) from `referee look --json`'s cards."""
    out = {}
    for card in cards:
        cell, _, reading = card["position"].partition(" ")
        out[card["id"]] = (parse_cell(cell.lower()), tuple(int(x) for x in reading.split("-")))
    return out
