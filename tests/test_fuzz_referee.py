"""Fuzzed table input: every game's move parser, position reader and `ask`, over random text and
mutated valid moves, raise nothing but the documented errors (RefereeError: InvalidMove,
AmbiguousMove, one line each); a move that parses is judged without raising.

Text goes through referee.inputs.check first, as every command does before a game sees it.
Seeded (derandomize) and bounded: the whole file runs in well under 30 s.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import engine, inputs, registry
from referee.engine import RefereeError

GAMES = sorted(registry.games())
FUZZ = settings(max_examples=120, derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

# pieces that broke parsers before: huge and non-ASCII digits, separators, names, signs
PIECES = ["0", "1", "11", "12", "-1", "99", "²", "٣", "１", "9" * 50, "9" * 5000, "1e9", "nan",
          "ana", "ben", "bob", "cy", "dee", "x", "at", "on", "hit", "miss", "dash", "black",
          "white", ",", ":", "=", "/", "-", "#", "#0", "#999", "\udcff", "\x00", "\n", "  ",
          "a1", "Z9", "D0,0", "U-1,1", "5-5-5", "sealed", "Moons", "Crown", "orange", "circle"]


def _opening(g):
    s = g.sample
    state = g.setup(s.players, engine.check_options(g, dict(s.options)))
    for text in s.moves:
        said, colon, rest = text.partition(":")
        who = said.strip() if colon and said.strip() in s.players else g.to_move(state)
        state = g.apply(state, g.parse(state, rest.strip() if colon and said.strip() in
                                       s.players else text, who))
    return state


STATES = {name: _opening(registry.game(name)) for name in GAMES}


def _valid_texts(g, state) -> list[str]:
    legal = g.legal_moves(state)
    rng = random.Random(5)
    return list(g.sample.moves) + [g.format(state, m) for m in rng.sample(legal, min(20, len(legal)))]


def mutated(texts: list[str]):
    """A valid move with words replaced, inserted, dropped or characters changed."""
    def mutate(base_i, ops):
        words = texts[base_i % len(texts)].split()
        for kind, where, piece in ops:
            i = where % (len(words) + 1)
            if kind == 0:
                words.insert(i, piece)
            elif kind == 1 and words:
                words[i % len(words)] = piece
            elif kind == 2 and words:
                del words[i % len(words)]
            elif words:
                w = words[i % len(words)]
                cut = where % (len(w) + 1)
                words[i % len(words)] = w[:cut] + piece + w[cut:]
        return " ".join(words)

    op = st.tuples(st.integers(0, 3), st.integers(0, 50), st.sampled_from(PIECES) | st.text(
        max_size=4))
    return st.builds(mutate, st.integers(0, 1000), st.lists(op, min_size=1, max_size=4))


NUMBERS = ["²", "٣", "１", "-1", "+3", "0x1", "1_0", "9" * 50, "9" * 5000, "1.5", "", "00", "255"]


def renumbered(texts: list[str]):
    """A valid move with one of its numbers replaced by a number int() or the rules may refuse."""
    def swap(base_i, which, piece):
        text = texts[base_i % len(texts)]
        runs = list(re.finditer(r"\d+", text))
        if not runs:
            return f"{text} {piece}"
        m = runs[which % len(runs)]
        return text[:m.start()] + piece + text[m.end():]

    return st.builds(swap, st.integers(0, 1000), st.integers(0, 20), st.sampled_from(NUMBERS))


def read_move(g, state, text: str) -> None:
    """What `referee play` does with the text, up to the verdict."""
    try:
        inputs.check(text)
        who = g.to_move(state)
        move = g.parse(state, text, who)
    except RefereeError:
        return
    g.judge(state, move)
    g.format(state, move)


@pytest.mark.parametrize("name", GAMES)
def test_moves_fuzzed(name):
    g, state = registry.game(name), STATES[name]

    valid = _valid_texts(g, state)

    @FUZZ
    @given(st.one_of(st.text(max_size=40), mutated(valid), renumbered(valid)))
    def run(text):
        read_move(g, state, text)

    run()


@pytest.mark.parametrize("name", GAMES)
def test_positions_fuzzed(name):
    g, state = registry.game(name), STATES[name]
    text = g.position(state)
    if text is None:
        pytest.skip(f"{name} writes no positions")
    lines = text.splitlines()
    fresh = g.setup(g.sample.players, engine.check_options(g, dict(g.sample.options)))

    @FUZZ
    @given(mutated(lines) | renumbered(lines), st.integers(0, len(lines)))
    def run(line, at):
        changed = "\n".join(lines[:at] + [line] + lines[at + 1:])
        try:
            inputs.check(changed, "position")
            g.load_position(fresh, changed)
        except RefereeError:
            pass

    run()


@pytest.mark.parametrize("name", GAMES)
def test_questions_fuzzed(name):
    g, state = registry.game(name), STATES[name]
    asks = ["possible ana 2", "possible ben 2 7 miss", "cells", "where Journey", "hand",
            "legal", "moves", "help"]

    @FUZZ
    @given(st.one_of(st.text(max_size=30), mutated(asks), renumbered(asks)))
    def run(text):
        try:
            inputs.check(text, "question")
            g.query(state, text)
        except RefereeError:
            pass

    run()


# Seeds from issue 28 through the whole command line: each was a terminal escape printed raw, an
# error line of thousands of characters, or a move typed and lost.
CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
SEEDS = [
    ["play", "guess bob 1 \x1b]0;x\x07 miss"],
    ["play", "pass \x9b2J"],
    ["play", "pass", "--by", "\udcff"],
    ["play", "pass", "--by", "\x1b[2J"],
    ["play", "9" * 5000],
    ["play", "guess bob ٣ 3 miss"],
    ["play", "x" * 999],
    ["adjust", "ana", "9" * 5000, "--reason", "x"],
    ["adjust", "ana", "+1", "--reason", "r" * 100_000],
    ["adjust", "ana", "+1", "--reason", "caf\udce9 \x1b]0;x\x07"],
    ["end", "--abandoned", "--reason", "\x1b[31m" * 200],
]


@pytest.mark.parametrize("args", SEEDS, ids=range(len(SEEDS)))
def test_hostile_seeds_through_the_cli(referee_run, args):
    referee_run("new", "coda", "--players", "ana,bob")
    before = referee_run("log").output.count("\n")
    r = referee_run(*args, code=None)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code in (0, 1, 2)
    shown = r.output + r.stderr + referee_run("log").output + referee_run("matches").output
    assert not CONTROLS.search(shown), shown[-300:]
    assert all(len(line) <= 600 for line in (r.output + r.stderr).splitlines())
    if args[0] == "play":  # a move is kept, legal or not: nothing typed is lost
        assert referee_run("log").output.count("\n") == before + 1
