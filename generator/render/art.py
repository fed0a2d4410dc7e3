"""Clean a user's raster symbol: drop its plain background, trim it to the drawing, find its ink.

People's art is often a drawing on a white (or other plain) square: packed as is, the square
shows on the card and the drawing shrinks inside its margins. For a PNG or JPG without alpha,
the background colour is read from the border pixels; when the border is one colour (within
TOLERANCE), the pixels of that colour reachable from the border become transparent, with a soft
edge (ALIASED: edge pixels get an alpha from their distance to the background colour, and
their colour is un-blended from it). A colour-keyed island inside the drawing (a white eye) is
kept. Art with its own alpha keeps it. Either way the image is trimmed to its visible pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageChops

from generator.errors import PnpError
from generator.layout.silhouettes import Silhouette

TOLERANCE = 40  # per channel: JPEG noise and paper-white variations stay background
ALIASED = 120  # a pixel this far from the background colour is fully opaque
UNIFORM = 0.95  # the share of border pixels that must be the background colour
VISIBLE = 24  # alpha above this counts as ink when trimming and for the silhouette
MASK_CELLS = 40  # the silhouette's mask is at most this many cells on its longer side


@dataclass
class Art:
    """A cleaned symbol: the trimmed image, its ink silhouette, and a note for the build."""

    image: Image.Image  # RGB or RGBA, trimmed
    silhouette: Silhouette
    note: str = ""
    offset: tuple[int, int] = (0, 0)  # the trimmed image's top-left pixel in the file's image
    source_size: tuple[int, int] = (0, 0)  # the file's image, in pixels

    def full_alpha(self) -> Image.Image:
        """The transparency at the file's own size (for embedding the file as it is)."""
        alpha = Image.new("L", self.source_size, 0)
        alpha.paste(self.image.getchannel("A"), self.offset)
        return alpha


def clean(path: Path, keep: bool = False) -> Art:
    """Read and clean one raster symbol; keep=True leaves its background as it is."""
    try:
        with Image.open(path) as im:
            im.load()
            src = _eight_bit(im)
    except Exception as e:  # Pillow raises assorted errors for bad files
        raise PnpError(f"cannot read image {path.name!r}: not a PNG or JPG file, or damaged "
                       f"({type(e).__name__})", str(path)) from None
    note, origin = "", (0, 0)
    if src.mode == "RGBA":
        rgba = np.asarray(src)
    else:
        rgba = None
        if not keep:
            rgba, note, origin = _unbackground(src, path)
        if rgba is None:
            return Art(src, _silhouette(np.ones(src.size[::-1], dtype=bool)), note,
                       source_size=src.size)
    alpha = rgba[:, :, 3]
    ink = alpha > VISIBLE
    if not ink.any():
        raise PnpError(f"the symbol {path.name!r} is empty (every pixel is transparent "
                       "or background)", str(path))
    rows, cols = np.flatnonzero(ink.any(1)), np.flatnonzero(ink.any(0))
    box = (slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1))
    return Art(Image.fromarray(rgba[box]), _silhouette(ink[box]), note,
               (origin[0] + int(cols[0]), origin[1] + int(rows[0])), src.size)


def _eight_bit(im: Image.Image) -> Image.Image:
    """The loaded image as RGBA when it has alpha, else RGB (a new image: the file closes)."""
    if im.mode.startswith("I"):  # 16-bit greyscale: Pillow's 8-bit conversion clips it
        im = Image.fromarray((np.asarray(im, dtype=np.uint32) >> 8).clip(0, 255)
                             .astype(np.uint8))
    return im.convert("RGBA" if _has_alpha(im) else "RGB")


def _has_alpha(im: Image.Image) -> bool:
    return im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info)


def _unbackground(im: Image.Image, path: Path
                  ) -> tuple[np.ndarray | None, str, tuple[int, int]]:
    """RGBA with the border-connected background transparent, or None and a note; and the
    top-left pixel, in the image, of the box the RGBA covers.

    Only the box around the pixels that are not background colour needs work: every pixel
    outside it is background reachable from the border (a straight line of background leads
    there), so the flood fill, the soft edge and the RGBA are made on that box alone (the
    margins of a drawing on a white square are most of its pixels). Pillow's C image
    arithmetic finds the distances and the box: a fraction of numpy's time on int16 copies."""
    w, h = im.size
    strips = [im.crop(b) for b in ((0, 0, w, 1), (0, h - 1, w, h), (0, 0, 1, h), (w - 1, 0, w, h))]
    border = np.concatenate([np.asarray(s).reshape(-1, 3) for s in strips]).astype(np.int16)
    bg = np.median(border, axis=0).round().astype(np.int16)
    if (np.abs(border - bg).max(axis=1) <= TOLERANCE).mean() < UNIFORM:
        return None, (f"{path.name}: its border is not one plain colour, so its background "
                      "was kept; give it a transparent background or a plain border"), (0, 0)
    diff = ImageChops.difference(im, Image.new("RGB", im.size, tuple(int(v) for v in bg)))
    r, g, b = diff.split()
    far_im = ImageChops.lighter(ImageChops.lighter(r, g), b)
    found = far_im.point(_SOLID).getbbox()
    if found is None:
        return np.zeros((h, w, 4), dtype=np.uint8), "", (0, 0)
    # one ring of background around the box (where the image has room) seeds the fill
    box = (max(found[0] - 1, 0), max(found[1] - 1, 0), min(found[2] + 1, w), min(found[3] + 1, h))
    rgb, far = np.asarray(im.crop(box)), np.asarray(far_im.crop(box))
    background = _reachable(far <= TOLERANCE)
    edge = _touching(background) & ~background
    soft = np.clip((far[edge] - TOLERANCE) / (ALIASED - TOLERANCE), 0, 1)
    out = np.empty((*far.shape, 4), dtype=np.uint8)
    out[:, :, :3] = rgb
    out[:, :, 3] = np.where(background, 0, 255)
    out[:, :, 3][edge] = (soft * 255).astype(np.uint8)
    # an edge pixel is the drawing's colour blended with the background: take the blend out
    blend = bg + (rgb[edge].astype(np.int16) - bg) / np.maximum(soft, 1e-3)[:, None]
    out[:, :, :3][edge] = np.clip(blend, 0, 255).astype(np.uint8)
    return out, "", box[:2]


_SOLID = [0] * (TOLERANCE + 1) + [255] * (255 - TOLERANCE)  # a lookup: not background colour


def _reachable(candidate: np.ndarray) -> np.ndarray:
    """The candidate pixels connected (4-way) to the image border: sweeps that fill whole runs
    of candidates along rows, then columns, until nothing changes (a few sweeps in practice).
    The runs are numbered once; a sweep is then two array lookups."""
    runs = (_run_ids(candidate), _run_ids(candidate.T).T)
    reached = np.zeros_like(candidate)
    reached[[0, -1], :] = candidate[[0, -1], :]
    reached[:, [0, -1]] |= candidate[:, [0, -1]]
    count = int(reached.sum())
    while True:
        for ids in runs:
            hit = np.zeros(int(ids.max()) + 1, dtype=bool)
            hit[ids[reached]] = True
            hit[0] = False
            reached = hit[ids]
        before, count = count, int(reached.sum())
        if count == before:
            return reached


def _run_ids(candidate: np.ndarray) -> np.ndarray:
    """A number per run of candidates along each row (1, 2, ...), 0 off the candidates."""
    h, w = candidate.shape
    flat = np.ascontiguousarray(candidate).ravel()
    starts = np.empty_like(flat)
    starts[0] = flat[0]
    np.greater(flat[1:], flat[:-1], out=starts[1:])  # a candidate after a non-candidate
    starts[::w] = flat[::w]
    ids = np.cumsum(starts, dtype=np.int32)
    ids *= flat
    return ids.reshape(h, w)


def _touching(mask: np.ndarray) -> np.ndarray:
    """Pixels with a 4-neighbour in mask."""
    out = np.zeros_like(mask)
    out[1:] |= mask[:-1]
    out[:-1] |= mask[1:]
    out[:, 1:] |= mask[:, :-1]
    out[:, :-1] |= mask[:, 1:]
    return out


def _silhouette(ink: np.ndarray) -> Silhouette:
    """A coarse mask of the ink (a mask cell is inked when any of its pixels is), in pixels.

    The ink is doubled first so that the padding to whole cells splits evenly on both sides:
    the mask's centre is then exactly the image's centre."""
    ink = ink.repeat(2, axis=0).repeat(2, axis=1)
    h, w = ink.shape
    k = 2 * max(1, math.ceil(max(h, w) / MASK_CELLS / 2))
    ph, pw = math.ceil(h / k) * k, math.ceil(w / k) * k
    pad = np.zeros((ph, pw), dtype=bool)
    top, left = (ph - h) // 2, (pw - w) // 2
    pad[top:top + h, left:left + w] = ink
    return Silhouette(pad.reshape(ph // k, k, pw // k, k).any(axis=(1, 3)), k / 2)
