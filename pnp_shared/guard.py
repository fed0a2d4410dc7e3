"""What every response of both `serve` commands checks and says, whatever the page behind it.

Why here, once: `pnp serve` and `referee serve` must refuse the same requests. A web page on
another site can point its own name at 127.0.0.1 (DNS rebinding) and then read our pages as
"its" origin: only the Host header tells, so a request whose Host is not a name this server
was bound and announced under is refused. A write (any method but GET/HEAD/OPTIONS) from a
page of another origin is refused too. Every response, refusals included, carries headers
that keep the browser from running or framing anything not served by this server.
"""

from __future__ import annotations

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
READS = frozenset({"GET", "HEAD", "OPTIONS"})

# Only this server's own scripts, styles, images and streams; no inline code, no framing.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]

# The tab's icon, so a browser's automatic /favicon.ico is answered (not a 404 in the log).
ICON = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
        b'<rect x="1" y="2" width="10" height="13" rx="2" fill="#1d3557"/>'
        b'<rect x="5" y="1" width="10" height="13" rx="2" fill="#fbf3dc" stroke="#1d3557"/>'
        b"</svg>")


def allowed_hosts(port: int, names: tuple[str, ...] = ()) -> frozenset[str]:
    """Every Host header value a browser sends for this server: loopback names and `names`
    (the LAN address and this machine's name with --lan), with the port (bare on port 80)."""
    found = set()
    for name in (*LOOPBACK_NAMES, *names):
        name = name.lower()
        found.add(f"{name}:{port}")
        if port == 80:
            found.add(name)
    return frozenset(found)


class Guard:
    """ASGI middleware: Host and Origin checked first, security headers on every answer."""

    def __init__(self, app, hosts: frozenset[str]):
        self.app = app
        self.hosts = hosts
        self.origins = frozenset(f"http://{h}" for h in hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {}
        for name, value in scope.get("headers", ()):
            headers.setdefault(name, value.decode("latin-1").strip().lower())
        refusal = self.refusal(scope.get("method", "GET"), headers)
        if refusal is not None and scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        if refusal is not None:
            await answer(send, *refusal)
            return
        if scope["type"] == "http" and scope["path"] == "/favicon.ico":
            await answer(send, 200, ICON, b"image/svg+xml")
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def refusal(self, method: str, headers: dict[bytes, str]) -> tuple[int, bytes] | None:
        """(status, text) when the request is refused, None when it may go on."""
        if headers.get(b"host", "") not in self.hosts:
            return 400, b"400: this server answers only to its own address (Host header)\n"
        if method.upper() in READS:
            return None
        origin = headers.get(b"origin")
        site = headers.get(b"sec-fetch-site", "same-origin")
        if (origin is not None and origin not in self.origins) or site not in ("same-origin",
                                                                                 "none"):
            return 403, b"403: a change must come from this server's own page (Origin)\n"
        return None


async def answer(send, status: int, body: bytes, media: bytes = b"text/plain; charset=utf-8"):
    """A whole short response, with the security headers."""
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", media),
                            (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"), *HEADERS]})
    await send({"type": "http.response.body", "body": body})
