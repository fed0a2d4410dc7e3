"""Atomic file writes, shared by pnp and the referee: a crash or a full disk never leaves half a file."""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pnp_shared import interrupts


def write_atomic(path: Path, data: bytes) -> None:
    """Write via a temporary file in the same folder, then rename it over `path`.

    The file gets the ordinary mode (0666 less the umask), not the 0600 of a temporary file, so a
    PDF or an export can be printed or shared like any other. Missing folders are made. Raises
    OSError; the temporary file never survives a failure.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def staged_folder(folder: Path) -> Iterator[Path]:
    """A new hidden folder beside `folder` to write into. When the block ends well, its files
    take their places in `folder` (made if missing); when it fails or is interrupted (Ctrl-C),
    it is removed. So an interrupted export never leaves half a folder that could be uploaded
    by mistake, and a previous export stays whole until it is replaced. Files of `folder` the
    block did not write are kept: `folder` may be the user's own (`-o .`)."""
    parent = folder.absolute().parent
    parent.mkdir(parents=True, exist_ok=True)
    try:
        tmp = Path(tempfile.mkdtemp(dir=parent, prefix=f".{folder.absolute().name}.",
                                    suffix=".part"))
    except PermissionError:  # `-o ~`: a folder whose parent we may not write in
        if not folder.is_dir():
            raise
        tmp = Path(tempfile.mkdtemp(dir=folder, prefix=".export.", suffix=".part"))
    try:
        with interrupts.noticed():
            yield tmp
        with interrupts.deferred():
            _move_into(tmp, folder)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _move_into(tmp: Path, folder: Path) -> None:
    umask = os.umask(0)
    os.umask(umask)
    if not folder.exists():
        os.chmod(tmp, 0o777 & ~umask)  # mkdtemp's 0700 would keep the export private
        os.replace(tmp, folder)
        return
    # the manifests last: a folder holding one holds every file it lists
    files = sorted((p for p in tmp.rglob("*") if p.is_file()), key=lambda p: p.suffix == ".json")
    for path in files:
        dest = folder / path.relative_to(tmp)
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, dest)
