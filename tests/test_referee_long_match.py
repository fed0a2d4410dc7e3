"""A long match stays quick to look at: `log` lists the latest events (and says how to see them
all), and the commands read only the events they need, not the whole log."""

from __future__ import annotations

import json
import random
import shutil

import pytest
from click.testing import CliRunner

from referee import session
from referee.cli import LOG_SHOWN, main
from referee.games.tripple_domino import GAME
from referee.record import snapshots
from referee.record.store import Store


@pytest.fixture(scope="module")
def long_match(tmp_path_factory):
    """A Tripple Domino match of random legal moves after the opening until the round ends, a
    rejected attempt after every other move, the last entry undone: some 45 events."""
    db = tmp_path_factory.mktemp("long") / "m.sqlite3"
    store = Store(db)
    session.new_match(store, "tripple-domino", ["ana", "bob"], {"target": "100000"})
    session.play(store, "start ana=5-5-5 bob=4-4-4")
    rng = random.Random(11)
    while legal := GAME.legal_moves(state := session.load(store).state):
        session.play(store, GAME.format(state, rng.choice(legal)))
        if rng.random() < 0.5:
            assert session.play(store, "0-0-0 U40,40").verdict.legal is False
    from referee import table_session

    table_session.undo(store)
    assert store.last_seq(1) > LOG_SHOWN + 10
    store.close()
    shutil.copyfile(db, db.with_name("as-made.sqlite3"))  # for tests that need it unchanged
    return db


def run(db, *args: str):
    result = CliRunner().invoke(main, ["--db", str(db), *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_log_lists_the_latest_events_and_says_how_to_see_every_one(long_match):
    total = Store(long_match).last_seq(1)
    lines = run(long_match, "log").splitlines()
    assert lines[0] == (f"({total - LOG_SHOWN:,} earlier events not shown: `referee log --all` "
                        "lists every event)")
    shown = [int(x.split()[0]) for x in lines[1:]]
    assert shown == list(range(total - LOG_SHOWN + 1, total + 1))
    assert "[undone]" in lines[-2] and lines[-1].split()[1] == "undo"
    every = run(long_match, "log", "--all").splitlines()
    assert [int(x.split()[0]) for x in every] == list(range(1, total + 1))
    assert every[-LOG_SHOWN:] == lines[1:]  # the same lines, the same points on them
    assert len(json.loads(run(long_match, "log", "--json"))["events"]) == total


def test_log_reads_only_the_events_it_shows(long_match, monkeypatch):
    run(long_match, "show")  # a snapshot at the last event
    read = []
    real = snapshots._stamped
    monkeypatch.setattr(snapshots, "_stamped",
                        lambda row, where: read.append(row[0]) or real(row, where))
    run(long_match, "log")
    assert len(read) <= LOG_SHOWN + 1, len(read)  # was every event of the match


def test_redo_reads_the_end_of_the_log_not_every_event(long_match, monkeypatch):
    run(long_match, "undo")
    run(long_match, "show")
    read = []
    real = snapshots._stamped
    monkeypatch.setattr(snapshots, "_stamped",
                        lambda row, where: read.append(row[0]) or real(row, where))
    assert run(long_match, "redo").startswith("redone: event ")
    assert len(read) <= 10, len(read)  # was every event: the redo list was folded from event 1


@pytest.mark.parametrize("args", [("undo",), ("adjust", "ana", "+2", "--reason", "x"),
                                  ("end", "--abandoned")])
def test_a_table_command_reads_its_snapshot_once(long_match, tmp_path, args, monkeypatch):
    """undo, adjust and end look at the match again after appending: in the same write
    transaction, the state already folded is recalled, not unpickled from its snapshot again."""
    import sqlite3

    db = tmp_path / "copy.sqlite3"  # the match as made (other tests undo and redo in it)
    shutil.copyfile(long_match.with_name("as-made.sqlite3"), db)
    run(db, "show")
    reads = []
    connect = sqlite3.connect

    def traced(*a, **k):
        con = connect(*a, **k)
        con.set_trace_callback(lambda sql: reads.append(sql) if "state" in sql and
                               "FROM snapshots" in sql else None)
        return con

    monkeypatch.setattr(sqlite3, "connect", traced)
    run(db, *args)
    assert len(reads) == 1, reads  # was 2: the state before and after the append


def test_verify_hashes_every_event_without_parsing_each(long_match, monkeypatch):
    """verify checks the whole chain in one pass over the stored rows (and still finds an
    edited event, see test_referee_integrity): it no longer reads every event's JSON."""
    parsed = []
    real = json.loads
    monkeypatch.setattr(json, "loads", lambda s, *a, **k: parsed.append(1) or real(s, *a, **k))
    assert run(long_match, "verify").startswith("ok: 1 match(es), ")
    assert len(parsed) < 20, len(parsed)  # was one per event and more


def _rechain(db, match_id: int) -> None:
    """Recompute every hash and link of a match after an edit (a careful tamperer)."""
    from referee.record.store import GENESIS, event_hash

    prev = GENESIS
    for seq, kind, data, at in db.execute("SELECT seq, kind, data, at FROM events WHERE match "
                                          "= ? ORDER BY seq", (match_id,)).fetchall():
        digest = event_hash(match_id, seq, kind, data, at, prev)
        db.execute("UPDATE events SET prev = ?, hash = ? WHERE match = ? AND seq = ?",
                   (prev, digest, match_id, seq))
        prev = digest


@pytest.mark.parametrize("edit", [
    "DELETE FROM events WHERE seq = 7",
    "UPDATE events SET data = data || ' ' WHERE seq = 9",
    "UPDATE events SET prev = upper(prev) WHERE seq = 12",
    "UPDATE events SET at = '2020' WHERE seq = 2",
    "UPDATE events SET kind = kind || char(30) WHERE seq = 6",  # the separator of the columns
    "UPDATE events SET data = '{\"text\": ' WHERE seq = 5",  # then rechained: unreadable
    "DELETE FROM events",
    "DELETE FROM events WHERE seq > 40",
])
def test_verify_finds_what_loading_every_event_finds(long_match, tmp_path, edit):
    import shutil
    import sqlite3

    from referee.record import chain_check

    db = tmp_path / "copy.sqlite3"
    shutil.copyfile(long_match, db)
    raw = sqlite3.connect(db, isolation_level=None)
    raw.execute("DROP TRIGGER events_no_update")
    raw.execute("DROP TRIGGER events_no_delete")
    raw.execute(edit)
    if "'{" in edit:
        _rechain(raw, 1)
    raw.close()
    store = Store(db)
    with pytest.raises(session.RefereeError) as stamped:
        store.stamped(1)
    with pytest.raises(session.RefereeError) as checked:
        chain_check.check(store, 1)
    assert (checked.value.what, checked.value.where) == (stamped.value.what, stamped.value.where)


def test_events_read_together_are_each_read_as_stored(long_match, tmp_path):
    """The events are parsed in one go, as one JSON array: three rows crafted (and rechained)
    so that the array still has one object per row, though no row is JSON on its own, must
    be reported as unreadable, not read as the objects their neighbours make up."""
    import sqlite3

    db = tmp_path / "copy.sqlite3"
    shutil.copyfile(long_match, db)
    raw = sqlite3.connect(db, isolation_level=None)
    raw.execute("DROP TRIGGER events_no_update")
    for seq, data in ((5, '{"c":"}'), (6, '{","text":"5-5-4 U1,1"}'), (7, '{"a":1},{"b":2}')):
        raw.execute("UPDATE events SET data = ? WHERE seq = ?", (data, seq))
    _rechain(raw, 1)
    raw.close()
    result = CliRunner().invoke(main, ["--db", str(db), "log", "--all"])
    assert result.exit_code == 2, result.output
    assert "tampered log: event 5 is unreadable" in result.output


@pytest.fixture(scope="module")
def rounds_match(tmp_path_factory):
    """A Tripple Domino match of random legal moves over four rounds: each round ends when a
    hand is empty or play is blocked, and the table types the hands left (`end ...`)."""
    from referee.games.tripple_domino import tiles

    db = tmp_path_factory.mktemp("rounds") / "m.sqlite3"
    store = Store(db)
    names = ["ana", "bob"]
    session.new_match(store, "tripple-domino", names, {"target": "100000"})
    rng, pool = random.Random(5), sorted(tiles())
    text = lambda t: "-".join(map(str, t))  # noqa: E731
    while (state := session.load(store).state).round <= 4:
        if state.phase == "start":
            move = "start " + " ".join(f"{p}={text(t)}" for p, t in zip(names, rng.sample(pool, 2),
                                                                       strict=True))
        elif state.phase == "end":
            free = [t for t in pool if t not in state.used and t not in state.held]
            rng.shuffle(free)
            hands = []
            for k, p in enumerate(names):
                if p != state.out:  # the tile declared at the start is still in the hand
                    own = [t for t, holder in state.held.items() if holder == p]
                    n = state.hands[k] - len(own)
                    hands.append(f"{p}={','.join(text(t) for t in own + free[:n]) or '-'}")
                    free = free[n:]
            move = "end " + " ".join(hands)
        else:
            move = GAME.format(state, rng.choice(GAME.legal_moves(state)))
        assert session.play(store, move).verdict.legal, move
    store.close()
    return db


def test_score_shows_the_latest_rounds_and_the_totals_of_every_line(rounds_match):
    """`score` on a long match: the last rounds (whole), how many earlier lines there are and
    how to see them, and totals counting every line; `--all` and `--json` keep every line."""
    ledger = json.loads(run(rounds_match, "score", "--json"))
    items, totals = ledger["ledger"], ledger["totals"]
    rounds = sorted({i["round"] for i in items})
    assert len(items) > 40 and len(rounds) >= 2, (len(items), rounds)
    every = run(rounds_match, "score", "--all").splitlines()
    assert sum(1 for x in every if x.startswith("round ")) == len(rounds)
    short = run(rounds_match, "score").splitlines()
    assert len(short) < len(every)
    shown = [int(x.split()[1]) for x in short if x.startswith("round ")]
    assert 0 < len(shown) < len(rounds) and shown == rounds[-len(shown):]  # the latest, whole
    hidden = sum(1 for i in items if i["round"] < shown[0])
    earlier = len(rounds) - len(shown)
    assert short[0] == (f"({hidden:,} earlier line{'s' if hidden > 1 else ''} in {earlier:,} "
                        f"round{'s' if earlier > 1 else ''} not shown: `referee score --all` "
                        "shows every line)")
    assert short[1:] == every[-(len(short) - 1):]  # the same lines as --all's end
    assert short[-1] == "total: " + ", ".join(f"{p} {v}" for p, v in totals.items())
