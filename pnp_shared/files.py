"""Atomic file writes, shared by pnp and the referee: a crash or a full disk never leaves half a file."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


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
