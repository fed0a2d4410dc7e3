"""The reference pack's SIFT features kept on disk, so `referee look` pays the ~4 s of
computing them once per pack and OpenCV, not once per run.

Why it cannot lie: a file is named by, and holds, the digest of everything the features
depend on (the render's own bytes and size, the feature parameters, OpenCV's version); a
render edited or made again, other parameters or another OpenCV give another key, so they are
computed again. A file is read with allow_pickle=False and used only when the key it holds is
the one asked for and its arrays have the shapes and types features.py makes; anything else
(truncated, foreign, damaged) is ignored and written again. Deleting the cache is always safe.

Where: beside the pack (`PACK/.features/`), or in the user's cache folder when the pack's
folder cannot be written (a read-only copy); a cache that cannot be written anywhere only costs
time, so that is silent.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

BESIDE = ".features"  # the cache's folder inside the pack's
VERSION = 1  # of this file's layout


class Store:
    """The features of renders, by their key, in the first of its folders that holds them."""

    def __init__(self, pack: Path, opencv_version: str, parameters: dict[str, Any]):
        from referee.components import cache_dir

        self.folders = [pack / BESIDE, cache_dir() / "look-features"]
        self.salt = json.dumps({"layout": VERSION, "opencv": opencv_version,
                                "parameters": parameters}, sort_keys=True).encode()

    def key(self, render: bytes, size: tuple[int, int]) -> str:
        """The digest of the render's bytes, its size, the parameters and OpenCV's version."""
        h = hashlib.sha256(self.salt)
        h.update(json.dumps(list(size)).encode())
        h.update(hashlib.sha256(render).digest())
        return h.hexdigest()

    def get(self, key: str) -> tuple[Any, Any, Any] | None:
        """(points (N, 2), shape (N, 2), descriptors (N, 128)) as features.py computed them
        for `key`, or None: not kept, or a file that is not exactly that."""
        for folder in self.folders:
            got = _load(folder / f"{key}.npz", key)
            if got is not None:
                return got
        return None

    def put(self, key: str, points, shape, descriptors) -> None:
        """Kept in the first folder that can be written; none: skipped."""
        import numpy as np

        from pnp_shared import files

        buf = io.BytesIO()
        np.savez(buf, key=np.array(key), points=points, shape=shape, descriptors=descriptors)
        for folder in self.folders:
            try:
                files.write_atomic(folder / f"{key}.npz", buf.getvalue())
                return
            except OSError:
                continue

    def keep_only(self, keys: set[str]) -> None:
        """Beside the pack, forget the features of renders it no longer holds (a pack made
        again after an edit would otherwise grow its cache each time); the user's cache
        folder is shared by every pack, so it is left alone."""
        try:
            stale = [p for p in self.folders[0].glob("*.npz") if p.stem not in keys]
            for path in stale:
                path.unlink(missing_ok=True)
        except OSError:
            pass


def _load(path: Path, key: str) -> tuple[Any, Any, Any] | None:
    import zipfile

    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            if set(data.files) != {"key", "points", "shape", "descriptors"}:
                return None
            stored, p, s, d = (data["key"], data["points"], data["shape"],
                               data["descriptors"])
    except (OSError, ValueError, EOFError, KeyError, RuntimeError, NotImplementedError,
            zipfile.BadZipFile):
        return None  # missing, truncated, not an npz, objects, an encrypted or odd zip
    n = len(p)
    ok = (stored.shape == () and str(stored) == key
          and p.dtype == np.float32 and p.shape == (n, 2)
          and s.dtype == np.float32 and s.shape == (n, 2)
          and d.dtype == np.float32 and d.shape == (n, 128)
          and all(np.isfinite(a).all() for a in (p, s, d)))
    return (p, s, d) if ok else None
