"""`referee serve`, the table page, in a real browser: it follows a move typed in another
process, carries no secret of a Coda match in its HTML, JSON or stream, refuses a LAN request
without the token, and draws a 30-tile Tripple Domino board and a Dobble Connect grid legibly
on a phone (screenshots kept in $TABLE_SHOTS when set, to look at)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests import table_matches
from tests.browser import DESKTOP, OVERLAPS, PHONE

REFEREE = [sys.executable, "-m", "referee.cli"]


def referee(env: dict, *args: str, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*REFEREE, *args], env=env, capture_output=True, text=True,
                          input=input, timeout=120)


class Served:
    """A `referee serve` running in its own process, and the URL it printed."""

    def __init__(self, env: dict, *args: str, cwd=None):
        self.process = subprocess.Popen([*REFEREE, "serve", "--no-open", *args], env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        cwd=cwd)
        line = self.process.stdout.readline()
        found = re.search(r"(http://\S+)", line)
        assert found, (line, self.process.stderr.read() if self.process.poll() is not None
                       else "")
        self.url = found.group(1)
        self.base = self.url.split("?")[0].rstrip("/")

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.base + path, timeout=30) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def stream(self, seconds: float) -> str:
        """What the event stream sends in its first `seconds`."""
        out = b""
        try:
            with urllib.request.urlopen(self.base + "/events", timeout=seconds) as r:
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    chunk = r.read1(65536)
                    if not chunk:
                        break
                    out += chunk
                    if b"\n\n" in out:
                        break
        except TimeoutError:
            pass
        return out.decode()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def env(tmp_path):
    return {**os.environ, "REFEREE_DB": str(tmp_path / "m.sqlite3"),
            "REFEREE_CACHE": str(tmp_path / "cache")}


@pytest.fixture
def serve(env):
    running = []

    def start(*args: str, cwd=None) -> Served:
        running.append(Served(env, *args, cwd=cwd))
        return running[-1]

    yield start
    for s in running:
        s.stop()


def updated_to(page, event: int, timeout: float = 20_000) -> None:
    """Wait for the page's own update event to bring event `event` (not a sleep)."""
    page.wait_for_function(f"() => document.body.dataset.event === '{event}'", timeout=timeout)


def test_the_page_follows_a_move_typed_in_another_process(env, serve, browser):  # noqa: F811
    assert referee(env, "new", "tripple-domino", "--players", "ana,bob").returncode == 0
    assert referee(env, "play", "start ana=5-5-5 bob=4-4-4").returncode == 0
    served = serve()
    page = browser.new_page(viewport=PHONE)
    page.goto(served.url)
    page.wait_for_selector("#live.on")
    assert page.inner_text(".turn") == "bob to play"
    assert page.locator(".board svg g.placed").count() == 1
    assert referee(env, "play", "4-5-5 D-1,0").returncode == 0
    updated_to(page, 3)
    assert page.inner_text(".turn") == "ana to play"
    assert page.locator(".board svg g.placed").count() == 2
    assert "4-5-5 D-1,0" in page.inner_text(".verdict")
    totals = page.locator(".player .total").all_inner_texts()
    assert totals == ["20", "14"]
    # a rejected move: the ruling names the rule and the reason
    assert referee(env, "play", "3-5-5 D9,0").returncode == 1
    updated_to(page, 4)
    verdict = page.inner_text(".verdict")
    assert "rejected" in verdict and "D2" in verdict and "shares no edge" in verdict
    # a correction: one total each, saying what was adjusted
    assert referee(env, "adjust", "bob", "+5", "--reason", "table ruling").returncode == 0
    updated_to(page, 5)
    totals = [" ".join(t.split()) for t in page.locator(".player .total").all_inner_texts()]
    assert totals == ["20", "19 (14 + 5 adjusted)"]  # the breakdown under the total
    page.close()


def test_the_page_follows_the_current_match_unless_given_one(env, serve, browser):  # noqa: F811
    served = serve()  # no match yet: the page says so and waits for one
    page = browser.new_page(viewport=PHONE)
    page.goto(served.url)
    page.wait_for_selector("#live.on")
    assert "No match to show" in page.inner_text("main")
    assert referee(env, "new", "duplicon", "--players", "ana,bob").returncode == 0
    page.wait_for_function("() => document.body.dataset.match === '1'", timeout=20_000)
    assert page.inner_text("h1").startswith("Duplicon")
    pinned_to_first = serve("--match", "1")
    pinned = browser.new_page(viewport=PHONE)
    pinned.goto(pinned_to_first.url)
    pinned.wait_for_selector("#live.on")
    assert referee(env, "new", "coda", "--players", "ana,bob").returncode == 0
    page.wait_for_function("() => document.body.dataset.match === '2'", timeout=20_000)
    assert page.inner_text("h1").startswith("Coda")
    assert referee(env, "play", "--match", "1", "open a1=orange c3=blue").returncode == 0
    updated_to(pinned, 2)
    assert pinned.inner_text("h1").startswith("Duplicon")
    page.close()
    pinned.close()


def test_no_secret_of_a_sealed_coda_match_leaves_the_server(env, serve, browser):  # noqa: F811
    """The referee stores only salted hashes of hidden tiles; the page, its JSON, its stream
    and its picture show no hidden tile, no seal and no passphrase, even one typed in the open
    and rejected."""
    db = Path(env["REFEREE_DB"])
    table_matches.sealed_coda(db)
    assert referee(env, "play", f"unseal ana {table_matches.CODA_PASSPHRASES['ana']}"
                   ).returncode == 1
    assert referee(env, "play", "seal ana " + table_matches.CODA_HIDDEN["ana"] + " "
                   + table_matches.CODA_PASSPHRASES["ana"]).returncode == 2
    seals = set(re.findall(r"[0-9a-f]{32}:[0-9a-f]{32}", referee(env, "log", "--json").stdout))
    assert len(seals) == 8
    served = serve()
    page = browser.new_page(viewport=DESKTOP)
    page.goto(served.url)
    page.wait_for_selector("#live.on")
    html = page.content()
    status, json_text = served.get("/table.json")
    assert status == 200
    stream = served.stream(5)
    assert stream.startswith("data: ")
    _, picture = served.get("/picture.svg")
    words = {*table_matches.CODA_PASSPHRASES.values(), *seals}
    for who, hidden in table_matches.CODA_HIDDEN.items():  # black 1 white 7 ... as tiles
        row = {"ana": "bwbw", "ben": "wbwb"}[who]
        for colour, value in zip(row, hidden.split(), strict=True):
            words |= {f"{'black' if colour == 'b' else 'white'} {value}", f"{colour}{value}"}
    for text in (html, json_text, stream, picture):
        assert not [w for w in words if re.search(rf"\b{re.escape(w)}\b", text)]
    # every tile in the picture is a back: no number drawn on any of them
    tiles = page.locator(".board svg g.tile")
    assert tiles.count() == 9 and page.locator(".board svg g.tile.hidden").count() == 9
    assert page.locator(".board svg g.tile text").all_text_contents() == [str(i) for i in
                                                                          (1, 2, 3, 4) * 2]
    # at the end the seals are opened (`unseal ben PHRASE`, kept as the round's key): the page
    # says what was done without the passphrase
    table_matches.finish_coda(db)
    updated_to(page, json.loads(referee(env, "show", "--json").stdout)["event"])
    assert "unseal ben [passphrase withheld]" in page.inner_text(".verdict")
    assert page.locator(".board svg g.tile.revealed").count() == 10
    phrases = list(table_matches.CODA_PASSPHRASES.values())
    for text in (page.content(), served.get("/table.json")[1], served.stream(5),
                 referee(env, "log").stdout):
        assert not [w for w in phrases if w in text]
    page.close()


def test_a_lan_page_without_its_token_is_refused(env, serve, browser):  # noqa: F811
    assert referee(env, "new", "duplicon", "--players", "ana,bob").returncode == 0
    served = serve("--lan")
    assert "token=" in served.url
    port = served.base.rsplit(":", 1)[1]
    local = f"http://127.0.0.1:{port}"
    page = browser.new_page()
    refused = page.goto(local + "/")
    assert refused.status == 403 and "token" in page.inner_text("body")
    for path in ("/table.json", "/events", "/picture.svg"):
        assert page.goto(local + path).status == 403
    token = served.url.split("token=")[1]
    page.goto(f"{local}/?token={token}")
    page.wait_for_selector("#live.on")  # the stream works through the cookie the page got
    assert page.locator(".board svg g.unseen-card").count() == 9
    page.close()


@pytest.mark.parametrize("board", ["tripple_domino_30", "dobble_connect_grid"])
def test_the_boards_are_legible_on_a_phone(env, serve, browser, board, tmp_path):  # noqa: F811
    """At 390 px the numbers on the tiles and the card ids stay at least 9 px tall, no text is
    drawn over another, and the whole board is in view; screenshots at 390 and 1920 px go to
    $TABLE_SHOTS to be looked at."""
    from referee import session
    from referee.record.store import Store

    getattr(table_matches, board)(Path(env["REFEREE_DB"]))
    state = session.load(Store(env["REFEREE_DB"])).state
    # a label per vertex of the tiles, or per card on the table
    labels = len(state.numbers) if board.startswith("tripple") else len(state.board)
    served = serve()
    shots = Path(os.environ.get("TABLE_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    for name, viewport in (("phone", PHONE), ("tv", DESKTOP)):
        page = browser.new_page(viewport=viewport)
        page.goto(served.url)
        page.wait_for_selector("#live.on")
        label = ".corner" if board.startswith("tripple") else ".card-id"
        heights = page.eval_on_selector_all(f".board svg text{label}",
                                            "els => els.map(e => e.getBoundingClientRect().height)")
        assert len(heights) == labels > 20
        assert min(heights) >= (9 if name == "phone" else 14), (name, min(heights))
        # the page's own styles left the picture's sizes alone: `.note` (.85em) drew the
        # card ids at 17 px, over the cell names above them
        assert page.evaluate(OVERLAPS, ".board svg text") == [], name
        assert page.eval_on_selector_all(".board svg text", """els => els.filter(
            e => parseFloat(getComputedStyle(e).fontSize) !== parseFloat(e.getAttribute(
            'font-size'))).map(e => e.textContent)""") == [], name
        box = page.locator(".board svg").bounding_box()
        assert box["width"] <= viewport["width"]
        page.screenshot(path=str(shots / f"{board}-{name}.png"), full_page=True)
        page.close()


def test_ctrl_c_stops_the_server_at_once_with_pages_open(env, serve, browser):  # noqa: F811
    """An open page holds its event stream (and would reconnect): Ctrl-C still ends the
    server within seconds, quietly."""
    import signal

    assert referee(env, "new", "duplicon", "--players", "ana,bob").returncode == 0
    served = serve()
    page = browser.new_page()
    page.goto(served.url)
    page.wait_for_selector("#live.on")
    served.process.send_signal(signal.SIGINT)
    served.process.wait(5)
    assert served.process.returncode == 0
    assert served.process.stderr.read() == ""
    page.close()


def test_a_move_is_noticed_wherever_the_database_lies(tmp_path):
    """The server's reader watches the database it reads, even in a folder whose name is no
    plain URI ('#' would cut the path short, and then no move would ever be noticed)."""
    from referee.table_page.reader import Reader

    folder = tmp_path / "our games #1 ?"
    folder.mkdir()
    env = {**os.environ, "REFEREE_DB": str(folder / "m.sqlite3"),
           "REFEREE_CACHE": str(tmp_path / "cache")}
    assert referee(env, "new", "duplicon", "--players", "ana,bob").returncode == 0
    reader = Reader(folder / "m.sqlite3", None)
    try:
        assert reader.poll() and reader.view["event"] == 1
        assert not reader.poll()  # nothing new: nothing read again
        assert referee(env, "play", "open a1=orange c3=blue").returncode == 0
        assert reader.poll() and reader.view["event"] == 2
    finally:
        reader.close()


def test_a_scratch_match_is_labelled_and_the_page_goes_back_to_the_real_one(env, serve, browser,  # noqa: F811
                                                                            tmp_path):
    """`referee new … --position` to settle a dispute becomes the current match: the page says
    it is scratch and not counted, and links back to the real match, which it then follows."""
    assert referee(env, "new", "tripple-domino", "--players", "ana,bob").returncode == 0
    assert referee(env, "play", "start ana=5-5-5 bob=4-4-4").returncode == 0
    served = serve()
    page = browser.new_page(viewport=PHONE)
    page.goto(served.url)
    page.wait_for_selector("#live.on")
    assert page.locator(".scratch").count() == 0
    position = tmp_path / "dispute.txt"
    position.write_text(referee(env, "position").stdout)
    assert referee(env, "new", "tripple-domino", "--players", "ana,bob", "--position",
                   str(position)).returncode == 0
    page.wait_for_function("() => document.body.dataset.match === '2'", timeout=20_000)
    label = page.inner_text(".scratch")
    assert "scratch: settling a dispute — not counted" in label and "back to match 1" in label
    page.click(".scratch a.back")
    page.wait_for_selector("#live.on")
    assert page.evaluate("document.body.dataset.match") == "1"
    assert page.locator(".scratch").count() == 0
    assert "follow the current match" in page.inner_text(".pinned")
    assert referee(env, "play", "--match", "1", "4-5-5 D-1,0").returncode == 0
    updated_to(page, 3)  # the real match's next move, though the scratch one is current
    assert "4-5-5 D-1,0" in page.inner_text(".verdict")
    page.click(".pinned a.follow")
    page.wait_for_selector("#live.on")
    assert page.evaluate("document.body.dataset.match") == "2"
    page.close()


def test_the_last_ruling_after_an_adjustment_is_the_adjustment(env, serve, browser):  # noqa: F811
    assert referee(env, "new", "tripple-domino", "--players", "ana,bob").returncode == 0
    assert referee(env, "play", "start ana=5-5-5 bob=4-4-4").returncode == 0
    assert referee(env, "play", "3-5-5 D9,0").returncode == 1
    served = serve()
    page = browser.new_page(viewport=PHONE)
    page.goto(served.url)
    page.wait_for_selector("#live.on")
    assert "rejected" in page.inner_text(".verdict")
    assert referee(env, "adjust", "bob", "+5", "--reason", "knocked the table").returncode == 0
    updated_to(page, 4)
    verdict = " ".join(page.inner_text(".verdict").split())
    assert "rejected" not in verdict and "3-5-5" not in verdict
    assert "adjusted bob +5" in verdict and "knocked the table" in verdict
    page.close()


def test_a_pending_draw_is_shown_with_a_free_cell_to_place_it(env, serve, browser):  # noqa: F811
    """After `draw` the page says the drawn tile waits, and its example cell is a free one
    (it named U0,1 even where a tile lay)."""
    assert referee(env, "new", "tripple-domino", "--players", "ana,bob").returncode == 0
    for move in ("start ana=5-5-5 bob=4-4-4", "4-5-5 D-1,0", "3-5-5 D0,0",
                 "draw 4-4-5 U-1,1", "3-4-5 U1,0", "2-5-5 D0,-1", "3-3-5 U0,1"):
        assert referee(env, "play", move).returncode == 0, move
    drew = referee(env, "play", "draw")
    assert drew.returncode == 0
    served = serve()
    page = browser.new_page(viewport=PHONE)
    page.goto(served.url)
    page.wait_for_selector("#live.on")
    pending = page.inner_text(".pending")
    assert pending.startswith("bob drew 1: place the drawn tile")
    cell = re.search(r"`3-4-5 (\S+)`", pending).group(1)
    assert cell in drew.stdout  # the same hint as the terminal's
    placed = page.eval_on_selector_all(".board svg g.placed", "gs => gs.map(g => g.dataset.cell)")
    assert "U0,1" in placed and cell not in placed
    assert page.locator(f'.board svg g.free-cell[data-cell="{cell}"]').count() == 1
    assert referee(env, "play", "draw 3-4-4 D-2,1").returncode == 0
    page.wait_for_function("() => !document.querySelector('.pending')", timeout=20_000)
    page.close()


def test_a_seat_link_on_a_server_without_seats_says_so(env, serve, browser,  # noqa: F811
                                                       tmp_path):
    """A seat link opened where `referee serve` runs without --seats shows the table with a
    one-line note why there is no move box (it was silently read-only)."""
    assert referee(env, "new", "duplicon", "--players", "ana,bob").returncode == 0
    served = serve()
    page = browser.new_page(viewport=PHONE)
    page.goto(served.base + "/?seat=Zx9-a-seat-token")
    page.wait_for_selector("#live.on")
    note = page.inner_text("#seat-note")
    assert "without --seats" in note and "\n" not in note.strip()
    assert page.locator("#seat-move").count() == 0
    assert "Zx9-a-seat-token" not in page.content()  # the token is not written into the page
    shots = Path(os.environ.get("TABLE_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "seat-link-without-seats.png"), full_page=True)
    page.goto(served.base + "/")
    page.wait_for_selector("#live.on")
    assert page.locator("#seat-note").count() == 0
    page.close()


@pytest.mark.parametrize("game", ["duplicon", "coda"])
def test_a_long_name_is_drawn_over_nothing(env, serve, browser, game, tmp_path):  # noqa: F811
    """A player's long name in the picture is cut (all of it in its tooltip) where it ran
    over the play zone or the row beside it."""
    long = "Bartholomew-Maximilian-Featherstonehaugh"
    assert referee(env, "new", game, "--players", f"ana,{long}").returncode == 0
    served = serve()
    page = browser.new_page(viewport=PHONE)
    page.goto(served.url)
    page.wait_for_selector("#live.on")
    assert page.evaluate(OVERLAPS, ".board svg text") == []
    assert page.locator(".board svg text title").all_text_contents() == [long]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.close()
