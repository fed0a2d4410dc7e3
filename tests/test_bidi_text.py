"""Bidirectional overrides typed into a note or an adjust reason are shown escaped, on the
terminal and on the table page, as control characters are (issue 36 item 9): raw, U+202E
reversed everything after it on the line (`adjusted: ‮5 ot 3` read as `3 to 5`)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.table_page import app as table_app
from referee.table_page.reader import Reader

BIDI = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
RAW = re.compile("[\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def ref(tmp_path):
    db = tmp_path / "m.sqlite3"

    def run(*args: str) -> str:
        r = CliRunner().invoke(main, ["--db", str(db), *args])
        assert r.exit_code == 0, r.output
        return r.output

    run("new", "coda", "--players", "ana,ben")
    run.db = db
    return run


def test_overrides_in_a_reason_and_a_note_are_escaped_on_the_terminal(ref):
    reason = "score " + "".join(f"{c}x" for c in BIDI)
    ref("adjust", "ana", "+5", "--reason", reason)
    ref("note", "ana dealt \u202eyrros\u202c twice \u2067twice\u2069")
    for args in (("log",), ("log", "--json"), ("log", "--script"), ("score",), ("export",),
                 ("playtests", "coda")):
        out = ref(*args)
        assert not RAW.search(out), (args, out)
    log = ref("log")
    assert all(f"\\u{ord(c):04x}x" in log for c in BIDI)  # shown, readable, not lost
    assert "\\u202eyrros\\u202c" in log


def test_overrides_in_a_reason_are_escaped_on_the_table_page(ref):
    ref("adjust", "ana", "+5", "--reason", "late \u202e5 ot 3\u202c fixed")
    ref("adjust", "ben", "+1", "--reason", "\u2066ok\u2069")
    reader = Reader(ref.db, None)
    try:
        assert reader.poll()
        view = reader.view
    finally:
        reader.close()
    html = table_app.templates().get_template("table.html").render(view=view)
    assert not RAW.search(html) and "<svg" in html  # the board's picture still drawn
    assert "late \\u202e5 ot 3\\u202c fixed" in html and "\\u2066ok\\u2069" in html
