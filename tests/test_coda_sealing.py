"""Coda seals resist a search over the public log, and no secret reaches the log in clear."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import pty
import re
import subprocess
import termios

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.engine import InvalidMove
from referee.games.coda import GAME as G
from tests.programs import REFEREE

STRONG = "quokka-lamp-river"


def dealt():
    s = G.setup(("ana", "ben"), {"sealed": "yes"})
    for move in ("row ana black black black white", "row ben black black black white"):
        s = G.apply(s, G.parse(s, move))
    return s


GUESSABLE = "fewer than the 1e+10 required"


@pytest.mark.parametrize("phrase, reason", [
    ("kiwi", "too short (4 characters)"),  # the README's old example
    ("123456789012345", GUESSABLE),
    ("aaaaaaaabbbbbbbb", GUESSABLE),
    ("passwordpassword", GUESSABLE),
    ("qwertyuiop12", "commonly used password"),  # found on guess 1 of 147 (issue 28)
    ("abcdefghijkl", "sequences like"),  # found on guess 23
])
def test_weak_passphrases_are_refused_with_the_reason(phrase, reason):
    with pytest.raises(InvalidMove, match=re.escape(reason)):
        G.secret_move(dealt(), "seal ana", f"0 1 2 2 {phrase}")


def test_seals_are_salted_and_made_with_scrypt(monkeypatch):
    """The same tiles and passphrase seal differently each time (a random salt per player and
    round), and each passphrase tried costs a memory-hard scrypt of at least 16 MiB."""
    a = G.secret_move(dealt(), "seal ana", f"0 1 2 2 {STRONG}")
    b = G.secret_move(dealt(), "seal ana", f"0 1 2 2 {STRONG}")
    assert a != b
    calls = []
    real = hashlib.scrypt

    def spy(password, **kw):
        calls.append(kw)
        return real(password, **kw)

    monkeypatch.setattr(hashlib, "scrypt", spy)
    G.secret_move(dealt(), "seal ana", f"0 1 2 2 other-{STRONG}")
    assert calls and all(128 * kw["r"] * kw["n"] >= 16 * 2**20 for kw in calls)


@pytest.fixture
def ref(tmp_path):
    db = str(tmp_path / "s.sqlite3")

    def invoke(*args, input=None):
        return CliRunner().invoke(main, ["--db", db, *args], input=input)

    invoke("new", "coda", "--players", "ana,ben,cy", "--option", "sealed=yes")
    for p in ("ana", "ben", "cy"):
        assert invoke("play", f"row {p} black black white white").exit_code == 0
    invoke.db = db
    return invoke


def test_tiles_typed_in_the_open_are_refused_and_withheld_from_the_log(ref):
    r = ref("play", "seal cy 0 4 5 8 pear-tree-orbit")
    assert r.exit_code == 2 and "--secret" in r.stderr
    log = ref("log", "--json").output
    assert "pear" not in log and "0 4 5 8" not in log
    assert "seal cy [5 words withheld]" in log  # recorded: nothing typed is lost


def test_an_unseal_typed_too_early_is_rejected_without_its_passphrase(ref):
    for p in ("ana", "ben", "cy"):
        assert ref("play", f"seal {p}", "--secret", input=f"0 1 2 3 {STRONG}-{p}\n").exit_code == 0
    r = ref("play", f"unseal ana {STRONG}-ana")
    assert r.exit_code == 1 and "still hidden" in r.output
    log = ref("log", "--json").output
    assert STRONG not in log and "unseal ana [passphrase withheld]" in log
    assert STRONG not in ref("export").output


def test_secret_reads_a_piped_stdin_even_with_a_terminal_attached(ref):
    """With a controlling terminal but stdin piped (a script), --secret reads the pipe: it used
    to wait for the terminal for ever."""
    master, slave = pty.openpty()

    def own_terminal():
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    env = {**os.environ, "REFEREE_DB": ref.db}
    try:
        r = subprocess.run([REFEREE, "play", "seal ana", "--secret"], input=f"0 1 2 3 {STRONG}\n",
                           capture_output=True, text=True, env=env, timeout=20,
                           preexec_fn=own_terminal)
    finally:
        os.close(master)
        os.close(slave)
    assert r.returncode == 0, r.stderr
    assert "sealed" in r.stdout
    assert STRONG not in json.dumps(ref("log", "--json").output)


def test_a_secret_typed_into_an_ended_match_is_withheld_too(ref):
    """A match ended early still keeps what is typed into it (rejected), without the secret."""
    assert ref("end", "--abandoned").exit_code == 0
    r = ref("play", "seal cy 0 4 5 8 pear-tree-orbit")
    assert r.exit_code in (1, 2) and "ended" in (r.output + r.stderr)
    log = ref("log", "--json").output
    assert "pear" not in log and "0 4 5 8" not in log
    assert "seal cy [5 words withheld]" in log
