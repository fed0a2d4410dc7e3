"""Benchmark: a move tapped on a seat's phone -> the verdict on that phone, and -> every other
open page updated, measured in the browser.

Run: python bench/bench_seats.py [--moves 12] [--pages 8]

A Tripple Domino match of ana and bob is served by `referee serve --seats` in its own process
and opened in headless Chromium at 390 px: ana's and bob's seats (two browser contexts) and
pages without a seat up to --pages in all. For each move the player to act taps a free cell,
then a tile; the page stamps the tap (Date.now() as the tile is pressed), its "seat-verdict"
(the API's answer shown) and every page's "table-updated" (the board redrawn from the event
stream), all on the same clock. Reported: median and worst of tap -> verdict, and of tap ->
the last of the other pages updated. Issue figure: medians under 200 ms on loopback.
Waits are functions, not expression strings: the page's CSP forbids the eval a string needs.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import machine  # noqa: E402

REFEREE = str(Path(sys.executable).parent / "referee")
STAMPS = """() => { window.updates = {}; window.tapAt = null; window.verdictAt = null;
  document.addEventListener('table-updated', e => { window.updates[e.detail.event] = e.detail.at; });
  document.addEventListener('seat-verdict', e => { window.verdictAt = Date.now();
                                                   window.verdict = e.detail.data; });
  document.addEventListener('pointerdown', e => {
    if (e.target.closest('#seat-pick .choice')) window.tapAt = Date.now(); }, true); }"""


def serve(env: dict) -> tuple[subprocess.Popen, str, dict[str, str]]:
    server = subprocess.Popen([REFEREE, "serve", "--seats", "--no-open"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = re.search(r"(http://\S+)", server.stdout.readline()).group(1).rstrip("/")
    links = {}
    for line in server.stdout:
        found = re.match(r"(\S+)'s seat: (\S+)", line)
        if found:
            links[found.group(1)] = found.group(2)
        if line.startswith("Each link is"):
            return server, base, links
    raise SystemExit(server.stderr.read())


def tap(page) -> None:
    """Tap free cells until one offers a tile, then tap the first tile offered."""
    for cell in page.locator(".board [data-cell]").all():
        cell.click()
        choices = page.locator("#seat-pick .choice")
        if choices.count():
            page.evaluate("window.verdictAt = null")
            choices.first.click()
            return
    raise SystemExit("no free cell offered a tile")


def bench(env: dict, moves: int, pages: int) -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser import FLAGS, PHONE, chromium_path

    subprocess.run([REFEREE, "new", "tripple-domino", "--players", "ana,bob"], env=env,
                   check=True, capture_output=True)
    subprocess.run([REFEREE, "play", "start ana=5-5-5 bob=4-4-4"], env=env, check=True,
                   capture_output=True)
    server, base, links = serve(env)
    to_verdict, to_others = [], []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), headless=True,
                                        args=FLAGS)
            seats, everyone = {}, []
            for player, link in links.items():
                seats[player] = browser.new_context(viewport=PHONE).new_page()
                seats[player].goto(link)
                everyone.append(seats[player])
            while len(everyone) < pages:
                page = browser.new_context(viewport=PHONE).new_page()
                page.goto(base + "/")
                everyone.append(page)
            for page in everyone:
                page.wait_for_selector("#live.on")
                page.evaluate(STAMPS)
            to_move = "bob"
            for _ in range(moves):
                page = seats[to_move]
                page.wait_for_function("() => document.querySelector('.seat.mine')")
                tap(page)
                page.wait_for_function("() => window.verdictAt !== null", timeout=10_000)
                answer = page.evaluate("window.verdict")
                assert answer.get("legal"), answer
                seq = answer["event"]
                tapped = page.evaluate("window.tapAt")
                to_verdict.append(page.evaluate("window.verdictAt") - tapped)
                last = 0
                for other in everyone:
                    if other is page:
                        continue
                    other.wait_for_function(f"() => window.updates['{seq}'] !== undefined",
                                            timeout=10_000)
                    last = max(last, other.evaluate(f"window.updates['{seq}']"))
                to_others.append(last - tapped)
                to_move = answer["to_move"]
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    for name, got in (("tap -> verdict on that phone", to_verdict),
                      (f"tap -> the last of the other {pages - 1} pages updated", to_others)):
        print(f"{name}: median {statistics.median(got):.0f} ms, worst {max(got):.0f} ms "
              f"({len(got)} moves): {[round(x) for x in got]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=12)
    ap.add_argument("--pages", type=int, default=8, help="open pages, the two seats included")
    args = ap.parse_args()
    print(machine.line("before"))
    tmp = Path(tempfile.mkdtemp(prefix="bench-seats-"))
    try:
        env = {**os.environ, "REFEREE_DB": str(tmp / "m.sqlite3"),
               "REFEREE_CACHE": str(tmp / "cache"), "REFEREE_KEY": str(tmp / "referee.key")}
        bench(env, args.moves, args.pages)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(machine.line("after"))


if __name__ == "__main__":
    main()
