"""`referee position` carries the table's corrections: a match rebuilt from it with `new
--position` has the same totals, in every game that writes its position. The tester's report:
`play ana points 5; adjust bob -4; position` gave a match where bob had 0, not -4."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from referee import registry
from referee.cli import main
from tests.test_referee_cli import one_error_line


def _run(db, *args, code=0):
    r = CliRunner().invoke(main, ["--db", str(db), *args])
    assert code is None or r.exit_code == code, r.output + r.stderr
    return r


def _totals(db):
    shown = json.loads(_run(db, "show", "--json").stdout)
    return shown["totals"], shown["adjusted"]


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_a_match_rebuilt_from_its_position_has_the_same_totals(tmp_path, name):
    """Each game from its sample opening, two corrections (one undone), written and read
    back: the same totals, the corrections named as such."""
    g = registry.game(name)
    s = g.sample
    db = tmp_path / "m.sqlite3"
    options = [w for k, v in s.options.items() for w in ("--option", f"{k}={v}")]
    _run(db, "new", name, "--players", ",".join(s.players), *options)
    for move in s.moves:
        _run(db, "play", "--", move)
    first, second = s.players[0], s.players[1]
    _run(db, "adjust", second, "-4", "--reason", "counted #3 twice")
    _run(db, "adjust", first, "+2", "--reason", "taken back")
    _run(db, "undo")
    _run(db, "adjust", first, "+7", "--reason", "a missed bonus")
    written = _run(db, "position", code=None)
    if written.exit_code:
        assert "cannot write its position" in one_error_line(written)
        pytest.skip(f"{name} writes no position")
    text = written.stdout
    (tmp_path / "p.txt").write_text(text)
    before = _totals(db)
    assert before[1][second] == -4 and before[1][first] == 7
    _run(db, "new", name, "--players", ",".join(s.players), *options, "--position",
         str(tmp_path / "p.txt"))
    assert _totals(db) == before
    assert _run(db, "position").stdout == text  # and it writes the same position again
    score = _run(db, "score").stdout
    assert "adjusted: counted #3 twice" in score and "adjusted: a missed bonus" in score
    assert "taken back" not in score


def test_a_bad_correction_line_names_its_line(tmp_path):
    db = tmp_path / "m.sqlite3"
    for line, message in [("adjust 1 zed -4 x", "unknown player 'zed'"),
                          ("adjust 1 bob -4", "adjust ROUND PLAYER POINTS REASON"),
                          ("adjust one bob -4 x", "the round is a whole number from 1"),
                          ("adjust 1 bob 9999999999 x", "at most 9 digits")]:
        (tmp_path / "p.txt").write_text(f"round 1\nscore 1 ana points 5\n{line}\n")
        error = one_error_line(_run(db, "new", "scorepad", "--players", "ana,bob",
                                    "--position", str(tmp_path / "p.txt"), code=2))
        assert message in error and error.endswith("(position line 3)"), error
    assert not db.exists() or "[]" in _run(db, "matches", "--json").stdout
