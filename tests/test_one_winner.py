"""Issue 37, "one match, two winners": a score sheet played to its end with a correction before
the last round and one after it. Corrected totals decide (an adjustment is a correction), and
every command and the table page name the same winner; a correction that changes the result
of a finished match says so."""

from __future__ import annotations

import json
import os
import time

from tests.test_table_page import Served


def winners_everywhere(run, served: Served) -> dict[str, list[str]]:
    """The winner(s) as each command and the page name them, read from their own output."""
    show = json.loads(run("show", "--json").output)
    (match,) = json.loads(run("matches", "--json").output)
    standings = json.loads(run("standings", "--game", "scorepad", "--json").output)
    playtests = json.loads(run("playtests", "scorepad", "--json").output)
    (size,) = playtests["by_players"]
    seats = playtests["plays"][0]["players"]
    record = json.loads(run("export", "--format", "json").output)
    record = record[0] if isinstance(record, list) else record
    bgstats = json.loads(run("export", "--format", "bgstats").output)
    ids = {p["id"]: p["name"] for p in bgstats["players"]}
    # the page follows the record by polling it: wait (bounded) until it has read the last event
    last = show["event"] if "event" in show else None
    for _ in range(100):
        status, page = served.get("/table.json")
        assert status == 200
        if last is None or json.loads(page).get("event") == last:
            break
        time.sleep(0.1)
    return {
        "show": show["outcome"]["winners"],
        "show text": [run("show").output.split("game over: ")[1].split(" —")[0]],
        "matches": match["winners"],
        "standings": [r["player"] for r in standings if r["won"]],
        "playtests": playtests["plays"][0]["winners"],
        "playtests seats": [seats[r["seat"] - 1] for r in size["seats"] if r["wins"]],
        "export": record["outcome"]["winners"],
        "bgstats": [ids[s["playerRefId"]] for s in bgstats["plays"][0]["playerScores"]
                    if s["winner"]],
        "table.json": json.loads(page)["outcome"]["winners"],
    }


def test_every_command_and_the_page_name_the_one_winner(referee_run, tmp_path):
    run = referee_run
    run("new", "scorepad", "--players", "ana,bob,cy", "--option", "categories=points",
        "--option", "rounds=2")
    for move in ("ana points 8", "bob points 6", "cy points 6", "round"):
        run("play", move)
    # before the last round: bob's bonus, forgotten in round 1
    run("adjust", "bob", "+4", "--reason", "forgot the bonus")
    for move in ("ana points 7", "bob points 6", "cy points 6"):
        run("play", move)
    # as entered: ana 15, bob 12, cy 12; corrected: bob 16 wins, and `play` says so at once
    played = json.loads(run("check", "round", "--json").output)  # a dry run: no outcome yet
    assert "outcome" not in played
    last = run("play", "round").output
    assert "game over: bob — highest total 16" in last, last
    run("undo")
    played = json.loads(run("play", "round", "--json").output)
    assert played["outcome"] == {"winners": ["bob"], "reason": "highest total 16"}
    served = Served({**os.environ, "REFEREE_DB": str(run.db),
                     "REFEREE_CACHE": str(tmp_path / "cache")})
    try:
        seen = winners_everywhere(run, served)
        assert all(w == ["bob"] for w in seen.values()), seen
        sheet = json.loads(served.get("/table.json")[1])["text"].splitlines()
        assert [row.split()[-1] for row in sheet if row.startswith(("ana", "bob", "cy"))] == [
            "15", "16", "12"]  # the page's sheet totals the corrected scores, as show does
        # after the game ended: ana's recount makes her 17, and the correction says so
        said = run("adjust", "ana", "+2", "--reason", "recount").output
        assert "the winner is now ana — highest total 17 (was bob)" in said, said
        seen = winners_everywhere(run, served)
        assert all(w == ["ana"] for w in seen.values()), seen
        # taken back, the result goes back, and undo says so too
        said = run("undo").output
        assert "the winner is now bob" in said, said
        assert all(w == ["bob"] for w in winners_everywhere(run, served).values())
    finally:
        served.stop()
    # a correction that leaves the winner as it was says nothing of the winner
    assert "winner" not in run("adjust", "cy", "+1", "--reason", "recount").output
