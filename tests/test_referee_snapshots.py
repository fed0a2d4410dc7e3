"""The snapshot cache: a command folds only the events after the newest valid snapshot, gives
the same state as replaying the whole log (undo included), never trusts an edited snapshot, and
reading commands neither take nor wait for the write lock."""

from __future__ import annotations

import copy
import os
import pickle
import random
import sqlite3
import subprocess

import pytest

from referee import engine, registry, session, table_session
from referee.games.tripple_domino import GAME
from referee.record import snapshots
from referee.record.store import Store
from tests.programs import REFEREE


def play_randomly(store: Store, moves: int, seed: int, undo_every: int = 0) -> None:
    rng = random.Random(seed)
    for i in range(moves):
        state = session.load(store).state
        if undo_every and i % undo_every == undo_every - 1:
            table_session.undo(store)
            continue
        legal = GAME.legal_moves(state)
        if not legal:
            break
        played = session.play(store, GAME.format(state, rng.choice(legal)))
        assert played.event is not None


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "m.sqlite3")
    session.new_match(s, "tripple-domino", ["ana", "bob"], {"target": "100000"})
    session.play(s, "start ana=5-5-5 bob=4-4-4")
    return s


def full_fold(store: Store):
    return engine.fold(GAME, store.events(store.current().id))


def test_a_command_folds_only_the_events_after_its_snapshot(store, monkeypatch):
    play_randomly(store, 40, seed=1)
    monkeypatch.setattr(snapshots, "SAVE_IN_READ", 1)
    session.load(store)  # the newest snapshot is at the last event now
    applied = []
    real = type(GAME).apply
    monkeypatch.setattr(type(GAME), "apply", lambda self, s, m: applied.append(m) or real(
        self, s, m))
    session.play(store, "draw")
    cur = session.load(store)
    assert len(applied) <= 2  # the new move (judged once, folded once), not the 40 before
    monkeypatch.undo()
    assert cur.state == full_fold(store)


def test_a_read_saves_a_snapshot_only_once_enough_moves_are_folded_after_one(store):
    """A `show` after every move folds the few moves since the newest snapshot instead of
    pickling the whole state again each time (~25 ms on a long match); once SAVE_IN_READ
    moves are behind, a read saves one. The state and totals are the same either way."""
    def newest() -> int:
        return store.db.execute("SELECT max(seq) FROM snapshots").fetchone()[0] or 0

    session.load(store)
    saved = newest()
    play_randomly(store, snapshots.SAVE_IN_READ - 1, seed=3)
    cur = session.load(store)
    assert newest() == saved and store.last_seq(1) - saved == snapshots.SAVE_IN_READ - 1
    assert cur.state == full_fold(store)
    assert cur.totals() == engine.totals(full_fold(store).ledger, cur.match.players)
    play_randomly(store, 1, seed=4)
    assert session.load(store).state == full_fold(store)
    assert newest() == store.last_seq(1)


def test_moves_folded_after_a_snapshot_keep_the_ledgers_sums(store):
    """A snapshot's ledger carries each player's sum; the moves folded after it append to it
    with the sums kept (not added up again from 24,000 items), and the totals stay right."""
    play_randomly(store, 30, seed=5)
    session.load(store)
    play_randomly(store, 5, seed=6)
    ledger = session.load(store).state.ledger
    assert isinstance(ledger, engine.SummedLedger)
    assert ledger.sums == engine.sums(tuple(ledger)) == engine.sums(full_fold(store).ledger)
    for copied in (copy.deepcopy(ledger), pickle.loads(pickle.dumps(ledger))):  # a state held
        assert copied == ledger and copied.sums == ledger.sums  # elsewhere can be copied


def test_totals_and_undo_read_only_the_table_entries_not_every_move(store, monkeypatch):
    """The table's fold (corrections, ends, undo/redo) reads the few control events, and undo
    continues from a snapshot: a long match is not read or replayed whole for either."""
    play_randomly(store, 60, seed=5)
    session.load(store)  # the snapshot after the last event
    read = []
    real = snapshots._stamped
    monkeypatch.setattr(snapshots, "_stamped", lambda row, where: read.append(row[0])
                        or real(row, where))
    cur = session.load(store)
    assert cur.totals() and cur.status() == "in play"
    assert len(read) <= 2, read  # was every event: the table's fold iterated the whole log
    read.clear()
    done = table_session.undo(store)
    assert done.taken is not None and done.to_move
    assert len(read) < 20, len(read)


@pytest.mark.parametrize("seed", [2, 5])
def test_the_cached_state_equals_the_full_replay_with_undos(store, seed):
    play_randomly(store, 60, seed=seed, undo_every=4)
    for _ in range(3):  # several undos in a row reach behind the newest snapshots
        table_session.undo(store)
    cur = session.load(store)
    assert cur.state == full_fold(store)
    lines = session.log(store)
    ledger = GAME.ledger(cur.state)
    assert sum(len(x.points) for x in lines) == len(ledger)  # every point on its move's line


def edit_behind(store: Store, sql: str) -> None:
    """An edit by another program (the referee's own connection only appends and caches)."""
    other = sqlite3.connect(store.path)
    other.execute(sql)
    other.commit()
    other.close()


def test_an_edited_snapshot_is_ignored_not_trusted(store):
    play_randomly(store, 20, seed=3)
    truth = session.load(store).state
    edit_behind(store, "UPDATE snapshots SET state = replace(state, 'ana', 'eve')")
    assert session.load(store).state == truth


@pytest.mark.parametrize("edit", ["hash = upper(hash)", "content = 'x;y;3'",
                                  "state = replace(state, 'ana', 'eve')"])
def test_redo_ignores_an_edited_snapshot_as_every_command_does(store, edit):
    """redo reads a snapshot's event hash and digest without its state: an edited entry is
    passed over (never mistaken for an edited event), and what redo puts back is the same."""
    play_randomly(store, 20, seed=3)
    table_session.undo(store)
    session.load(store)  # a snapshot at the undo
    edit_behind(store, f"UPDATE snapshots SET {edit}")
    done = table_session.redo(store)
    assert done.taken is not None
    assert session.load(store).state == full_fold(store)


def test_a_snapshot_that_would_build_other_objects_is_refused(store):
    import pickle

    from referee.record import state_pickle

    evil = pickle.dumps(os.system)
    with pytest.raises(pickle.UnpicklingError, match="may not build"):
        state_pickle.loads(evil)


def test_reading_commands_take_no_write_lock(tmp_path):
    db = tmp_path / "m.sqlite3"
    env = {**os.environ, "REFEREE_DB": str(db)}
    run = lambda *a: subprocess.run([REFEREE, *a], env=env, capture_output=True,  # noqa: E731
                                    text=True, timeout=20)
    assert run("new", "tripple-domino", "--players", "ana,bob").returncode == 0
    assert run("play", "start ana=5-5-5 bob=4-4-4").returncode == 0
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another terminal holds the write lock
    try:
        for args in (("check", "draw"), ("show",), ("log",), ("score",), ("ask", "x")):
            r = run(*args)
            assert r.returncode in (0, 2) and "locked" not in r.stderr, (args, r.stderr)
        assert run("check", "draw").stdout.startswith("legal: bob: draw")
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_matches_and_standings_read_kept_summaries_and_refresh_a_changed_match(tmp_path,
                                                                             monkeypatch):
    from click.testing import CliRunner

    from referee.cli import main

    db = str(tmp_path / "many.sqlite3")

    def ref(*args):
        r = CliRunner().invoke(main, ["--db", db, *args])
        assert r.exit_code == 0, r.output
        return r.output

    for players in ("ana,bob", "cy,dee", "ana,cy"):
        ref("new", "tripple-domino", "--players", players)
        a, b = players.split(",")
        ref("play", f"start {a}=5-5-5 {b}=4-4-4")
    first = ref("matches"), ref("standings")
    loads = []
    from referee.record import summaries

    real = summaries._load  # a match folded again to make its summary
    monkeypatch.setattr(summaries, "_load", lambda *a, **k: loads.append(a) or real(*a, **k))
    assert (ref("matches"), ref("standings")) == first
    assert loads == []  # nothing folded: every summary still fits
    ref("play", "draw")  # match 3 changes: only it is loaded again, and shown changed
    loads.clear()
    out = ref("matches")
    assert len(loads) == 1 and "ana 20, cy -5" in out and "ana 20, cy 0" in first[0]


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_every_games_state_survives_a_snapshot(name):
    """Snapshots only build the referee's dataclasses: every game's state must be made of them
    (or it would silently never be cached)."""
    from referee.record import state_pickle

    g = registry.game(name)
    s = g.setup(g.sample.players, engine.check_options(g, dict(g.sample.options)))
    for text in g.sample.moves:
        said, colon, rest = text.partition(":")
        mine = colon and said.strip() in g.sample.players
        s = g.apply(s, g.parse(s, rest.strip() if mine else text,
                               said.strip() if mine else g.to_move(s)))
    back = state_pickle.loads(state_pickle.dumps(s))
    assert back == s and type(back) is type(s)
    ledger = g.ledger(back)  # rebuilt from columns: ScoreItems again, not bare tuples
    assert ledger == g.ledger(s) and all(type(i) is engine.ScoreItem for i in ledger)


def test_a_move_committed_by_another_terminal_during_a_read_is_not_tampering(store,
                                                                            monkeypatch):
    """A reading command sees one consistent database: another terminal's play committed
    between its reads is not taken for a cut tail (7 checks and a play at once hit this)."""
    other = Store(store.path)
    real = Store.head_problems

    def with_a_play_in_between(self, *args):
        if self is store:
            session.play(other, "draw")  # commits while `store` is half-way through its read
        return real(self, *args)

    monkeypatch.setattr(Store, "head_problems", with_a_play_in_between)
    verdict = session.play(store, "draw", dry=True)  # `check draw`
    assert verdict.verdict is not None and verdict.verdict.legal
    monkeypatch.undo()
    assert [e.kind for e in store.events(store.current().id)][-1] == "move"


def test_the_events_digest_is_the_same_in_one_pass_or_taken_on_and_sees_any_edit(store):
    """A snapshot saved after a fold carries the digest taken on from the one it started from;
    the next command checks it in one pass: both must agree, and any edited column differ."""
    from referee.record.event_digest import EventDigest, digest

    play_randomly(store, 30, seed=4)
    db, last = store.db, store.last_seq(1)
    pieces = EventDigest().extend(db, 1, 7)
    before = pieces.copy()
    pieces.extend(db, 1, 20).extend(db, 1, last)
    assert pieces.hexdigest() == digest(db, 1, last) != before.hexdigest()
    db.execute("DROP TRIGGER events_no_update")
    for column, value in (("kind", "'moved'"), ("data", "data || ' '"), ("at", "'2020'"),
                          ("hash", "upper(hash)")):
        db.execute("BEGIN")
        db.execute(f"UPDATE events SET {column} = {value} WHERE match = 1 AND seq = 12")
        assert digest(db, 1, last) != pieces.hexdigest(), column
        db.execute("ROLLBACK")
    assert digest(db, 1, last) == pieces.hexdigest()


def test_a_long_ledgers_repeated_labels_are_stored_once_in_a_snapshot():
    """Every command reads the snapshot: a 20,000-event match's ledger repeats a few thousand
    labels 24,000 times, and each written once keeps the snapshot small and quick to read."""
    from dataclasses import replace

    from referee.record import state_pickle

    s = GAME.setup(("ana", "bob"), engine.check_options(GAME, {}))
    label = "tile 1-2-3 at U4,-7 (double match, 2 edges)"
    items = tuple(engine.ScoreItem(("ana", "bob")[i % 2], 6, (label + "!")[:-1], 1 + i // 100)
                  for i in range(5_000))  # equal labels, each its own string (as unpickled)
    long = replace(s, ledger=items)
    blob = state_pickle.dumps(long)
    assert len(blob) < 5_000 * 10  # a label's 44 characters each time would take 220,000
    back = state_pickle.loads(blob)
    assert back == long and all(type(i) is engine.ScoreItem for i in back.ledger)


def test_totals_of_a_ledger_read_back_from_a_snapshot_are_its_sums():
    """A snapshot keeps each player's sum with the ledger; the totals shown from it must be
    the ledger's, players in seating order, and a player scored outside the seating (a table
    correction's name) last."""
    from dataclasses import replace

    from referee.record import state_pickle

    s = GAME.setup(("ana", "bob"), engine.check_options(GAME, {}))
    items = tuple(engine.ScoreItem(p, v, "x") for p, v in
                  (("bob", 5), ("zed", 2), ("ana", -3), ("bob", 7), ("zed", 1)))
    back = state_pickle.loads(state_pickle.dumps(replace(s, ledger=items)))
    shown = engine.totals(back.ledger, ("ana", "bob"))
    assert shown == {"ana": -3, "bob": 12, "zed": 3}
    assert list(shown) == ["ana", "bob", "zed"]
    assert engine.totals(back.ledger[:2], ("ana", "bob")) == {"ana": 0, "bob": 5, "zed": 2}
