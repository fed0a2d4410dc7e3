"""Issue 37, item 4: `referee rule U1` inside a match means that match's rule, and a move that
names a card its player does not hold says whose it is and where it lies (read from the
verdict as printed, not from the games' helpers)."""

from __future__ import annotations

from tests.test_referee_cli import one_error_line

U1 = "U1: a scoring pair is exactly one grid card plus one hand or play-zone card"


def test_a_rule_id_alone_means_the_current_matchs_game(referee_run):
    run = referee_run
    outside = one_error_line(run("rule", "U1", code=2))  # no match: as before
    assert "unknown game 'U1'" in outside
    assert not run.db.exists()  # asking about the rules makes no database
    run("new", "duplicon", "--players", "ana,bob")
    assert run("rule", "U1").output.startswith(U1)  # was: unknown game 'U1'
    assert run("rule", "u1").output.startswith(U1)
    assert run("rule", "tripple-domino", "D3").output.startswith("D3: ")  # a game still wins
    assert run("rule", "duplicon").output.count("\n") == 9  # every rule of a game named
    line = one_error_line(run("rule", "X9", code=2))
    assert "'X9' is no rule of duplicon, the current match's game" in line
    assert "unknown game 'X9'" in line


def test_duplicon_names_whose_play_zone_holds_the_card(referee_run):
    run = referee_run
    run("new", "duplicon", "--players", "ana,bob")
    run("play", "open a1=orange c3=blue")
    run("play", "play blue b2=skyblue")  # ana's blue-diamond goes to her play zone
    out = run("play", "replay blue b3=green", code=1).output  # bob's turn, his zone is empty
    assert "blue-diamond is not in bob's play zone: the blue-diamond seen is in ana's play " \
           "zone ('steal ana blue-diamond <position>=<type>' takes it)" in out
    assert "your play zone holds no" not in out
    out = run("play", "replay orange b3=green", code=1).output
    assert "the orange-circle seen is face down in the grid at a1" in out
    out = run("play", "steal ana yellow b3=green", code=1).output
    assert "no yellow-star is in a play zone, nor seen on the table; ana's play zone holds " \
           "blue-diamond" in out


def test_tripple_domino_names_where_a_placed_tile_lies_and_who_placed_it(referee_run):
    run = referee_run
    run("new", "tripple-domino", "--players", "ana,bob")
    run("play", "start ana=5-5-5 bob=4-4-4")
    run("play", "4-5-5 D-1,0")  # bob's
    out = run("play", "4-5-5 D0,0", code=1).output
    assert "D5: 4-5-5 is already on the table at D-1,0, placed by bob" in out


def test_thricewise_names_where_a_card_not_waiting_lies(referee_run):
    run = referee_run
    run("new", "thricewise", "--players", "ana,bob")
    run("play", "grid Journey, Mountain / Forest, Sea")
    run("play", "reveal ana Pact, bob Diplomat")
    out = run("play", "Sea E4", code=1).output
    assert "Sea is on the table at F6, not waiting to be placed" in out
    out = run("play", "Bard E4", code=1).output
    assert "Bard was not revealed (unseen: in a hand or the deck)" in out
