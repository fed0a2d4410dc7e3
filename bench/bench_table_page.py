"""Benchmark: `referee play` in a terminal -> the table page updated, measured in the browser.

Run: python bench/bench_table_page.py [--moves 12] [--streams 50] [--runs 15] [--old 14a354c]

1. Latency. A Tripple Domino match (three players, seeded random legal moves) is served by
   `referee serve` in its own process and opened in headless Chromium. For each move a fresh
   `referee play` process records it; the page's own "table-updated" event stamps the time
   (Date.now() in the page, the same clock as time.time() here). Reported: median and worst of
   update minus the end of `referee play` (the move committed), and minus its start.
   Issue figure: median < 0.5 s.
2. Open pages cost a move nothing. `referee play`'s CPU time (user + system of the child,
   getrusage) with 0 and with N open event streams (raw HTTP clients reading the stream, as
   a page does, without N browsers' own CPU), and the server's CPU time per move.
3. Start-up. `referee --help` and `referee show` of this tree against commit --old (checked
   out in a temporary worktree, run with this venv's Python), wall and CPU, median of --runs.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import machine  # noqa: E402

from tests import table_matches  # noqa: E402

REFEREE = str(Path(sys.executable).parent / "referee")


def child_run(args: list[str], env: dict) -> tuple[float, float, subprocess.CompletedProcess]:
    """(wall seconds, child CPU seconds, result) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def process_cpu(pid: int) -> float:
    """CPU seconds a running process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def the_moves(count: int) -> list[str]:
    return table_matches.random_moves(
        "tripple-domino", ("ana", "bob", "cy"), ["start ana=5-5-5 bob=4-4-4 cy=3-3-3"],
        lambda s: s.phase != "play", seed=2)[:count]


class Streams:
    """n clients holding the event stream open and reading every message, as pages do."""

    def __init__(self, base: str, n: int):
        host, port = base.split("//")[1].split(":")
        self.sockets = []
        ready = threading.Barrier(n + 1)

        def client() -> None:
            s = socket.create_connection((host, int(port)), timeout=120)
            self.sockets.append(s)
            s.sendall(f"GET /events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            try:
                s.recv(65536)  # the headers and the latest table
                ready.wait()
                while s.recv(65536):
                    pass
            except OSError:  # closed by close(), as a tab closed, or the server's end
                pass

        for _ in range(n):
            threading.Thread(target=client, daemon=True).start()
        ready.wait(60)

    def close(self) -> None:
        for s in self.sockets:
            s.shutdown(socket.SHUT_RDWR)
            s.close()


def bench_page(env: dict, moves_n: int, streams: int) -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser import FLAGS, chromium_path

    moves = the_moves(1 + 2 * moves_n)
    subprocess.run([REFEREE, "new", "tripple-domino", "--players", "ana,bob,cy"], env=env,
                   check=True, capture_output=True)
    subprocess.run([REFEREE, "play", moves[0]], env=env, check=True, capture_output=True)
    server = subprocess.Popen([REFEREE, "serve", "--no-open"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    url = re.search(r"(http://\S+)", server.stdout.readline()).group(1)
    base = url.rstrip("/")
    after_end, after_start, play_cpu = [], [], {0: [], streams: []}
    server_cpu = {0: [], streams: []}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), headless=True,
                                        args=FLAGS)
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(url)
            page.wait_for_selector("#live.on")
            page.evaluate("""() => { window.updates = {};
                document.addEventListener('table-updated',
                    e => { window.updates[e.detail.event] = e.detail.at; }); }""")
            seq = int(page.evaluate("document.body.dataset.event"))
            blocks = [0, streams] * 2  # alternated: the machine's load drifts
            size = max(1, moves_n * 2 // len(blocks))
            for k, open_streams in enumerate(blocks):
                clients = Streams(base, open_streams) if open_streams else None
                for move in moves[1 + k * size:1 + (k + 1) * size]:
                    seq += 1
                    served_before = process_cpu(server.pid)
                    started = time.time()
                    _, cpu, done = child_run([REFEREE, "play", move], env)
                    ended = time.time()
                    assert done.returncode == 0, done.stdout + done.stderr
                    page.wait_for_function(f"() => window.updates['{seq}'] !== undefined",
                                           timeout=10_000)
                    at = page.evaluate(f"window.updates['{seq}']") / 1000
                    after_end.append(at - ended)
                    after_start.append(at - started)
                    play_cpu[open_streams].append(cpu)
                    time.sleep(0.3)  # the server's work for this move is done
                    server_cpu[open_streams].append(process_cpu(server.pid) - served_before)
                if clients is not None:
                    clients.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    ms = [round(x * 1000) for x in after_end]
    print(f"play -> page updated ({len(ms)} moves, measured in the page): median "
          f"{statistics.median(after_end) * 1000:.0f} ms after `referee play` ended "
          f"(worst {max(ms)} ms), median {statistics.median(after_start) * 1000:.0f} ms after "
          f"it started; each: {ms}")
    for n in play_cpu:
        print(f"  with {n:>2} open streams: `referee play` CPU median "
              f"{statistics.median(play_cpu[n]) * 1000:.0f} ms, the server's CPU per move "
              f"{statistics.median(server_cpu[n]) * 1000:.0f} ms (incl. its idle polling)")


def bench_startup(env: dict, old: str, runs: int, tmp: Path) -> None:
    tree = tmp / "old-tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), old],
                   check=True, capture_output=True)
    old_db = tmp / "old.sqlite3"  # a copy: each tree keeps its own snapshots and memos
    with sqlite3.connect(env["REFEREE_DB"]) as db, sqlite3.connect(old_db) as copy:
        db.backup(copy)
    try:
        trees = {"this tree": {**env, "PYTHONPATH": str(ROOT),
                               "REFEREE_CACHE": str(tmp / "cache-new")},
                 old: {**env, "PYTHONPATH": str(tree), "REFEREE_CACHE": str(tmp / "cache-old"),
                       "REFEREE_DB": str(old_db)}}
        for args in (["--help"], ["show"]):
            times: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
            for tree_env in trees.values():
                child_run([REFEREE, *args], tree_env)  # memos and bytecode written once
            for _ in range(runs):
                for name, tree_env in trees.items():  # interleaved: the load drifts
                    wall, cpu, done = child_run([REFEREE, *args], tree_env)
                    assert done.returncode == 0, done.stderr
                    times[name].append((wall, cpu))
            for name, got in times.items():
                print(f"  referee {' '.join(args):<7} {name:<10} wall median "
                      f"{statistics.median(w for w, _ in got) * 1000:.0f} ms, CPU median "
                      f"{statistics.median(c for _, c in got) * 1000:.0f} ms")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                       capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=12,
                    help="moves timed with each stream count (in two blocks each)")
    ap.add_argument("--streams", type=int, default=50)
    ap.add_argument("--runs", type=int, default=15, help="start-up runs per command and tree")
    ap.add_argument("--old", default="14a354c", help="the commit start-up is compared against")
    ap.add_argument("--startup-only", action="store_true", help="only part 3")
    args = ap.parse_args()
    print(machine.line("before"))
    tmp = Path(tempfile.mkdtemp(prefix="bench-table-"))
    try:
        env = {**os.environ, "REFEREE_DB": str(tmp / "m.sqlite3"),
               "REFEREE_CACHE": str(tmp / "cache"), "PYTHONPYCACHEPREFIX": str(tmp / "pyc")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if args.startup_only:
            subprocess.run([REFEREE, "new", "tripple-domino", "--players", "ana,bob,cy"],
                           env=env, check=True, capture_output=True)
            for move in the_moves(1 + 2 * args.moves):
                subprocess.run([REFEREE, "play", move], env=env, check=True,
                               capture_output=True)
        else:
            bench_page(env, args.moves, args.streams)
        print("start-up (commands other than serve):")
        bench_startup(env, args.old, args.runs, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(machine.line("after"))


if __name__ == "__main__":
    main()
