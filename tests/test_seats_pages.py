"""`referee serve --seats` in real browsers, Chromium and Firefox: two players, each on their
own phone (two browser contexts at 390 px, each opened with its seat's link), play Tripple
Domino by tapping the free cells; a wrong move shows its rule on that phone, a move out of turn
is refused, and the other phone follows every move; a score-sheet round from three seats, and
undo with the others' consent. Screenshots kept in $TABLE_SHOTS when set, to look at (Firefox's
named with a `firefox-` prefix)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser import DESKTOP, OVERLAPS, PHONE
from tests.firefox_contexts import FirefoxBrowser
from tests.test_seats_api import Seated, domino, log, seated  # noqa: F401  (fixtures)
from tests.test_table_page import env, serve, updated_to  # noqa: F401  (fixtures)


@pytest.fixture(scope="module", params=["chromium", "firefox"])
def phones(request):
    """The browser a scenario runs in, one per module: Playwright's Chromium, or Firefox
    answering the same calls (tests/firefox_contexts.py)."""
    if request.param == "chromium":
        return request.getfixturevalue("browser")
    return FirefoxBrowser(request.getfixturevalue("firefox"))


def shot(page, name: str, tmp_path: Path) -> None:
    folder = Path(os.environ.get("TABLE_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    prefix = "firefox-" if hasattr(page, "firefox") else ""
    page.screenshot(path=str(folder / f"{prefix}{name}.png"), full_page=True)


class _verdict:
    """`with _verdict(page) as got:` an action on the page; then `got()` is the seat's answer
    (its "seat-verdict" event), waited for without a sleep."""

    def __init__(self, page):
        self.page = page

    def __enter__(self):
        self.page.evaluate("""() => { window.__verdict = null;
            document.addEventListener('seat-verdict', (e) => { window.__verdict = e.detail; },
                                      { once: true }); }""")
        return lambda: self.page.wait_for_function("() => window.__verdict").json_value()

    def __exit__(self, *exc):
        return False


def open_seat(browser, served: Seated, player: str, viewport=PHONE):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{served.base}/?seat={served.tokens[player]}")
    page.wait_for_selector("#live.on")
    page.wait_for_selector("#seat[data-event]")
    return context, page


def tap_a_free_cell(page) -> dict:
    """Tap the first free cell where a tile fits, then the first tile and turn offered."""
    for cell in page.locator(".board [data-cell]").all():
        cell.click()
        choices = page.locator("#seat-pick .choice")
        if choices.count():
            with _verdict(page) as got:
                choices.first.click()
            return got()
    raise AssertionError("no free cell offered a move")


def test_two_phones_play_by_tapping(domino, seated, phones, tmp_path):  # noqa: F811
    browser = phones
    served = seated()
    ana_context, ana = open_seat(browser, served, "ana")
    bob_context, bob = open_seat(browser, served, "bob")
    pages = {"ana": ana, "bob": bob}
    assert ana.inner_text(".seat-who").startswith("Your seat: ana")
    assert "your turn" in bob.inner_text("#seat-turn")
    assert "bob to play" in ana.inner_text("#seat-turn")
    # a move out of turn: ana types while it is bob's turn; refused with the rule, kept
    ana.fill("#seat-move", "3-5-5 D0,0")
    with _verdict(ana) as got:
        ana.click("#seat-play")
    out = got()
    assert not out["data"]["legal"] and "turn" in ana.inner_text("#seat-verdict")
    assert "bob's turn" in ana.inner_text("#seat-verdict")
    event = out["data"].get("event") or len(log(domino))
    updated_to(bob, event)
    # ten moves by tapping, each followed by the other phone
    to_move = "bob"
    for n in range(10):
        page, other = pages[to_move], pages["ana" if to_move == "bob" else "bob"]
        answer = tap_a_free_cell(page)["data"]
        assert answer["legal"] and answer["player"] == to_move, answer
        updated_to(other, answer["event"])
        assert answer["move"].split(" as ")[0] in other.inner_text(".verdict")
        if n == 0:
            shot(page, "seat-phone-after-first-tap", tmp_path)
        to_move = answer["to_move"]
    # a wrong move typed in shows its rule and reason on that phone
    page = pages[to_move]
    page.fill("#seat-move", "0-0-0 D9,9")
    with _verdict(page) as got:
        page.click("#seat-play")
    wrong = got()["data"]
    assert not wrong["legal"]
    shown = page.inner_text("#seat-verdict")
    assert wrong["violations"][0]["rule"] in shown and wrong["violations"][0]["reason"] in shown
    shot(page, "seat-phone-rejected", tmp_path)
    moves = [e for e in log(domino) if e["kind"] == "move"]
    assert len(moves) == 11 and {m["player"] for m in moves[1:]} == {"ana", "bob"}
    big = browser.new_context(viewport=DESKTOP)
    tv = big.new_page()
    tv.goto(f"{served.base}/?seat={served.tokens['ana']}")
    tv.wait_for_selector("#live.on")
    shot(tv, "seat-desktop", tmp_path)
    for c in (ana_context, bob_context, big):
        c.close()


def test_every_page_shows_the_clock_and_warns_past_the_turn_limit(domino, seated,  # noqa: F811
                                                                  browser):
    served = seated("--turn", "2s")
    context, bob = open_seat(browser, served, "bob")
    plain = browser.new_page(viewport=PHONE)  # a page without a seat: the TV
    plain.goto(served.base + "/")
    for page in (bob, plain):
        page.wait_for_function("() => !document.getElementById('clock-warning').hidden",
                               timeout=15_000)
        assert "bob is over the 0:02 turn limit" in page.inner_text("#clock-warning")
        assert page.locator(".player .clock.running").inner_text() != "0:00"
    plain.close()
    context.close()


def test_a_score_sheet_round_from_three_seats_and_undo_with_consent(env, seated,  # noqa: F811
                                                                    phones, tmp_path):
    from tests.test_table_page import referee

    browser = phones
    assert referee(env, "new", "scorepad", "--players", "ana,bob,cy", "--option",
                   "categories=coins,military").returncode == 0
    served = seated()
    pages = {p: open_seat(browser, served, p) for p in ("ana", "bob", "cy")}
    for n, (_, page) in enumerate(pages.values()):
        page.wait_for_selector("#seat-sheet input[name=coins]")
        page.fill("#seat-sheet input[name=coins]", str(3 + n))
        page.fill("#seat-sheet input[name=military]", str(-n))
        with _verdict(page) as got:
            page.click("#seat-sheet button[type=submit]")
        got()
        page.wait_for_function("() => document.querySelector('#seat-sheet input[name=military]')"
                               ".value === ''")
    _, cy = pages["cy"]
    shot(cy, "seat-score-sheet", tmp_path)
    with _verdict(cy) as got:
        cy.click("#seat-quick button[data-move=round]")
    assert got()["data"]["legal"]
    entries = [(e["player"], e["text"]) for e in log(env) if e["kind"] == "move"]
    assert entries == [("ana", "ana: coins 3"), ("ana", "ana: military 0"),
                       ("bob", "bob: coins 4"), ("bob", "bob: military -1"),
                       ("cy", "cy: coins 5"), ("cy", "cy: military -2"), ("cy", "round")]
    # undo from a phone: asked by cy, done once ana and bob tapped their agreement
    with _verdict(cy) as got:
        cy.click("#seat-undo")
    assert got()["status"] == 202
    for player in ("ana", "bob"):
        _, page = pages[player]
        page.wait_for_function("() => document.getElementById('seat-undo').textContent"
                               ".startsWith('Agree')", timeout=10_000)
        assert log(env)[-1]["kind"] == "move"  # not yet
        with _verdict(page) as got:
            page.click("#seat-undo")
        answer = got()
    assert answer["status"] == 200 and answer["data"]["undo"] == "done"
    assert log(env)[-1]["kind"] == "undo" and "round" in log(env)[-1]["text"]
    for context, _ in pages.values():
        context.close()


LAPTOP = {"width": 1280, "height": 800}
EIGHT = "alexandra,benjamin,charlotte,dominic,eleanor,frederick,gabriela,harrison"
ONE_LONG = "ana,Bartholomew-Maximilian-Featherstonehaugh,cy,dee"
UNBROKEN = "ana,Bartholomewmaximilianfeatherstonehaughs"  # 40 letters: nowhere to wrap


@pytest.mark.parametrize("players", [EIGHT, ONE_LONG, UNBROKEN],
                         ids=["eight", "one-long-name", "unbroken-name"])
def test_no_page_is_wider_than_the_screen_whatever_the_names(env, seated, browser,  # noqa: F811
                                                             players, tmp_path):
    """The score by round of eight players, or of one long name, scrolls inside its own box:
    the table page and every seat page (an undo asked by the longest name shown) stay as wide
    as the phone and the laptop (they ran 811 and 1850 px wide), and the score sheet drawn
    writes no name over the numbers."""
    from tests.test_table_page import referee

    names = players.split(",")
    longest = max(names, key=len)
    assert referee(env, "new", "scorepad", "--players", players, "--option",
                   "categories=coins,military").returncode == 0
    assert referee(env, "play", f"{longest} coins 12").returncode == 0
    referee(env, "play", "round")  # refused (the others have no entry): the tester's table
    served = seated()
    assert served.call("POST", "/api/undo", {}, seat=longest)[0] == 202
    for size, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        for who in (None, longest, names[0]):
            context = browser.new_context(viewport=viewport)
            page = context.new_page()
            page.goto(served.base + "/" + (f"?seat={served.tokens[who]}" if who else ""))
            page.wait_for_selector("#live.on")
            if who:
                page.wait_for_selector("#seat[data-event]")
            assert page.locator(".ledger td").count() == len(names) + 1
            wide = page.evaluate("document.documentElement.scrollWidth")
            shot(page, f"widths-{len(names)}-{size}-{'seat' if who else 'table'}", tmp_path)
            assert wide <= viewport["width"], (size, who, wide)
            assert page.evaluate(OVERLAPS, ".board svg text") == [], (size, who)
            context.close()



def test_a_seat_page_whose_server_stopped_only_says_it_reconnects(domino, seated,  # noqa: F811
                                                                   browser):
    """The server stopped under an open seat page: the page says "reconnecting…" and throws
    nothing (each look at api/state was an uncaught "Failed to fetch")."""
    served = seated()
    context, page = open_seat(browser, served, "ana")
    plain = browser.new_page(viewport=PHONE)  # the table page without a seat, beside it
    plain.goto(served.base + "/")
    plain.wait_for_selector("#live.on")
    errors = []
    for shown in (page, plain):
        shown.on("pageerror", lambda e: errors.append(str(e)))
    served.stop()
    for shown in (page, plain):
        shown.wait_for_function("() => document.getElementById('live').textContent"
                                " === 'reconnecting…'", timeout=10_000)
    for _ in range(2):  # two looks at the seat's state, each failing
        with page.expect_event("requestfailed", lambda r: "api/state" in r.url,
                               timeout=10_000):
            page.evaluate("document.dispatchEvent(new CustomEvent('table-updated'))")
    page.wait_for_timeout(300)  # an unhandled rejection is reported a moment later
    assert errors == []
    plain.close()
    context.close()


def test_an_undo_with_nothing_to_undo_is_refused_at_once(env, seated, browser):  # noqa: F811
    """Nothing played yet: ana's "Undo last…" is refused on her phone with the reason, and no
    other phone is asked to agree (they were, and only the last agreement was refused)."""
    from tests.test_table_page import referee

    assert referee(env, "new", "duplicon", "--players", "ana,bob,cy,dee").returncode == 0
    served = seated()
    context, ana = open_seat(browser, served, "ana")
    with _verdict(ana) as got:
        ana.click("#seat-undo")
    out = got()
    assert out["status"] == 400
    assert "nothing to undo: no move in force" in ana.inner_text("#seat-verdict")
    assert ana.inner_text("#seat-undo") == "Undo last…"
    status, bob = served.call("GET", "/api/state", seat="bob")
    assert status == 200 and bob["undo"] is None
    context.close()


def _after_reload(page) -> str:
    """What the seat page's move box holds once the page is loaded again."""
    page.reload()
    page.wait_for_selector("#seat[data-event]")
    return page.input_value("#seat-move")


def test_a_typed_move_survives_a_reload_until_it_is_recorded(domino, seated, browser):  # noqa: F811
    """What a seat typed without playing it is there again after a reload (it was lost), on
    that seat's page only; once the move is recorded the box stays empty after a reload."""
    served = seated()
    context, ana = open_seat(browser, served, "ana")
    ana.fill("#seat-move", "2-4-4 D0,-1")
    assert _after_reload(ana) == "2-4-4 D0,-1"
    bob_context, bob = open_seat(browser, served, "bob")
    assert bob.input_value("#seat-move") == ""
    bob.fill("#seat-move", "4-5-5 D-1,0")
    assert _after_reload(bob) == "4-5-5 D-1,0"
    with _verdict(bob) as got:
        bob.click("#seat-play")
    assert got()["data"]["legal"]
    assert _after_reload(bob) == ""
    for c in (context, bob_context):
        c.close()


def test_a_passphrase_typed_on_a_seat_page_is_kept_nowhere(env, seated, browser):  # noqa: F811
    """Coda's moves may carry a passphrase (`unseal ana WORD`): its seat pages keep no draft,
    so nothing typed there is left in the browser's storage."""
    from tests.test_table_page import referee

    assert referee(env, "new", "coda", "--players", "ana,bob").returncode == 0
    served = seated()
    context, ana = open_seat(browser, served, "ana")
    ana.fill("#seat-move", "unseal ana correct-horse-battery")
    assert _after_reload(ana) == ""
    assert "correct-horse" not in ana.evaluate("JSON.stringify(sessionStorage)")
    context.close()
