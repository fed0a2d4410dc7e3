"""Benchmark: `pnp serve` from a save to the updated card on the page, and `pnp` start-up.

Run: python bench/bench_serve.py [--saves N] [--game emberfall] [--old CHECKOUT] [--runs N]

1. Save -> card. A copy of the template is served by a real `pnp serve` process and opened in
   headless Chromium (Debian's, as in the tests) with card #1 zoomed. Each save rewrites
   cards.csv with card #1's name changed; the time is taken in the browser, from the save
   (this script's clock, the same machine's) to the page's own "pnp-updated" event: `cardAt`
   when the zoomed card's new images are decoded and shown, `at` when every visible image is.
   Issue figure: median save -> card < 1 s for Emberfall. Then again with --listeners more
   pages' event streams open (raw connections reading every event): they must cost nothing.
2. Start-up. `pnp --help` and `pnp list` in fresh interpreters, wall and CPU time (getrusage of
   the children), this checkout against CHECKOUT (e.g. a worktree of the commit before `pnp
   serve`), alternating runs. Issue figure: commands other than serve start no slower.
"""

from __future__ import annotations

import argparse
import http.client
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import machine  # noqa: E402

from tests.browser import DESKTOP, FLAGS, chromium_path  # noqa: E402
from tests.test_pnp_serve import Served  # noqa: E402


def listen(port: int, stop: threading.Event) -> None:
    """One more open page's event stream, read and dropped until `stop`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/events")
    response = conn.getresponse()
    while not stop.is_set():
        if not response.fp.readline():
            break
    conn.close()


def save_to_card(game: str, saves: int, listeners: int = 0) -> str:
    from playwright.sync_api import sync_playwright

    from pnp_model.definition import find

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / game
        shutil.copytree(find(game), root)
        cards = root / "cards.csv"
        original = cards.read_text()
        header, first, *rest = original.splitlines(keepends=True)
        name = first.split(",", 1)[0]
        served = Served(root, "-o", Path(tmp) / f"{game}.pdf", cwd=Path(tmp))
        stop = threading.Event()
        for _ in range(listeners):
            threading.Thread(target=listen, args=(served.port, stop), daemon=True).start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium_path(), headless=True,
                                            args=FLAGS)
                page = browser.new_page(viewport=DESKTOP)
                page.goto(served.url)
                page.wait_for_function("() => window.pnpShown", timeout=120_000)
                page.locator('#card-list .card[data-id="1"]').click()
                page.wait_for_function("""() => [...document.querySelectorAll('#zoom img')]
                    .every(i => i.complete && i.naturalWidth > 0)""", timeout=60_000)
                cards_at, all_at, told = [], [], []
                for i in range(saves):
                    page.evaluate("""() => { window.nextUpdate = null;
                        const build = window.pnpShown.build;
                        document.addEventListener('pnp-updated', function seen(e) {
                          if (e.detail.build > build) { window.nextUpdate = e.detail;
                            document.removeEventListener('pnp-updated', seen); } }); }""")
                    saved = time.time() * 1000
                    cards.write_text(header + first.replace(name, f"{name} {i}", 1)
                                     + "".join(rest))
                    page.wait_for_function("() => window.nextUpdate", timeout=60_000)
                    shown = page.evaluate("window.nextUpdate")
                    title = page.locator("#zoom-title").inner_text()
                    if title != f"#1 {name} {i}":
                        raise SystemExit(f"the zoom shows {title!r} after save {i}")
                    cards_at.append((shown["cardAt"] - saved) / 1000)
                    all_at.append((shown["at"] - saved) / 1000)
                    told.append((shown["receivedAt"] - saved) / 1000)
                    time.sleep(0.3)  # a designer does not save twice in the same instant
                browser.close()
        finally:
            stop.set()
            served.stop()
    return (f"{game}{f' with {listeners} more open pages' if listeners else ''}: "
            f"save -> zoomed card updated: median {statistics.median(cards_at):.3f} s, "
            f"worst {max(cards_at):.3f} s; -> every visible image: median "
            f"{statistics.median(all_at):.3f} s ({saves} saves); of which save -> the page told "
            f"(watch, rebuild, event) median {statistics.median(told):.3f} s")


def timed(checkout: Path, args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of `python -m generator ARGS` run from `checkout`."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", *args], cwd=checkout, env=env,
                   stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def start_up(old: Path, runs: int) -> list[str]:
    lines = []
    for args in (["--help"], ["list"]):
        got: dict[str, list[tuple[float, float]]] = {"this": [], "old": []}
        for _ in range(runs):
            got["this"].append(timed(REPO, args))
            got["old"].append(timed(old, args))
        for who, times in got.items():
            wall = statistics.median(t[0] for t in times) * 1000
            cpu = statistics.median(t[1] for t in times) * 1000
            lines.append(f"pnp {' '.join(args):<6} {who:<4}: median wall {wall:.0f} ms, "
                         f"CPU {cpu:.0f} ms ({runs} runs)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--saves", type=int, default=12)
    parser.add_argument("--game", default="emberfall")
    parser.add_argument("--old", type=Path, help="a checkout to compare start-up with")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--listeners", type=int, default=50,
                        help="then again with this many more pages open (0: skip)")
    args = parser.parse_args()
    print(machine.line("before"), flush=True)
    print(save_to_card(args.game, args.saves), flush=True)
    if args.listeners:
        print(save_to_card(args.game, args.saves, args.listeners), flush=True)
    if args.old:
        for line in start_up(args.old, args.runs):
            print(line, flush=True)
    print(machine.line("after"), flush=True)


if __name__ == "__main__":
    main()
