"""Storage that refuses writes (read-only, full) still lets every reading command work, and a
write names the cause; a database file of another program is refused, not converted."""

from __future__ import annotations

import sqlite3
import subprocess

import pytest
from click.testing import CliRunner

from referee.cli import main
from tests.programs import REFEREE

READS = [("show",), ("log",), ("score",), ("export",), ("matches",), ("standings",),
         ("verify", "--all"), ("check", "draw")]


def ref(db, *args):
    return CliRunner().invoke(main, ["--db", str(db), *args])


class Ran:
    def __init__(self, p: subprocess.CompletedProcess):
        self.exit_code, self.output, self.stderr = p.returncode, p.stdout + p.stderr, p.stderr


def run(db, *args) -> Ran:
    """A real `referee` process: it leaves no open file behind on the small file system."""
    return Ran(subprocess.run([REFEREE, "--db", str(db), *args], capture_output=True,
                              text=True, timeout=60))


@pytest.fixture
def small_fs(tmp_path):
    """A 1 MiB file system of its own (needs mount rights: root, as on the CI machine)."""
    where = tmp_path / "fs"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "none", str(where)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a file system here (needs root)")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


def start(db):
    assert run(db, "new", "tripple-domino", "--players", "ana,bob").exit_code == 0
    assert run(db, "play", "start ana=5-5-5 bob=4-4-4").exit_code == 0


def test_read_only_storage_reads_and_names_the_cause_of_a_refused_write(small_fs):
    db = small_fs / "m.sqlite3"
    start(db)
    before = run(db, "log").output
    subprocess.run(["mount", "-o", "remount,ro", str(small_fs)], check=True)
    for args in READS:
        r = run(db, *args)
        assert r.exit_code == 0, (args, r.output)
    r = run(db, "play", "draw")
    assert r.exit_code == 2 and "the storage is read-only: nothing was recorded" in r.stderr
    subprocess.run(["mount", "-o", "remount,rw", str(small_fs)], check=True)
    assert run(db, "log").output == before


def test_a_full_disk_reads_and_names_the_cause_of_a_refused_write(small_fs):
    db = small_fs / "m.sqlite3"
    start(db)
    before = run(db, "log").output
    filler = small_fs / "filler"
    subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=1k", "count=4096"],
                   capture_output=True)
    for args in READS:
        r = run(db, *args)
        assert r.exit_code == 0, (args, r.output)
    r = run(db, "play", "draw")
    assert r.exit_code == 2 and "the disk is full: nothing was recorded" in r.stderr
    filler.unlink()
    assert run(db, "log").output == before
    assert run(db, "play", "draw").exit_code == 0  # room again: writes work


def test_another_programs_sqlite_file_is_refused_untouched(tmp_path):
    db = tmp_path / "other.sqlite"
    raw = sqlite3.connect(db)
    raw.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    raw.execute("INSERT INTO notes (text) VALUES ('keep me')")
    raw.commit()
    raw.close()
    before = db.read_bytes()
    for args in (("matches",), ("new", "coda", "--players", "ana,ben"), ("show",)):
        r = ref(db, *args)
        assert r.exit_code == 2 and "not a referee database" in r.stderr and "notes" in r.stderr
    assert db.read_bytes() == before
    assert not (tmp_path / "other.sqlite-wal").exists()


def test_an_empty_file_becomes_a_database_and_a_non_sqlite_file_is_refused(tmp_path):
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    assert ref(empty, "new", "coda", "--players", "ana,ben").exit_code == 0
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, just some words " * 100)
    r = ref(text, "matches")
    assert r.exit_code == 2 and r.stderr.startswith("error: ") and "Traceback" not in r.output
