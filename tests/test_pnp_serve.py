"""`pnp serve`: the designer's live page, driven in a real browser (Debian's Chromium).

The server runs as a real `pnp serve` process on a small definition; the tests edit its files
as a designer would and wait on the page's own "pnp-updated" event, never on a sleep."""

from __future__ import annotations

import io
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat

from tests.browser import DESKTOP, PHONE
from tests.conftest import CARDS_CSV, GAME_TOML, mini_game
from tests.test_watch import Pnp, big_folder, inotify_watches  # noqa: F401 (a fixture)

REPO = Path(__file__).resolve().parents[1]
START = 90  # seconds for the server to build and listen on a loaded 2-core machine
UPDATE = 2.0  # seconds from a save to the new card on the page (the promise)


class Served(Pnp):
    """`pnp serve ARGS` in a subprocess; `url` is the address it printed."""

    def __init__(self, *args, cwd: Path):
        super().__init__("serve", "--no-open", *args, cwd=cwd, timeout=START, merged=True)
        self.url = self.search(r"the live page at (http://\S+)").group(1)
        self.port = int(re.search(r":(\d+)/", self.url).group(1))
        self.local = re.sub(r"//[^/:]+:", "//127.0.0.1:", self.url)  # with --lan: by loopback
        self.listening()

    def listening(self) -> None:
        """Wait until the port takes connections (the URL is printed as the server starts)."""
        deadline = time.monotonic() + START
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"nothing listens on port {self.port}: {self.seen}")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One server for the tests that only look (the edit tests start their own)."""
    folder = tmp_path_factory.mktemp("serve")
    s = Served(mini_game(folder), "-o", folder / "mini.pdf", cwd=folder)
    s.pdf = folder / "mini.pdf"
    yield s
    assert s.stop() == 0  # with pages still open: their event streams do not hold it up
    said = "\n".join(line for _, line in s.seen + list(s.lines.queue))
    assert said.rstrip().endswith("stopped serving") and "Traceback" not in said


@pytest.fixture
def editing(tmp_path):
    s = Served(mini_game(tmp_path), "-o", tmp_path / "mini.pdf", cwd=tmp_path)
    s.root = tmp_path / "mini"
    yield s
    s.stop()


def opened(browser, url: str, viewport=DESKTOP):  # noqa: F811
    page = browser.new_page(viewport=viewport)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url)
    page.wait_for_function("() => window.pnpShown", timeout=START * 1000)
    return page


def loaded(page, selector: str) -> None:
    page.wait_for_function(f"""() => {{
        const img = document.querySelector({selector!r});
        return img && img.complete && img.naturalWidth > 0; }}""", timeout=30000)


def pixel(page, selector: str, fx: float, fy: float) -> tuple[int, int, int]:
    """The colour the page shows at a fraction (fx, fy) of an image, read from its pixels."""
    return tuple(page.evaluate("""([sel, fx, fy]) => {
        const img = document.querySelector(sel);
        const c = document.createElement("canvas");
        c.width = img.naturalWidth; c.height = img.naturalHeight;
        const g = c.getContext("2d"); g.drawImage(img, 0, 0);
        return Array.from(g.getImageData(Math.floor(fx * c.width), Math.floor(fy * c.height),
                                         1, 1).data.slice(0, 3)); }""", [selector, fx, fy]))


def pdf_pages(pdf: Path, width: int) -> list[Image.Image]:
    doc = pdfium.PdfDocument(pdf.read_bytes())
    try:
        return [p.render(scale=width / p.get_width()).to_pil().convert("RGB") for p in doc]
    finally:
        doc.close()


def test_the_page_shows_every_page_of_the_pdf_as_it_prints(browser, served):  # noqa: F811
    page = opened(browser, served.url)
    link = page.locator("#pdf-link").get_attribute("href")
    assert page.request.get(served.url + link).body() == served.pdf.read_bytes()
    built = pdf_pages(served.pdf, 480)  # a width the server serves
    assert page.locator("figure.page").count() == len(built) == 2  # 3x3 fronts, then backs
    for index, want in enumerate(built):
        shown = page.locator(f"#page-{index + 1} img")
        shown.scroll_into_view_if_needed()
        loaded(page, f"#page-{index + 1} img")
        src = shown.get_attribute("src").split("?")[0]
        got = Image.open(io.BytesIO(page.request.get(f"{served.url}{src}?w=480").body()))
        assert got.size == want.size
        diff = ImageStat.Stat(ImageChops.difference(got.convert("RGB"), want)).mean
        assert max(diff) < 3, diff  # the same pixels, but for JPEG's rounding
    assert page.errors == []


def test_a_card_opens_alone_large_with_its_front_and_back(browser, served):  # noqa: F811
    page = opened(browser, served.url)
    assert page.locator("#card-list .card").count() == 6
    page.locator('#card-list .card[data-id="3"]').click()  # Beta, filled #00ff00
    assert page.locator("#zoom").is_visible()
    assert page.locator("#zoom-title").inner_text() == "#3 Beta"
    assert page.locator("#zoom .side").count() == 2
    for side in ("front", "back"):
        loaded(page, f'#zoom .side[data-side="{side}"] img')
    front = page.locator('#zoom .side[data-side="front"] img')
    assert front.evaluate("img => img.naturalWidth") >= 480
    assert front.bounding_box()["width"] > 300  # large on the screen, not a thumbnail
    assert pixel(page, '#zoom .side[data-side="front"] img', 0.1, 0.9) == (0, 255, 0)
    assert pixel(page, '#zoom .side[data-side="back"] img', 0.1, 0.9) == (0x12, 0x34, 0x56)
    page.locator('#zoom .side[data-side="front"]').click()  # click to zoom further
    page.wait_for_function("""() => document.querySelector('#zoom .side[data-side="front"] img')
        .naturalWidth >= 960""", timeout=30000)
    assert page.errors == []


def test_the_card_list_is_searchable_by_id_and_name(browser, served):  # noqa: F811
    page = opened(browser, served.url, PHONE)
    search = page.locator("#card-search")
    search.fill("gam")
    assert page.locator("#card-list .card:visible").count() == 3  # Gamma x3
    search.fill("2")
    assert [t.get_attribute("data-id") for t in page.locator("#card-list .card:visible").all()] == ["2"]
    search.fill("nothing like it")
    assert page.locator("#card-list .card:visible").count() == 0
    assert page.locator("#no-match").is_visible()


def test_overlays_for_trim_bleed_and_safe_area_toggle(browser, served):  # noqa: F811
    page = opened(browser, served.url)

    def shown(name: str) -> int:
        return page.evaluate(f"""() => [...document.querySelectorAll('#page-1 .ov-{name}')]
            .filter(p => getComputedStyle(p).display !== 'none').length""")

    assert shown("trim") == shown("safe") == 0  # off by default: the page as it prints
    page.check("#show-trim")
    page.check("#show-safe")
    assert shown("trim") == shown("safe") == 6  # one outline per card of page 1
    page.uncheck("#show-trim")
    assert shown("trim") == 0 and shown("safe") == 6


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_page_fits_the_screen_without_scrolling_sideways(browser, served, viewport):  # noqa: F811
    page = opened(browser, served.url, viewport)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.locator('#card-list .card[data-id="1"]').click()
    box = page.locator('#zoom .side[data-side="front"] .sheet').bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]


def next_update(page) -> None:
    """Listen for the page's next update event (read with `updated`)."""
    page.evaluate("""() => { window.nextUpdate = null;
        const build = window.pnpShown.build;
        document.addEventListener('pnp-updated', function seen(e) {
            if (e.detail.build > build) {
                window.nextUpdate = e.detail; document.removeEventListener('pnp-updated', seen); }
        }); }""")


def updated(page) -> dict:
    page.wait_for_function("() => window.nextUpdate", timeout=30000)
    return page.evaluate("window.nextUpdate")


def test_a_save_of_cards_csv_shows_the_new_card_within_2_s(browser, editing):  # noqa: F811
    page = opened(browser, editing.url)
    page.locator('#card-list .card[data-id="3"]').click()
    loaded(page, '#zoom .side[data-side="front"] img')
    next_update(page)
    saved = time.time() * 1000
    (editing.root / "cards.csv").write_text(CARDS_CSV.replace("Beta,#00ff00", "Delta,#0000ff"))
    shown = updated(page)
    assert shown["cardAt"] - saved < UPDATE * 1000, shown["cardAt"] - saved
    assert page.locator("#zoom-title").inner_text() == "#3 Delta"
    assert page.locator('#card-list .card[data-id="3"] .name').inner_text() == "#3 Delta"
    assert pixel(page, '#zoom .side[data-side="front"] img', 0.1, 0.9) == (0, 0, 255)
    assert page.errors == []


def test_a_broken_definition_shows_its_error_and_keeps_the_last_good_pages(browser,  # noqa: F811
                                                                           editing):
    page = opened(browser, editing.url)
    srcs = page.locator("#page-list img").evaluate_all("imgs => imgs.map(i => i.src)")
    toml = editing.root / "game.toml"
    toml.write_text(GAME_TOML.replace('size = "poker"', 'size = "pokr"'))
    page.wait_for_selector("#errors:not([hidden])", timeout=30000)
    errors = page.locator("#error-lines li").all_inner_texts()
    assert len(errors) == 1 and errors[0].startswith("error: ") and "pokr" in errors[0]
    assert page.locator("#page-list img").evaluate_all("imgs => imgs.map(i => i.src)") == srcs
    loaded(page, "#page-1 img")  # the last good page is still there, loaded
    next_update(page)
    toml.write_text(GAME_TOML)
    updated(page)
    assert page.locator("#errors").is_hidden()
    assert page.errors == []


def test_with_lan_a_request_without_the_token_is_refused(browser, tmp_path):  # noqa: F811
    s = Served(mini_game(tmp_path), "--lan", "-o", tmp_path / "mini.pdf", cwd=tmp_path)
    try:
        assert "?token=" in s.url
        s.search("Anyone on this network")  # printed after the QR code of the URL
        assert sum(any(c in line for c in "▀▄█") for _, line in s.seen) >= 10
        bare = s.local.split("?")[0]
        for path in ("", "state", "events", "build/1/game.pdf", "static/serve.js"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(bare + path, timeout=30)
            assert refused.value.code == 403
        assert browser.new_page().goto(bare).status == 403
        page = opened(browser, s.local)  # with the token: the page and all it loads
        loaded(page, "#page-1 img")
    finally:
        s.stop()


def test_a_name_that_is_no_game_is_one_line_and_nothing_starts(tmp_path):
    out = subprocess.run([sys.executable, "-m", "generator", "serve", "no-such-game",
                          "--no-open"], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1
    assert out.stderr.startswith("error: ")


def test_a_port_in_use_is_one_line_before_anything_starts(served, tmp_path):
    out = subprocess.run([sys.executable, "-m", "generator", "serve", "decktet", "--no-open",
                          "--port", str(served.port)], capture_output=True, text=True,
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.splitlines() == [out.stderr.strip()] and "(--port)" in out.stderr


def test_the_build_warnings_are_listed_each_linking_to_its_card(browser, tmp_path):  # noqa: F811
    from tests.test_card_text import ENDLESS, make_game

    game = make_game(tmp_path / "g", [{"name": "Fine", "rules": "Draw a card."},
                                      {"name": "Mana Leak", "rules": ENDLESS}])
    s = Served(game, "-o", tmp_path / "g.pdf", cwd=tmp_path)
    try:
        page = opened(browser, s.url)
        items = page.locator("#warning-lines li")
        assert items.count() == 1
        assert "card #2 (Mana Leak)" in items.inner_text() and "overflows" in items.inner_text()
        items.locator("a.card-link").click()
        assert page.locator("#zoom").is_visible()
        assert page.locator("#zoom-title").inner_text() == "#2 Mana Leak"
        assert "overflows" in page.locator("#zoom-warnings").inner_text()
    finally:
        s.stop()


def test_pnp_serve_does_not_follow_a_link_out_of_the_game(tmp_path, big_folder):  # noqa: F811
    """The live page watches as `pnp watch` does: the game folder's own folders only."""
    root = mini_game(tmp_path)
    (root / "everything").symlink_to(big_folder, target_is_directory=True)
    s = Served(root, "-o", tmp_path / "mini.pdf", cwd=tmp_path)
    try:
        deadline = time.monotonic() + START
        while not inotify_watches(s.proc.pid):  # the watcher starts after the first build
            assert time.monotonic() < deadline, "no watch registered"
            time.sleep(0.1)
        time.sleep(1)
        assert inotify_watches(s.proc.pid) <= 3
    finally:
        s.stop()
