"""Issue 41 item 5: a note about a card keeps the card's content; after the designer edits the
card, `referee playtests` shows the note under the version it was about ("about Desert v1
(value 2), now value 3") and counts the card's per-card figures apart by version."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from referee.cli import main

DECKTET = Path(__file__).resolve().parents[1] / "templates" / "decktet"


def runner(db: Path):
    """`referee` on this database, in-process; each call must succeed (its stdout)."""

    def run(*args: str) -> str:
        done = CliRunner().invoke(main, ["--db", str(db), *args])
        assert done.exit_code == 0, done.output
        return done.stdout

    return run


def test_a_note_stays_with_the_version_of_the_card_it_was_about(tmp_path):
    run = runner(tmp_path / "m.sqlite3")
    # six Thricewise games kept as matches (the same deals every run: seed 0)
    run("simulate", "thricewise", "--players", "2", "--games", "6", "--keep", "6",
        "--workers", "1")
    before = {r["card"]: r for r in json.loads(run("playtests", "thricewise", "--json"))[
        "by_players"][0]["card_win_rates"]}
    mine = tmp_path / "my-decktet"
    shutil.copytree(DECKTET, mine)
    run("note", "Desert too strong", "--card", "desert", "--deck", str(mine), "--match", "2")
    cards = mine / "cards.csv"
    text = cards.read_text(encoding="utf-8")
    assert "Desert,2,2,2,suns,wyrms,,basic" in text
    cards.write_text(text.replace("Desert,2,2,2,", "Desert,2,3,2,"), encoding="utf-8")
    run("note", "Desert fine now", "--card", "desert", "--deck", str(mine), "--match", "4")

    out = run("playtests", "thricewise").splitlines()
    at = out.index("  Desert: 2")
    assert out[at + 1:at + 5] == ["    about Desert v1 (value 2), now value 3",
                                  "      match 2: Desert too strong",
                                  "    about Desert v2, the card as it is now",
                                  "      match 4: Desert fine now"]

    after = {r["card"]: r for r in json.loads(run("playtests", "thricewise", "--json"))[
        "by_players"][0]["card_win_rates"]}
    assert "Desert" not in after
    # match 4 played the card as it is now (its note says so); the others, as it was
    assert after["Desert v2"]["played"] == 1
    assert after["Desert v1"]["played"] + 1 == before["Desert"]["played"]
    assert {k for k in after if not k.startswith("Desert")} == set(before) - {"Desert"}


def test_a_note_about_no_card_reads_as_before(tmp_path):
    """A note that names no card has no version: it is listed as it always was."""
    run = runner(tmp_path / "m.sqlite3")
    run("new", "thricewise", "--players", "ana,bob")
    run("note", "the grid is hard to read")
    out = run("playtests", "thricewise").splitlines()
    at = out.index("  (no card): 1")
    assert out[at + 1] == "    match 1: the grid is hard to read"
