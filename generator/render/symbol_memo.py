"""A build-to-build memo of a user's-art deck's expensive work: cleaned symbols and card layouts.

A designer rebuilds the same deck many times while editing its text; cleaning 57 images and
packing 57 cards is most of such a build's own work, and its result depends only on each
image file's bytes, the options and this code. So both are kept in the user's cache folder
(`$PNP_CACHE`, else the platform's cache folder for pnp):

- per image, `art/<key>.bin`: the cleaned art (size, silhouette, note, offsets; not its
  pixels, which drawing does not need) and the streams the PDF stores for it, keyed by the
  file's name and bytes, the background option and the code (the bytes of the modules that
  clean, encode and pack, and Pillow's version);
- per deck folder, `layouts-<folder>.json`: each card's placements, keyed by its symbols'
  image keys in order, its seed, the region, the size options, rotation and the rim.

A hit gives exactly what computing would (floats are stored by their repr), so a warm build's
PDF is the cold build's bytes. A changed image has another key and is cleaned again, with the
layouts of the cards that show it. Anything unreadable is a miss; a memo that cannot be written
is skipped: the memo never changes what a build prints, nor fails it.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from pathlib import Path

from pnp_shared.folders import user_folder, write_memo_file

ENV = "PNP_CACHE"
FORMAT = 2  # bumped when what is stored changes
# the modules whose code decides the cleaned art, its streams and the layouts
_CODE = ("render/art.py", "bit_plane.py", "render/symbol_image.py",
         "layout/silhouettes.py", "layout/cell_board.py", "layout/packing.py",
         "render/symbol_memo.py")


def cache_dir() -> Path:
    """$PNP_CACHE, else the user's cache folder for pnp (as platformdirs names it)."""
    env = os.environ.get(ENV)
    if env:
        return Path(env).expanduser()
    return user_folder("cache", "pnp")


@cache
def code_key() -> str:
    """What the memo's entries depend on besides their inputs: this code and Pillow."""
    from PIL import __version__ as pillow

    digest = hashlib.sha256(f"{FORMAT}:{pillow}".encode())
    root = Path(__file__).resolve().parent.parent
    for name in _CODE:
        digest.update((root / name).read_bytes())
    return digest.hexdigest()


def art_key(path: Path, keep: bool) -> str | None:
    """The memo key of one image file cleaned with this option (None: unreadable)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    # the name too: the build's notes name the file (two files of the same bytes are two)
    digest = hashlib.sha256(f"{code_key()}:{bool(keep)}:{path.name}:".encode())
    digest.update(data)
    return digest.hexdigest()


def load_art(key: str, path: Path, keep: bool):
    """(art, Encoded or None) stored under key for the image at path, or None."""
    from PIL import Image

    from generator.layout.silhouettes import Silhouette
    from generator.render.symbol_image import Encoded

    try:
        raw = (cache_dir() / "art" / f"{key}.bin").read_bytes()
        head, _, rest = raw.partition(b"\n")
        meta = json.loads(head)
        sil_size, data_size, mask_size = meta["blobs"]
        if hashlib.sha256(rest).hexdigest() != meta["sha256"]:  # cut off or garbled
            return None
        sil, data = rest[:sil_size], rest[sil_size:sil_size + data_size]
        mask = rest[sil_size + data_size:sil_size + data_size + mask_size]
        shape = Silhouette(Image.frombytes("L", tuple(meta["sil"][:2]), sil), meta["sil"][2])
        art = StoredArt(path, keep, tuple(meta["size"]), shape, meta["note"],
                        tuple(meta["offset"]), tuple(meta["source_size"]))
        enc = meta["enc"]
        if enc is not None:
            enc = Encoded(data, enc["filter"], enc["space"], tuple(enc["size"]), mask)
        return art, enc
    except (OSError, ValueError, KeyError, TypeError):
        return None


class StoredArt:
    """A cleaned symbol read back from the memo: what drawing it needs (its size, silhouette,
    note and offsets). Its pixels are not stored (drawing places the stored streams); asked
    for, they are made again from the file, as the first build made them."""

    def __init__(self, path: Path, keep: bool, size, silhouette, note: str, offset,
                 source_size):
        self.path, self.keep, self.size = path, keep, size
        self.silhouette, self.note, self.offset = silhouette, note, offset
        self.source_size = source_size
        self._cleaned = None

    @classmethod
    def of(cls, art, path: Path, keep: bool) -> StoredArt:
        """A cleaned art without its pixels, once they are encoded: what a helper process
        sends back (a twentieth of the bytes to pickle and pipe), and what the memo keeps."""
        return cls(path, keep, art.size, art.silhouette, art.note, art.offset, art.source_size)

    @property
    def image(self):
        return self._art().image

    def full_alpha(self):
        return self._art().full_alpha()

    def _art(self):
        if self._cleaned is None:
            from generator.render.art import clean

            self._cleaned = clean(self.path, self.keep)
        return self._cleaned


def save_art(key: str, art, enc) -> None:
    """Store an image's cleaned art (all but its pixels) and its streams under key."""
    sil = art.silhouette
    blobs = [sil.image.tobytes(), enc.data if enc else b"", enc.mask if enc else b""]
    meta = {"size": art.size, "note": art.note, "offset": art.offset,
            "source_size": art.source_size, "sil": [*sil.image.size, sil.cell],
            "blobs": [len(b) for b in blobs], "sha256": hashlib.sha256(b"".join(blobs)).hexdigest(),
            "enc": None if enc is None else {"filter": enc.filter, "space": enc.space,
                                             "size": enc.size}}
    write_memo_file(cache_dir() / "art" / f"{key}.bin",
           json.dumps(meta).encode() + b"\n" + b"".join(blobs))


def layout_key(image_keys, seed: str, region, sizes, rotate: bool, rim: float) -> str:
    """The memo key of one card's layout."""
    parts = [code_key(), *image_keys, seed, repr((region.r, region.sides, region.flat)),
             repr((sizes.min_size, sizes.max_size, sizes.spread)), str(bool(rotate)), repr(rim)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def layouts_file(folder: Path) -> Path:
    name = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:16]
    return cache_dir() / f"layouts-{name}.json"


def load_layouts(folder: Path) -> dict:
    """{layout key: placements} stored for the deck whose art is in folder."""
    from generator.layout.silhouettes import Placed

    try:
        stored = json.loads(layouts_file(folder).read_text(encoding="utf-8"))
        return {key: [Placed(*p) for p in placed] for key, placed in stored.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def save_layouts(folder: Path, layouts: dict) -> None:
    """Store the deck's card layouts (replacing the deck's earlier ones: no growth)."""
    data = {key: [[p.x, p.y, p.scale, p.angle, p.size] for p in placed]
            for key, placed in layouts.items()}
    write_memo_file(layouts_file(folder), json.dumps(data).encode())
