"""What the referee shows and lists at the table (issue 16 §2): a Tripple Domino board that fits
a 80x24 terminal with labels that never touch, `ask where TILE`, and `referee moves` in every
game, each answer checked against the judge (`referee check`) rather than re-derived."""

from __future__ import annotations

import json
import random
import re

import pytest

from referee import registry, session
from referee.games.tripple_domino import GAME as TD
from referee.games.tripple_domino import Place
from referee.record.store import Store

LABEL = re.compile(r"[UuDd]-?\d+,-?\d+")


@pytest.fixture
def run(referee_run):
    return referee_run


def big_round(db, seed: int = 5, placements: int = 40) -> list[str]:
    """A three-player round of seeded random legal play, recorded through the session."""
    rng = random.Random(seed)
    store = Store(db)
    session.new_match(store, "tripple-domino", ["ana", "bob", "cy"], {})
    played = [session.play(store, "start ana=5-5-5 bob=4-4-4 cy=3-3-3").move]
    while len(played) < placements:
        state = session.load(store).state
        if state.phase != "play":
            break
        moves = TD.legal_moves(state)
        places = [m for m in moves if isinstance(m, Place) and not m.drawn]
        move = rng.choice(places) if places and rng.random() < 0.9 else rng.choice(moves)
        played.append(session.play(store, TD.format(state, move)).move)
    store.close()
    return played


def labels_stand_clear(text: str) -> list[str]:
    """Every cell label of the drawing, asserting each has a space (or the line's end) on
    both sides: nothing drawn touches or overwrites it."""
    found = []
    for line in text.splitlines():
        if "·" in line or line.startswith("match "):
            continue  # a text line, not the drawing
        for m in LABEL.finditer(line):
            before = line[m.start() - 1] if m.start() else " "
            after = line[m.end()] if m.end() < len(line) else " "
            assert before == " " and after == " ", f"label {m[0]} touches: {line!r}"
            found.append(m[0])
    return found


def test_a_large_tripple_domino_board_fits_80x24_around_the_latest_tile(run):
    played = big_round(run.db, seed=3)  # its full board has labels like D-2,-1
    full = run("show", "--full").output
    assert len(full.splitlines()) > 24  # the whole board does not fit a terminal
    shown = run("show").output
    lines = shown.splitlines()
    assert len(lines) <= 24 and max(len(x) for x in lines) <= 80, shown
    latest = played[-1].split()[1]  # "2-3-4 U1,0 as ..." -> U1,0
    assert f"around {latest}:" in shown and latest in labels_stand_clear(shown)
    assert "to move:" in shown or "went out" in shown
    state = json.loads(run("show", "--json").output)
    for name, total in state["totals"].items():
        assert re.search(rf"{name} +{total} points", shown)
    # the full view has every tile, each label clear of the edges
    on_table = {(x.split()[2] if x.startswith("draw") else x.split()[1]) for x in played[1:]
                if re.match(r"(draw )?\d-\d-\d ", x)}
    assert on_table <= set(labels_stand_clear(full))


def test_long_labels_far_from_the_first_tile_stand_clear_too(run, tmp_path):
    f = tmp_path / "far.txt"  # labels of 8 characters: d-11,-10, u-11,-10
    f.write_text("turn ana\nU-10,-10 5-5-5\nD-11,-10 5-4-5\n")
    run("new", "tripple-domino", "--players", "ana,bob", "--position", str(f))
    for args in (("show",), ("show", "--full")):
        out = run(*args).output
        assert {"U-10,-10", "D-11,-10", "u-11,-10"} <= set(labels_stand_clear(out))
        assert max(len(line) for line in out.splitlines()) <= 80


def test_a_small_board_is_shown_whole(run):
    run("new", "tripple-domino", "--players", "ana,bob")
    run("play", "start ana=5-5-5 bob=4-4-4")
    shown = run("show").output
    assert shown.replace(shown.splitlines()[0], "") == run("show", "--full").output.replace(
        shown.splitlines()[0], "")
    assert "U0,0" in labels_stand_clear(shown)


def test_ask_where_lists_exactly_the_cells_the_judge_accepts(run):
    big_round(run.db, seed=3, placements=12)
    free = {x for x in labels_stand_clear(run("show", "--full").output) if x[0] in "ud"}
    unplayed = next(t for t in ("0-3-5", "1-2-4", "0-2-3", "1-3-5")
                    if "already on the table" not in run("ask", "where", t).output)
    answer = run("ask", "where", unplayed).output
    listed = dict(re.findall(r"^  (\S+ \S+ as \S+) +([+-]\d+) points$", answer, re.M))
    a, b, c = unplayed.split("-")
    for cell in free:
        for rot in (f"{a}-{b}-{c}", f"{b}-{c}-{a}", f"{c}-{a}-{b}"):
            move = f"{unplayed} {cell.upper()} as {rot}"
            r = run("check", move, "--json", code=None)
            verdict = json.loads(r.output)
            assert verdict["legal"] == (move in listed), (move, answer)
            if verdict["legal"]:
                assert sum(i["points"] for i in verdict["score"]) == int(listed[move])
    assert "already on the table" in run("ask", "where", "5-5-5").output
    assert "ask where TILE" in run("ask", "whither", "1-2-3", code=2).stderr


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_moves_lists_only_moves_the_judge_accepts_or_says_why_not(run, name):
    g = registry.game(name)
    s = g.sample
    opts = [a for k, v in s.options.items() for a in ("--option", f"{k}={v}")]
    run("new", name, "--players", ",".join(s.players), *opts)
    for text in s.moves:
        run("play", text)
    r = run("moves", "--json", code=None)
    if r.exit_code == 2:  # moves that turn on hidden cards are not listed, with the reason
        assert "cannot be listed" in r.stderr and len(r.stderr.strip().splitlines()) == 1
        return
    listed = json.loads(r.output)["moves"]
    assert listed, f"{name}: no legal move listed after the sample opening"
    for text in random.Random(0).sample(listed, min(8, len(listed))):
        verdict = json.loads(run("check", text, "--json").output)
        assert verdict["legal"], (text, verdict)
    out = run("moves").output.splitlines()
    assert len(out) <= 32 and out[0].endswith(f"{len(listed)} legal move"
                                              + ("" if len(listed) == 1 else "s"))


def _due(run, *setup: tuple[str, ...]) -> str:
    """`referee moves` after the setup commands: the one-line answer naming the move due."""
    for args in setup:
        run(*args)
    r = run("moves", code=2)
    assert "cannot be listed" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    return r.stderr


def test_moves_shows_the_form_of_a_move_due_from_private_tiles(run, tmp_path):
    """Where the move due is typed from tiles the referee cannot see, `moves` says so and how
    to type it, rather than "0 legal moves"; the form filled in is a move the judge accepts."""
    td = ("new", "tripple-domino", "--players", "ana,bob,cy")
    assert "`start ana=TILE bob=TILE cy=TILE`" in _due(run, td)
    assert run("check", "start", "ana=5-5-5", "bob=4-4-4", "cy=3-3-3").exit_code == 0
    held = tmp_path / "td.txt"
    held.write_text("turn ana\nhands ana=1 bob=2 cy=1\nheld bob=1-1-1\nU0,0 5-5-5\n")
    out = _due(run, (*td, "--position", str(held)), ("play", "4-5-5", "D0,0"))
    assert "`end bob=1-1-1,TILE cy=TILE`" in out  # ana went out
    run("check", "end", "bob=1-1-1,0-0-2", "cy=0-0-1")

    coda = ("new", "coda", "--players", "ana,bob")
    assert "`row ana COLOUR COLOUR COLOUR COLOUR`, `row bob COLOUR" in _due(run, coda)
    position = tmp_path / "coda.txt"
    position.write_text("round 1\nturn ana\nana b? w?\nbob w5 b?\n")
    out = _due(run, (*coda, "--position", str(position), "--option", "rounds=3"),
               ("play", "draw", "black"), ("play", "guess", "bob", "2", "7", "hit"),
               ("play", "stop", "at", "1"))
    assert "ana's tally of the tiles still hidden, `tally N N N`" in out
    run("check", "tally", "1", "2", "3")

    out = _due(run, ("new", "thricewise", "--players", "ana,bob,cy"))
    assert "`grid CARD, CARD, CARD / CARD, CARD, CARD`" in out
    run("check", "grid Journey, Mountain, Sea / Forest, Pact, End")
    out = _due(run, ("play", "grid Journey, Mountain, Sea / Forest, Pact, End"))
    assert "`reveal ana CARD, bob CARD, cy CARD`" in out


@pytest.mark.parametrize("name", ["tripple-domino", "coda", "thricewise", "duplicon",
                                  "dobble-connect"])
def test_moves_never_lists_nothing_while_the_game_is_on(name):
    """At every position of a simulated game (the dealer plays the hidden side), the moves
    are listed or the move due is named with why it cannot be listed."""
    from referee.bots import random_bot
    from referee.dealing import dealer_class
    from referee.engine import RefereeError, check_options

    g = registry.game(name)
    rng = random.Random(7)
    state = g.setup(("ana", "bob", "cy"), check_options(g, {}))
    dealer = dealer_class(g)(g, state, rng)
    for _ in range(300):
        if g.outcome(state) is None:
            try:
                assert g.public_moves(state), g.show(state)
            except RefereeError as e:
                assert "cannot be listed" in str(e) and "`" in str(e), str(e)
        turn = dealer.turn(state)
        if turn is None:
            break
        choice = turn.choices[0] if turn.player is None else random_bot(
            g, state, turn.player, turn.choices,
            lambda c, s=state: c.move is None or c.listed or not g.violations(s, c.move), rng)
        if choice.move is None:
            dealer.commit(state, choice.intent)
            continue
        verdict, after = g.judge(state, choice.move)
        assert verdict.legal, verdict.violations
        dealer.moved(state, choice.move, after)
        state = after
