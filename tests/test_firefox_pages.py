"""The two live pages in a real headless Firefox (Debian's firefox-esr, over Marionette), on a
390-px phone and a 1920-px screen: `pnp serve` on a copy of a bundled game (every page, a
card's zoom, the overlays, the search and the zoom's keys, a save shown without reload, a
broken save's one-line error over the last good pages) and `referee serve` (players, totals
and board, following a move typed in another process); both pages catching up with a server
started again on its port, and two --lan servers' pages side by side in one browser. The
servers and matches are those of the Chromium tests (tests/test_pnp_serve.py,
tests/test_table_page.py); screenshots go to $FIREFOX_SHOTS when set, to be looked at."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pnp_shared.web import free_port
from tests import test_pnp_serve as pnp_serve
from tests.browser import DESKTOP, PHONE
from tests.test_table_page import env, referee, serve  # noqa: F401  (their fixtures)

REPO = Path(__file__).resolve().parents[1]
WIDTHS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("FIREFOX_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def fits_the_width(firefox) -> None:
    """Nothing on the page makes it scroll sideways (in the width left beside the scroll bar)."""
    wide = firefox.js("const d = document.documentElement; return [d.scrollWidth, d.clientWidth]")
    assert wide[0] <= wide[1], wide


def in_view(firefox, box: dict) -> bool:
    """A box is on the screen from side to side."""
    return box["left"] >= 0 and box["right"] <= firefox.js(
        "return document.documentElement.clientWidth")


# ---------------------------------------------------------------- pnp serve


def scratch_game(folder: Path) -> Path:
    root = folder / "emberfall"
    shutil.copytree(REPO / "templates" / "emberfall", root)
    return root


@pytest.fixture(scope="module")
def designer(tmp_path_factory):
    """`pnp serve` on a copy of the bundled Emberfall (art, text, 6 pages), which tests edit."""
    folder = tmp_path_factory.mktemp("firefox-serve")
    root = scratch_game(folder)
    served = pnp_serve.Served(root, "-o", folder / "emberfall.pdf", cwd=folder)
    served.root, served.pdf = root, folder / "emberfall.pdf"
    yield served
    assert served.stop() == 0


def server_state(designer) -> dict:
    with urllib.request.urlopen(designer.url + "state", timeout=30) as answer:
        return json.load(answer)


def as_shown(state: dict) -> dict | None:
    """The good build a state carries, but for its number."""
    return state["manifest"] and {k: v for k, v in state["manifest"].items() if k != "build"}


@contextmanager
def edited(designer, name: str, old: str, new: str):
    """The game's file `name` with `old` replaced by `new`, put back afterwards; the server's
    rebuild of the file as it was is awaited, so the next test finds it settled, even after a
    failure."""
    path = designer.root / name
    kept, before = path.read_text(), as_shown(server_state(designer))
    assert old in kept
    path.write_text(kept.replace(old, new))
    try:
        yield
    finally:
        path.write_text(kept)
        end = time.monotonic() + pnp_serve.START
        while (state := server_state(designer))["errors"] or as_shown(state) != before:
            assert time.monotonic() < end, f"{name} put back, but never rebuilt as it was"
            time.sleep(0.1)


def opened(firefox, designer, viewport: dict) -> None:
    """The page, showing the server's newest build (the first is made as the server starts)."""
    end = time.monotonic() + pnp_serve.START
    while not (state := server_state(designer))["manifest"]:
        assert time.monotonic() < end and not state["errors"], state
        time.sleep(0.1)
    build = state["manifest"]["build"]
    firefox.open(designer.url, viewport)
    firefox.wait("return window.pnpShown && window.pnpShown.build >= arguments[0]", build)


def image_loaded(firefox, selector: str) -> None:
    """Waited for as long as a loaded machine may take: the server draws a card's image when it
    is asked, behind the pages the page asked for first (CI once took over 30 s)."""
    firefox.wait("""const img = document.querySelector(arguments[0]);
        return img && img.complete && img.naturalWidth > 0""", selector, timeout=90)


def every_page_loaded(firefox) -> list[dict]:
    """Scroll to each page as a reader would (off-screen pages load lazily), wait for its image,
    and say how each is drawn."""
    count = firefox.js("return document.querySelectorAll('figure.page').length")
    for index in range(1, count + 1):
        firefox.js("document.getElementById(arguments[0]).scrollIntoView()", f"page-{index}")
        image_loaded(firefox, f"#page-{index} img")
    firefox.js("window.scrollTo(0, 0)")
    return firefox.js("""return [...document.querySelectorAll('figure.page img')].map(img => {
        const r = img.getBoundingClientRect();
        return {left: r.left, right: r.right, width: r.width, height: r.height}; })""")


@WIDTHS
def test_every_pdf_page_and_a_cards_zoom_show_in_firefox(firefox, designer, viewport,
                                                          tmp_path):
    opened(firefox, designer, viewport)
    doc = pdfium.PdfDocument(designer.pdf.read_bytes())
    sizes = [page.get_size() for page in doc]
    doc.close()
    drawn = every_page_loaded(firefox)
    assert len(drawn) == len(sizes) == 6
    for box, (w, h) in zip(drawn, sizes, strict=True):
        assert in_view(firefox, box), box
        assert box["width"] > 150 and abs(box["height"] / box["width"] - h / w) < 0.02, box
    fits_the_width(firefox)
    firefox.screenshot(shots(tmp_path) / f"pnp-serve-{viewport['width']}.png")

    firefox.click('#card-list .card[data-id="6"]')  # Cinder Drake
    assert firefox.js("return document.getElementById('zoom').open")
    assert firefox.js("return document.getElementById('zoom-title').textContent") == "#6 Cinder Drake"
    for side in ("front", "back"):
        image_loaded(firefox, f'#zoom .side[data-side="{side}"] img')
    front = firefox.js("""const r = document.querySelector('#zoom .side[data-side="front"] img')
        .getBoundingClientRect(); return {left: r.left, right: r.right, width: r.width}""")
    tile = firefox.js("""return document.querySelector('#card-list .card[data-id="6"] img')
        .getBoundingClientRect().width""")
    assert front["width"] > max(tile * 1.5, 250), (front, tile)  # large, not a thumbnail
    assert in_view(firefox, front), front
    fits_the_width(firefox)
    firefox.screenshot(shots(tmp_path) / f"pnp-serve-zoom-{viewport['width']}.png", full=False)
    firefox.click("#zoom-close")
    assert not firefox.js("return document.getElementById('zoom').open")


@WIDTHS
def test_the_overlays_toggle_in_firefox(firefox, designer, viewport):
    opened(firefox, designer, viewport)
    outlines = """return [...document.querySelectorAll('#page-1 .ov-' + arguments[0])]
        .filter(p => p.getBoundingClientRect().width > 0).length"""
    cards = firefox.js("return document.querySelectorAll('#page-1 .hit').length")
    assert cards == 9  # a 3x3 sheet
    assert firefox.js(outlines, "trim") == firefox.js(outlines, "safe") == 0  # as it prints
    firefox.click("#show-trim")
    firefox.click("#show-safe")
    assert firefox.js(outlines, "trim") == firefox.js(outlines, "safe") == cards
    firefox.click("#show-trim")
    firefox.click("#show-safe")
    assert firefox.js(outlines, "trim") == firefox.js(outlines, "safe") == 0


def test_a_card_is_found_stepped_through_and_closed_from_the_keyboard_in_firefox(firefox,
                                                                                 designer):
    opened(firefox, designer, PHONE)
    firefox.type("#card-search", "scout")
    shown = "return [...document.querySelectorAll('#card-list .card:not([hidden])')].length"
    assert firefox.js(shown) == 3  # Ember Scout x3
    firefox.press(*["BACK_SPACE"] * 5)
    assert firefox.js(shown) == 20
    firefox.click('#card-list .card[data-id="6"]')
    title = "return document.getElementById('zoom-title').textContent"
    firefox.press("ARROW_RIGHT")
    assert firefox.js(title) == "#7 Frost Sentinel"
    firefox.press("ARROW_LEFT", "ARROW_LEFT")
    assert firefox.js(title) == "#5 Ash Warden"
    assert firefox.js("return location.hash") == "#card-5"  # a link to the card shown
    firefox.press("ESCAPE")
    assert not firefox.js("return document.getElementById('zoom').open")
    firefox.open(designer.url + "#card-4", DESKTOP)  # the link opens the card
    firefox.wait("return document.getElementById('zoom').open")
    assert firefox.js(title) == "#4 Ash Warden"


def zoom_front_pixels(firefox) -> str:
    """The zoomed front as the browser decoded it (a data URL of its pixels)."""
    return firefox.js("""const img = document.querySelector('#zoom .side[data-side="front"] img');
        const c = document.createElement('canvas');
        c.width = img.naturalWidth; c.height = img.naturalHeight;
        c.getContext('2d').drawImage(img, 0, 0); return c.toDataURL()""")


@WIDTHS
def test_a_save_of_cards_csv_shows_in_firefox_without_reload(firefox, designer, viewport):
    opened(firefox, designer, viewport)
    firefox.click('#card-list .card[data-id="1"]')
    image_loaded(firefox, '#zoom .side[data-side="front"] img')
    before = zoom_front_pixels(firefox)
    build = firefox.js("window.sameVisit = true; return window.pnpShown.build")
    with edited(designer, "cards.csv", "Ember Scout", "Spark Scout"):
        firefox.wait("return window.pnpShown.build !== arguments[0]", build)  # images in place
        assert firefox.js("return document.getElementById('zoom-title').textContent"
                          ) == "#1 Spark Scout"
        assert firefox.js("""return document.querySelector(
            '#card-list .card[data-id="1"] .name').textContent""") == "#1 Spark Scout"
        firefox.wait("""const img = document.querySelector('#zoom .side[data-side="front"] img');
            return img.complete && img.src.includes('/build/' + window.pnpShown.build + '/')""")
        assert zoom_front_pixels(firefox) != before  # the card is drawn with its new name
        assert firefox.js("return window.sameVisit")  # no reload: the event stream brought it
    firefox.wait("""return document.querySelector('#card-list .card[data-id="1"] .name')
        .textContent === '#1 Ember Scout'""")


@WIDTHS
def test_a_broken_save_shows_one_line_over_the_last_good_pages_in_firefox(firefox, designer,
                                                                         viewport, tmp_path):
    opened(firefox, designer, viewport)
    every_page_loaded(firefox)
    pages = "return [...document.querySelectorAll('#page-list img')].map(i => i.src)"
    good = firefox.js(pages)
    with edited(designer, "game.toml", 'size = "poker"', 'size = "pokr"'):
        firefox.wait("return !document.getElementById('errors').hidden")
        errors = firefox.js("""return [...document.querySelectorAll('#error-lines li')]
            .map(li => li.textContent)""")
        assert len(errors) == 1 and errors[0].startswith("error: ") and "pokr" in errors[0]
        shown = firefox.js("return document.getElementById('errors').getBoundingClientRect()")
        assert shown["width"] > 0 and in_view(firefox, shown), shown
        assert firefox.js(pages) == good
        image_loaded(firefox, "#page-1 img")  # the last good page, still shown
        fits_the_width(firefox)
        firefox.screenshot(shots(tmp_path) / f"pnp-serve-error-{viewport['width']}.png")
    firefox.wait("return document.getElementById('errors').hidden")


def test_the_designer_page_follows_a_restarted_server_in_firefox(firefox, tmp_path):
    """`pnp serve` stopped, the game edited meanwhile, and the server started again on its
    port: the open page says the server is gone, then shows the new build by itself."""
    root = scratch_game(tmp_path)
    again = (root, "-o", tmp_path / "emberfall.pdf", "--port", free_port())
    served = pnp_serve.Served(*again, cwd=tmp_path)
    try:
        firefox.open(served.url, DESKTOP)
        firefox.wait("window.sameVisit = true; return window.pnpShown")
    finally:
        assert served.stop() == 0
    offline = "return document.getElementById('status').classList.contains('offline')"
    firefox.wait(offline)
    cards = root / "cards.csv"
    cards.write_text(cards.read_text().replace("Ember Scout", "Spark Scout"))
    served = pnp_serve.Served(*again, cwd=tmp_path)
    try:
        firefox.wait("""return document.querySelector('#card-list .card[data-id="1"] .name')
            .textContent === '#1 Spark Scout'""")
        assert not firefox.js(offline) and firefox.js("return window.sameVisit")
    finally:
        served.stop()


def test_two_lan_servers_keep_their_pages_in_one_firefox(firefox, env, serve, tmp_path):  # noqa: F811
    """`pnp serve --lan` and `referee serve --lan` on one machine, their pages in two tabs of
    one browser: the designer's page still loads its new pages after the table page opened
    (a browser keeps one cookie of a name per host, whatever the port)."""
    root = scratch_game(tmp_path)
    designer = pnp_serve.Served(root, "--lan", "-o", tmp_path / "emberfall.pdf", cwd=tmp_path)
    try:
        firefox.open(designer.local, DESKTOP)
        build = firefox.wait("return window.pnpShown")["build"]
        assert referee(env, "new", "duplicon", "--players", "ana,bob").returncode == 0
        table = serve("--lan")
        with firefox.other_tab():
            firefox.open(re.sub(r"//[^/:]+:", "//127.0.0.1:", table.url), DESKTOP)
            firefox.wait("return document.querySelector('#live.on')")
        cards = root / "cards.csv"
        cards.write_text(cards.read_text().replace("Ember Scout", "Spark Scout"))
        firefox.wait("return window.pnpShown.build !== arguments[0]", build)
        image_loaded(firefox, "#page-1 img")
        assert firefox.js("return document.querySelector('#page-1 img').src").split("/")[4] \
            == str(firefox.js("return window.pnpShown.build"))  # the new page, not the old
    finally:
        designer.stop()


# ---------------------------------------------------------------- referee serve


@WIDTHS
def test_the_table_follows_a_move_typed_in_another_process_in_firefox(firefox, env, serve,  # noqa: F811
                                                                      viewport, tmp_path):
    assert referee(env, "new", "tripple-domino", "--players", "ana,bob").returncode == 0
    assert referee(env, "play", "start ana=5-5-5 bob=4-4-4").returncode == 0
    firefox.open(serve().url, viewport)
    firefox.wait("return document.querySelector('#live.on')")
    firefox.js("window.sameVisit = true")

    def table() -> dict:
        return firefox.js("""const texts = s => [...document.querySelectorAll(s)]
                .map(e => e.textContent.trim());
            const svg = document.querySelector('.board svg').getBoundingClientRect();
            return {turn: texts('.turn')[0], names: texts('.player .name'),
                    totals: texts('.player .total'), placed: texts('.board svg g.placed').length,
                    board: {left: svg.left, right: svg.right, width: svg.width,
                            height: svg.height},
                    corners: [...document.querySelectorAll('.board svg text.corner')]
                        .map(t => t.getBoundingClientRect().height)}""")

    shown = table()
    assert shown["turn"] == "bob to play" and shown["placed"] == 1
    assert shown["names"] == ["ana", "▶ bob"]
    board = shown["board"]
    assert in_view(firefox, board) and board["height"] > 100, board
    assert min(shown["corners"]) >= (9 if viewport == PHONE else 14), shown["corners"]
    fits_the_width(firefox)

    assert referee(env, "play", "4-5-5 D-1,0").returncode == 0
    firefox.wait("return document.body.dataset.event === '3'", timeout=20)
    shown = table()
    assert shown["turn"] == "ana to play" and shown["placed"] == 2
    assert shown["totals"] == ["20", "14"]
    assert "4-5-5 D-1,0" in firefox.js("return document.querySelector('.verdict').textContent")
    assert firefox.js("return window.sameVisit")  # no reload: the event stream brought it
    fits_the_width(firefox)
    firefox.screenshot(shots(tmp_path) / f"table-{viewport['width']}.png")


def test_the_table_follows_a_restarted_server_in_firefox(firefox, env, serve):  # noqa: F811
    """`referee serve` stopped, a move typed meanwhile, the server started again on its port:
    the open page says it is reconnecting, then shows the move by itself."""
    assert referee(env, "new", "tripple-domino", "--players", "ana,bob").returncode == 0
    assert referee(env, "play", "start ana=5-5-5 bob=4-4-4").returncode == 0
    port = str(free_port())
    served = serve("--port", port)
    firefox.open(served.url, PHONE)
    firefox.wait("window.sameVisit = true; return document.querySelector('#live.on')")
    served.stop()
    firefox.wait("return document.getElementById('live').textContent === 'reconnecting…'")
    assert referee(env, "play", "4-5-5 D-1,0").returncode == 0
    serve("--port", port)
    firefox.wait("return document.body.dataset.event === '3'")
    assert firefox.js("return document.querySelector('.turn').textContent") == "ana to play"
    assert firefox.js("return document.querySelector('#live.on') && window.sameVisit")
