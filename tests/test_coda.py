"""Coda at the referee (docs/reference/rules.md §3): public rows, C1–C4, consistency disputes, elimination,
tournament scoring, sealed tiles, and what `show --as` prints."""

from __future__ import annotations

from dataclasses import replace

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.engine import IllegalMove, InvalidMove, totals
from referee.games import coda
from referee.games.coda import GAME as G

TRIO = ("ana", "ben", "cy")


def play(state, *moves: str):
    for text in moves:
        state = G.apply(state, G.parse(state, text, G.to_move(state)))
    return state


def verdict(state, text: str, player: str | None = None):
    return G.check(state, G.parse(state, text, player or G.to_move(state)))


def broken(state, text: str, player: str | None = None) -> set[str]:
    v = verdict(state, text, player)
    assert not v.legal, f"{text} should be illegal"
    return {x.rule.id for x in v.violations}


def reasons(state, text: str) -> str:
    return " ".join(x.reason for x in verdict(state, text).violations)


# The tournament round of the tests. Tiles (known to the script, never typed):
# ana b1 b3 w7 w9, ben b0 w2 b6 w10, cy w0 b5 w5 b8; draws b4, w1, b2, w3, b7, b11.
ROUND = """row ana black black white white
row ben black white black white
row cy white black white black
draw black
guess ben 1 0 hit
guess cy 2 5 hit
guess cy 3 5 hit
guess ben 2 3 miss
place 4 at 3
draw white
guess ana 1 1 hit
guess cy 1 0 hit
guess cy 4 7 miss
place 1 at 2
draw black
guess ana 5 9 hit
guess ana 2 2 miss
place 2 at 2
draw white
guess ben 3 2 hit
guess ben 4 6 hit
guess ben 5 11 miss
place 3 at 3
draw black
guess cy 5 8 hit
guess ana 5 8 miss
place 7 at 5
draw black
guess ben 6 10 hit
stop at 7
tally 3 7 11""".splitlines()


def duel(*moves: str, **options):
    """Two players; ben's row is b3 b4 b5 w9 (ana's b0 b1 b2 w2)."""
    s = G.setup(("ana", "ben"), options)
    return play(s, "row ana black black black white", "row ben black black black white", *moves)


# components and notation


def test_tiles_are_the_printed_coda_set():
    tiles = coda.tile_set()
    assert len(tiles) == 26 and len(set(tiles)) == 26
    assert coda.tile_name(tiles[0]) == "black 0" and coda.tile_name(tiles[-1]) == "white dash"




@pytest.mark.parametrize("text", ["guess ben 2 7", "guess ben two 7 hit", "guess zed 1 3 hit",
                                  "draw red", "place 12 at 1", "row ana purple", "stop at x",
                                  "hello", "tally"])
def test_unreadable_moves_say_what_was_expected(text):
    with pytest.raises(InvalidMove):
        G.parse(G.setup(TRIO, {}), text, "ana")


def test_a_dash_typed_as_a_colour_says_its_back_shows_one():
    with pytest.raises(InvalidMove, match="a dash is a black or a white tile, type the colour"):
        G.parse(G.setup(TRIO, {"game": "advanced"}), "row ana black dash white white", "ana")


# the worked example and a full tournament round


def test_full_tournament_round_worked_example_6_3_5_21_is_35():
    s = play(G.setup(TRIO, {"rounds": "3"}), *ROUND)
    assert totals(G.ledger(s), TRIO) == {"ana": 35, "ben": 6, "cy": 1}
    mine = [(i.points, i.label) for i in G.ledger(s) if i.player == "ana"]
    assert [p for p, _ in mine].count(1) == 6
    assert (3, "revealed ben's last hidden tile") in mine
    assert (5, "won round 1") in mine
    assert (21, "tiles still hidden: 3+7+11") in mine
    assert ("ben", 3, "revealed cy's last hidden tile") in [
        (i.player, i.points, i.label) for i in G.ledger(s)]
    assert all(i.round == 1 for i in G.ledger(s))
    assert s.phase == "closed" and G.outcome(s) is None


def test_eliminated_players_are_skipped_and_cannot_act():
    s = play(G.setup(TRIO, {}), *ROUND[:25])  # cy is out after ben's hit
    assert s.hidden("cy") == 0
    assert broken(s, "guess cy 5 8 hit") == {"C2"}
    s = play(s, *ROUND[25:27])  # ben's miss and placement end his turn
    assert G.to_move(s) == "ana"  # not cy
    assert broken(s, "draw black", player="cy") == {"C3"}


def quick_round(s, winner_hits: list[str], tally: str):
    """One round won in a single turn: the first player reveals everything."""
    return play(s, "row ana black white black white", "row ben black white black white",
                "row cy black white black white", "draw black", *winner_hits, "stop at 1", tally)


def test_three_rounds_then_the_highest_total_wins():
    s = play(G.setup(TRIO, {"rounds": "3"}), *ROUND)
    # rounds 2 and 3: ana draws b0 and reveals every tile of ben (b1 w1 b2 w2) and cy
    # (b3 w3 b4 w4) in one turn: 8 + 3 + 3 + 5 + hidden (0 5 6 7 9 = 27)
    hits = [f"guess {p} {i} {n} hit" for p, ns in (("ben", "1122"), ("cy", "3344"))
            for i, n in enumerate(ns, start=1)]
    s = quick_round(s, hits, "tally 0 5 6 7 9")
    assert s.round == 2 and s.phase == "closed"
    assert totals(G.ledger(s), TRIO)["ana"] == 35 + 8 + 6 + 5 + 27
    assert G.outcome(s) is None
    s = quick_round(s, hits, "tally 0 5 6 7 9")
    assert s.phase == "over"
    out = G.outcome(s)
    assert out.winners == ("ana",) and "after 3 rounds" in out.reason
    assert {i.round for i in G.ledger(s)} == {1, 2, 3}
    with pytest.raises(IllegalMove):
        G.apply(s, G.parse(s, "draw black", "ana"))


def test_single_game_winner_is_the_last_with_hidden_tiles():
    s = play(G.setup(TRIO, {}), *ROUND)
    assert G.outcome(s).winners == ("ana",)


# C1: the order rule, placements and consistency disputes


def test_c1_false_miss_is_caught_and_the_hit_is_legal():
    s = duel("draw white", "guess ben 1 3 hit", "guess ben 3 5 hit")
    # ben's tile 2 is black, between black 3 and black 5: it can only be 4
    assert G.query(s, "possible ben 2") == "ben's tile 2 (black, hidden) can be: 4"
    assert broken(s, "guess ben 2 4 miss") == {"C1"}
    assert "can only be black 4" in reasons(s, "guess ben 2 4 miss")
    assert verdict(s, "guess ben 2 4 hit").legal
    assert broken(s, "guess ben 2 6 hit") == {"C1"}  # a hit on 6 is impossible
    assert "a miss on 4 is impossible" in G.query(s, "possible ben 2 4 miss")
    assert "a hit on 4 is possible" in G.query(s, "possible ben 2 4 hit")


def test_c1_a_lie_found_later_is_reported_not_blocking():
    s = duel("draw white", "guess ben 2 4 miss")  # a lie: ben's tile 2 is black 4
    s = play(s, "place 6 at 5")  # ana's drawn white 6, revealed: b0 b1 b2 w2 w6
    s = play(s, "draw black", "guess ana 1 0 hit", "stop at 4")  # ben's b6 goes hidden
    s = play(s, "draw black", "guess ben 1 3 hit", "guess ben 3 5 hit")
    # ben's tile 2 stands between black 3 and black 5, and 4 was answered 'miss'
    assert G.query(s, "possible ben 2").endswith("nothing (an earlier answer was false)")
    v = verdict(s, "guess ben 2 4 hit")
    assert v.legal
    assert "false answer found: ben said miss to ana's guess 4 (guess 1) on this tile" in v.notes


def test_c1_placements_must_fit_the_order_rule():
    s = duel("draw white", "guess ben 1 2 miss")  # ana holds a drawn white tile
    # ana's row is b b b w (hidden): a white 11 cannot stand left of three blacks
    assert broken(s, "place 11 at 1") == {"C1"}
    assert verdict(s, "place 11 at 5").legal
    assert verdict(s, "place 0 at 1").legal
    assert broken(s, "place 5 at 9") == {"C1"}  # no such position


def test_c1_a_hidden_tile_goes_only_where_some_tile_fits():
    s = duel("draw white", "guess ben 1 3 hit", "guess ben 2 4 hit", "stop at 5")
    s = play(s, "draw black", "guess ana 1 0 hit")
    assert verdict(s, "stop at 1").legal  # ben's drawn black may be 1 or 2 (still hidden)
    s = play(s, "guess ana 2 1 hit", "guess ana 3 2 hit")
    assert broken(s, "stop at 1") == {"C1"}  # every black below 3 is now revealed
    assert "black 3 to its right" in reasons(s, "stop at 1")
    assert verdict(s, "stop at 4").legal


def test_c1_a_revealed_tile_already_shown_elsewhere_is_refused():
    s = duel("draw black", "guess ben 1 3 hit", "guess ben 2 0 miss")
    assert broken(s, "place 3 at 4") == {"C-pool"}
    assert "black 3 is already revealed (ben's tile 1)" in reasons(s, "place 3 at 4")
    assert verdict(s, "place 7 at 4").legal


# C2, C3, C4 and the turn


def test_c2_targets_only_opponents_hidden_tiles():
    s = duel("draw white")
    assert broken(s, "guess ana 1 0 hit") == {"C2"}
    assert broken(s, "guess ben 5 3 hit") == {"C2"}
    s = play(s, "guess ben 1 3 hit")
    assert broken(s, "guess ben 1 3 hit") == {"C2"}
    assert verdict(s, "guess ben 2 4 hit").legal


def test_c3_an_out_player_neither_draws_nor_guesses():
    s = play(G.setup(TRIO, {}), *ROUND[:25])
    assert broken(s, "guess ana 2 3 hit", player="cy") == {"C3"}
    assert broken(s, "draw white", player="cy") == {"C3"}
    assert verdict(s, "guess ana 5 8 miss", player="ben").legal


def test_c4_dash_only_in_the_advanced_game():
    s = duel("draw white")
    assert broken(s, "guess ben 2 dash hit") == {"C4"}
    adv = duel("draw white", game="advanced")
    assert adv.pool == (7, 10)  # 13 of each colour with the dashes, less 8 dealt, 1 drawn
    assert verdict(adv, "guess ben 2 dash hit").legal
    adv = play(adv, "guess ben 2 dash miss")
    assert verdict(adv, "place dash at 1").legal  # a dash stands anywhere
    assert broken(duel("draw white", "guess ben 2 3 miss"), "place dash at 1") == {"C4"}


def test_dashes_widen_what_a_hidden_tile_can_be():
    adv = duel("draw white", "guess ben 1 3 hit", "guess ben 3 5 hit", game="advanced")
    assert G.query(adv, "possible ben 2") == "ben's tile 2 (black, hidden) can be: 4, dash"
    assert verdict(adv, "guess ben 2 4 miss").legal  # it may be the black dash


def test_turn_order_draw_then_guess_then_stop_or_place():
    s = duel()
    assert G.to_move(s) == "ana"
    assert broken(s, "guess ben 1 3 hit") == {"C-turn"}
    assert broken(s, "draw white", player="ben") == {"C-turn"}
    s = play(s, "draw white")
    assert broken(s, "draw black") == {"C-turn"}
    assert broken(s, "stop at 5") == {"C-turn"}  # guess at least once
    s = play(s, "guess ben 1 3 hit")
    assert verdict(s, "stop at 5").legal
    assert broken(s, "stop") == {"C-turn"}  # where does the drawn tile go?
    s = play(s, "guess ben 2 7 miss")
    assert broken(s, "guess ben 2 4 hit") == {"C-turn"}  # a miss ends the guessing
    assert G.to_move(play(s, "place 6 at 5")) == "ben"


def test_setup_checks_row_sizes_and_the_pool():
    s = G.setup(TRIO, {})
    assert broken(s, "row ana black white white") == {"C-setup"}  # 4 tiles with 3 players
    assert broken(s, "draw black") == {"C-setup"}
    four = G.setup(("a", "b", "c", "d"), {})
    assert verdict(four, "row a black white white").legal
    s = play(s, "row ana black black black black", "row ben black black black black",
             "row cy black black black white")
    assert s.pool == (1, 11)
    assert verdict(s, "draw black").legal
    s = play(s, "draw black")
    s = play(s, "guess ben 1 11 miss", "place 0 at 1")
    assert broken(s, "draw black") == {"C-pool"}


def test_pool_empty_a_miss_reveals_one_of_your_own_tiles():
    s = replace(duel(), pool=(0, 0), phase="guess")
    assert broken(s, "draw black") == {"C-turn"}
    s = play(s, "guess ben 1 7 miss")
    assert s.phase == "expose"
    assert broken(s, "reveal 5 1") == {"C-turn"}  # ana has four tiles
    assert broken(s, "reveal 4 0") == {"C1"}  # white 0 cannot stand right of three blacks
    assert broken(s, "reveal 4 dash") == {"C4"}
    s = play(s, "reveal 4 2")
    assert s.row("ana")[3].tile == coda.tile_of(1, "2")
    assert G.to_move(s) == "ben"


# show: public information only


def sealed_duel(ben_tiles: str):
    s = G.setup(("ana", "ben"), {"sealed": "yes"})
    s = play(s, "row ana black black black white", "row ben black black black white")
    s = play(s, G.secret_move(s, "seal ana", "0 1 2 2 quokka-lamp-river"))
    return play(s, G.secret_move(s, "seal ben", f"{ben_tiles} wombat-fig-canyon"))


def test_show_as_leaks_nothing_about_hidden_tiles():
    a = play(sealed_duel("3 4 5 9"), "draw white", "guess ben 1 3 hit")
    b = play(sealed_duel("3 6 8 11"), "draw white", "guess ben 1 3 hit")
    assert a.row("ben") != b.row("ben")  # the seals differ
    assert G.show(a) == G.show(b)  # what everyone sees (show takes no viewer: all is public)
    text = G.show(a)
    assert "1:b3  2:b?  3:b?  4:w?" in text and "ana holds a drawn white tile" in text


def test_show_draws_rows_pool_turn_and_scores():
    s = play(G.setup(TRIO, {}), *ROUND[:9])
    text = G.show(s)
    assert "  ana  1:b?  2:b?  3:b4  4:w?  5:w?   (4 hidden)" in text
    assert "pool:" in text and "now: ben draws a tile" in text
    assert "last guess: ana said ben's tile 2 is 3: miss" in text
    assert "scores: ana 3, ben 0, cy 0" in text


# sealed mode


def test_sealed_log_keeps_only_hashes_and_play_waits_for_every_seal():
    s = G.setup(("ana", "ben"), {"sealed": "yes"})
    s = play(s, "row ana black black black white", "row ben black black black white")
    text = G.secret_move(s, "seal ana", "0 1 2 2 quokka-lamp-river")
    assert text.startswith("seal ana ") and len(text.split()) == 6
    assert "quokka-lamp-river" not in text
    salts = {h.split(":")[0] for h in text.split()[2:]}  # one salt per player and round
    assert len(salts) == 1 and all(len(h) == 65 for h in text.split()[2:])
    s = play(s, text)
    assert broken(s, "draw white") == {"C-seal"}
    with pytest.raises(IllegalMove):
        G.secret_move(s, "seal ben", "5 4 3 9 wombat-fig-canyon")  # breaks the order rule
    with pytest.raises(InvalidMove):
        G.secret_move(s, "seal ben", "3 4 5 9 1234")  # a number is no passphrase
    s = play(s, G.secret_move(s, "seal ben", "3 4 5 9 wombat-fig-canyon"))
    assert G.to_move(s) == "ana"


def test_unseal_reports_a_false_miss():
    s = sealed_duel("3 4 5 9")
    s = play(s, "draw white", "guess ben 2 4 miss", "place 6 at 5")  # the lie
    s = play(s, "draw black", "guess ana 1 0 hit")
    assert broken(s, "stop at 4") == {"C-seal"}  # a hidden tile enters the row sealed
    s = play(s, G.secret_move(s, "stop at 4", "6 wombat-fig-canyon"))
    s = play(s, "draw black", "guess ben 1 3 hit", "guess ben 3 5 hit", "guess ben 4 6 hit",
             "guess ben 5 9 hit", "guess ben 2 4 hit")
    assert s.winner == "ana"
    s = play(s, G.secret_move(s, "stop at 6", "7 quokka-lamp-river"), "tally 1 2 2 7")
    assert broken(s, "unseal ben koala-sun-ladder") == {"C-seal"}  # a wrong passphrase opens nothing
    v = verdict(s, "unseal ben wombat-fig-canyon")
    assert v.legal
    assert ("false answer: ben said miss to ana's guess 4 on tile 2 (guess 1), sealed black 4"
            in v.notes)
    s = play(s, "unseal ben wombat-fig-canyon", "unseal ana quokka-lamp-river")
    assert s.reports == v.notes
    assert "found: false answer" in G.show(s)


def test_unseal_confirms_honest_answers():
    s = sealed_duel("3 4 5 9")
    s = play(s, "draw white", "guess ben 2 7 miss", "place 6 at 5")
    assert broken(s, "unseal ben wombat-fig-canyon") == {"C-seal"}  # ben's tiles are still hidden
    s = play(s, "draw black", "guess ana 1 0 hit")
    s = play(s, G.secret_move(s, "stop at 4", "6 wombat-fig-canyon"))
    s = play(s, "draw black", *(f"guess ben {i} {n} hit" for i, n in
                                 ((1, 3), (2, 4), (3, 5), (4, 6), (5, 9))))
    s = play(s, G.secret_move(s, "stop at 6", "7 quokka-lamp-river"), "tally 1 2 2 7")
    v = verdict(s, "unseal ben wombat-fig-canyon")
    assert v.notes == ("ben's seals open and every answer was true",)


# the CLI, end to end


def test_cli_round_with_a_rejected_false_miss(tmp_path):
    db = str(tmp_path / "c.sqlite3")

    def ref(*args):
        return CliRunner().invoke(main, ["--db", db, *args])

    assert ref("new", "coda", "--players", "ana,ben").exit_code == 0
    assert ref("play", "row ana black black black white").exit_code == 0
    assert ref("play", "row ben black black black white").exit_code == 0
    for move in ("draw white", "guess ben 1 3 hit", "guess ben 3 5 hit"):
        r = ref("play", move)
        assert r.exit_code == 0, r.output
    r = ref("play", "guess ben 2 4 miss")
    assert r.exit_code == 1 and "C1" in r.output and "can only be black 4" in r.output
    r = ref("play", "guess ben 2 dash hit")
    assert r.exit_code == 1 and "C4" in r.output
    assert ref("play", "guess", "ben", "2", "4", "hit").exit_code == 0
    r = ref("show", "--as", "ben")
    assert r.exit_code == 0 and "1:b3  2:b4  3:b5  4:w?" in r.output
    assert ref("show", "--as", "ana").output == r.output
    r = ref("score")
    assert "correct guess" in r.output


def test_cli_secret_seal_keeps_only_hashes_and_ask_settles_disputes(tmp_path):
    db = str(tmp_path / "s.sqlite3")

    def ref(*args, input=None):
        return CliRunner().invoke(main, ["--db", db, *args], input=input)

    ref("new", "coda", "--players", "ana,ben", "--option", "sealed=yes")
    ref("play", "row ana black black black white")
    ref("play", "row ben black black black white")
    r = ref("play", "seal ana", "--secret", input="0 1 2 2 quokka-lamp-river\n")
    assert r.exit_code == 0, r.output
    r = ref("play", "seal ben", "--secret", input="3 5 4 9 wombat-fig-canyon\n")  # out of order
    assert r.exit_code == 2 and "C1" in r.output
    r = ref("play", "seal ben", "--secret", input="3 4 5 9 wombat-fig-canyon\n")
    assert r.exit_code == 0, r.output
    log = ref("log").output
    assert "seal ana " in log and "quokka-lamp-river" not in log and "wombat-fig-canyon" not in log
    assert "3 4 5 9" not in log
    ref("play", "draw white")
    ref("play", "guess ben 1 3 hit")
    ref("play", "guess ben 3 5 hit")
    r = ref("ask", "possible", "ben", "2")
    assert r.exit_code == 0 and r.output == "ben's tile 2 (black, hidden) can be: 4\n"
    r = ref("ask", "possible ben 2 4 miss")
    assert r.output.startswith("a miss on 4 is impossible")
    assert ref("ask", "possible ben 9").exit_code == 2


def test_c_end_only_the_winner_tallies_their_hidden_tiles():
    s = play(G.setup(TRIO, {}), *ROUND[:-1])
    assert G.to_move(s) == "ana" and s.phase == "tally"
    assert broken(s, "tally 3 7 11", player="ben") == {"C-end"}
    assert broken(s, "tally 3 7") == {"C-end"}  # three tiles are hidden
    assert broken(s, "tally 3 7 1") == {"C1"}  # 1 cannot stand right of white 9
    assert broken(s, "draw black") == {"C-end"}
    assert broken(play(G.setup(TRIO, {}), *ROUND[:4]), "tally 1") == {"C-turn"}
    after_miss = play(G.setup(TRIO, {}), *ROUND[:5], "guess ben 2 3 miss")
    # the hint names the notation, not an example a player could take for the answer
    assert "(place NUMBER at N)" in reasons(after_miss, "draw white")
    s = play(s, "tally 3 7 11")
    assert broken(s, "guess ben 1 0 hit") == {"C-end"}  # the game is over
    assert broken(s, "row ana black black white white") == {"C-end"}


def test_a_row_is_dealt_once():
    s = play(G.setup(TRIO, {}), "row ana black black white white")
    assert broken(s, "row ana black black white white") == {"C-setup"}
    assert verdict(s, "row ben white white white white").legal


def test_deduction_agrees_with_brute_force_on_small_positions():
    import itertools
    import random

    from referee.games.coda import deduce

    rng = random.Random(7)
    universe = list(range(8)) + [deduce.BLACK_DASH, deduce.WHITE_DASH]  # 0-3 of both colours

    def fits(rows, tiles):
        it = iter(tiles)
        for row in rows:
            numbers = [t for t in (next(it) for _ in row) if t < deduce.BLACK_DASH]
            if numbers != sorted(numbers):
                return False
        return True

    for _ in range(25):
        shape = [rng.randint(1, 3), rng.randint(1, 2)]
        rows = [[{t for t in universe if rng.random() < 0.6} for _ in range(n)] for n in shape]
        loose = [{t for t in universe if rng.random() < 0.5}] if rng.random() < 0.5 else []
        slots = [d for row in rows for d in row] + loose
        seen = [set() for _ in slots]
        for tiles in itertools.permutations(universe, len(slots)):
            if all(t in d for t, d in zip(tiles, slots, strict=True)) and fits(rows, tiles):
                for s, t in zip(seen, tiles, strict=True):
                    s.add(t)
        got = deduce.possible(rows, loose)
        flat = [d for row in got for d in row]
        assert flat == seen[: len(flat)]
        assert deduce.feasible(rows, loose) == any(seen)


def simulate(players, seed, advanced=False, check_every=0):
    """A whole round played truthfully by a simulator that knows every tile: the referee must
    accept every move, and every hidden tile's true value must stay among its candidates."""
    import random

    from referee.games.coda import deduce

    rng = random.Random(seed)
    tiles = [t for t in coda.tile_set() if advanced or not deduce.is_dash(t)]
    rng.shuffle(tiles)
    n = len(players)
    rows = []
    for _ in players:
        hand = [tiles.pop() for _ in range(3 if n == 4 else 4)]
        row = sorted(t for t in hand if not deduce.is_dash(t))
        for d in (t for t in hand if deduce.is_dash(t)):
            row.insert(rng.randint(0, len(row)), d)
        rows.append([[t, False] for t in row])  # [tile, revealed]
    s = G.setup(players, {"game": "advanced" if advanced else "basic"})
    moves = 0

    def do(text):
        nonlocal s, moves
        v = verdict(s, text)
        assert v.legal, f"{text}: {[str(x) for x in v.violations]}"
        s = G.apply(s, G.parse(s, text, G.to_move(s)))
        moves += 1
        if check_every and moves % check_every == 0:
            for p, row in zip(players, rows, strict=True):
                for i, (t, shown) in enumerate(row, start=1):
                    if not shown:
                        assert t in G.candidates(s, p, i), (p, i, t)

    def where(row, t):
        if deduce.is_dash(t):
            return rng.randint(1, len(row) + 1)
        return next((i for i, (x, _) in enumerate(row, start=1)
                     if not deduce.is_dash(x) and x > t), len(row) + 1)

    def alive():
        return [i for i, r in enumerate(rows) if any(not shown for _, shown in r)]

    for p, row in zip(players, rows, strict=True):
        do(f"row {p} " + " ".join(coda.COLOURS[coda.colour_of(t)] for t, _ in row))
    me = 0
    while len(alive()) > 1:
        drawn = tiles.pop() if tiles else None
        if drawn is not None:
            do(f"draw {coda.COLOURS[coda.colour_of(drawn)]}")
        while True:
            target = rng.choice([i for i in alive() if i != me])
            pos = rng.choice([i for i, (_, shown) in enumerate(rows[target], start=1)
                              if not shown])
            true = rows[target][pos - 1][0]
            named = true if rng.random() < 0.5 else coda.tile_of(
                coda.colour_of(true), rng.choice(["dash"] * advanced + [str(k) for k in range(12)]))
            hit = named == true
            do(f"guess {players[target]} {pos} {coda.value_word(named)} {'hit' if hit else 'miss'}")
            if hit:
                rows[target][pos - 1][1] = True
                if len(alive()) == 1 or rng.random() < 0.4:
                    if drawn is None:
                        if len(alive()) > 1:  # a won round goes straight to the tally
                            do("stop")
                    else:
                        at = where(rows[me], drawn)
                        rows[me].insert(at - 1, [drawn, False])
                        do(f"stop at {at}")
                    break
                continue
            if drawn is not None:
                at = where(rows[me], drawn)
                rows[me].insert(at - 1, [drawn, True])
                do(f"place {coda.value_word(drawn)} at {at}")
            else:
                own = rng.choice([i for i, (_, shown) in enumerate(rows[me], start=1)
                                  if not shown])
                rows[me][own - 1][1] = True
                do(f"reveal {own} {coda.value_word(rows[me][own - 1][0])}")
            break
        me = next(i for i in [*range(me + 1, n), *range(me + 1)] if i in alive())
    winner = alive()[0]
    assert G.to_move(s) == players[winner]
    do("tally " + " ".join(coda.value_word(t) for t, shown in rows[winner] if not shown))
    assert G.outcome(s).winners == (players[winner],)
    assert [s.row(p) and [x.tile for x in s.row(p)] for p in players] == [
        [t for t, _ in row] for row in rows]
    return s


@pytest.mark.parametrize("players,seed,advanced", [
    (("ana", "ben"), 1, False), (TRIO, 2, False), (("a", "b", "c", "d"), 3, False),
    (("ana", "ben"), 4, True), (TRIO, 5, True), (("a", "b", "c", "d"), 6, True),
])
def test_truthful_random_rounds_are_always_accepted(players, seed, advanced):
    simulate(players, seed, advanced)


def test_hidden_tiles_keep_their_true_value_among_the_candidates():
    simulate(("ana", "ben"), 11, advanced=True, check_every=7)
    simulate(TRIO, 12, check_every=9)
