"""The local web server behind both tools' `serve` commands: bind, guard, announce, stream.

Why one module: `pnp serve` and `referee serve` must agree on safety. They bind 127.0.0.1
unless `--lan` is given; with `--lan` every request must carry a random token (in the URL, then
in a cookie the first page sets), so a neighbour on the same network who guesses the port gets
403. Every request's Host (and a write's Origin) is checked and every response carries the
security headers (guard.py); slow and greedy clients are cut off (connections.py). Starlette and
uvicorn are imported by the caller's `serve` command only, never at start-up.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

LOCAL = "127.0.0.1"
COOKIE = "pnp_serve_token"
COOKIE_LIFETIME = 12 * 3600  # seconds: an evening at the table; the token dies with the server
HEARTBEAT = 15.0  # seconds between comments on an idle event stream, so proxies keep it open
GRACE = 3  # seconds a stopping server gives open responses before cutting them
STOP_CHECK = 0.25  # seconds between an idle event stream's checks that the server is stopping
_STOPPING = threading.Event()  # set when the server is told to stop: the event streams end


@dataclass(frozen=True)
class Address:
    """Where the server listens and the URL a person opens (with the token when on the LAN)."""

    host: str
    port: int
    token: str | None

    @property
    def url(self) -> str:
        shown = lan_ip() if self.host != LOCAL else LOCAL
        query = f"?token={self.token}" if self.token else ""
        return f"http://{shown}:{self.port}/{query}"


def address(port: int | None, lan: bool) -> Address:
    """The address to bind: loopback unless `lan`; a free port when none is asked for."""
    host = "0.0.0.0" if lan else LOCAL
    return Address(host, port or free_port(host), secrets.token_urlsafe(16) if lan else None)


def free_port(host: str = LOCAL) -> int:
    """A port the system says is free now (a race is possible; uvicorn then fails clearly)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def lan_ip() -> str:
    """This machine's address as others on the network see it (best effort, no traffic sent)."""
    try:
        found = socket.gethostbyname(socket.gethostname())
    except OSError:
        found = ""
    return found if found and not found.startswith("127.") else socket.gethostname()


class TokenGuard:
    """ASGI middleware: with a token, a request without it (query or cookie) gets 403.

    A page opened with `?token=...` gets the token as an HttpOnly cookie, so the page's own
    fetches and its event stream need not carry it in their URLs. The cookie is named after the
    port: a browser keeps one cookie of a name per host whatever the port, so a second server
    on the machine (`pnp serve --lan` beside `referee serve --lan`) would replace the first's
    token, and the first page's next request would be refused.
    """

    def __init__(self, app, token: str | None, port: int):
        self.app = app
        self.token = token
        self.cookie = f"{COOKIE}_{port}"

    async def __call__(self, scope, receive, send):
        if self.token is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        from_query = self.token in query.get("token", [])
        cookie = SimpleCookie()
        for name, value in scope.get("headers", ()):
            if name == b"cookie":
                cookie.load(value.decode("latin-1"))
        from_cookie = (self.cookie in cookie
                       and secrets.compare_digest(cookie[self.cookie].value, self.token))
        if not (from_query or from_cookie):
            await _forbidden(send)
            return
        if not from_query:
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(message):
            if message["type"] == "http.response.start":
                set_cookie = (f"{self.cookie}={self.token}; HttpOnly; SameSite=Strict; Path=/; "
                              f"Max-Age={COOKIE_LIFETIME}")
                message = {**message, "headers": [*message.get("headers", ()),
                                                  (b"set-cookie", set_cookie.encode("latin-1"))]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


async def _forbidden(send) -> None:
    body = b"403: this page needs the token printed by the serve command\n"
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def announce(where: Address, what: str, out=None) -> None:
    """Print the URL (and, on the LAN, a QR code of it for the phones at the table)."""
    out = out or sys.stdout
    print(f"{what} at {where.url}", file=out)
    if where.token:
        import segno

        segno.make(where.url, error="l").terminal(out=out, compact=True)
        print("Anyone on this network with the link above can read the page; Ctrl-C stops.",
              file=out)
    else:
        print("Only this computer can open it (--lan to share it); Ctrl-C stops.", file=out)
    out.flush()


async def event_stream(is_disconnected: Callable[[], Awaitable[bool]],
                       next_event: Callable[[], Awaitable[str | None]]) -> AsyncIterator[str]:
    """Server-sent events: each text `next_event` returns becomes one `data:` event; None
    means nothing new yet (a heartbeat comment keeps the connection alive). Ends as soon as
    the client goes away, so a closed tab costs nothing, and when the server is stopping, so
    Ctrl-C does not wait for the open tabs. `next_event` must be safe to cancel (it is, when
    nothing is taken from a queue before its await returns)."""
    idle = 0.0
    while not await is_disconnected() and not _STOPPING.is_set():
        try:
            data = await asyncio.wait_for(next_event(), STOP_CHECK)
        except TimeoutError:
            idle += STOP_CHECK
            if idle < HEARTBEAT:
                continue
            data = None
        idle = 0.0
        if data is None:
            yield ": idle\n\n"
        else:
            yield "".join(f"data: {line}\n" for line in data.splitlines() or [""]) + "\n"


def lan_names() -> tuple[str, ...]:
    """The names a device on the network may reach this machine by: its address, its name."""
    name = socket.gethostname()
    return (lan_ip(), name, f"{name}.local")


def config(app, where: Address, limits=None):
    """uvicorn's configuration of `app` at `where`: behind the Host/Origin guard and the token,
    on the protocol that cuts slow and greedy clients off (`limits`, the defaults unless told)."""
    import uvicorn

    from pnp_shared.connections import Limits, protocol
    from pnp_shared.guard import Guard, allowed_hosts

    hosts = allowed_hosts(where.port, lan_names() if where.host != LOCAL else ())
    # An open page keeps its event stream open for ever: the streams end when the server is
    # told to stop (and GRACE closes whatever is left), or Ctrl-C would wait for every tab.
    return uvicorn.Config(Guard(TokenGuard(app, where.token, where.port), hosts),
                          host=where.host, port=where.port, http=protocol(limits or Limits()),
                          log_level="warning", access_log=False, lifespan="off",
                          timeout_graceful_shutdown=GRACE)


def run(app, where: Address, open_browser: bool, ready: Callable[[], None] | None = None) -> None:
    """Serve until Ctrl-C. Once the server listens, `ready()` (the command says where: a URL
    printed earlier could be opened before anyone answers it), then the page opens in the
    default browser unless told not to."""
    import logging

    import uvicorn

    logging.getLogger("uvicorn.error").addFilter(_streams_cut_at_exit)
    server = uvicorn.Server(config(app, where))
    told_to_stop = server.handle_exit

    def handle_exit(sig, frame) -> None:
        _STOPPING.set()
        told_to_stop(sig, frame)

    server.handle_exit = handle_exit
    _STOPPING.clear()
    threading.Thread(target=_when_listening, args=(server, where.url, open_browser, ready),
                     daemon=True).start()
    server.run()


def _when_listening(server, url: str, open_browser: bool, ready) -> None:
    while not server.started and not _STOPPING.is_set():
        time.sleep(0.05)
    if not server.started:
        return
    if ready is not None:
        ready()
    if open_browser:
        webbrowser.open(url)


def _streams_cut_at_exit(record) -> bool:
    """Keep uvicorn's log but the streams it cancels on Ctrl-C (an open page is no error)."""
    cut = record.exc_info is not None and isinstance(record.exc_info[1], asyncio.CancelledError)
    return not cut and "timeout graceful shutdown" not in record.getMessage()
