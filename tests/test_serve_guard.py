"""What both `serve` commands refuse and say whatever page they serve (pnp_shared/guard.py,
pnp_shared/connections.py): a request for another site's name (DNS rebinding) is refused, a
write from another origin is refused, every response carries the security headers, a client
that dribbles its request is cut off in time, one address holds a bounded number of
connections, and both pages load, follow changes and drop the LAN token from the address bar
under their Content-Security-Policy in a real browser."""

from __future__ import annotations

import os
import re
import socket
import threading
import time

import pytest

from tests.conftest import mini_game
from tests.test_pnp_serve import Served as PnpServed
from tests.test_table_page import Served as RefereeServed
from tests.test_table_page import referee, updated_to


def http(port: int, path: str = "/", host: str | None = None, method: str = "GET",
         extra: str = "") -> tuple[int, dict[str, str], bytes]:
    """One raw request with exactly the Host (and headers) given: (status, headers, body)."""
    host = host if host is not None else f"127.0.0.1:{port}"
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n{extra}"
                  "Content-Length: 0\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers.setdefault(name.strip().lower(), value.strip())
        while len(body) < int(headers.get("content-length", 0)):  # not an endless stream
            chunk = s.recv(65536)
            if not chunk:
                break
            body += chunk
    return int(lines[0].split()[1]), headers, body


SECURITY = {"x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


def assert_guarded(headers: dict[str, str]) -> None:
    for name, value in SECURITY.items():
        assert headers.get(name) == value, (name, headers)
    csp = headers.get("content-security-policy", "")
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, csp
    assert "unsafe-inline" not in csp and "*" not in csp


@pytest.fixture
def env(tmp_path):
    return {**os.environ, "REFEREE_DB": str(tmp_path / "m.sqlite3"),
            "REFEREE_CACHE": str(tmp_path / "cache")}


@pytest.fixture
def table(env):
    """`referee serve` of a Duplicon match (its port, the URL it printed)."""
    assert referee(env, "new", "duplicon", "--players", "ana,bob").returncode == 0
    served = []

    def start(*args: str) -> RefereeServed:
        served.append(RefereeServed(env, *args))
        port = int(served[-1].base.rsplit(":", 1)[1])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        served[-1].port = port
        return served[-1]

    yield start
    for s in served:
        s.stop()


@pytest.fixture(scope="module")
def designer(tmp_path_factory):
    """`pnp serve` of the mini game, on loopback."""
    folder = tmp_path_factory.mktemp("guard")
    s = PnpServed(mini_game(folder), "-o", folder / "mini.pdf", cwd=folder)
    s.root = folder / "mini"
    yield s
    s.stop()


FOREIGN_HOSTS = ["rebound.example.com:{port}", "rebound.example.com", "127.0.0.1.evil.test:{port}",
                 "127.0.0.1:1", "", "localhost:{port}@evil"]


def check_hosts(port: int, pages: list[str]) -> None:
    for path in pages:
        for name in ("127.0.0.1", "localhost", "LOCALHOST", "[::1]"):
            status, headers, _ = http(port, path, f"{name}:{port}")
            assert status == 200, (path, name, status)
            assert_guarded(headers)
        for foreign in FOREIGN_HOSTS:
            status, headers, _ = http(port, path, foreign.format(port=port))
            assert status in (400, 403), (path, foreign, status)
            assert_guarded(headers)


def check_writes(port: int) -> None:
    """A write from a page of another origin is refused before any route sees it; the same
    write from the server's own origin reaches the routes (here: 405, none takes a POST)."""
    for foreign in (f"Origin: http://rebound.example.com:{port}\r\n", "Origin: null\r\n",
                    f"Origin: http://127.0.0.1:{port}\r\nSec-Fetch-Site: cross-site\r\n"):
        status, headers, _ = http(port, "/", method="POST", extra=foreign)
        assert status == 403, (foreign, status)
        assert_guarded(headers)
    status, _, _ = http(port, "/", method="POST", extra=f"Origin: http://127.0.0.1:{port}\r\n")
    assert status == 405


def test_referee_serve_answers_only_to_its_own_name(table):
    served = table()
    check_hosts(served.port, ["/", "/table.json", "/picture.svg", "/static/table.js"])
    check_writes(served.port)


def test_pnp_serve_answers_only_to_its_own_name(designer):
    check_hosts(designer.port, ["/", "/state", "/static/serve.js"])
    check_writes(designer.port)


def test_with_lan_the_host_is_checked_before_the_token(table):
    served = table("--lan")
    token = served.url.split("token=")[1]
    shown = re.search(r"//([^/]+)/", served.url).group(1)  # the LAN address printed
    assert http(served.port, f"/?token={token}", shown)[0] == 200
    assert http(served.port, f"/?token={token}", f"127.0.0.1:{served.port}")[0] == 200
    status, headers, _ = http(served.port, f"/?token={token}", f"rebound.example.com:{served.port}")
    assert status == 400 and "set-cookie" not in headers
    status, headers, _ = http(served.port, "/", shown)
    assert status == 403  # the right name without the token
    assert_guarded(headers)


def test_the_token_cookie_has_a_lifetime(table):
    served = table("--lan")
    token = served.url.split("token=")[1]
    _, headers, _ = http(served.port, f"/?token={token}")
    cookie = headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    lifetime = int(re.search(r"Max-Age=(\d+)", cookie).group(1))
    assert 3600 <= lifetime <= 24 * 3600


def test_every_response_carries_the_security_headers(table, designer):
    served = table("--lan")
    for port, paths in ((served.port, ["/", "/events", "/no/such/page", "/favicon.ico"]),
                        (designer.port, ["/", "/build/999/game.pdf", "/static/nothing.js",
                                         "/favicon.ico"])):
        for path in paths:
            status, headers, _ = http(port, path)
            assert_guarded(headers)
            if path == "/favicon.ico":
                assert status == 200 and headers["content-type"].startswith("image/")


def test_favicon_is_an_icon_on_both_servers(table, designer):
    for port in (table().port, designer.port):
        status, headers, body = http(port, "/favicon.ico")
        assert status == 200 and headers["content-type"] == "image/svg+xml"
        assert body.startswith(b"<svg")


# ------------------------------------------------------------------ slow and greedy clients

@pytest.fixture
def small_limits():
    """The shared server core on loopback with small limits, serving a one-route app."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from pnp_shared import web
    from pnp_shared.connections import Limits

    async def hello(request):
        body = await request.body()
        return PlainTextResponse(f"got {len(body)} bytes")

    app = Starlette(routes=[Route("/", hello, methods=["GET", "POST"])])
    where = web.address(None, lan=False)
    server = uvicorn.Server(web.config(app, where, Limits(head=0.6, body=0.6, per_client=4)))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    yield where.port
    server.should_exit = True
    thread.join(10)


def closed_after(s: socket.socket, lines: list[bytes], every: float, limit: float) -> float:
    """Send `lines` one every `every` seconds; the seconds until the server closed the
    connection (a failed send or an empty read), or fail after `limit`."""
    start = time.monotonic()
    s.settimeout(every)
    for line in lines:
        try:
            s.sendall(line)
            if s.recv(65536) == b"":
                return time.monotonic() - start
        except TimeoutError:
            pass
        except OSError:
            return time.monotonic() - start
        assert time.monotonic() - start < limit, "still open"
    raise AssertionError(f"still open after {time.monotonic() - start:.1f} s")


def reply(s: socket.socket) -> bytes:
    """The one-route app's answer on `s` ("got N bytes"), whatever the packets."""
    data = b""
    while b" bytes" not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def test_a_client_dribbling_its_headers_is_cut_off(small_limits):
    port = small_limits
    dribble = [b"GET / HTTP/1.1\r\n", b"Host: 127.0.0.1:%d\r\n" % port] + [
        b"X-Slow-%d: 1\r\n" % i for i in range(40)]
    with socket.create_connection(("127.0.0.1", port)) as s:
        took = closed_after(s, dribble, 0.2, 5)
    assert 0.5 <= took < 2.0, took
    # a whole request in time is answered, and on the same connection the next one too
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        for _ in range(2):
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
            assert b"got 0 bytes" in reply(s)
            time.sleep(0.4)  # pauses between requests are not a slow request


def test_a_client_dribbling_its_body_is_cut_off(small_limits):
    port = small_limits
    head = (b"POST / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 100\r\n\r\n" % port)
    with socket.create_connection(("127.0.0.1", port)) as s:
        took = closed_after(s, [head] + [b"x"] * 99, 0.2, 5)
    assert 0.5 <= took < 2.0, took
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(head + b"x" * 100)
        assert b"got 100 bytes" in reply(s)


def test_one_address_holds_a_bounded_number_of_connections(small_limits):
    port = small_limits
    held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(4)]
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as extra:
            start = time.monotonic()
            assert extra.recv(1) == b""  # closed at once, not after the head's time limit
            assert time.monotonic() - start < 0.5
        held.pop().close()
        time.sleep(0.1)
        with socket.create_connection(("127.0.0.1", port), timeout=5) as again:
            again.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
            assert b"got 0 bytes" in reply(again)
    finally:
        for s in held:
            s.close()


# ------------------------------------------------------------------ the pages under the CSP

def watched(page) -> list[str]:
    """The page's console errors and CSP violations, collected as they come."""
    seen: list[str] = []
    page.on("console", lambda m: seen.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: seen.append(str(e)))
    return seen


def test_the_table_page_works_under_its_csp_and_drops_the_token(env, table, browser):  # noqa: F811
    served = table("--lan")
    local = f"http://127.0.0.1:{served.port}/?token={served.url.split('token=')[1]}"
    page = browser.new_page()
    seen = watched(page)
    page.goto(local)
    page.wait_for_selector("#live.on")
    assert "token" not in page.url and page.url.endswith(f":{served.port}/")
    # the picture's style applies (from picture.css): a card back is filled, not black
    fill = page.eval_on_selector(".board svg .back", "e => getComputedStyle(e).fill")
    assert fill == "rgb(43, 58, 103)", fill
    assert referee(env, "play", "open a1=orange c3=blue").returncode == 0
    updated_to(page, 2)
    assert referee(env, "new", "tripple-domino", "--players", "ana,bob").returncode == 0
    page.wait_for_function("() => document.body.dataset.match === '2'", timeout=20_000)
    assert referee(env, "play", "start ana=5-5-5 bob=4-4-4").returncode == 0
    updated_to(page, 2)
    page.wait_for_function("""() => { const t = document.querySelector('.board svg .tile');
        return t && getComputedStyle(t).fill === 'rgb(251, 243, 220)'; }""", timeout=20_000)
    assert [s for s in seen if "Content Security Policy" in s or "Refused" in s] == []
    assert seen == []
    page.close()


def test_the_designer_page_works_under_its_csp_and_drops_the_token(browser, tmp_path):  # noqa: F811
    s = PnpServed(mini_game(tmp_path), "--lan", "-o", tmp_path / "mini.pdf", cwd=tmp_path)
    try:
        page = browser.new_page()
        seen = watched(page)
        page.goto(s.local)
        page.wait_for_function("() => window.pnpShown", timeout=90_000)
        page.wait_for_function("""() => { const img = document.querySelector('#page-1 img');
            return img && img.complete && img.naturalWidth > 0; }""", timeout=30_000)
        assert "token" not in page.url
        ratio = page.eval_on_selector(".sheet", "e => e.style.aspectRatio")
        assert ratio  # set through the CSSOM: the CSP refuses style attributes
        csv = tmp_path / "mini" / "cards.csv"
        csv.write_text(csv.read_text() + "Zephyr,#00aa00,1\n")
        page.wait_for_function("() => document.body.innerText.includes('Zephyr')", timeout=30_000)
        assert seen == []
        page.close()
    finally:
        s.stop()


def test_the_token_is_gone_from_the_history(table, browser):  # noqa: F811
    served = table("--lan")
    token = served.url.split("token=")[1]
    page = browser.new_page()
    page.goto(f"http://127.0.0.1:{served.port}/?token={token}")
    page.wait_for_selector("#live.on")
    page.reload()  # the reloaded page still has its cookie: the token is not needed again
    page.wait_for_selector("#live.on")
    assert token not in page.url and token not in page.evaluate("location.href")
    page.close()

