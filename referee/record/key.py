"""The user's key for the caches' MACs: a file outside the database, in the user's data folder.

Why: the caches kept in the database (snapshots of folded states, per-match summaries) hold
values a command prints. A plain digest stored beside a value proves nothing (whoever edits the
value recomputes the digest), so each cache row carries an HMAC-SHA256 under this key instead:
an edit of the database file alone cannot make a row that passes, and a row that fails is
ignored and made again. The key is made on first use (32 random bytes, mode 0600) and never
written into the database; losing it costs only the caches (rebuilt under a new key).
$REFEREE_KEY names another file (tests point it at a temporary folder).
"""

from __future__ import annotations

import hmac
import os
from functools import cache
from pathlib import Path

ENV = "REFEREE_KEY"
SIZE = 32


def path() -> Path:
    """$REFEREE_KEY, else referee.key in the user's data folder (beside the default database)."""
    env = os.environ.get(ENV)
    if env:
        return Path(env).expanduser()
    from pnp_shared.folders import user_folder

    return user_folder("data") / "referee.key"


@cache
def _key(where: Path) -> bytes | None:
    """The key in `where`, made there when missing; None when it can be neither read nor made
    (then no cache is kept or trusted: every command folds from the events)."""
    try:
        found = where.read_bytes()
        return found if len(found) >= SIZE else None
    except FileNotFoundError:
        pass
    except OSError:
        return None
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        tmp = where.with_name(f".{where.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, os.urandom(SIZE))
        finally:
            os.close(fd)
        try:
            os.link(tmp, where)  # never replaces a key another command made meanwhile
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
        found = where.read_bytes()
        return found if len(found) >= SIZE else None
    except OSError:
        return None


def key() -> bytes | None:
    return _key(path())


def mac(*parts: bytes | str | int | None) -> str | None:
    """HMAC-SHA256 of the parts (each length-prefixed, so no two lists of parts give the same
    message), hex; None when there is no key."""
    k = key()
    if k is None:
        return None
    h = hmac.new(k, digestmod="sha256")
    for p in parts:
        b = p if isinstance(p, bytes) else str(p).encode("utf-8", "surrogatepass")
        h.update(len(b).to_bytes(8, "big"))
        h.update(b)
    return h.hexdigest()


def agrees(stored: object, *parts: bytes | str | int | None) -> bool:
    """Whether `stored` (a cache row's MAC column, whatever an edit made of it) is the MAC of
    the parts under the user's key."""
    want = mac(*parts)
    return want is not None and isinstance(stored, str) and hmac.compare_digest(stored, want)
