"""Tripple Domino rules (rules §1): every rule id legal and illegal, every bonus worked out.

Positions are typed in the referee's own position format (cells with their corners read
clockwise from the apex, see docs/reference/notation.md), so each example is a board a player could set up.
"""

from __future__ import annotations

import pytest

from referee.engine import AmbiguousMove, IllegalMove, InvalidMove, RefereeError, totals
from referee.games.tripple_domino import GAME, tiles

# A bridge (rules §1 example "Bridge with 1-2-3 -> 36"): D1,0 below the free cell U1,1 shares
# its base; U1,2 touches U1,1's apex (vertex 1,2) at a point only.
BRIDGE = """
turn ana
D1,0 2-3-2
U1,2 0-0-1
"""
# A double match (example "Double match with 2-2-4 -> 33"): D1,0 and D0,1 flank U1,1.
DOUBLE = """
turn ana
D1,0 3-4-2
D0,1 4-0-2
"""
# A hexagon (example "Hexagon with 0-1-1 -> 42"): five cells around vertex 1,1; U1,1 is the 6th.
HEXAGON = """
turn ana
D0,1 0-0-1
U0,1 0-0-0
D0,0 2-0-0
U1,0 0-2-2
D1,0 2-0-1
"""
# U1,1 completes the hexagons around vertices 1,1 and 2,1 at once (with 2-3-4 as 2-3-4).
TWO_HEXAGONS = """
turn ana
D0,0 0-0-4
D0,1 4-1-2
D1,0 4-4-3
D1,1 3-2-2
D2,0 3-3-3
U0,1 1-4-0
U1,0 4-4-0
U2,0 3-3-4
U2,1 2-3-3
"""
# U1,1 completes three hexagons (around 1,1, 2,1 and 1,2) with 3-4-5 as 3-4-5.
THREE_HEXAGONS = """
turn ana
D0,0 0-0-5
D0,1 5-1-3
D0,2 3-1-2
D1,0 5-5-4
D1,1 4-3-3
D2,0 4-4-4
U0,1 1-5-0
U0,2 1-3-1
U1,0 5-5-0
U1,2 2-3-3
U2,0 4-4-5
U2,1 3-4-4
"""


def new(players=("ana", "bob"), **options):
    return GAME.setup(players, {k: str(v) for k, v in options.items()})


def at(text: str, players=("ana", "bob"), **options):
    return GAME.load_position(new(players, **options), text)


def play(state, text, by=None):
    return GAME.apply(state, GAME.parse(state, text, by))


def check(state, text, by=None):
    return GAME.check(state, GAME.parse(state, text, by))


def gained(verdict, player="ana"):
    assert verdict.legal, verdict.violations
    return sum(i.points for i in verdict.score if i.player == player)


def broken(state, text, by=None):
    v = check(state, text, by)
    assert not v.legal
    return {x.rule.id: x.reason for x in v.violations}


def opened(players=("ana", "bob"), **options):
    return play(new(players, **options), "start ana=5-5-5 bob=4-4-4")


# --- the components -------------------------------------------------------------------------


def test_tiles_are_the_printed_set_with_its_card_ids():
    t = tiles()
    assert len(t) == 56
    assert t[(0, 0, 0)] == (1, 0) and t[(5, 5, 5)] == (56, 15)
    assert t[(3, 4, 5)][1] == 12


# --- each rule: one legal and one illegal case ---------------------------------------------


def test_d1_target_cell_must_be_empty():
    s = opened()
    assert check(s, "4-5-5 D0,0").legal
    s = play(s, "4-5-5 D0,0")
    assert "D1" in broken(s, "3-5-5 D0,0 as 5-5-3", by="ana")


def test_d2_cell_must_share_an_edge_with_a_tile():
    s = opened()
    assert check(s, "4-5-5 D-1,0").legal
    # U1,0 touches U0,0 only at vertex 1,0: not an edge-neighbour
    reasons = broken(s, "5-5-4 U1,0 as 5-4-5")
    assert "D2" in reasons and "U1,0 shares no edge" in reasons["D2"]


def test_d3_corners_match_the_numbers_on_the_table():
    s = at(BRIDGE)
    assert check(s, "1-2-3 U1,1").legal
    v = check(s, "1-2-3 U1,1 as 3-1-2")
    assert [x.reason for x in v.violations] == [
        "the top corner of U1,1 (vertex 1,2) touches a 1, the tile has a 3 there",
        "the bottom-right corner of U1,1 (vertex 2,1) touches a 2, the tile has a 1 there",
        "the bottom-left corner of U1,1 (vertex 1,1) touches a 3, the tile has a 2 there",
    ]


def test_d3_counts_corners_that_only_touch_at_a_point():
    # base matches D1,0 (3 and 2), but the apex lands on U1,2's 1 at a point: 5 is wrong there
    reasons = broken(at(BRIDGE), "2-3-5 U1,1 as 5-2-3")
    assert reasons == {"D3": "the top corner of U1,1 (vertex 1,2) touches a 1, the tile has a "
                             "5 there"}


def test_d3_no_rotation_fits_is_explained():
    reasons = broken(at(BRIDGE), "0-4-5 U1,1")
    assert "no rotation of 0-4-5 fits U1,1" in reasons["D3"]
    assert "top 1, bottom-right 2, bottom-left 3" in reasons["D3"]


def test_d4_rotations_are_fine_mirror_images_are_not():
    s = at(BRIDGE)
    assert check(s, "1-2-3 U1,1 as 1-2-3").legal
    reasons = broken(s, "1-2-3 U1,1 as 3-2-1")
    assert reasons == {"D4": "3-2-1 is the mirror image of 1-2-3: read clockwise it is 1-2-3 "
                             "or 2-3-1 or 3-1-2"}
    assert "is not a reading of tile 1-2-3" in broken(s, "1-2-3 U1,1 as 1-2-4")["D4"]


def test_d5_a_tile_on_the_table_cannot_be_played_again():
    s = opened()
    assert "D5" in broken(s, "5-5-5 D0,0")
    assert check(s, "4-5-5 D0,0").legal


def test_d5_a_tile_declared_at_the_start_is_in_that_hand_until_played(referee_run):
    run = referee_run
    run("new", "tripple-domino", "--players", "ana,bob,cy")
    run("play", "start", "ana=4-4-4", "bob=5-5-5", "cy=3-4-5")
    run("play", "4-5-5", "D0,0")  # cy; ana to move, and 3-4-5 would fit U0,1
    for move in ("3-4-5 U0,1", "draw 3-4-5 U0,1"):
        r = run("play", move, code=1)
        assert "D5: 3-4-5 is in cy's hand (declared at the start) until cy plays it" in r.output
    assert "3-4-5" not in run("moves").output  # not offered to ana either
    assert "3-4-5 is in cy's hand (declared at the start)" in run("ask", "where", "3-4-5").output
    assert "ana +10" in run("play", "0-5-5", "D-1,0").output  # another tile is fine
    run("play", "1-5-5", "D0,-1")  # bob
    r = run("check", "draw", "3-4-5", "U0,1", code=1)  # cy draws: not the tile cy holds
    assert "3-4-5 is already in cy's hand (declared at the start)" in r.output
    assert "cy +12" in run("play", "3-4-5", "U0,1").output  # cy's own tile from the hand


def test_d5_a_declared_tile_is_told_in_its_holders_hand_at_the_round_end():
    three = ("ana", "bob", "cy")
    s = at("turn ana\nhands ana=1 bob=2 cy=2\nheld bob=1-1-1\nU0,0 5-5-5", three)
    assert GAME.position(GAME.load_position(new(three), GAME.position(s))) == GAME.position(s)
    s = play(s, "4-5-5 D0,0")  # ana goes out
    why = [v.reason for v in check(s, "end bob=0-0-1,0-0-2 cy=1-1-1,0-0-3").violations]
    assert why == ["bob declared 1-1-1 at the start and has not played it: it is in bob's hand",
                   "1-1-1 is in bob's hand (declared at the start), not cy's"]
    assert check(s, "end bob=1-1-1,0-0-2 cy=0-0-1,0-0-3").legal
    assert "1-1-1 is on the table and held by bob" in str(pytest.raises(
        RefereeError, GAME.load_position, new(three), "turn ana\nheld bob=1-1-1\nU0,0 1-1-1"))


def test_d5_a_player_goes_out_with_the_tile_they_declared_at_the_start():
    s = at("turn ana\nhands ana=1 bob=2\nheld ana=1-1-1\nU0,0 5-5-5")
    assert broken(s, "4-5-5 D0,0")["D5"] == ("ana declared 1-1-1 at the start and has not "
                                             "played it: ana's last tile is 1-1-1")
    assert check(s, "draw 4-5-5 D0,0").legal  # a drawn tile leaves the hand as it was


def test_d5_start_cannot_name_one_tile_for_two_players():
    assert "D5" in broken(new(), "start ana=5-5-5 bob=5-5-5")


def test_start_the_highest_triple_opens():
    s = new()
    assert check(s, "start ana=5-5-5 bob=4-4-4").legal
    reasons = broken(s, "start ana=4-4-4 bob=5-5-5", by="ana")
    assert reasons["start"] == "bob holds 5-5-5, which beats 4-4-4: bob opens"


def test_start_without_by_picks_the_strongest_claim():
    s = play(new(("ana", "bob", "cy")), "start ana=1-2-3 bob=0-0-0 cy=5-5-4")
    assert GAME.to_move(s) == "cy"  # bob opened with the triple 0-0-0; cy sits next
    assert s.board == {("U", 0, 0): (0, 0, 0)}


def test_start_a_triple_beats_a_higher_value_and_ties_compare_corners_high_to_low():
    assert "start" in broken(new(), "start ana=5-5-4 bob=0-0-0", by="ana")
    assert check(new(), "start ana=3-5-5 bob=4-4-5", by="ana").legal  # Ruling: 5-5-3 > 5-4-4
    assert "start" in broken(new(), "start ana=4-4-5 bob=3-5-5", by="ana")


def test_start_says_whose_best_tile_was_not_named():
    v = check(new(("ana", "bob", "cy")), "start 5-5-5 vs bob=4-4-4", by="ana")
    assert v.notes == ("start rule checked without the best tile of cy",)
    assert check(new(), "start ana=5-5-5 bob=4-4-4").notes == ()


def test_start_only_at_the_beginning_of_a_round():
    assert "start" in broken(opened(), "start ana=1-1-1 bob=0-0-0")
    assert "start" in broken(new(), "1-2-3 U1,0", by="ana")


def test_turn_order_is_clockwise():
    s = opened()
    assert GAME.to_move(s) == "bob"
    assert check(s, "4-5-5 D0,0", by="bob").legal
    assert broken(s, "4-5-5 D0,0", by="ana")["turn"] == "it is bob's turn, not ana's"


def test_draw_up_to_three_then_the_turn_ends():
    s = opened()
    for _ in range(3):
        assert GAME.to_move(s) == "bob"
        s = play(s, "draw")
    assert GAME.to_move(s) == "ana" and s.hands == (9, 13) and s.reserve == 33


def test_draw_then_a_placement_naming_the_tile_places_the_tile_drawn():
    # The referee cannot see the drawn tile: the first placement after `draw` names it
    # (issue 30: `play draw` then `play 3-4-5 U0,1` was refused).
    s = play(opened(), "draw")
    assert s.hands == (9, 11) and s.reserve == 56 - 20 - 1
    assert check(s, "4-5-5 D0,0").legal
    s = play(s, "4-5-5 D0,0")
    assert s.hands == (9, 10) and s.reserve == 56 - 20 - 1  # the drawn tile left the hand
    assert [(i.points, i.label) for i in s.ledger if i.player == "bob"] == [
        (-5, "draw 1"), (14, "tile 4-5-5 at D0,0")]  # one draw penalty, not two
    assert GAME.to_move(s) == "ana"
    assert check(play(opened(), "draw"), "draw 4-5-5 D0,0").legal  # or draw another, placed


def test_draw_the_third_may_be_placed_and_there_is_no_fourth():
    s = at("turn ana\ndrawn 2\nU0,0 5-5-5")
    assert check(s, "draw 4-5-5 D0,0").legal
    s = play(s, "draw")  # the third, kept: the turn ends
    assert GAME.to_move(s) == "bob"
    assert broken(s, "draw", by="ana")["turn"] == "it is bob's turn, not ana's"


def test_pass_only_with_the_reserve_empty():
    s = opened()
    assert "pass" in broken(s, "pass")
    empty = at("turn ana\nreserve 0\nhands ana=3 bob=3\nU0,0 5-5-5")
    assert check(empty, "pass").legal
    assert "pass" in broken(empty, "draw")


def test_end_only_when_the_round_is_over_and_with_the_right_hand_sizes():
    s = opened()
    assert "end" in broken(s, "end bob=1-1-1")
    out = play(at("turn ana\nhands ana=1 bob=2\nU0,0 5-5-5"), "4-5-5 D0,0")
    assert out.phase == "end"
    assert "bob holds 2 tile(s), 1 told" in broken(out, "end bob=1-1-1")["end"]
    assert "D5" in broken(out, "end bob=1-1-1,4-5-5")
    assert check(out, "end bob=1-1-1,0-0-2").legal


# --- every bonus, worked out (the examples of rules §1 among them) --------------------------


def test_open_with_5_5_5_scores_20():
    assert gained(check(new(), "start ana=5-5-5 bob=4-4-4")) == 20


def test_bridge_with_1_2_3_scores_36():
    v = check(at(BRIDGE), "1-2-3 U1,1")
    assert gained(v) == 36 and [i.label for i in v.score][-1] == "bridge"


def test_double_match_with_2_2_4_scores_33():
    v = check(at(DOUBLE), "2-2-4 U1,1")
    assert gained(v) == 33 and v.score[-1].label.startswith("double match")


def test_hexagon_with_0_1_1_scores_42_and_no_double_match():
    v = check(at(HEXAGON), "0-1-1 U1,1")
    assert gained(v) == 42
    assert [i.label for i in v.score] == ["tile 0-1-1 at U1,1", "hexagon completed"]


def test_hexagons_score_per_hexagon():
    assert gained(check(at(TWO_HEXAGONS), "2-3-4 U1,1")) == 9 + 80
    assert gained(check(at(THREE_HEXAGONS), "3-4-5 U1,1")) == 12 + 120


def test_draw_two_then_place_2_3_3_scores_minus_2():
    s = at("turn bob\nU0,0 3-3-5")  # D0,0 has a 3 at its bottom and top-left corners
    s = play(s, "draw")
    s = play(s, "draw 2-3-3 D0,0")
    assert totals(s.ledger, s.players)["bob"] == -10 + 8
    assert [i.label for i in s.ledger] == ["draw 1", "draw 2", "tile 2-3-3 at D0,0"]
    assert s.hands == (10, 11) and s.reserve == 56 - 1 - 20 - 2


def test_draw_three_none_placed_scores_minus_15():
    s = opened()
    for _ in range(3):
        s = play(s, "draw")
    assert totals(s.ledger, s.players)["bob"] == -15


def test_pass_with_the_reserve_empty_scores_minus_5():
    s = play(at("turn ana\nreserve 0\nhands ana=3 bob=3\nU0,0 5-5-5"), "pass")
    assert totals(s.ledger, s.players)["ana"] == -5 and GAME.to_move(s) == "bob"


def test_going_out_scores_20_plus_the_other_hands():
    s = at("turn ana\nhands ana=1 bob=2 cy=1\nU0,0 5-5-5", ("ana", "bob", "cy"))
    v = check(s, "4-5-5 D0,0")
    assert gained(v) == 14 + 20
    s = play(s, "4-5-5 D0,0")
    v = check(s, "end bob=1-2-3,0-0-0 cy=1-1-5")
    assert gained(v) == 6 + 0 + 7
    s = play(s, "end bob=1-2-3,0-0-0 cy=1-1-5")
    assert totals(s.ledger, s.players) == {"ana": 14 + 20 + 13, "bob": 0, "cy": 0}
    assert s.round == 2 and s.phase == "start" and s.hands == (8, 8, 8)


def test_end_may_list_the_player_who_went_out_with_an_empty_hand():
    s = at("turn ana\nhands ana=1 bob=2 cy=1\nU0,0 5-5-5", ("ana", "bob", "cy"))
    s = play(s, "4-5-5 D0,0")
    v = check(s, "end ana=- bob=1-2-3,0-0-0 cy=1-1-5")  # ana=- is true: accepted
    assert v.legal and gained(v) == 13
    assert v.score[-1].label == "tiles left in the other hands (bob 6, cy 7)"
    assert "ana went out and holds no tiles" in broken(s, "end ana=0-0-1 bob=1-2-3,0-0-0 "
                                                          "cy=1-1-5")["end"]


def test_blocked_round_lowest_hand_scores_the_others_minus_its_own():
    s = at("turn ana\nreserve 0\nhands ana=2 bob=1 cy=1\nU0,0 5-5-5", ("ana", "bob", "cy"))
    for _ in range(3):
        s = play(s, "pass")
    assert s.phase == "end"
    s = play(s, "end ana=0-0-1,0-0-2 bob=4-4-4 cy=1-2-3")
    got = {i.player: i.points for i in s.ledger if i.label.startswith("blocked")}
    assert got == {"ana": (12 + 6) - 3}


def test_blocked_round_tie_each_tied_player_scores():
    s = at("turn ana\nreserve 0\nhands ana=1 bob=1\nU0,0 5-5-5")
    s = play(play(s, "pass"), "pass")
    s = play(s, "end ana=1-2-3 bob=0-2-4")
    got = {i.player: i.points for i in s.ledger if i.label.startswith("blocked")}
    assert got == {"ana": 0, "bob": 0}


def test_game_ends_at_the_end_of_a_round_reaching_300():
    s = at("turn ana\nhands ana=1 bob=1\nscores ana=280 bob=290\nU0,0 5-5-5")
    s = play(s, "4-5-5 D0,0")
    assert GAME.outcome(s) is None  # the round is not over until the hands are told
    s = play(s, "end bob=0-0-1")
    assert totals(s.ledger, s.players) == {"ana": 280 + 14 + 20 + 1, "bob": 290}
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == ("ana",)
    assert "illegal" not in str(outcome) and "end" in broken(s, "draw", by="bob")


def test_a_move_typed_when_nobody_can_play_says_why():
    s = play(at("turn ana\nhands ana=1 bob=1\nscores ana=280 bob=290\nU0,0 5-5-5"), "4-5-5 D0,0")
    with pytest.raises(InvalidMove, match=r"round 1 is over: tell the tiles left in each hand "
                                          r"first, `end bob=...`"):
        GAME.parse(s, "draw")
    s = play(s, "end bob=0-0-1")
    with pytest.raises(InvalidMove, match=r"the game is over \(315 points after round 1"):
        GAME.parse(s, "draw")


def test_a_round_short_of_300_goes_on():
    s = at("turn ana\nhands ana=1 bob=1\nscores ana=200\nU0,0 5-5-5")
    s = play(play(s, "4-5-5 D0,0"), "end bob=0-0-1")
    assert GAME.outcome(s) is None and s.round == 2


# --- variant pressman: all its numbers ------------------------------------------------------


def test_pressman_hands_and_target():
    assert new(variant="pressman").hands == (9, 9)
    assert new(("a", "b", "c"), variant="pressman").hands == (7, 7, 7)
    assert new(("a", "b", "c", "d", "e"), variant="pressman").hands == (6,) * 5
    assert new(variant="pressman").target == 400 and new().target == 300
    assert new(variant="pressman", target=500).target == 500


def test_pressman_start_bonus_only_for_a_triple_and_0_0_0_scores_40():
    p = {"variant": "pressman"}
    assert gained(check(new(**p), "start ana=5-5-5 bob=4-4-4")) == 25
    assert gained(check(new(**p), "start ana=5-5-4 bob=1-2-3")) == 14
    assert gained(check(new(**p), "start ana=0-0-0 bob=5-5-4")) == 40


def test_pressman_bridge_and_hexagons():
    p = {"variant": "pressman"}
    assert gained(check(at(BRIDGE, **p), "1-2-3 U1,1")) == 6 + 40
    assert gained(check(at(DOUBLE, **p), "2-2-4 U1,1")) == 8 + 25
    assert gained(check(at(HEXAGON, **p), "0-1-1 U1,1")) == 2 + 50
    assert gained(check(at(TWO_HEXAGONS, **p), "2-3-4 U1,1")) == 9 + 60
    assert gained(check(at(THREE_HEXAGONS, **p), "3-4-5 U1,1")) == 12 + 70


def test_pressman_draws_pass_and_going_out():
    s = opened(variant="pressman")
    for _ in range(3):
        s = play(s, "draw")
    assert totals(s.ledger, s.players)["bob"] == -25
    s = play(at("turn ana\nreserve 0\nhands ana=3 bob=3\nU0,0 5-5-5", variant="pressman"),
             "pass")
    assert totals(s.ledger, s.players)["ana"] == -10
    s = at("turn ana\nhands ana=1 bob=1\nU0,0 5-5-5", variant="pressman")
    assert gained(check(s, "4-5-5 D0,0")) == 14 + 25


def test_unknown_variant_and_bad_target_are_user_errors():
    with pytest.raises(RefereeError, match="unknown variant"):
        new(variant="tri")
    with pytest.raises(RefereeError, match="target must be"):
        new(target="lots")


# --- notation -------------------------------------------------------------------------------


def test_rotation_is_inferred_from_the_two_corners_an_edge_fixes():
    s = opened()
    move = GAME.parse(s, "4-5-5 D0,0")
    assert GAME.format(s, move) == "4-5-5 D0,0 as 5-5-4"
    s = play(s, "4-5-5 D0,0")  # D0,0 reads 5-5-4: U0,1 has 4 bottom-right and 5 bottom-left
    assert GAME.format(s, GAME.parse(s, "4-4-5 U0,1")) == "4-4-5 U0,1 as 4-4-5"
    assert check(s, "4-4-5 U0,1 as 4-4-5").legal


def test_a_cell_off_the_board_reports_d2_rather_than_asking_for_a_rotation():
    reasons = broken(opened(), "1-2-3 U5,5")
    assert set(reasons) == {"D2"}


def test_notation_is_forgiving_about_case_spaces_and_brackets():
    s = opened()
    a = GAME.parse(s, "4-5-5 at d(0, 0)")
    b = GAME.parse(s, "455 D0,0")
    c = GAME.parse(s, "  4-5-5   D 0,0 as 5-5-4 ")
    assert a == b == c


@pytest.mark.parametrize("text, expected", [
    ("", "empty move"),
    ("fly", "unexpected 'fly'"),
    ("1-2-7 U1,0", "unexpected '1-2-7'"),
    ("1-2-3", "needs a tile and a cell"),
    ("draw 1-2-3", "needs its cell"),
    ("1-2-3 U1,0 as", "`as` needs the corners"),
    ("pass now", "pass takes nothing"),
    ("4-4-9 U1,0", "a tile is three numbers 0-5"),
    ("4-4 U1,0", "unexpected '4-4': a tile is three numbers 0-5"),
    ("4-4-5 U9", "unexpected 'U9': a cell is U or D and x,y"),
    ("4-4-5 D0,0 D1,1", "one tile on one cell, like 1-2-3 U1,0; D1,1 is one too many"),
])
def test_unreadable_moves_say_what_was_expected(text, expected):
    with pytest.raises(InvalidMove, match=expected):
        GAME.parse(opened(), text)


def test_start_needs_to_know_who_opens():
    with pytest.raises(AmbiguousMove, match="who opens"):
        GAME.parse(new(), "start 5-5-5")
    s = play(new(), "start 5-5-5 vs bob=4-4-4", by="ana")
    assert GAME.to_move(s) == "bob"


def test_apply_refuses_an_illegal_move():
    with pytest.raises(IllegalMove) as e:
        play(opened(), "5-5-5 D0,0")
    assert "D5" in e.value.rule_ids


# --- positions ------------------------------------------------------------------------------


def test_position_round_trips_through_its_text():
    s = play(play(opened(), "draw"), "draw 4-5-5 D0,0")
    again = GAME.load_position(new(), GAME.position(s))
    assert GAME.position(again) == GAME.position(s)
    assert again.board == s.board and again.hands == s.hands and again.reserve == s.reserve
    assert totals(again.ledger, again.players) == totals(s.ledger, s.players)


@pytest.mark.parametrize("text, expected", [
    ("turn ana\nU0,0 5-5-5\nD0,0 4-5-5", "puts 4 on vertex 1,0 which has 5"),
    ("turn ana\nU0,0 3-2-1", "mirror image"),
    ("turn ana\nU0,0 5-5-5\nD0,0 5-5-5", "appears twice"),
    ("U0,0 5-5-5", "whose turn"),
    ("turn zed\nU0,0 5-5-5", "unknown player 'zed'"),
    ("turn ana\nreserve lots", "cannot read"),
    ("turn ana\nplayers ana bob", "cannot read 'players ana bob': a line is round, hands,"),
    ("turn ana\nhands ana=50\nU0,0 5-5-5", "make more than 56 tiles"),
    ("turn ana\nhands ana=0\nU0,0 5-5-5", "a player with none has gone out"),
    # a typo of a coordinate would otherwise make `show` draw a board megabytes wide
    ("turn ana\nU0,0 5-5-5\nU100000,0 1-2-3", "U0,0 and U100000,0 are farther apart than 56"),
])
def test_bad_positions_are_user_errors_naming_the_line(text, expected):
    with pytest.raises(RefereeError, match=expected):
        GAME.load_position(new(), text)


def test_show_draws_numbers_on_vertices_and_cell_labels():
    board = GAME.show(play(opened(), "4-5-5 D0,0"))
    assert "U0,0" in board and "D0,0" in board and "#56" in board  # 5-5-5 is card 56
    assert "u1,0" in board and "d-1,0" in board  # free cells next to the tiles
    assert "to move: ana" in board and "reserve: 36 tiles" in board


# --- solitaire and the draw cap (rules §1 "Solitaire") -------------------------------------


def test_solitaire_a_reserve_tile_opens_and_scores_nothing():
    s = new(("ana",))
    assert s.hands == (10,) and s.reserve == 46
    s = play(s, "start 3-4-5")
    assert s.board == {("U", 0, 0): (3, 4, 5)} and s.reserve == 45 and s.hands == (10,)
    assert s.ledger == () and GAME.to_move(s) == "ana"
    s = play(s, "3-4-4 D0,0")  # ana plays again and again
    assert GAME.to_move(s) == "ana" and s.hands == (9,)


def test_draw_cap_then_pass_and_a_blocked_solitaire_round():
    s = play(new(("ana",), **{"draw-cap": 2}), "start 3-4-5")
    s = play(play(s, "draw"), "draw")  # the cap ends the turn
    assert "the 2 draws this round allows are used" in broken(s, "draw")["pass"]
    assert s.reserve == 43 and s.hands == (12,)
    s = play(s, "pass")  # one player passing blocks the round
    assert s.phase == "end"
    hand = ["0-0-1", "0-0-2", "0-0-3", "0-0-4", "0-0-5", "0-1-1", "0-1-2", "0-1-3", "0-1-4",
            "0-1-5", "0-2-2", "0-2-3"]
    s = play(s, "end ana=" + ",".join(hand))
    got = [(i.points, i.label) for i in s.ledger]
    assert got[:3] == [(-5, "draw 1"), (-5, "draw 2"), (-5, "pass (draw cap reached)")]
    assert got[3][0] == -(1 + 2 + 3 + 4 + 5 + 2 + 3 + 4 + 5 + 6 + 4 + 5)
    assert s.round == 2 and s.round_draws == 0


def test_draw_cap_is_counted_in_positions_and_checked_as_an_option():
    s = at("turn ana\ndrawn-in-round 4\nhands ana=3\nU0,0 5-5-5", ("ana",), **{"draw-cap": 4})
    assert "pass" in broken(s, "draw") and check(s, "pass").legal
    assert "drawn-in-round 4" in GAME.position(s)
    with pytest.raises(RefereeError, match="draw-cap must be"):
        new(("ana",), **{"draw-cap": "0"})
