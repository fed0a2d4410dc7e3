"""The tools' folders in the user's home: data (the referee's matches) and cache (memos).

Why not always platformdirs: importing it pulls in tempfile, shutil, random, bz2 and lzma,
paid by every command that reads cards. On Linux the folder it picks follows the XDG Base
Directory rule, read directly here when the environment is the usual one (an absolute $HOME,
an XDG variable unset or absolute); any other system or environment asks platformdirs.
tests/test_referee_startup.py checks that both give the same folder. Both tools ask here, so
pnp's build memo and the referee's memos follow one rule.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_XDG = {"data": ("XDG_DATA_HOME", ".local/share"), "cache": ("XDG_CACHE_HOME", ".cache")}


def user_folder(kind: str, app: str = "referee") -> Path:
    """The user's `kind` folder ("data" or "cache") for `app`, as platformdirs names it."""
    variable, default = _XDG[kind]
    home = os.environ.get("HOME", "")
    xdg = os.environ.get(variable, "")
    usual = (sys.platform == "linux" and not hasattr(sys, "getandroidapilevel")
             and "ANDROID_DATA" not in os.environ and os.path.isabs(home)
             and (not xdg or os.path.isabs(xdg)))
    if usual:
        return Path(xdg or f"{home.rstrip('/')}/{default}") / app
    import platformdirs

    find = platformdirs.user_data_path if kind == "data" else platformdirs.user_cache_path
    return find(app, appauthor=False)


def write_memo_file(path: Path, data: bytes) -> None:
    """Write a cache file atomically (temp file, then replace), so a reader never sees half of
    one; a cache that cannot be written is skipped: it only costs time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        pass
