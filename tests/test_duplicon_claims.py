"""Duplicon claims as typed at the table (issue 16 §2): a pair of a hand card and a play-zone
card is a move the referee judges (U1, exit 1), not an unreadable one; the verb typed twice
is a clear error, and a case 1 typed without its verb is read."""

from __future__ import annotations

import json

import pytest

OPENING = ["open a1=orange c3=blue", "play blue c3=blue", "play green b2=yellow",
           "steal ana green a2=purple"]  # ana: a pair, then green stays in her zone; bob misses


@pytest.fixture
def run(referee_run):
    invoke = referee_run
    invoke("new", "duplicon", "--players", "ana,bob")
    for move in OPENING:
        invoke("play", move)
    return invoke


@pytest.mark.parametrize("claim, said", [
    ("replay green hand=green", "green-triangle from your play zone with green-triangle from "
                                "your hand is no pair"),
    ("replay green green", "green-triangle from your play zone with green-triangle from your "
                           "hand"),
    ("play blue zone=green", "blue-diamond from your hand with green-triangle from your play "
                             "zone is no pair"),
    ("play green zone", "green-triangle from your hand with green-triangle from your play zone"),
])
def test_a_hand_and_play_zone_pair_is_judged_by_u1(run, claim, said):
    before = json.loads(run("show", "--json").output)
    out = run("play", claim, code=1).output
    assert out.startswith("illegal: ana: ") and f"U1: {said}" in out
    assert "rule U1: a scoring pair is exactly one grid card" in out
    assert json.loads(run("show", "--json").output)["position"] == before["position"]
    rejected = json.loads(run("log", "--json").output)["events"][-1]
    assert rejected["kind"] == "rejected" and "U1" in rejected["text"]


def test_the_verb_typed_twice_is_a_clear_error_and_a_bare_case_1_is_read(run):
    r = run("play", "play", "play", "yellow", "b2=yellow", code=2)
    line = r.stderr.strip()
    assert line.count("\n") == 0 and "'play' is typed twice: the move is 'play yellow b2=yellow'"\
        in line
    out = run("play", "yellow", "b2=yellow").output  # case 1 without its verb
    assert "ok (event" in out and "ana: play yellow-star b2=yellow-star" in out
