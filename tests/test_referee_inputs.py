"""Hostile text at the table: huge numbers, digits int() refuses, bytes that are not UTF-8 and
very long moves are one-line errors (exit 2) in every game, and a move is still recorded."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from referee import registry
from referee.cli import main

GAMES = sorted(registry.games())
HUGE = "9" * 5000  # over Python's 4,300-digit limit for int()


@pytest.fixture(params=GAMES)
def table(request, tmp_path):
    g = registry.game(request.param)
    db = str(tmp_path / "m.sqlite3")

    def ref(*args, input=None):
        return CliRunner().invoke(main, ["--db", db, *args], input=input)

    s = g.sample
    opts = [x for k, v in s.options.items() for x in ("--option", f"{k}={v}")]
    assert ref("new", g.name, "--players", ",".join(s.players), *opts).exit_code == 0
    for move in s.moves:
        assert ref("play", move).exit_code == 0, move
    ref.game = g
    return ref


def one_line_error(r) -> str:
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception,
                                                                             SystemExit)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    return lines[0]


def last_event(ref) -> dict:
    """The current match's last event as stored: its kind and the text typed."""
    ev = json.loads(ref("export").output)[-1]["events"][-1]
    return {"kind": ev["kind"], "text": ev["data"].get("text")}


def test_a_huge_number_in_a_move_is_one_line_and_recorded(table):
    for move in table.game.sample.moves:  # every sample move with its numbers made huge
        text = re.sub(r"\d+", HUGE, move) if re.search(r"\d", move) else f"{move} {HUGE}"
        err = one_line_error(table("play", text))
        assert "5,000 digits" in err and len(err) < 500
        ev = last_event(table)
        assert ev["kind"] == "rejected" and HUGE in ev["text"]  # nothing typed is lost


def test_a_huge_number_in_a_position_or_a_question_is_one_line(table):
    position = table("position")
    if position.exit_code == 0:
        text = re.sub(r"\d+", HUGE, position.output, count=1)
        s = table.game.sample
        err = one_line_error(table("new", table.game.name, "--players", ",".join(s.players),
                                   "--position", "-", input=text))
        assert "5,000 digits" in err
    r = table("ask", "possible", HUGE)
    assert r.exit_code == 2 and "5,000 digits" in one_line_error(r)


def test_bytes_that_are_not_utf8_are_one_line_and_the_move_is_recorded(table):
    err = one_line_error(table("play", "draw \udcff"))  # how click hands over `draw $'\xff'`
    assert "not UTF-8" in err
    assert last_event(table)["text"] == "draw \\xff"


def test_a_very_long_move_is_cut_in_the_error_message(table):
    err = one_line_error(table("play", "x" * 120_000))
    assert len(err) < 800 and "(120,000 characters)" in err
    assert len(last_event(table)["text"]) == 120_000  # kept whole in the log


def test_superscript_digits_in_coda_are_a_move_error(tmp_path):
    db = str(tmp_path / "c.sqlite3")

    def ref(*args):
        return CliRunner().invoke(main, ["--db", db, *args])

    ref("new", "coda", "--players", "ana,ben")
    ref("play", "row ana black black black white")
    ref("play", "row ben black black black white")
    ref("play", "draw white")
    for move in ("guess ben 1 ² miss", "place ³ at 1", "tally ¹"):
        err = one_line_error(ref("play", move))
        assert "expected" in err and "0-11" in err
        assert last_event(ref)["kind"] == "rejected"


def test_messages_quoting_inputs_are_not_mangled_and_long_ones_are_cut():
    from pnp_shared.oneline import quoted, shorten

    assert quoted("draw") == "'draw'"
    assert quoted("x" * 120_000) == "'" + "x" * 60 + "…' (120,000 characters)"
    message = "'{al}' is 'middle' on card #2 (Wide), from column al: align must be one of left"
    assert shorten(message) == message  # quotes far apart are left alone


def test_a_huge_by_on_a_rejected_move_is_cut_where_stored_and_printed(table, tmp_path):
    """A 100,000-character --by of no player: rejected, recorded, but neither the record nor
    the error keeps it whole (it stored 200 KB and printed a 602-character line)."""
    by = "x" * 100_000
    move = table.game.sample.moves[0]
    for command in ("play", "check"):
        err = one_line_error(table(command, "--by", by, move))
        assert "unknown player" in err and len(err) <= 600
    r = table("play", "--json", "--by", by, move)
    assert len(json.loads(r.output)["error"]) <= 600 and len(r.output) < 2_000
    events = json.loads(table("export").output)[-1]["events"]
    rejected = [e for e in events if e["kind"] == "rejected"]
    assert len(rejected) == 2 and all(len(json.dumps(e)) < 1_500 for e in rejected)
    assert rejected[-1]["data"]["player"].startswith("x" * 40)
