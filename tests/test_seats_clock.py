"""The table's clock: each player's time on turn is the time from the previous turn change to
their move, as the record's event times say (a fake clock stamps the events); the page shows
it and warns past --turn and --clock; `referee playtests` reports it per turn, player, match."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta

import pytest

from referee import playtests, session, table_session
from referee.record import Store
from referee.seats import clock
from referee.table_page.view import table_view
from tests.test_table_page import env, referee  # noqa: F401  (env: the fixture)

T0 = datetime(2026, 11, 27, 20, 0, 0, tzinfo=UTC)


@pytest.fixture
def timed(tmp_path, monkeypatch):
    """A Tripple Domino match whose events are stamped by a fake clock: `at(seconds)` sets
    the time of the next events, counted from T0."""
    now = [T0]
    monkeypatch.setattr("referee.record.store._now",
                        lambda: now[0].strftime("%Y-%m-%dT%H:%M:%S.%fZ"))
    store = Store(tmp_path / "m.sqlite3")

    def at(seconds: float) -> None:
        now[0] = T0 + timedelta(seconds=seconds)

    session.new_match(store, "tripple-domino", ["ana", "bob"], {})
    return store, at


def play(store: Store, text: str | None = None) -> session.Played:
    """`text`, or the first placement the referee lists for the player to act."""
    if text is None:
        text = next(m for m in table_session.moves(store).moves if not m.startswith("draw"))
    p = session.play(store, text)
    assert p.event is not None or p.verdict is not None, p
    return p


def test_time_on_turn_is_the_time_between_turn_changes(timed):
    store, at = timed
    at(5)
    play(store, "start ana=5-5-5 bob=4-4-4")  # ana opens: 5 s after the match began
    at(35)
    play(store)  # bob: 30 s
    at(40)
    assert not play(store, "0-0-0 D9,9").verdict.legal  # a rejected try: no turn change
    at(52)
    play(store)  # ana: 17 s (from bob's move, the rejected try inside it)
    at(60)
    table_session.undo(store)  # taken back: the 8 s until then are the table's
    at(100)
    play(store)  # ana again: 40 s
    cur = session.load(store)
    shown = table_view(cur)["clock"]
    assert shown["spent"] == {"ana": 5 + 17 + 40, "bob": 30}
    assert shown["on_turn"] == "bob"
    assert shown["since"] == (T0 + timedelta(seconds=100)).timestamp()
    stamped = {s.event.seq: clock.when(s.at) for s in cur.stamped}
    assert stamped[3] - stamped[2] == 30  # the record's own times, read back
    # warnings at a given moment: past the turn limit, then past bob's game clock
    view = {**shown, "turn_limit": 90, "game_limit": 150}
    assert clock.over(view, shown["since"] + 60) == []
    assert clock.over(view, shown["since"] + 91) == ["bob is over the 1:30 turn limit"]
    assert clock.over(view, shown["since"] + 121) == ["bob is over the 1:30 turn limit",
                                                      "bob is over the 2:30 game clock"]


def test_playtests_report_the_time_per_turn_player_and_match(timed):
    store, at = timed
    at(5)
    play(store, "start ana=5-5-5 bob=4-4-4")
    at(35)
    play(store)
    at(45)
    play(store)
    summary = playtests.gather(store, "tripple-domino")
    spent = summary["plays"][0]["time"]
    assert spent == {"on_turn": {"ana": 15.0, "bob": 30.0}, "turns": 3, "seconds": 45.0,
                     "play": 45.0}
    assert summary["turn_seconds"]["max"] == 30 and summary["turn_seconds"]["min"] == 5
    assert "time on turn, all matches: ana 0:15, bob 0:30" in playtests.text(summary)


def test_the_csv_and_bg_stats_give_the_play_time_the_record_says(timed):
    """`playtests --csv` has the match's play time and each player's time on turn, in seconds,
    equal to the record's own event times; BG Stats gets the same play time in minutes. A note
    written an hour after the game adds nothing: play time runs over the turn changes."""
    from referee import export, notes

    store, at = timed
    at(5)
    play(store, "start ana=5-5-5 bob=4-4-4")
    at(95)
    play(store)  # bob: 90 s
    at(130)
    table_session.undo(store)  # the table's 35 s: play time, nobody's turn
    at(200)
    play(store)  # bob again: 70 s
    at(245.5)
    play(store)  # ana: 45.5 s
    table_session.end(store, False, ["ana"], "we stop here")
    at(3845.5)
    notes.note(store, "the box is too small")
    record = {s.event.seq: clock.when(s.at) for s in session.load(store).stamped}
    start, last = record[1], max(t for seq, t in record.items() if seq < max(record))
    summary = playtests.gather(store, "tripple-domino")
    rows = list(csv.DictReader(io.StringIO(playtests.rows_csv(summary))))
    assert list(rows[0])[:11] == ["game", "match", "created", "status", "players", "seat",
                                  "player", "total", "won", "play_seconds", "player_seconds"]
    assert [(r["player"], r["play_seconds"], r["player_seconds"]) for r in rows] == [
        ("ana", "245.5", "50.5"), ("bob", "245.5", "160.0")]
    assert float(rows[0]["play_seconds"]) == last - start
    assert summary["minutes"]["max"] == pytest.approx(245.5 / 60)
    bg = export.bgstats([session.load(store)])
    assert bg["plays"][0]["durationMin"] == round((last - start) / 60) == 4


@pytest.mark.parametrize("flag", ["--turn", "--clock"])
def test_a_time_limit_that_is_no_time_is_one_line(env, flag):  # noqa: F811
    assert referee(env, "new", "tripple-domino", "--players", "ana,bob").returncode == 0
    done = referee(env, "serve", "--no-open", flag, "90 parsecs")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: '90 parsecs' is no duration") and flag in done.stderr


def test_durations_read_as_people_write_them():
    assert [clock.duration(t, "--turn") for t in ("90s", "30m", "1h30m", "45", "2 m")] == \
        [90, 1800, 5400, 45, 120]
    assert json.dumps(clock.span(3725)) == '"1:02:05"'


def test_the_terminal_says_each_clock_warning_once(timed):
    store, at = timed
    at(5)
    play(store, "start ana=5-5-5 bob=4-4-4")
    view = table_view(session.load(store))
    now = [view["clock"]["since"] + 10]
    said: list[str] = []
    warn = clock.Warner({"turn": 60, "game": None}, now=lambda: now[0], say=said.append)
    warn(view)
    assert said == []
    now[0] += 60
    warn(view)
    warn(view)
    assert said == ["clock: bob is over the 1:00 turn limit (match 1, event 2)"]
