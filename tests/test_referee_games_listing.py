"""`referee games` lists the games from a memo of what their rules say (no rules imported once
kept), the same as the rules themselves, and lists an added or edited game at once."""

from __future__ import annotations

import json
import os

from click.testing import CliRunner
from test_referee_startup import imported_by

from referee import games_listing, registry
from referee.cli import main


def rules_listing() -> list[dict]:
    """What the rules say, every game imported (those registered in memory too)."""
    return [{"name": g.name, "title": g.title, "players": [g.min_players, g.max_players],
             "options": [{"name": o.name, "default": o.default, "choices": list(o.choices),
                          "help": o.help} for o in g.options],
             "notation": g.notation}
            for g in registry.games().values()]


def bundled() -> list[dict]:
    """rules_listing() without the games registered in memory by other tests."""
    games = registry.games().values()
    return [row for row, g in zip(rules_listing(), games, strict=True)
            if type(g).__module__.startswith("referee.games.")]


def test_games_once_kept_lists_what_the_rules_say(tmp_path):
    env = {**os.environ, "REFEREE_DB": str(tmp_path / "m.sqlite3"),
           "REFEREE_CACHE": str(tmp_path / "cache")}
    first, _ = imported_by(["games", "--json"], env)  # reads the rules, keeps the memo
    again, _ = imported_by(["games", "--json"], env)
    assert json.loads(again) == json.loads(first) == bundled()
    text, _ = imported_by(["games"], env)
    for g in bundled():
        lo, hi = g["players"]
        assert f"{g['name']}  ({g['title']}, {lo}-{hi} players)" in text


def test_a_memo_of_other_files_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path))
    monkeypatch.setattr(registry, "_REGISTERED", {})
    (tmp_path / "games.json").write_text(json.dumps({"key": "older files", "games": [
        {"name": "gone", "title": "Gone", "players": [2, 2], "options": [], "notation": ""}]}))
    out = CliRunner().invoke(main, ["games", "--json"]).output
    assert json.loads(out) == rules_listing()


def test_the_memo_key_changes_when_a_file_is_added_or_edited(tmp_path, monkeypatch):
    monkeypatch.setattr(games_listing, "_roots", lambda: [str(tmp_path)])
    (tmp_path / "a.py").write_text("x = 1\n")
    before = games_listing._fingerprint()
    (tmp_path / "new_game.py").write_text("GAME = None\n")
    added = games_listing._fingerprint()
    (tmp_path / "a.py").write_text("x = 22\n")
    assert len({before, added, games_listing._fingerprint()}) == 3


def test_a_game_registered_in_memory_is_listed(tmp_path, monkeypatch):
    import example_game

    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path))
    monkeypatch.setattr(registry, "_REGISTERED", {})
    CliRunner().invoke(main, ["games"])  # a memo without it
    registry.register(example_game.GAME)
    out = CliRunner().invoke(main, ["games", "--json"]).output
    assert example_game.GAME.name in [g["name"] for g in json.loads(out)]
    assert json.loads(out) == rules_listing()
