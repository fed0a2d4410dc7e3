"""`referee shell` driven through a pseudo-terminal (stdlib pty), as a player types at it:
one prompt per move, the board drawn again after a move, Tab completion of commands, players,
tiles and cells, history with the arrow keys (kept between sessions), errors that do not end
the shell."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import termios
import time

import pytest

from tests.programs import REFEREE

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r")


class Terminal:
    """A `referee shell` on an 80x24 pseudo-terminal: type keys, wait for text."""

    def __init__(self, db, *args: str):
        self.fd, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {**os.environ, "REFEREE_DB": str(db), "TERM": "xterm", "INPUTRC": os.devnull}
        self.proc = subprocess.Popen([REFEREE, "shell", *args], stdin=slave,
                                     stdout=slave, stderr=slave, env=env,
                                     start_new_session=True)
        os.close(slave)
        self.seen = ""  # everything shown so far, escape codes removed
        self.mark = 0  # where the next expect() starts looking

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def expect(self, pattern: str, timeout: float = 30) -> str:
        """Wait until the screen shows pattern (a regex) after the last match; the text up
        to the end of the match."""
        end = time.monotonic() + timeout
        while True:
            m = re.search(pattern, self.seen[self.mark:])
            if m:
                got = self.seen[self.mark:self.mark + m.end()]
                self.mark += m.end()
                return got
            left = end - time.monotonic()
            assert left > 0, f"never saw {pattern!r}; screen:\n{self.seen[self.mark:]}"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the shell has exited
                    chunk = b""
                if not chunk:
                    assert re.search(pattern, self.seen[self.mark:]), self.seen[self.mark:]
                self.seen += ANSI.sub("", chunk.decode("utf-8", "replace"))

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=30)
        finally:
            os.close(self.fd)


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "shell.sqlite3"
    subprocess.run([REFEREE, "--db", str(path), "new", "tripple-domino", "--players",
                    "ana,bob"], check=True, capture_output=True)
    return path


PROMPT = r"tripple-domino #1 {}> "


def test_one_prompt_per_move_with_the_board_drawn_again(db):
    t = Terminal(db)
    t.expect("match 1: tripple-domino, players ana, bob")
    t.expect(PROMPT.format(""))  # before the start nobody has the turn
    t.type("start ana=5-5-5 bob=4-4-4\r")
    screen = t.expect(PROMPT.format("bob"))
    assert "ok (event 2): ana: start ana=5-5-5" in screen
    assert "U0,0" in screen and "to move: bob" in screen  # the board, drawn again
    board = screen[screen.index("round 1"):]
    assert all(len(line) <= 80 for line in board.splitlines())
    t.type("2-2-2 U9,9\r")  # rejected: said why, nothing redrawn, still bob's prompt
    screen = t.expect(PROMPT.format("bob"))
    assert "illegal: bob: 2-2-2 U9,9" in screen and "D2:" in screen and "round 1" not in screen
    t.type("adjust zed +1 --reason x\r")  # a user error is one line and the shell goes on
    screen = t.expect(PROMPT.format("bob"))
    assert "error: unknown player 'zed'" in screen and "Traceback" not in screen
    t.type("draw --by ana\r")  # a flag of `referee play` works in the shell too
    assert "illegal: ana: draw" in t.expect(PROMPT.format("bob"))
    t.type("undo\r")
    assert "nothing taken back" in t.expect(PROMPT.format("bob"))
    t.type("\x04")  # Ctrl-D leaves
    assert t.close() == 0


def test_tab_completes_commands_players_tiles_and_cells(db):
    subprocess.run([REFEREE, "--db", str(db), "play", "start ana=5-5-5 bob=4-4-4"],
                   check=True, capture_output=True)
    t = Terminal(db)
    t.expect(PROMPT.format("bob"))
    t.type("sco\t")  # a command
    t.expect("score ")
    t.type("\r")
    assert "total: ana 20, bob 0" in t.expect(PROMPT.format("bob"))
    t.type("adjust a\t")  # a player
    t.expect("adjust ana ")
    t.type("+1 --reason test\r")
    assert "adjusted: ana +1" in t.expect(PROMPT.format("bob"))
    t.type("dr\t")  # a move's verb
    t.expect("draw ")
    t.type("\x15")  # Ctrl-U: clear the line
    t.type("4-5-5 D-1\t")  # a cell where the tile fits (D-1,0: the only one starting D-1)
    t.expect("4-5-5 D-1,0 ")
    t.type("a\t")
    t.expect("as ")
    t.type("\t\t")  # the rotations that fit there, listed
    listed = t.expect(r"5-4-5")
    assert "5-5-4" not in listed
    t.type("\x15\r")
    t.expect(PROMPT.format("bob"))
    t.type("quit\r")
    assert t.close() == 0


def test_history_recalls_earlier_lines_even_from_an_earlier_session(db):
    t = Terminal(db)
    t.expect(PROMPT.format(""))
    t.type("start ana=5-5-5 bob=4-4-4\r")
    t.expect(PROMPT.format("bob"))
    t.type("score\r")
    t.expect(PROMPT.format("bob"))
    t.proc.kill()  # the terminal is closed: the history is saved line by line all the same
    t.close()
    t = Terminal(db)  # a new session: the history file beside the database
    t.expect(PROMPT.format("bob"))
    t.type("\x1b[A\r")  # up arrow: the latest line (score) again
    assert "total: ana 20, bob 0" in t.expect(PROMPT.format("bob"))
    t.type("\x1b[A\x1b[A\x1b[A\r")  # further back: score, score, start ('quit' is not kept)
    assert "illegal: bob: start bob=4-4-4 vs ana=5-5-5" in t.expect(PROMPT.format("bob"))
    t.type("quit\r")
    assert t.close() == 0


def test_without_a_current_match_the_shell_is_a_one_line_error(tmp_path):
    from referee.record import Store

    Store(tmp_path / "empty.sqlite3").close()
    t = Terminal(tmp_path / "empty.sqlite3")
    assert "error: no current match" in t.expect(r"error: .*\n")
    assert t.close() == 2


def test_tab_completes_cards_and_grid_cells_in_duplicon(tmp_path):
    db = tmp_path / "dup.sqlite3"
    for args in (["new", "duplicon", "--players", "ana,bob"], ["play", "open a1=orange c3=blue"]):
        subprocess.run([REFEREE, "--db", str(db), *args], check=True, capture_output=True)
    t = Terminal(db)
    t.expect(r"duplicon #1 ana> ")
    t.type("play blu\t")  # a card type
    t.expect("play blue-diamond ")
    t.type("c3=\t")  # c3 was seen in the opening: only what it showed fits
    t.expect("c3=blue-diamond ")
    t.type("\r")
    assert "Dúplicon! blue-diamond pair to ana's won pile" in t.expect(r"duplicon #1 ana> ")
    t.type("quit\r")
    assert t.close() == 0
