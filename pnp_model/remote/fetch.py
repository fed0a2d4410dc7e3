"""Download a card list once, keep it with its ETag, and ask again with If-None-Match.

The copy lives in the user's cache folder (pnp_shared.folders), named after the URL's host and
a hash of the URL. It is read as a local card list is, with the same size limits; the download
itself stops past the card-list limit, so a URL cannot make pnp read more than a file could.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from urllib.parse import urlsplit

from pnp_model.errors import PnpError
from pnp_shared import limits
from pnp_shared.folders import user_folder, write_memo_file

TIMEOUT = 10  # seconds: a published sheet answers in one or two
_by_user = False  # --allow-url, set by the command that reads definitions
_by_definition: ContextVar[bool] = ContextVar("pnp_urls", default=False)
_notes: list[str] = []


def is_url(name: str) -> bool:
    return str(name).lower().startswith(("http://", "https://"))


def allow(value: bool) -> None:
    """Whether the user allows card lists from URLs on this run (`--allow-url`)."""
    global _by_user
    _by_user = bool(value)
    _notes.clear()


@contextmanager
def permitted(by_definition: bool) -> Iterator[None]:
    """While a definition with `[game] urls = true` is read, its URLs may be fetched."""
    token = _by_definition.set(by_definition)
    try:
        yield
    finally:
        _by_definition.reset(token)


def notes() -> list[str]:
    """Warnings of this run (an old copy used offline), for the command to print."""
    return list(_notes)


def cache_folder() -> Path:
    return user_folder("cache", "pnp") / "card-lists"


def cached_copy(url: str, where: str) -> Path:
    """A local copy of the card list at url, fresh when the server answers, else the last."""
    if not (_by_user or _by_definition.get()):
        raise PnpError(f"the card list is a URL ({url}): allow reading it with --allow-url, or "
                       "urls = true in [game]", where)
    parts = urlsplit(url)
    key = hashlib.sha256(url.encode()).hexdigest()[:16]
    stem = f"{''.join(c if c.isalnum() else '-' for c in parts.hostname or 'url')}-{key}"
    folder = cache_folder()
    meta_path = folder / f"{stem}.json"
    meta = _meta(meta_path)
    copy = folder / meta["file"] if meta.get("file") else None
    try:
        status, etag, data = _get(url, meta.get("etag") if copy and copy.is_file() else None)
    except (OSError, ValueError) as e:  # URLError and timeouts are OSErrors
        if copy and copy.is_file():
            hours = (time.time() - meta.get("fetched", 0)) / 3600
            _notes.append(f"cannot reach {url} ({_reason(e)}): using the copy from "
                          f"{_age(hours)} ago")
            return copy
        raise PnpError(f"cannot read the card list at {url}: {_reason(e)} (and no copy was "
                       "kept from an earlier build)", where) from None
    if status == 304 and copy:
        write_memo_file(meta_path, json.dumps({**meta, "fetched": time.time()}).encode())
        return copy
    suffix = ".xlsx" if data[:4] == b"PK\x03\x04" else ".csv"
    copy = folder / f"{stem}{suffix}"
    write_memo_file(copy, data)
    write_memo_file(meta_path, json.dumps({"url": url, "etag": etag, "file": copy.name,
                                           "fetched": time.time()}).encode())
    return copy


def _get(url: str, etag: str | None) -> tuple[int, str | None, bytes]:
    """(status, ETag, body) of a GET; 304 when the copy with that ETag is still current."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers={"User-Agent": "pnp-toolkit"})
    if etag:
        request.add_header("If-None-Match", etag)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            data = response.read(limits.MAX_TABLE_BYTES + 1)
            if len(data) > limits.MAX_TABLE_BYTES:  # refused like a local file this large
                raise PnpError(f"the card list at {url} is more than the limit of "
                               f"{limits.MAX_TABLE_BYTES:,} bytes", url)
            return response.status, response.headers.get("ETag"), data
    except urllib.error.HTTPError as e:
        if e.code == 304:
            return 304, etag, b""
        raise OSError(f"HTTP {e.code} {e.reason}") from None


def _meta(path: Path) -> dict:
    try:
        meta = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _reason(e: Exception) -> str:
    return str(getattr(e, "reason", None) or e) or type(e).__name__


def _age(hours: float) -> str:
    if hours < 1:
        return f"{max(1, round(hours * 60))} min"
    return f"{hours:.0f} h" if hours < 48 else f"{hours / 24:.0f} days"
