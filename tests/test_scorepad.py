"""The scorepad (referee/games/scorepad): the sheet's checks, how it ends, who wins, its
picture, and the [scoring] table that describes it (pnp_model/scoring.py)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from pnp_model.errors import PnpError
from pnp_model.scoring import read_scoring
from referee import engine, registry
from referee.engine import IllegalMove, InvalidMove, RefereeError

G = registry.game("scorepad")


def sheet(players=("ana", "bob", "cy"), **options):
    return G.setup(players, engine.check_options(G, options))


def played(state, *moves):
    for text in moves:
        who, _, rest = text.partition(":")
        state = G.apply(state, G.parse(state, rest.strip(), who.strip()) if rest
                        else G.parse(state, text))
    return state


def test_a_category_limit_bounds_a_players_round_not_each_entry():
    s = sheet(categories="coins,military", limits="military=-6..5")
    s = played(s, "ana: military 3")
    with pytest.raises(IllegalMove) as e:
        G.apply(s, G.parse(s, "military 3", "ana"))  # 3 + 3 = 6 in round 1
    assert e.value.rule_ids == ("S1",) and "(6 in round 1 with this entry)" in str(e.value)
    s = played(s, "bob: military 5", "cy: coins 0", "round")
    assert G.check(s, G.parse(s, "military 5", "ana")).legal  # a new round, a new bound


def test_ties_are_broken_by_the_named_categories_in_order_then_shared():
    s = sheet(categories="coins,wonders,military", rounds="1", **{"tie-breaks": "wonders,coins"})
    s = played(s, "ana: coins 4", "ana: wonders 2", "bob: coins 3", "bob: wonders 3",
               "cy: military 6", "round")
    assert G.outcome(s).winners == ("bob",)  # 6 each; wonders: bob 3, ana 2, cy 0
    s = sheet(("ana", "bob"), categories="coins", rounds="1")
    s = played(s, "ana: coins 4", "bob: coins 4", "round")
    assert G.outcome(s) == engine.Outcome(("ana", "bob"), "highest total 4 (shared)")


def test_a_target_ends_the_game_when_the_round_closes_and_lowest_wins():
    s = sheet(("ana", "bob"), categories="points", target="20", **{"lowest-wins": "yes"})
    s = played(s, "ana: points 25", "bob: points 3")
    assert G.outcome(s) is None  # the round is not closed yet
    s = played(s, "round")
    assert G.outcome(s) == engine.Outcome(("bob",), "lowest total 3")
    with pytest.raises(IllegalMove) as e:
        G.apply(s, G.parse(s, "points 1", "ana"))
    assert e.value.rule_ids == ("S3",)


def test_finish_ends_a_sheet_without_rounds_and_round_waits_for_everyone():
    s = sheet(("ana", "bob"), categories="points")
    s = played(s, "ana: points 2")
    with pytest.raises(IllegalMove) as e:
        G.apply(s, G.parse(s, "round"))
    assert "no entry yet for bob (e.g. `bob points 0`)" in str(e.value)
    s = played(s, "finish")
    assert G.outcome(s).winners == ("ana",) and s.round == 1


def test_moves_are_read_in_every_spelling_and_written_one_way():
    s = sheet(categories="coins,military")
    for text, who in (("ana coins 5", None), ("Ana COINS +5", None), ("coins 5", "ana"),
                      ("ana: coins 5", None)):
        move = G.parse(s, text, who)
        assert (move.player, move.category, move.points) == ("ana", "coins", 5)
        assert G.format(s, move) == "ana: coins 5" and G.mover(move) == "ana"
    with pytest.raises(InvalidMove, match="did you mean military"):
        G.parse(s, "ana militry 2")
    with pytest.raises(InvalidMove, match="the move says bob but --by says ana"):
        G.parse(s, "bob coins 2", "ana")
    with pytest.raises(InvalidMove, match="whole number"):
        G.parse(s, "ana coins 2.5")
    # a whole number too long was told it was not a whole number
    with pytest.raises(InvalidMove, match="at most 9 digits.* not the 23 of 999999999999"):
        G.parse(s, "ana coins 99999999999999999999999")
    with pytest.raises(InvalidMove, match="unknown player 'dan'"):
        G.parse(s, "dan coins 2")


@pytest.mark.parametrize("options, message", [
    ({"categories": "coins,round"}, "not round or finish"),
    ({"categories": "coins,coins"}, "listed twice"),
    ({"rounds": "0"}, "rounds is 1 or more"),
    ({"tie-breaks": "gold"}, "'gold' is not a category"),
    ({"categories": "coins,military", "limits": "militray=0..5"}, "did you mean military"),
    ({"limits": "points=5..1"}, "runs backwards"),
    ({"limits": "points"}, "category=MIN..MAX"),
    ({"seats": "5-2"}, "a number or a range"),
    ({"lowest-wins": "maybe"}, "not one of yes, no"),
])
def test_a_sheet_typed_as_options_is_checked(options, message):
    with pytest.raises(RefereeError, match=message):
        sheet(**options)


def test_a_player_named_like_a_category_is_refused():
    with pytest.raises(RefereeError, match="name of a category or move"):
        sheet(("ana", "coins"), categories="coins")


def test_the_picture_is_the_sheet_with_the_leader_in_bold():
    s = played(sheet(categories="coins,military", **{"game-name": "mygame"}), "ana: coins 5",
               "bob: coins 3", "cy: military 7")
    root = ET.fromstring(G.picture(s))
    texts = [(t.text, t.get("font-weight")) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts[0] == ("mygame, round 1", "bold")
    cells = [t for t, _ in texts[1:]]
    assert cells == ["player", "coins", "military", "total", "ana", "0", "5", "0", "5"][:4] + \
        ["ana", "5", "0", "5", "bob", "3", "0", "3", "cy", "0", "7", "7"]
    assert [t for t in texts if t[1] == "bold"][-1] == ("7", "bold")  # cy leads


def test_the_position_reads_back_with_its_rounds():
    s = played(sheet(categories="coins"), "ana: coins 1", "bob: coins 2", "cy: coins 3",
               "round", "ana: coins 4")
    text = G.position(s)
    assert text == ("round 2\nscore 1 ana coins 1\nscore 1 bob coins 2\nscore 1 cy coins 3\n"
                    "score 2 ana coins 4\n")
    back = G.load_position(sheet(categories="coins"), text)
    assert back == s
    with pytest.raises(RefereeError) as e:
        G.load_position(sheet(categories="coins"), "round 1\nscore 2 ana coins 1")
    assert e.value.where == "position line 2" and "round 2 is not 1-1" in e.value.what


def test_scoring_table_reads_plainly_and_names_each_mistake():
    got = read_scoring({"categories": ["coins", "military"], "rounds": 3,
                        "tie_breaks": ["coins"], "players": "2-5",
                        "military": {"min": -6, "max": 18}})
    assert got == {"categories": ["coins", "military"], "rounds": 3, "target": None,
                   "lowest_wins": False, "tie_breaks": ["coins"],
                   "limits": {"military": [-6, 18]}, "players": [2, 5]}
    for table, what, where in (
            ({}, "needs its categories", "[scoring].categories"),
            ({"categories": ["Coins"]}, "one lowercase word", "[scoring].categories"),
            ({"categories": ["a"], "round": 3}, "did you mean rounds?", "[scoring].round"),
            ({"categories": ["a"], "rounds": 2.5}, "a whole number", "[scoring].rounds"),
            ({"categories": ["a"], "a": {"maximum": 3}}, "did you mean max?",
             "[scoring].a.maximum"),
            ({"categories": ["a"], "a": {"min": 3, "max": 1}}, "min 3 is above max 1",
             "[scoring].a"),
            ({"categories": ["a"], "players": "two"}, "a number or a range",
             "[scoring].players")):
        with pytest.raises(PnpError) as e:
            read_scoring(table)
        assert what in e.value.what and e.value.where == f"game.toml {where}"


def test_simulating_a_sheet_plays_it_to_its_end(referee_run):
    out = json.loads(referee_run("simulate", "scorepad", "--players", "3", "--games", "12",
                                 "--workers", "1", "--option", "categories=a,b",
                                 "--option", "rounds=2", "--json").output)
    assert out["games"] == 12 and out["rounds"]["max"] == 2 and out["capped"] == 0
    assert "no figure here is about the game being scored" in out["note"]


def test_a_negative_entry_is_typed_as_it_is_said(referee_run):
    """`bob military -2` is a move, not an unknown option -2; a mistyped option still is one."""
    run = referee_run
    run("new", "scorepad", "--players", "ana,bob", "--option", "categories=coins,military",
        "--option", "rounds=1")
    assert "bob -2 military" in run("play", "bob", "military", "-2").output
    assert "ana -1 coins" in run("check", "ana", "coins", "-1").output
    typo = run("play", "ana", "coins", "3", "--bby", "ana", code=2)
    assert "unknown option --bby: did you mean --by?" in typo.stderr
