"""Hostile table input (issue 28 items 9-12): no control sequence reaches the terminal from stored
text, names and reasons have limits, error lines are capped, a bad byte in any option is kept,
and Coda passphrases are refused below a stated strength and never kept once accepted."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from pnp_shared import limits
from tests.test_coda_sealing import ref  # noqa: F401

ESC_NAME = "a\x1b]0;x\x07"
STRONG = "quokka-lamp-river"


def controls(text: str) -> list[str]:
    return [c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f]


def test_a_name_with_a_terminal_escape_is_refused(referee_run):
    r = referee_run("new", "coda", "--players", f"{ESC_NAME},bob", code=2)
    assert "control character" in r.stderr and not controls(r.stderr)
    assert referee_run("matches", "--json").output.strip() == "[]"


def test_a_name_longer_than_the_limit_is_refused(referee_run):
    r = referee_run("new", "coda", "--players", "n" * 5000 + ",bob", code=2)
    assert f"at most {limits.MAX_NAME_CHARS}" in r.stderr and len(r.stderr) < 200


def test_a_name_with_digits_of_another_script_is_refused(referee_run):
    """Moves name players, and a move's numbers are written in 0-9 only."""
    r = referee_run("new", "coda", "--players", "ana٣,bob", code=2)
    assert "arabic-indic digit three" in r.stderr


def test_text_stored_by_an_older_version_is_shown_escaped(referee_run, monkeypatch):
    """A database written before names were checked already holds the escape: every command
    that prints it writes it as \\x1b, never the byte."""
    from referee import engine

    monkeypatch.setattr(engine, "named_within_limits", lambda name: None)
    monkeypatch.setattr(engine.re, "fullmatch", lambda *a: True)  # the old, looser check
    referee_run("new", "coda", "--players", f"{ESC_NAME},bob")
    monkeypatch.undo()
    referee_run("adjust", "bob", "+2", "--reason", "typo\x1b[2J\x9bcleared")
    for args in (["show"], ["matches"], ["log"], ["score"], ["play", "pass", "--by", "bob"],
                 ["play", "row bob black black black white"]):
        r = referee_run(*args, code=None)
        assert not controls(r.output + r.stderr), (args, r.output + r.stderr)
    assert "a\\u001b]0;x\\u0007" in referee_run("matches").output


def test_an_adjust_of_5000_digits_is_one_short_line(referee_run):
    referee_run("new", "coda", "--players", "ana,bob")
    r = referee_run("adjust", "ana", "9" * 5000, "--reason", "x", code=2)
    assert len(r.stderr.strip()) <= limits.MAX_ERROR_CHARS and "40 digits" in r.stderr


def test_an_adjust_in_other_digits_is_refused(referee_run):
    referee_run("new", "coda", "--players", "ana,bob")
    r = referee_run("adjust", "ana", "٣", "--reason", "x", code=2)
    assert "0-9" in r.stderr


def test_an_adjust_reason_past_the_limit_is_refused_not_echoed(referee_run):
    referee_run("new", "coda", "--players", "ana,bob")
    r = referee_run("adjust", "ana", "3", "--reason", "r" * 100_000, code=2)
    assert f"at most {limits.MAX_REASON_CHARS}" in r.stderr and "rrrrrrrrrr" not in r.stderr
    assert "adjust" not in referee_run("log").output.split("new", 1)[1]


@pytest.mark.parametrize("move", ["9" * 5000, "guess " + "b" * 900 + " 1 3 miss",
                                  "x" * 999])
def test_every_error_line_is_at_most_600_characters(referee_run, move):
    referee_run("new", "coda", "--players", "ana,bob")
    r = referee_run("play", move, code=None)
    for line in (r.output + r.stderr).splitlines():
        assert len(line) <= limits.MAX_ERROR_CHARS, len(line)


def test_a_bad_byte_in_by_is_kept_like_one_in_the_move(referee_run):
    referee_run("new", "coda", "--players", "ana,bob")
    r = referee_run("play", "pass", "--by", "\udcff", code=2)
    assert "kept in the log" in r.stderr
    last = json.loads(referee_run("log", "--json").output)["events"][-1]
    assert last["kind"] == "rejected" and last["player"] == "\\xff" and "pass" in last["text"]


def test_a_bad_byte_in_an_adjust_reason_is_kept(referee_run):
    referee_run("new", "coda", "--players", "ana,bob")
    referee_run("adjust", "ana", "+1", "--reason", "caf\udce9")
    assert "caf\\xe9" in referee_run("log").output


# --- Coda passphrases


@pytest.fixture
def sealed(ref):  # noqa: F811 (test_coda_sealing's match: ana, ben and cy, dealt, sealed=yes)
    return ref


@pytest.mark.parametrize("phrase", ["qwertyuiop12", "abcdefghijkl"])
def test_guessable_passphrases_are_sealedused_stating_the_threshold(sealed, phrase):
    r = sealed("play", "seal ana", "--secret", input=f"0 1 2 3 {phrase}\n")
    assert r.exit_code == 2 and "1e+10" in r.stderr and "guesses" in r.stderr


def _play_to_unseal(sealed) -> None:
    """Every player seals their tiles with a strong passphrase of their own."""
    for p in ("ana", "ben", "cy"):
        r = sealed("play", f"seal {p}", "--secret", input=f"0 1 2 3 {STRONG}-{p}\n")
        assert r.exit_code == 0, r.output + r.stderr


def test_an_accepted_unseal_keeps_the_key_not_the_passphrase(sealed):
    from referee.games.coda import GAME as G
    from referee.games.coda.sealing import public_unseal

    _play_to_unseal(sealed)
    rows = sqlite3.connect(sealed.db).execute("SELECT data FROM events").fetchall()
    state = G.setup(("ana", "ben", "cy"), {"sealed": "yes"})
    for (data,) in rows:
        text = json.loads(data).get("text", "")
        if text.startswith(("row", "seal")):
            state = G.apply(state, G.parse(state, text))
    public = public_unseal(state, "ana", f"{STRONG}-ana")
    assert public.startswith("key:") and STRONG not in public
    move = G.parse(state, f"unseal ana {STRONG}-ana")
    assert G.format(state, move) == f"unseal ana {public}"
    keyed = G.parse(state, f"unseal ana {public}")  # the log's text folds to the same tiles
    assert G.format(state, keyed) == f"unseal ana {public}"
    # typed at a hidden prompt (--secret), it becomes the same public move
    assert G.secret_move(state, "unseal ana", f"{STRONG}-ana") == f"unseal ana {public}"


def test_the_shell_history_never_keeps_a_passphrase(sealed, tmp_path, monkeypatch):
    import builtins

    _play_to_unseal(sealed)
    lines = iter([f"unseal ana {STRONG}-ana", "show", "quit"])

    def typed(prompt=""):
        line = next(lines)
        import readline

        readline.add_history(line)  # as readline's input() does
        return line

    monkeypatch.setattr(builtins, "input", typed)
    r = sealed("shell")
    assert r.exit_code == 0, r.output
    history = Path(sealed.db).with_suffix(".history").read_text()
    assert "show" in history and STRONG not in history
