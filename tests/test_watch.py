"""`pnp watch` rebuilds the PDF or a preview on a save, keeps the last good output on a
mistake, and stops cleanly on Ctrl-C. Run as a real process, editing real files."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

REPO = Path(__file__).resolve().parents[1]
TIMEOUT = 30  # seconds for one rebuild on a loaded 2-core machine (it takes ~0.1 s)


def _as_in_a_terminal() -> None:
    """Ctrl-C interrupts the watcher as in a terminal, even when the tests themselves run as a
    background job (a non-interactive shell starts those with SIGINT ignored, and the child
    would inherit that and never stop)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Pnp:
    """`pnp COMMAND ARGS` in a subprocess, its stdout and stderr lines read as they come, as
    (stream, line); `merged`: stderr into stdout, one stream "out" in the order written."""

    def __init__(self, command: str, *args, cwd: Path, timeout: float = TIMEOUT,
                 merged: bool = False):
        # the code of this checkout, whichever checkout the installed package points to
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(REPO)}
        self.timeout = timeout
        self.proc = subprocess.Popen([sys.executable, "-m", "generator", command,
                                      *map(str, args)], cwd=cwd, env=env,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT if merged else subprocess.PIPE,
                                     text=True, preexec_fn=_as_in_a_terminal)
        self.lines: queue.Queue[tuple[str, str]] = queue.Queue()
        self.seen: list[tuple[str, str]] = []
        streams = [("out", self.proc.stdout)] + ([] if merged else [("err", self.proc.stderr)])
        for name, stream in streams:
            threading.Thread(target=self._read, args=(name, stream), daemon=True).start()

    def _read(self, name, stream):
        for line in stream:
            self.lines.put((name, line.rstrip("\n")))

    def expect(self, stream: str, start: str) -> str:
        """The next line of `stream` that begins with `start`."""
        return self._until(lambda got: got[0] == stream and got[1].startswith(start) and got[1],
                           f"{stream} line starting {start!r}")

    def search(self, pattern: str) -> re.Match:
        """The match of `pattern` in the next line, of either stream, that has one."""
        return self._until(lambda got: re.search(pattern, got[1]), f"line matching {pattern!r}")

    def _until(self, found, what: str):
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            try:
                got = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break  # it ended: nothing more will come
                continue
            self.seen.append(got)
            if hit := found(got):
                return hit
        raise AssertionError(f"no {what} within {self.timeout} s or before the end (exit "
                             f"{self.proc.poll()}): {self.seen}")

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=self.timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


class Watch(Pnp):
    """`pnp watch ARGS` in a subprocess."""

    def __init__(self, *args, cwd: Path):
        super().__init__("watch", *args, cwd=cwd)


@pytest.fixture
def watching(request):
    started = []

    def start(*args, cwd):
        w = Watch(*args, cwd=cwd)
        started.append(w)
        return w

    yield start
    for w in started:
        if w.proc.poll() is None:
            w.proc.kill()
            w.proc.wait()


def pages(pdf: Path) -> int:
    doc = pdfium.PdfDocument(pdf.read_bytes())
    try:
        return len(doc)
    finally:
        doc.close()


def test_a_save_rebuilds_the_pdf_and_a_mistake_keeps_the_last_good_one(mini, tmp_path,
                                                                         watching):
    out = tmp_path / "out" / "mini.pdf"
    w = watching(mini, "-o", out, cwd=tmp_path)
    assert "(6 cards on 2 pages)" in w.expect("out", "built ")
    w.expect("out", "watching ")
    assert pages(out) == 2  # one sheet of fronts, one of backs

    cards = mini / "cards.csv"
    cards.write_text(cards.read_text() + "Delta,blue,12\n")  # 18 cards: two sheets
    line = w.expect("out", "built ")
    assert "(18 cards on 4 pages)" in line and "[cards.csv]" in line
    assert pages(out) == 4
    good = out.read_bytes()

    cards.write_text(cards.read_text() + "Omega,blue,many\n")
    error = w.expect("err", "error: ")
    assert error == ("error: qty must be a whole number, not 'many' (cards.csv:6) "
                     "[cards.csv; kept the last good output]")
    assert out.read_bytes() == good

    (mini / "game.toml").write_text((mini / "game.toml").read_text().replace("size = 12",
                                                                             "size = 30"))
    cards.write_text(cards.read_text().replace("Omega,blue,many\n", ""))
    w.expect("out", "built ")
    assert out.read_bytes() != good and pages(out) == 4

    assert w.stop() == 0
    w.proc.wait()
    rest = w.proc.stderr.read() if w.proc.stderr else ""
    assert "Traceback" not in rest and all("Traceback" not in text for _, text in w.seen)
    assert w.expect("out", "stopped watching")


def test_watching_a_card_rebuilds_its_preview(mini, tmp_path, watching):
    w = watching(mini, "--card", "beta", "--dpi", 30, cwd=tmp_path)
    png = tmp_path / "output" / "mini-card-3.png"
    assert w.expect("out", "built ").startswith(f"built {Path('output/mini-card-3.png')}")
    w.expect("out", "watching ")
    green = Image.open(png).convert("RGB").getpixel((20, 60))
    assert green == (0, 255, 0)
    cards = mini / "cards.csv"
    cards.write_text(cards.read_text().replace("Beta,#00ff00", "Beta,#0000ff"))
    w.expect("out", "built ")
    assert Image.open(png).convert("RGB").getpixel((20, 60)) == (0, 0, 255)
    assert w.stop() == 0


def test_an_output_folder_inside_the_game_does_not_rebuild_forever(mini, watching):
    w = watching(".", cwd=mini)  # writes mini/output/mini.pdf, inside the watched folder
    w.expect("out", "built ")
    w.expect("out", "watching ")
    time.sleep(2)
    assert w.lines.empty()  # nothing since "watching": writing output/ did not rebuild
    assert [text for _, text in w.seen if text.startswith("built")] == [
        "built output/mini.pdf" + w.seen[0][1].split("output/mini.pdf", 1)[1]]
    assert (mini / "output" / "mini.pdf").is_file()
    assert w.stop() == 0


def test_a_broken_game_is_watched_until_it_is_fixed(mini, tmp_path, watching):
    cards = mini / "cards.csv"
    good = cards.read_text()
    cards.write_text(good.replace("Alpha,red,2", "Alpha,red,two").replace("Gamma,team,3",
                                                                             "Gamma,team,three"))
    out = tmp_path / "mini.pdf"
    w = watching(mini, "-o", out, cwd=tmp_path)
    assert w.expect("err", "error: ") == ("error: qty must be a whole number, not 'two' "
                                          "(cards.csv:2) [start; no good build yet]")
    assert w.expect("err", "error: ") == ("error: qty must be a whole number, not 'three' "
                                          "(cards.csv:4) [start; no good build yet]")
    w.expect("out", "watching ")
    assert not out.exists()
    cards.write_text(good)
    assert "(6 cards on 2 pages)" in w.expect("out", "built ")
    assert pages(out) == 2
    assert w.stop() == 0


def inotify_watches(pid: int) -> int:
    """How many inotify watches the process holds (each `inotify wd:` line of its fds)."""
    count = 0
    for fd in Path(f"/proc/{pid}/fdinfo").iterdir():
        try:
            count += fd.read_text().count("inotify wd:")
        except OSError:  # an fd closed meanwhile
            pass
    return count


@pytest.fixture
def big_folder(tmp_path):
    """A folder of 600 folders, outside the game, as /usr would be (but made in a second)."""
    big = tmp_path / "big"
    for i in range(30):
        for j in range(20):
            (big / f"d{i}" / f"e{j}").mkdir(parents=True)
    return big


def test_a_link_out_of_the_game_folder_is_not_followed(mini, tmp_path, watching, big_folder):
    """`ln -s /usr` in the game folder once registered a watch on each of its 15,781 folders:
    only the game folder and its own real subfolders are watched; a save in one is seen."""
    (mini / "everything").symlink_to(big_folder, target_is_directory=True)
    (mini / "art").mkdir()
    (mini / "art" / "nested").mkdir()
    w = watching(mini, "-o", tmp_path / "mini.pdf", cwd=tmp_path)
    w.expect("out", "built ")
    w.expect("out", "watching ")
    assert inotify_watches(w.proc.pid) <= 5  # the game folder, art/, art/nested/
    (mini / "art" / "nested" / "note.txt").write_text("saved")
    assert "[art/nested/note.txt]" in w.expect("out", "built ")
    (big_folder / "d1" / "e1" / "x.txt").write_text("not ours")
    (mini / "art" / "later").mkdir()  # a folder made while watching is watched too
    time.sleep(1)
    (mini / "art" / "later" / "y.txt").write_text("saved")
    # the new folder itself may be seen first (a build of its own under load): read on to y.txt
    lines = [w.expect("out", "built ")]
    while "y.txt" not in lines[-1] and len(lines) < 3:
        lines.append(w.expect("out", "built "))
    assert "y.txt" in lines[-1] and not any("x.txt" in line for line in lines), lines
    assert w.stop() == 0


@pytest.mark.parametrize("flags, where", [(["--grid", "100x100"], "(--grid)"),
                                          (["--card", "99"], "(--card)"),
                                          (["--page", "50"], "(--page)"),
                                          (["--single", "--grid", "2x2"], "(--single, --grid)")])
def test_a_bad_option_ends_the_watch_at_once(mini, tmp_path, flags, where):
    """No save fixes a mistake in the command: it printed its error, then watched forever."""
    r = subprocess.run([sys.executable, "-m", "generator", "watch", str(mini), *flags],
                       capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.startswith("error: ") and r.stderr.strip().endswith(where), r.stderr
    assert r.stderr.count("\n") == 1 and "watching" not in r.stdout
