"""No spelling of a Coda secret the parser might take reaches the record, a page or the shell.

Issue 36: `ana: seal ana 0 2 5 7 PASSPHRASE` was stored in clear because redaction looked at the
typed text's first word while the parser accepts a speaker's prefix, any case, tabs... The
property test below types the secret in spellings drawn by hypothesis (prefixes of any player,
case, spaces and tabs, --by, words in another order) and looks for its bytes in everything a
match shows: the play command's own answer, `log` (text, --json, --script), `export`, the table
page (its HTML and /table.json, rendered as `referee serve` renders them) and the database file
(its WAL included).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import session
from referee.cli import main
from referee.record import Store
from referee.table_page import app as table_app
from referee.table_page.reader import Reader
from tests.programs import REFEREE

PLAYERS = ("ana", "ben", "cy")
HIDDEN = "1 7 9 10"  # every row is black black white white


@pytest.fixture(scope="module")
def sealed(tmp_path_factory) -> Path:
    """A sealed Coda match whose three rows are sealed: an unseal is now only too early."""
    db = tmp_path_factory.mktemp("sealed") / "m.sqlite3"
    store = Store(db)
    session.new_match(store, "coda", PLAYERS, {"sealed": "yes"})
    for p in PLAYERS:
        assert session.play(store, f"row {p} black black white white").verdict.legal
    for p in PLAYERS:
        cur = session.load(store)
        move = cur.game.secret_move(cur.state, f"seal {p}", f"{HIDDEN} kumquat-opal-{p}x", p)
        assert session.play(store, move).verdict.legal
    store.close()
    return db


def _case(draw, word: str) -> str:
    flips = draw(st.lists(st.booleans(), min_size=len(word), max_size=len(word)))
    return "".join(c.upper() if up else c for c, up in zip(word, flips, strict=True))


@st.composite
def spellings(draw) -> tuple[str, str | None, str, str]:
    """(typed move, --by or None, passphrase, tiles as typed): a secret in a spelling."""
    space = st.sampled_from([" ", "  ", "\t", " \t ", "\t\t"])
    phrase = "Zq" + draw(st.text("abcdefghjkmnpqrstuvwxyz-", min_size=10, max_size=20))
    tiles = draw(st.lists(st.integers(0, 11), min_size=4, max_size=4))
    kind = draw(st.sampled_from(["seal", "unseal"]))
    verb = draw(st.sampled_from([  # as the parser takes it, or as no one reads it
        _case(draw, kind), _case(draw, kind), "".join(chr(ord(c) + 0xFEE0) for c in kind),
        kind + ":"]))
    target = _case(draw, draw(st.sampled_from(PLAYERS)))
    words = [verb, target, *(map(str, tiles) if kind == "seal" else ()), phrase]
    if draw(st.booleans()):  # words in another order: read by no one, withheld all the same
        words = draw(st.permutations(words))
    text = "".join(w + draw(space) for w in words[:-1]) + words[-1]
    speaker = draw(st.none() | st.sampled_from(PLAYERS))
    if speaker is not None:  # `ana:`, `BEN :`, `cy:\t` ...
        text = (_case(draw, speaker) + draw(st.sampled_from(["", " ", "\t"])) + ":"
                + draw(st.sampled_from(["", " ", "\t", "  "])) + text)
    text = draw(st.sampled_from(["", " ", "\t"])) + text + draw(st.sampled_from(["", "\t"]))
    by = draw(st.none() | st.sampled_from(PLAYERS))
    return text, by, phrase, " ".join(map(str, tiles)) if kind == "seal" else phrase


def _page(db: Path) -> tuple[str, str]:
    """The table page's HTML and /table.json, rendered as `referee serve` renders them."""
    reader = Reader(db, None)
    try:
        assert reader.poll()
        view = reader.view
    finally:
        reader.close()
    return table_app.templates().get_template("table.html").render(view=view), json.dumps(view)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spelled=spellings())
def test_no_spelling_of_a_secret_reaches_any_output(sealed, tmp_path_factory, spelled):
    typed, by, phrase, tiles = spelled
    db = tmp_path_factory.mktemp("spelling") / "m.sqlite3"
    shutil.copy(sealed, db)
    run = CliRunner()

    def out(*args: str) -> str:
        r = run.invoke(main, ["--db", str(db), *args])
        assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
        return r.output + (r.stderr if r.stderr_bytes is not None else "")

    by_flag = ["--by", by] if by else []
    played = out("play", typed, *by_flag) + out("check", typed, *by_flag)
    texts = [played, out("log"), out("log", "--json"), out("log", "--script"), out("export"),
             *_page(db)]
    last = json.loads(out("log", "--json"))["events"][-1]
    assert last["kind"] == "rejected"  # typed all the same: kept, without the secret
    files = b"".join(p.read_bytes() for p in db.parent.iterdir())  # the WAL included
    for text in texts:
        low = text.casefold()
        assert phrase.casefold() not in low, (typed, text)
        assert tiles not in " ".join(text.split()) or tiles == phrase, (typed, text)
    assert phrase.encode() not in files and phrase.lower().encode() not in files.lower()


def test_a_spelling_the_old_redaction_missed_keeps_no_secret(sealed, tmp_path):
    """The spellings of the issue, each seen in clear in `log --json` before the fix."""
    db = tmp_path / "m.sqlite3"
    shutil.copy(sealed, db)
    env = {**os.environ, "REFEREE_DB": str(db)}
    for typed in ("ana: seal ana 0 2 5 7 kumquat-lamp-zebra", "ana:seal ana 0 2 5 7 "
                  "kumquat-lamp-zebra", "ben: seal ana 0 2 5 7 kumquat-lamp-zebra",
                  "ANA :  SEAL ana 0 2 5 7 kumquat-lamp-zebra",
                  "ana:\tunseal ana kumquat-lamp-zebra", "unseal: ana kumquat-lamp-zebra",
                  "unseal kumquat-lamp-zebra ana"):
        r = subprocess.run([REFEREE, "play", typed], env=env, capture_output=True, text=True,
                           timeout=60)
        assert r.returncode in (1, 2) and "kumquat" not in r.stdout + r.stderr, typed
    log = subprocess.run([REFEREE, "log", "--json"], env=env, capture_output=True, text=True,
                         timeout=60).stdout
    assert "kumquat" not in log and "0 2 5 7" not in log
    kept = [re.match(r"rejected '(.*?)':", e["text"]).group(1)
            for e in json.loads(log)["events"][-7:]]
    assert kept[:4] == ["seal ana [5 words withheld]"] * 4
    assert kept[4] == "unseal ana [passphrase withheld]"
    assert all(re.fullmatch(r"[a-z ]*\[\d+ words withheld\]", k) for k in kept[5:])


def test_the_shell_history_keeps_a_move_as_the_record_keeps_it(sealed, tmp_path):
    """`referee shell` saves what the log keeps of a move, not the line typed: a secret in a
    spelling the first-word check missed stayed in the history file before."""
    from tests.test_referee_shell import Terminal

    db = tmp_path / "m.sqlite3"
    shutil.copy(sealed, db)
    t = Terminal(db)
    prompt = r"coda #1 [^>]*> "
    t.expect(prompt)
    for line in ("ANA :  SEAL ana 0 2 5 7 kumquat-lamp-zebra", "ben:\tunseal ben kumquat-lamp-x",
                 "note seal ana kumquat-lamp-y", "DRAW black --by ana", "draw white --by ben",
                 "score"):
        t.type(line + "\r")
        t.expect(prompt)
    t.type("quit\r")
    assert t.close() == 0
    history = db.with_suffix(".history").read_text()
    assert "kumquat" not in history and "0 2 5 7" not in history
    lines = history.splitlines()
    assert "seal ana [5 words withheld]" in lines and "unseal ben [passphrase withheld]" in lines
    assert "draw black --by ana" in lines and "draw white --by ben" in lines  # as the log has it
    assert history.rstrip().endswith("score")


def test_an_accepted_unseal_in_any_spelling_keeps_the_key_not_the_passphrase(tmp_path):
    """At the round's end an unseal is accepted however it is spelled, and the record keeps
    the round's key it opened the seals with, never the passphrase."""
    from tests import table_matches

    db = tmp_path / "m.sqlite3"
    table_matches.sealed_coda(db)
    store = Store(db)
    table_matches._played(store, ["place 0 at 1", "draw white", "guess ana 2 1 hit",
                                  "guess ana 3 7 hit", "guess ana 4 9 hit", "guess ana 5 10 hit"])
    cur = session.load(store)
    phrases = table_matches.CODA_PASSPHRASES
    stop = cur.game.secret_move(cur.state, "stop at 2", f"3 {phrases['ben']}", "ben")
    table_matches._played(store, [stop, "tally 2 3 6 8 11"])
    store.close()
    run = CliRunner()
    for typed in (f"BEN :\tUNSEAL  Ben {phrases['ben']}", f"ana:unseal ANA\t{phrases['ana']}"):
        r = run.invoke(main, ["--db", str(db), "play", typed])
        assert r.exit_code == 0 and "ok (event" in r.output, r.output + r.stderr
    log = run.invoke(main, ["--db", str(db), "log", "--json"]).output
    moves = [e["text"] for e in json.loads(log)["events"][-2:]]
    assert [m[:10] for m in moves] == ["unseal ben", "unseal ana"]
    assert all(re.fullmatch(r"unseal [a-z]+ key:[0-9a-f]{64}", m) for m in moves)
    files = b"".join(p.read_bytes() for p in db.parent.iterdir())
    assert not [p for p in phrases.values() if p in log or p.encode() in files]


@pytest.mark.parametrize("typed, stored", [
    ("unsael ana quokka-lamp-river", "[3 words withheld]"),  # a typo in the verb
    ("unseal anna quokka-lamp-river", "unseal [2 words withheld]"),  # a wrong player
    ("unseal ana quokka lamp river", "unseal ana [3 words withheld]"),  # extra words
    ("quokka-lamp-river", "[1 word withheld]"),  # the passphrase alone
    ("quokka-lamp-river unseal ana", "[3 words withheld]"),
    ("stop at 3 quokka-lamp-river", "stop [3 words withheld]"),  # a verb that is no unseal
    ("guess ben 2 quokka-lamp-river hit", "guess ben [3 words withheld]"),
    ("ana: unsael ana quokka-lamp-river", "[3 words withheld]"),
])
def test_a_mistyped_move_in_a_sealed_match_keeps_no_word_that_may_be_a_passphrase(
        sealed, tmp_path, typed, stored):
    """The tester's report: `unsael ana PASSPHRASE` (no `seal` in it) was kept as typed. In a
    sealed match any text the parser cannot read keeps only a known verb and player."""
    db = tmp_path / "m.sqlite3"
    shutil.copy(sealed, db)
    run = CliRunner()

    def out(*args: str) -> str:
        r = run.invoke(main, ["--db", str(db), *args])
        return r.output + (r.stderr if r.stderr_bytes is not None else "")

    played = run.invoke(main, ["--db", str(db), "play", typed])
    assert played.exit_code == 2
    last = json.loads(out("log", "--json"))["events"][-1]
    assert last["kind"] == "rejected" and last["text"].startswith(f"rejected {stored!r}:")
    for text in (played.output + played.stderr, out("log"), out("export"), *_page(db)):
        assert "quokka" not in text, text
    assert b"quokka" not in b"".join(p.read_bytes() for p in db.parent.iterdir())


def test_an_unread_move_in_an_unsealed_coda_match_is_kept_as_typed(tmp_path):
    """Only a sealed match has passphrases to keep out: elsewhere a typo is kept to be read."""
    db = tmp_path / "m.sqlite3"
    run = CliRunner()
    run.invoke(main, ["--db", str(db), "new", "coda", "--players", "ana,ben"])
    assert run.invoke(main, ["--db", str(db), "play", "row ana black purple"]).exit_code == 2
    log = run.invoke(main, ["--db", str(db), "log"]).output
    assert "rejected 'row ana black purple'" in log


def test_a_passphrase_typed_as_the_player_of_a_sealed_match_is_not_kept(sealed, tmp_path):
    """`--by` naming no player is stored as the attempt's player: in a sealed match it may be
    the passphrase typed in the wrong place, so it is withheld as the move's words are."""
    db = tmp_path / "m.sqlite3"
    shutil.copy(sealed, db)
    run = CliRunner()
    played = run.invoke(main, ["--db", str(db), "play", "unseal ana", "--by",
                               "quokka-lamp-river"])
    assert played.exit_code == 2 and "quokka" not in played.output + played.stderr
    log = run.invoke(main, ["--db", str(db), "log", "--json"]).output
    assert json.loads(log)["events"][-1]["kind"] == "rejected" and "quokka" not in log
    assert b"quokka" not in b"".join(p.read_bytes() for p in db.parent.iterdir())
    said = run.invoke(main, ["--db", str(db), "play", "ana: unsael ana quokka-lamp-river",
                             "--by", "ben"])  # a real player: the parser's reason stays
    assert "the move says ana but --by says ben" in said.stderr and "quokka" not in said.stderr
    assert "rejected 'ana: [3 words withheld]'" in run.invoke(main, ["--db", str(db),
                                                                    "log"]).output
