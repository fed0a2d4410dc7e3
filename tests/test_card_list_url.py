"""Card lists from a URL (`file = "https://..."`), against a local HTTP server: read only when
allowed, kept with their ETag and asked again with If-None-Match, used offline with a warning
that says the copy's age, and held to the card-list size limit."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from click.testing import CliRunner

from generator.cli import main

CSV = b"name,qty\nAlpha,2\nBeta,1\n"
ETAG = '"v1"'


class Sheet(BaseHTTPRequestHandler):
    requests: list[tuple[str, str | None]] = []
    body = CSV

    def do_GET(self):  # noqa: N802 (http.server's name)
        Sheet.requests.append((self.path, self.headers.get("If-None-Match")))
        if self.headers.get("If-None-Match") == ETAG:
            self.send_response(304)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("ETag", ETAG)
        self.send_header("Content-Type", "text/csv")
        self.end_headers()
        self.wfile.write(Sheet.body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    Sheet.requests, Sheet.body = [], CSV
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Sheet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def game(tmp_path, server, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    url = f"http://127.0.0.1:{server.server_address[1]}/pub?output=csv"
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.toml").write_text(
        f'[deck]\nfile = "{url}"\n[verify]\ncount = 3\n'
        '[[face]]\ntype = "text"\ntext = "{name}"\nx = "50%"\ny = "20mm"\n')
    return folder


def build(game, *flags):
    return CliRunner().invoke(main, ["build", str(game), "-o", str(game / "out.pdf"), *flags])


def test_a_url_is_read_only_when_allowed(game):
    r = build(game)
    assert r.exit_code == 2
    assert "--allow-url" in r.output and "[deck].file" in r.output
    assert Sheet.requests == []  # not even asked
    r = build(game, "--allow-url")
    assert r.exit_code == 0, r.output
    assert "3 cards" in r.output
    text = (game / "game.toml").read_text()
    (game / "game.toml").write_text("[game]\nurls = true\n" + text)
    assert build(game).exit_code == 0  # the definition allows it itself


def test_the_copy_is_kept_with_its_etag_and_used_offline(game, server):
    assert build(game, "--allow-url").exit_code == 0
    first = (game / "out.pdf").read_bytes()
    r = build(game, "--allow-url")
    assert r.exit_code == 0, r.output
    assert Sheet.requests[-1][1] == ETAG  # asked with If-None-Match, answered 304
    assert (game / "out.pdf").read_bytes() == first
    server.shutdown()
    server.server_close()
    r = build(game, "--allow-url")
    assert r.exit_code == 0, r.output
    assert "warning: cannot reach http://127.0.0.1" in r.output
    assert "using the copy from 1 min ago" in r.output
    assert (game / "out.pdf").read_bytes() == first


def test_a_list_past_the_size_limit_is_refused(game, monkeypatch):
    from pnp_shared import limits

    monkeypatch.setattr(limits, "MAX_TABLE_BYTES", 10)
    r = build(game, "--allow-url")
    assert r.exit_code == 2
    assert "more than the limit of 10 bytes" in r.output.splitlines()[-1]
    assert "Traceback" not in r.output
