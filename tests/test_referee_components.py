"""The referee reads the cards the generator prints; the on-disk memo never changes the answer."""

from __future__ import annotations

import json

from pnp_model.definition import load
from referee import components


def _fresh(monkeypatch, tmp_path):
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path))
    return tmp_path / "cards-tripple-domino.json"


def test_cards_are_the_definitions_cards(monkeypatch, tmp_path):
    memo = _fresh(monkeypatch, tmp_path)
    got = components.cards("tripple-domino", ("a", "b", "c", "value"))
    want = [(c.id, {k: c[k] for k in ("a", "b", "c", "value")})
            for c in load("tripple-domino").cards]
    assert got == want and memo.exists()
    assert components.cards("tripple-domino", ("a", "b", "c", "value")) == want  # from memo


def test_a_memo_for_other_files_or_fields_is_not_used(monkeypatch, tmp_path):
    memo = _fresh(monkeypatch, tmp_path)
    components.cards("tripple-domino", ("a",))
    data = json.loads(memo.read_text())
    data["key"] = "stale"
    data["cards"] = [[1, {"a": "9"}]]
    memo.write_text(json.dumps(data))
    assert components.cards("tripple-domino", ("a",))[0] == (1, {"a": "0"})
    assert components.cards("tripple-domino", ("value",))[-1] == (56, {"value": "15"})


def test_a_broken_memo_is_read_afresh(monkeypatch, tmp_path):
    memo = _fresh(monkeypatch, tmp_path)
    memo.write_text("{not json")
    assert len(components.cards("tripple-domino", ("a",))) == 56
    assert json.loads(memo.read_text())["fields"] == ["a"]


def test_symbols_come_through_the_memo_too(monkeypatch, tmp_path):
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path))
    want = [(c.id, {"color": c["color"], "symbols": list(c.symbols)})
            for c in load("dobble-connect").cards]
    assert components.cards("dobble-connect", ("color", "symbols")) == want
    assert components.cards("dobble-connect", ("color", "symbols")) == want  # from memo


def test_with_a_warm_memo_no_game_reads_the_definitions_again(tmp_path):
    """Every game's cards come through the memo: a command does not read the definitions."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = """
import sys
from referee.cli import main
for game in ("tripple-domino", "thricewise", "coda", "dobble-connect", "duplicon"):
    main(["new", game, "--players", "ana,bob"], standalone_mode=False)
    main(["show"], standalone_mode=False)
print("LOADED", sorted(m for m in sys.modules if m.startswith(("generator", "pnp_model.definition"))))
"""
    env = {**os.environ, "REFEREE_DB": str(tmp_path / "x.sqlite3"),
           "REFEREE_CACHE": str(tmp_path / "cache")}
    root = Path(__file__).resolve().parents[1]
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           cwd=root)
    assert first.returncode == 0, first.stderr
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           cwd=root)
    assert again.returncode == 0, again.stderr
    assert "LOADED []" in again.stdout
