"""Every column of every table of the match database edited to another type or shape (text,
blob, null, a negative number, '[]'), one at a time: every reading command and the table page
either print what the untouched database prints, or say in one line which match is damaged
(exit 2; `verify` exit 1 with the problem). Never a traceback, never an edited value as truth,
and the other matches keep working."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from referee.cli import main

MOVES = ["4-5-5 D-1,0", "3-5-5 D0,0", "draw"]
DAMAGED = 2  # the match every edit lands on; 1 and 3 stay as they were
READERS = [("show",), ("score",), ("log",), ("position",), ("export",), ("standings",),
           ("matches",), ("playtests", "tripple-domino"), ("verify",), ("verify", "--all"),
           ("show", "--match", "1")]
TEXT, NEGATIVE = "zq-forged", -777
VALUES = {"text": f"'{TEXT}'", "blob": "X'EDED'", "null": "NULL", "negative": str(NEGATIVE),
          "list": "'[]'"}
TABLES = {"matches": "id", "events": "match", "heads": "match", "settings": None,
          "snapshots": "match", "summaries": "match"}


def invoke(db, *args: str):
    return CliRunner().invoke(main, ["--db", str(db), *args])


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    return made(tmp_path_factory.mktemp("damage") / "m.sqlite3")


def made(db):
    """Three matches (the second the current one, with snapshots and summaries kept), and what
    each reading command and the page print while nothing is edited."""
    for a, b in (("cy", "dee"), ("ana", "bob")):
        assert invoke(db, "new", "tripple-domino", "--players", f"{a},{b}").exit_code == 0
        for move in [f"start {a}=5-5-5 {b}=4-4-4", *MOVES]:
            assert invoke(db, "play", move).exit_code == 0, move
    assert invoke(db, "new", "tripple-domino", "--players", "eve,fay").exit_code == 0
    assert invoke(db, "use", str(DAMAGED)).exit_code == 0
    for args in READERS:  # keeps the summaries and a snapshot of each match
        invoke(db, *args)
    raw = sqlite3.connect(db)
    assert raw.execute("SELECT count(*) FROM snapshots WHERE match = ?", (DAMAGED,)).fetchone()[0]
    assert raw.execute("SELECT count(*) FROM summaries WHERE match = ?", (DAMAGED,)).fetchone()[0]
    columns = [(t, r[1]) for t in TABLES for r in raw.execute(f"PRAGMA table_info({t})")]
    raw.close()
    before = {args: invoke(db, *args) for args in READERS}
    for args, r in before.items():
        assert r.exit_code == 0, (args, r.output)
    return db, columns, {args: r.output for args, r in before.items()}, page(db)


def page(db) -> dict:
    """What the table page shows (its reader's view, rendered as the page renders it)."""
    from referee.table_page.app import Hub
    from referee.table_page.reader import Reader

    reader = Reader(db, None)
    try:
        reader.poll()
        view = reader.view
    finally:
        reader.close()
    Hub(reader).templates.get_template("table.html").render(view=view)
    return view


def edit(db, table: str, column: str, value: str) -> bool:
    """One cell (or the cells of the damaged match) set to `value`; False when SQLite itself
    refuses the value (a NOT NULL or INTEGER PRIMARY KEY column): no file can hold it."""
    raw = sqlite3.connect(db)
    raw.executescript("DROP TRIGGER IF EXISTS events_no_update;")
    where = f"WHERE {TABLES[table]} = {DAMAGED}" if TABLES[table] else ""
    if table == "events":
        where += " AND seq = 1"
    try:
        raw.execute(f"UPDATE {table} SET {column} = {value} {where}")
        raw.commit()
        return True
    except sqlite3.IntegrityError:
        return False
    finally:
        raw.close()


def marked(line: str) -> bool:
    """A line of `matches` or `standings` saying the damaged match cannot be read."""
    return (line.startswith((f"match {DAMAGED} left out: ", f"*{DAMAGED:>4}  "))
            and ("unreadable: " in line or "left out: " in line)) or (
            f"match {DAMAGED} is damaged" in line) or (
            # standings' count of unfinished matches left out no longer counts the damaged one
            "left out, unfinished" in line)


def edited_shown(output: str) -> bool:
    return TEXT in output or str(NEGATIVE) in output or "\\xed" in output


def cases(names: list[str]) -> list:
    return [pytest.param(v, id=v) for v in names]


@pytest.mark.parametrize("value", cases(list(VALUES)))
@pytest.mark.parametrize("table", list(TABLES))
def test_an_edited_cell_is_a_one_line_error_or_changes_nothing(template, tmp_path, monkeypatch,
                                                               table, value):
    db0, columns, before, page_before = template
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path / "cache"))
    for t, column in columns:
        if t != table:
            continue
        db = tmp_path / f"{column}.sqlite3"
        shutil.copy(db0, db)
        if not edit(db, table, column, VALUES[value]):
            continue
        case = f"{table}.{column} = {value}"
        for args in READERS:
            r = invoke(db, *args)
            assert r.exception is None or isinstance(r.exception, SystemExit), (
                case, args, repr(r.exception))
            assert "Traceback" not in r.output, (case, args, r.output)
            if r.exit_code == 0:
                same = r.output == before[args]
                listed = args in (("matches",), ("standings",)) and all(
                    line in before[args] or marked(line) for line in r.output.splitlines())
                assert same or listed, (case, args, r.output, before[args])
            elif args[0] == "verify":
                assert r.exit_code == 1 and "broken" in r.output, (case, args, r.output)
            else:
                assert r.exit_code == 2, (case, args, r.output)
                lines = r.stderr.splitlines()
                assert len(lines) == 1 and lines[0].startswith("error: "), (case, args, r.stderr)
            if r.exit_code == 0 and not edited_shown(before[args]):
                assert not edited_shown(r.stdout), (case, args, r.output)
        view = page(db)
        assert view == page_before or "error" in view, (case, view)
