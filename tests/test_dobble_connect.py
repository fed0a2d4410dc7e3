"""Dobble Connect at the table: DC1–DC3, teams, transfers, dead rounds, a whole 3-team game."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from referee.engine import IllegalMove, InvalidMove, RefereeError, totals
from referee.games.dobble_connect import GAME, DobbleConnect, deck_info, printed_deck

DECK = printed_deck()
TEAMS = {"teams": "ana+bob:pink,cy:orange,dee:green"}


def cards(color):
    return [i for i, c in sorted(DECK.colors.items()) if c == color]


PINK, ORANGE, GREEN, BLACK = cards("pink"), cards("orange"), cards("green"), cards("black")


def shared(a, b, deck=DECK):
    (sym,) = deck.symbols[a] & deck.symbols[b]
    return sym


def new(players=("ana", "bob", "cy", "dee"), game=GAME, **options):
    return game.setup(players, options or TEAMS)


def place(state, who, card, on, at, symbol=None, game=GAME):
    sym = symbol or shared(card, on, game.deck)
    move = game.parse(state, f"{card} on {on} {sym} at {at[0]},{at[1]}", who)
    return game.apply(state, move)


def rejected(state, who, card, on, at, symbol=None, game=GAME):
    with pytest.raises(IllegalMove) as err:
        place(state, who, card, on, at, symbol, game)
    return err.value


def row(state, who, ids, direction=(1, 0)):
    """Place ids one after the other from the centre card outwards along one hex axis."""
    on = state.board[(0, 0)]
    for i, card in enumerate(ids, start=1):
        state = place(state, who, card, on, (direction[0] * i, direction[1] * i))
        on = card
    return state


def test_the_printed_deck():
    assert len(DECK.colors) == 90 and len(BLACK) == 10
    assert all(len(cards(c)) == 20 for c in ("pink", "orange", "green", "blue"))
    assert all(len(s) == 10 for s in DECK.symbols.values())


def test_symbol_claim_uses_the_real_deck():
    # card #1 (black) and #11 (pink) as printed share the shrimp, and only the shrimp
    assert DECK.symbols[1] & DECK.symbols[11] == {"shrimp"}
    s = place(new(), "ana", 11, 1, (1, 0), "shrimp")
    assert s.board[(1, 0)] == 11
    err = rejected(new(), "ana", 11, 1, (1, 0), "anchor")
    assert err.rule_ids == ("DC2",) and "#11 and #1 share shrimp, not anchor" in str(err)


def test_dc2_hex_empty_and_adjacent_to_the_named_card():
    s = place(new(), "ana", PINK[0], 1, (1, 0))
    err = rejected(s, "cy", ORANGE[0], 1, (1, 0))
    assert err.rule_ids == ("DC2",) and f"already holds #{PINK[0]}" in str(err)
    err = rejected(s, "cy", ORANGE[0], 1, (2, 0))
    assert "does not share an edge with #1 at 0,0" in str(err)
    err = rejected(s, "cy", ORANGE[0], ORANGE[1], (0, 1))
    assert f"#{ORANGE[1]} is not on the table" in str(err)
    for h in ((-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):  # the other five edges of #1
        assert place(s, "cy", ORANGE[0], 1, h).board[h] == ORANGE[0]


def test_dc1_colour_and_pile():
    s = new()
    err = rejected(s, "ana", ORANGE[0], 1, (1, 0))
    assert err.rule_ids == ("DC1",) and "pink's piles hold no orange card" in str(err)
    assert "black start card" in str(rejected(s, "ana", BLACK[1], 1, (1, 0)))
    assert "no team plays blue" in str(rejected(s, "ana", cards("blue")[0], 1, (1, 0)))
    s = place(s, "bob", PINK[0], 1, (1, 0))  # bob plays pink too: same team
    err = rejected(s, "ana", PINK[0], 1, (-1, 0))
    assert err.rule_ids == ("DC1",) and "already on the table at 1,0" in str(err)


def test_dc3_four_of_one_colour_in_a_row_wins_the_round():
    s = row(new(), "ana", PINK[:3])
    assert s.points["pink"] == 0 and s.round == 1  # three are not enough
    s = place(s, "bob", PINK[3], PINK[2], (4, 0))
    assert s.points["pink"] == 1 and s.round == 2 and s.board == {(0, 0): BLACK[1]}
    assert s.kept["pink"] == [BLACK[0]]
    assert [(i.player, i.points) for i in GAME.ledger(s)] == [("ana", 1), ("bob", 1)]
    assert f"last line: pink #{PINK[0]} #{PINK[1]} #{PINK[2]} #{PINK[3]} won round 1" in \
        GAME.show(s)


@pytest.mark.parametrize("direction", [(0, 1), (1, -1), (-1, 0)])
def test_dc3_every_axis(direction):
    assert row(new(), "cy", ORANGE[:4], direction).points["orange"] == 1


def test_dc3_black_never_counts_and_bends_do_not_count():
    s = row(new(), "ana", PINK[:3])  # 1,0 2,0 3,0 and the black card at 0,0
    s = place(s, "ana", PINK[3], 1, (-1, 0))
    assert s.points["pink"] == 0
    s = place(s, "ana", PINK[4], PINK[2], (3, 1))  # 1,0 2,0 3,0 then a bend to 3,1
    assert s.points["pink"] == 0 and s.round == 1


def test_dc3_the_colour_decides_not_who_placed_it():
    s = row(new(), "ana", PINK[:4])  # pink scores: orange and green each give pink 1 card
    assert s.received["pink"] == {"orange": 1, "green": 1}
    s = row(s, "cy", ORANGE[:3], (0, 1))
    s = place(s, "ana", ORANGE[3], ORANGE[2], (0, 4))  # ana (pink) completes the orange line
    assert s.points == {"pink": 1, "orange": 1, "green": 0}


def test_catch_up_transfer_lets_a_team_play_rival_cards_once():
    s = row(new(), "ana", PINK[:4])
    s = place(s, "bob", GREEN[5], 2, (1, 0))  # the one green card pink received
    err = rejected(s, "ana", GREEN[6], GREEN[5], (2, 0))
    assert err.rule_ids == ("DC1",) and "no green card" in str(err)
    assert place(s, "dee", GREEN[6], GREEN[5], (2, 0)).board[(2, 0)] == GREEN[6]  # green may


def test_scripted_three_team_game_to_the_end_with_transfers():
    s = new()
    assert s.target == 4
    s = row(s, "ana", PINK[:4])  # round 1: pink 1 → +1 orange, +1 green for pink
    s = row(s, "cy", ORANGE[:4], (0, 1))  # round 2: orange 1 → +1 pink, +1 green for orange
    assert s.received == {"pink": {"orange": 1, "green": 1}, "orange": {"pink": 1, "green": 1},
                          "green": {}}
    s = place(s, "cy", PINK[10], 3, (-1, 0))  # orange plays the pink card it received
    s = place(s, "ana", ORANGE[10], 3, (1, -1))  # pink plays its orange card
    s = row(s, "bob", PINK[:4])  # round 3: pink 2 → +2 orange, +2 green for pink
    assert s.received["pink"] == {"orange": 2, "green": 3}
    assert s.received["orange"] == {"pink": 0, "green": 1}
    s = row(s, "dee", GREEN[:4], (1, -1))  # round 4: green 1
    assert s.received["green"] == {"pink": 1, "orange": 1}
    s = row(s, "ana", PINK[:4], (-1, 1))  # round 5: pink 3 → +3 each
    assert s.received["pink"] == {"orange": 5, "green": 6}
    assert GAME.outcome(s) is None and s.start == BLACK[5]
    s = row(s, "bob", PINK[:4], (0, -1))  # round 6: pink's 4th point ends the game at once
    out = GAME.outcome(s)
    assert out.winners == ("ana", "bob") and "pink" in out.reason
    assert s.received["pink"] == {"orange": 5, "green": 6}  # no transfer on the last point
    assert totals(GAME.ledger(s), ["ana", "bob", "cy", "dee"]) == {
        "ana": 4, "bob": 4, "cy": 1, "dee": 1}
    assert rejected(s, "cy", ORANGE[0], s.start, (1, 0)).rule_ids == ("end",)


def test_targets_by_team_count():
    assert new(("a", "b"), teams="").target == 5
    assert new(("a", "b", "c", "d"), teams="").target == 3
    assert new(("a", "b", "c", "d"), teams="a+b,c+d").teams == {"pink": ("a", "b"),
                                                               "orange": ("c", "d")}


@pytest.mark.parametrize("spec, message", [
    ("ana+bob:pink,cy:pink,dee", "two teams play pink"),
    ("ana+bob:red,cy,dee", "not one of"),
    ("ana+bob:pink,cy:orange", "missing dee"),
    ("ana+bob+cy+dee:pink", "1-3 players"),
    ("ana+zed:pink,cy,dee", "not a player"),
])
def test_teams_option_errors(spec, message):
    with pytest.raises(RefereeError, match=message):
        new(teams=spec)


def test_many_players_need_named_teams():
    with pytest.raises(RefereeError, match="suggested 3v2"):
        new(("a", "b", "c", "d", "e"), teams="")
    s = new(("a", "b", "c", "d", "e", "f", "g", "h"), teams="a+b,c+d,e+f,g+h")
    assert s.target == 3 and s.teams["blue"] == ("g", "h")


def test_parse_notation():
    s = new()
    m = GAME.parse(s, "#11 on #1 Mitten at (1, 0)", "ana")
    assert GAME.format(s, m) == "ana: 11 on 1 mitten at 1,0"
    assert GAME.parse(s, GAME.format(s, m)) == m
    for text, by, expected in [("11 on 1 mitten at 1,0", None, "say who"),
                               ("11 on 1 mitten", "ana", "cannot read"),
                               ("95 on 1 mitten at 1,0", "ana", "numbered 1..90"),
                               ("ana: 11 on 1 mitten at 1,0", "bob", "--by says"),
                               ("zed: 11 on 1 mitten at 1,0", None, "unknown player")]:
        with pytest.raises(InvalidMove, match=expected):
            GAME.parse(s, text, by)


def test_start_card_rule():
    s = GAME.apply(new(), GAME.parse(new(), "start 5"))
    assert s.start == 5 and s.board == {(0, 0): 5}
    for text, expected in [("start 11", "not a black start card")]:
        with pytest.raises(IllegalMove, match=expected):
            GAME.apply(s, GAME.parse(s, text))
    s = place(s, "ana", PINK[0], 5, (1, 0))
    with pytest.raises(IllegalMove, match="chosen before the first placement"):
        GAME.apply(s, GAME.parse(s, "start 6"))


def fano():
    """A tiny deck on the plane of order 2: 7 cards of 3 symbols, any two share one."""
    colors = ["black", "black", "pink", "pink", "orange", "orange", "green"]
    return deck_info([SimpleNamespace(id=i + 1, fields={"color": colors[i]},
                                      symbols=tuple(f"s{(i + d) % 7}" for d in (0, 1, 3)))
                      for i in range(7)])


def test_dead_round_restarts_with_the_same_black_card():
    small = DobbleConnect(deck=fano)
    s = small.setup(("ana", "cy"), {})
    s = place(s, "ana", 3, 1, (1, 0), game=small)
    s = place(s, "ana", 4, 3, (2, 0), game=small)  # pink has no card left: nobody wins
    assert s.round == 2 and s.start == 1 and s.points == {"pink": 0, "orange": 0}
    with pytest.raises(IllegalMove, match="#1 starts again"):
        small.apply(s, small.parse(s, "start 2"))
    back = small.load_position(small.setup(("ana", "cy"), {}), small.position(s))
    assert back.restart and back.round == 2


def test_show_draws_letters_and_axial_coordinates():
    s = place(new(), "cy", ORANGE[0], 1, (0, 1))
    text = GAME.show(s)
    assert "K1" in text and f"O{ORANGE[0]}" in text and "0,1" in text and "-1,0" in text
    assert "orange (cy): 0 points, 19 orange cards in piles" in text




def test_cli_end_to_end(tmp_path):
    from click.testing import CliRunner

    from referee.cli import main

    def ref(*args):
        return CliRunner().invoke(main, ["--db", str(tmp_path / "m.sqlite3"), *args])

    r = ref("new", "dobble-connect", "--players", "ana,bob,cy", "--option", "teams=ana+bob,cy")
    assert r.exit_code == 0 and "K1" in r.output and "5 points win" in r.output
    assert ref("play", f"11 on 1 {shared(11, 1)} at 1,0", "--by", "ana").exit_code == 0
    wrong = next(x for x in sorted(DECK.symbols[12]) if x != shared(12, 11))
    r = ref("play", f"12 on 11 {wrong} at 2,0", "--by", "bob")
    assert r.exit_code == 1
    assert f"DC2: #12 and #11 share {shared(12, 11)}, not {wrong}" in r.output
    r = ref("play", f"12 on 11 {shared(12, 11)} at 2,0")  # nobody named: a mistake, one line
    assert r.exit_code == 2 and "say who placed the card" in r.output
    assert ref("play", f"cy: 31 on 1 {shared(31, 1)} at 0,1").exit_code == 0
    r = ref("show")
    assert "P11" in r.output and "O31" in r.output


def test_position_round_trip_for_disputes():
    s = row(new(), "ana", PINK[:4])  # round 2, pink kept #1 and holds 1 orange + 1 green
    s = place(s, "ana", ORANGE[5], 2, (1, 0))
    text = GAME.position(s)
    back = GAME.load_position(new(), text)
    assert back.board == s.board and back.received == s.received and back.round == 2
    assert back.points == s.points and back.kept == s.kept
    assert totals(GAME.ledger(back), ["ana", "bob", "cy", "dee"])["ana"] == 1
    win = place(back, "cy", ORANGE[0], 2, (0, 1))  # play goes on from the typed position
    assert win.board[(0, 1)] == ORANGE[0]


@pytest.mark.parametrize("text, message", [
    ("0,0 1\n2,0 11", "touches no card"),
    ("0,0 11", "not a black start card"),
    ("0,0 1\n1,0 11\n2,0 12\n3,0 13\n4,0 14", "already shows a line"),
    ("0,0 1\n1,0 11\n1,0 12", "appears twice"),
    ("kept pink=2,3,4,5", "game would be over"),
    ("kept pink=1", "not the one in the centre"),
    ("received pink=pink:1", "rival"),
    ("0,0 1\n1,0 71", "no team plays"),
    ("round two", "position line 1"),
])
def test_position_errors(text, message):
    with pytest.raises(RefereeError, match=message):
        GAME.load_position(new(), text)


def order3():
    """13 cards of 4 symbols (plane of order 3): 2 black, 3 pink, 4 orange, 4 green."""
    colors = ["black"] * 2 + ["pink"] * 3 + ["orange"] * 4 + ["green"] * 4
    return deck_info([SimpleNamespace(id=i + 1, fields={"color": colors[i]},
                                      symbols=tuple(f"s{(i + d) % 13}" for d in (0, 1, 3, 9)))
                      for i in range(13)])


def test_dc1_a_team_cannot_play_more_of_its_colour_than_it_holds():
    small = DobbleConnect(deck=order3)
    s = small.load_position(small.setup(("ana", "cy"), {}),
                            "received pink=orange:1 orange=pink:1")  # one pink card is with cy
    s = place(s, "ana", 3, 1, (1, 0), game=small)
    s = place(s, "ana", 4, 1, (-1, 0), game=small)
    err = rejected(s, "ana", 5, 1, (0, 1), game=small)
    assert err.rule_ids == ("DC1",) and "pink has no pink card left" in str(err)
    s = place(s, "cy", 5, 1, (0, 1), game=small)  # cy holds it: the received pink card
    move = small.parse(s, f"6 on 1 {shared(6, 1, small.deck)} at 0,-1", "ana")
    verdict, s = small.judge(s, move)  # ana's last card, orange: pink is out
    assert s.round == 2 and "without a winner" in " ".join(verdict.notes)
