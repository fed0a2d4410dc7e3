"""The referee reads the cards the generator prints; the on-disk memo never changes the answer."""

from __future__ import annotations

import json

from generator.definition import load
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
