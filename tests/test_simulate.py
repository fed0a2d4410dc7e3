"""referee simulate: every bundled game played to its end by both bots, every simulated move
accepted by the referee's own `play`, a rigged game's known answer, determinism, the report."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from referee import engine, registry, session
from referee.cli import main
from referee.dealing import dealer_class
from referee.record.store import Store
from referee.report import summarise, wilson
from referee.simulate import Plan, play_one, run, seats
from tests.rigged_game import GAME as RIGGED

# (game, players, options) short enough for a test; every one ends by its own rules
GAMES = [
    ("thricewise", 3, {}),
    ("tripple-domino", 3, {"target": "80"}),
    ("coda", 3, {}),
    ("duplicon", 2, {"target": "20"}),
    ("dobble-connect", 2, {}),
]


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("game,players,options", GAMES, ids=[g[0] for g in GAMES])
def test_every_game_plays_to_its_end(game, players, options, bot):
    rules = registry.game(game)
    cap = 2 if (game, bot) == ("duplicon", "random") else 12  # a random round: ~0.5 s
    for i in range(3):
        plan = Plan(game, seats(players), options, bot, 7, keep=0, max_rounds=cap)
        r = play_one(rules, plan, i)
        assert r.moves > 0 and r.turns > 0
        assert r.winners and all(0 <= w < players for w in r.winners)
        if not (game == "duplicon" and bot == "random"):  # random Duplicon may never score
            assert not r.capped, (game, bot, i)


@pytest.mark.parametrize("game,players,options", GAMES, ids=[g[0] for g in GAMES])
def test_simulated_games_replay_through_play(tmp_path, game, players, options):
    """The simulator cannot invent moves the referee rejects: each recorded move, typed into
    `session.play` (what `referee play` runs), is accepted, and the match ends the same."""
    rules = registry.game(game)
    store = Store(tmp_path / "db.sqlite3")
    for bot in ("random", "greedy"):
        plan = Plan(game, seats(players), options, bot, 3, keep=1, max_rounds=1)
        record = play_one(rules, plan, 0)
        session.new_match(store, game, record.players, options)
        for text, player in record.log:
            played = session.play(store, text, player)
            assert played.error is None, (text, played.error)
            assert played.verdict.legal, (text, played.verdict.violations)
        cur = session.load(store)
        totals = engine.totals(rules.ledger(cur.state), record.players)
        assert tuple(totals[p] for p in record.players) == record.scores
        if not record.capped:
            outcome = rules.outcome(cur.state)
            assert tuple(record.players.index(w) for w in outcome.winners) == record.winners


@pytest.fixture
def rigged():
    registry.register(RIGGED)
    yield RIGGED
    registry.unregister(RIGGED.name)


def test_rigged_game_reports_seat_one_always_wins(rigged):
    plan = Plan(rigged.name, seats(3), {}, "random", 5)
    records = run(plan, 400, workers=2)
    s = summarise(records, rigged.name, "random", 5, {})
    first, second, third = s["seats"]
    assert first["rate"] == 1.0 and first["wins"] == 400
    assert first["ci95"][0] > 0.99 and first["ci95"][1] == pytest.approx(1.0)  # 99.0-100 %
    assert second["rate"] == third["rate"] == 0.0 and second["ci95"][1] < 0.01
    assert s["first_seat"]["advantage"] == pytest.approx(2 / 3)


def test_wilson_interval_known_values():
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))


def test_same_seed_same_games_whatever_the_workers():
    plan = Plan("thricewise", seats(3), {}, "random", 11)
    one = run(plan, 40, workers=1)
    two = run(plan, 40, workers=2)
    assert [(r.winners, r.scores, r.moves) for r in one] == \
           [(r.winners, r.scores, r.moves) for r in two]
    other = run(Plan("thricewise", seats(3), {}, "random", 12), 40, workers=1)
    assert [r.scores for r in other] != [r.scores for r in one]


def test_tripple_domino_choices_are_the_referees_legal_moves():
    """The dealer's placements are exactly what legal_moves lists for the tiles in hand."""
    rules = registry.game("tripple-domino")
    rng = random.Random(4)
    state = rules.setup(seats(3), engine.check_options(rules, {}))
    dealer = dealer_class(rules)(rules, state, rng)
    checked = 0
    for _ in range(120):
        turn = dealer.turn(state)
        if turn is None:
            break
        if turn.player is not None and not state.draws and not dealer.peeked:
            hand = set(dealer.hands[state.index(turn.player)])
            listed = {m for m in rules.legal_moves(state)
                      if type(m).__name__ == "Place" and not m.drawn and m.tile in hand}
            offered = {c.move for c in turn.choices if c.move is not None}
            offered_places = {m for m in offered if type(m).__name__ == "Place"}
            assert offered_places == listed
            checked += 1
        choice = rng.choice(list(turn.choices))
        if choice.move is None:
            dealer.commit(state, choice.intent)
            continue
        verdict, after = rules.judge(state, choice.move)
        assert verdict.legal
        dealer.moved(state, choice.move, after)
        state = after
    assert checked > 10


def test_coda_guesses_come_from_the_public_deduction():
    """Every guess offered is one legal_moves lists (the referee's deduction), answered truly."""
    rules = registry.game("coda")
    rng = random.Random(2)
    state = rules.setup(seats(3), engine.check_options(rules, {}))
    dealer = dealer_class(rules)(rules, state, rng)
    guesses = 0
    while (turn := dealer.turn(state)) is not None and guesses < 40:
        moves = [c.move for c in turn.choices]
        if state.phase == "guess":
            listed = set(rules.legal_moves(state))
            assert set(moves) <= listed
            for m in moves:
                if type(m).__name__ == "Guess":
                    truth = dealer.truth[state.row(m.target)[m.position - 1].id]
                    assert m.hit == (str(truth // 2) == m.value)
                    guesses += 1
        move = rng.choice(moves)
        verdict, after = rules.judge(state, move)
        assert verdict.legal
        dealer.moved(state, move, after)
        state = after
    assert guesses >= 40


def _cli(args, db):
    return CliRunner().invoke(main, ["--db", str(db), *args])


def test_cli_report_json_and_kept_matches(tmp_path):
    db = tmp_path / "db.sqlite3"
    res = _cli(["simulate", "thricewise", "--players", "3", "--games", "30", "--seed", "2",
                "--keep", "2", "--json", "--workers", "1"], db)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)  # stderr: progress lines when the run takes over a second
    assert data["games"] == 30 and len(data["seats"]) == 3
    assert sum(s["wins"] for s in data["seats"]) >= 30
    assert len(data["cards"]) == 36 and data["kept"] == [1, 2]
    log = _cli(["log", "--match", "2", "--all"], db)  # the "new" event with its options
    assert log.exit_code == 0 and "reveal" in log.output and "grid" in log.output
    replay = _cli(["replay", "--match", "1", "--to", "3"], db)
    assert replay.exit_code == 0, replay.output
    shown = _cli(["show", "--match", "1"], db)
    assert "game over" in shown.output


def test_cli_text_report_says_what_it_simulates(tmp_path):
    res = _cli(["simulate", "dobble-connect", "--players", "2", "--games", "6", "--workers",
                "1"], tmp_path / "db")
    assert res.exit_code == 0, res.output
    assert "random team act" in res.output
    assert "first seat: wins" in res.output and "95% CI" in res.output
    assert "rounds with no winner" in res.output and "never played" in res.output
    assert "cards: " in res.output and " of 40 played" in res.output  # pink and orange only


@pytest.mark.parametrize("args,where", [
    (["simulate", "nosuchgame", "--players", "2"], "unknown game"),
    (["simulate", "coda", "--players", "9"], "--players"),
    (["simulate", "coda", "--players", "2", "--games", "0"], "--games"),
    (["simulate", "coda", "--players", "2", "--bot", "clever"], "--bot"),
    (["simulate", "coda", "--players", "2", "--option", "colour=red"], "unknown option"),
    (["simulate", "coda", "--players", "2", "--option", "sealed=yes"], "--option sealed"),
    (["simulate", "coda", "--players", "2", "--keep", "5", "--games", "2"], "--keep"),
])
def test_cli_mistakes_are_one_line(tmp_path, args, where):
    res = _cli(args, tmp_path / "db")
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and where in lines[0]


def test_plot_shows_the_rigged_seat_winning(tmp_path, rigged):
    """Measured from the rendered PNG: in the win-rate panel only seat 1 has a bar, reaching
    the top of the 0-100 % axis."""
    pytest.importorskip("matplotlib")
    from PIL import Image

    out = tmp_path / "plot.png"
    res = _cli(["simulate", rigged.name, "--players", "3", "--games", "50", "--workers", "1",
                "--plot", str(out)], tmp_path / "db")
    assert res.exit_code == 0, res.output
    img = Image.open(out).convert("RGB")
    w, h = img.size
    px = img.load()
    green = [(x, y) for x in range(2 * w // 3, w) for y in range(h)
             if px[x, y] == (0x2C, 0xA0, 0x2C)]
    xs = sorted({x for x, _ in green})
    runs = sum(1 for a, b in zip([None, *xs], xs, strict=False) if a is None or b != a + 1)
    assert runs == 1  # one bar: seats 2 and 3 won nothing
    ys = [y for _, y in green]
    assert max(ys) - min(ys) > h / 2  # 100 %: the bar spans most of the panel's height


def test_plot_without_matplotlib_is_one_line(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    res = _cli(["simulate", "thricewise", "--players", "2", "--games", "2", "--plot",
                str(tmp_path / "p.png")], tmp_path / "db")
    assert res.exit_code == 2
    assert res.output.strip() == ("error: --plot needs matplotlib: pip install "
                                  "'pnp-toolkit[plot]' (--plot)")
    assert not (tmp_path / "p.png").exists()


def test_simulate_imports_no_reportlab_or_pillow(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = """
import sys
from referee.cli import main
for game in ("thricewise", "tripple-domino", "coda", "duplicon", "dobble-connect"):
    main(["simulate", game, "--players", "2", "--games", "2", "--workers", "1", "--max-rounds",
          "1"], standalone_mode=False)
print("HEAVY", sorted(m for m in sys.modules if m.split(".")[0] in ("reportlab", "PIL")))
"""
    env = {**os.environ, "REFEREE_DB": str(tmp_path / "x.sqlite3"),
           "REFEREE_CACHE": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.returncode == 0, out.stderr
    assert "HEAVY []" in out.stdout


def test_thricewise_any_turn_bots_do_not_defer_forever():
    """Variant deferred=any-turn: two players re-revealing deferred cards of one rank would
    defer them again every turn (greedy did, seed 0: no end after 50,000 steps)."""
    rules = registry.game("thricewise")
    for bot in ("greedy", "random"):
        plan = Plan("thricewise", seats(5), {"deferred": "any-turn"}, bot, 0)
        for i in range(4):
            r = play_one(rules, plan, i)
            assert not r.capped and r.moves < 80


def test_deck_deals_from_a_users_folder(tmp_path):
    """A copy of the template with corners 0-4 (35 tiles): the report's cards are those 35,
    and afterwards the bundled 56 are read again."""
    import shutil
    from pathlib import Path

    folder = tmp_path / "small-tripple"
    shutil.copytree(Path(__file__).resolve().parents[1] / "templates" / "tripple-domino", folder)
    toml = folder / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("options = { max = 5 }",
                                                             "options = { max = 4 }"),
                    encoding="utf-8")
    res = _cli(["simulate", "tripple-domino", "--players", "3", "--games", "6", "--workers", "1",
                "--deck", str(folder), "--json", "--option", "target=60"], tmp_path / "db")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    cards = {c["card"] for c in data["cards"]}
    assert len(cards) == 35 and not any("5" in c for c in cards)
    assert f"dealt from {folder}" in data["note"]
    from referee.games.tripple_domino import tiles

    assert len(tiles()) == 56
    res = _cli(["simulate", "tripple-domino", "--players", "3", "--deck", str(folder), "--keep",
                "1"], tmp_path / "db")
    assert res.exit_code == 2 and "--keep cannot be used with --deck" in res.output


def test_a_deck_with_a_tile_twice_is_refused_naming_it(tmp_path):
    """The tester's report: a copy of Tripple Domino listing its 56 tiles in a CSV, 0-0-1
    twice, simulated as `56 of 56 played`, the second 0-0-1 silently dropped. A tile is known
    by its corners (moves, the board, the tiles used name it so), so a set holds one of each:
    such a deck is refused in one line naming the tile and the deck."""
    import shutil
    from itertools import combinations_with_replacement
    from pathlib import Path

    folder = tmp_path / "td"
    shutil.copytree(Path(__file__).resolve().parents[1] / "templates" / "tripple-domino", folder)
    toml = folder / "game.toml"
    text = toml.read_text(encoding="utf-8")
    text = text.replace('source = "triangles"', 'source = "csv"\nfile = "tiles.csv"')
    text = text.replace("options = { max = 5 }\n", "").replace("count = 56\n", "")
    text = text.replace('unique = ["a", "b", "c"]\n', "").replace("domino_set = true\n", "")
    toml.write_text(text, encoding="utf-8")
    rows = [f"{a},{b},{c},{a + b + c}" for a, b, c in combinations_with_replacement(range(6), 3)]
    (folder / "tiles.csv").write_text("a,b,c,value\n" + "\n".join(rows + ["0,0,1,1"]) + "\n",
                                      encoding="utf-8")
    res = _cli(["simulate", "tripple-domino", "--players", "2", "--games", "5", "--workers", "1",
                "--deck", str(folder)], tmp_path / "db")
    assert res.exit_code == 2, res.output
    line, = res.output.strip().splitlines()
    assert line.startswith(f"error: the cards in {folder} ") and line.endswith("(--deck)"), line
    assert "0-0-1" in line and "twice" in line, line
