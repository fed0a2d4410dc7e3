"""Who may write: a seat's token, from the page's own origin, a small body, a human's pace.

Why each check: the token says which player acts (no token, or one that is no seat's: 403);
the Host must name this machine (an IP address, localhost or its own name: a page of another
site that rebinds its name to this address gets 400); a request from a page of another origin
gets 403 and no CORS header ever lets one read an answer; the seat's cookie counts only with
the page's own Origin (a form on another site cannot post with it); a body over BODY_LIMIT gets
413 before it is read whole; a seat sending faster than anyone taps gets 429.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie

BODY_LIMIT = 4096  # bytes: a move is a line; the longest notation is far shorter
RATE = 5.0  # writes per second a seat earns back...
BURST = 20  # ...up to this many at once (a quick run of taps, a retry after a lost answer)
COOKIE = "referee_seat"


class Refused(Exception):
    """A request refused before it reaches the referee: its HTTP status and why."""

    def __init__(self, status: int, why: str):
        super().__init__(why)
        self.status = status
        self.why = why


def host_ok(host: str, port: int) -> bool:
    """Whether a Host header names this server: an IP address, localhost or this machine's
    name, with the port it listens on."""
    name, _, given = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not name or given != str(port):
        return False
    name = name.strip("[]").lower()
    if name in ("localhost", socket.gethostname().lower()):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def cookie_name(port: int) -> str:
    """Named after the port, as the LAN token's cookie is (pnp_shared/web.py says why)."""
    return f"{COOKIE}_{port}"


def token_of(headers, port: int) -> tuple[str | None, bool]:
    """The seat token a request carries and whether it came from the cookie."""
    auth = headers.get("authorization", "")
    scheme, _, value = auth.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip(), False
    jar = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except Exception:  # noqa: BLE001 - a cookie header we cannot read carries no token
        return None, False
    found = jar.get(cookie_name(port))
    return (found.value, True) if found else (None, False)


def check_origin(headers, port: int, from_cookie: bool) -> None:
    """400 for a Host that is not this server; 403 for another origin's request, or for a
    cookie sent without the page's own Origin."""
    host = headers.get("host", "")
    if not host_ok(host, port):
        raise Refused(400, f"the Host {host!r} is not this server")
    origin = headers.get("origin")
    if origin is not None and origin != f"http://{host}":
        raise Refused(403, f"a write must come from this page (origin {origin!r})")
    if origin is None and from_cookie:
        raise Refused(403, "a write with the seat's cookie must come from this page (no Origin)")


@dataclass
class Pace:
    """A token bucket per seat: BURST writes at once, then RATE a second."""

    clock: object = time.monotonic
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def take(self, seat: str) -> None:
        now = self.clock()
        level, then = self.buckets.get(seat, (BURST, now))
        level = min(BURST, level + (now - then) * RATE)
        if level < 1:
            raise Refused(429, "too many requests from this seat: wait a moment")
        self.buckets[seat] = (level - 1, now)


async def body_of(request, limit: int = BODY_LIMIT) -> bytes:
    """The request's body, refused with 413 past `limit` (counted as it arrives)."""
    try:
        declared = int(request.headers.get("content-length", "0"))
    except ValueError:
        raise Refused(400, "the Content-Length is not a number") from None
    if declared > limit:
        raise Refused(413, f"the request is over {limit} bytes")
    got = bytearray()
    async for chunk in request.stream():
        got += chunk
        if len(got) > limit:
            raise Refused(413, f"the request is over {limit} bytes")
    return bytes(got)
