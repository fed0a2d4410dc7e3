"""Thricewise at the referee (docs/reference/rules.md §2): cards from the Decktet definition, T1–T4, scoring,
deferred cards, draws, a full three-player game, and the CLI end to end."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.engine import (
    AmbiguousMove,
    IllegalMove,
    InvalidMove,
    RefereeError,
    totals,
)
from referee.games import thricewise as tw
from referee.games.thricewise import GAME as G

PLAYERS = ("ana", "ben", "cy")


def cid(name: str) -> int:
    return tw.find_card(name).id


def play(state, *moves: str):
    for text in moves:
        move = G.parse(state, text, G.to_move(state))
        state = G.apply(state, move)
    return state


def verdict(state, text: str, player: str | None = None):
    return G.check(state, G.parse(state, text, player or G.to_move(state)))


def rules_broken(state, text: str, player: str | None = None) -> set[str]:
    v = verdict(state, text, player)
    assert not v.legal
    return {x.rule.id for x in v.violations}


def started(players=PLAYERS, **options):
    state = G.setup(players, options)
    grid = ("grid Journey, Mountain, Forest / Sea, Bard, End" if len(players) in (3, 5)
            else "grid Journey, Mountain / Sea, Bard")
    return play(state, grid)


def window_score(*names: str) -> list[tuple[int, str]]:
    """Score the third card of a row of three, as placed last."""
    cells = {(i, 0): cid(n) for i, n in enumerate(names)}
    return [(i.points, i.label.split(" ")[0]) for i in tw.score_placement(cells, (2, 0), "ana")]


# the cards


def test_cards_are_the_generators_decktet():
    from pnp_model.definition import load

    printed = load("decktet").select(("basic",))
    assert [(c.id, c["name"], int(c["value"])) for c in printed] == [
        (c.id, c.name, c.value) for c in tw.deck()]
    assert len(tw.deck()) == 36


@pytest.mark.parametrize("text,name", [
    ("Journey", "Journey"), ("journey", "Journey"), ("chance meeting", "Chance Meeting"),
    ("Ace Moons", "Ace of Moons"), ("ace of moons", "Ace of Moons"), ("A Suns", "Ace of Suns"),
    ("3 Moons Waves", "Journey"), ("3 moons", "Journey"), ("Crown Waves", "Sea"),
    ("8 wyrm", "Betrayal"), ("#10", "Journey"),
])
def test_cards_by_name_or_rank_and_suit(text, name):
    assert tw.find_card(text).name == name


def test_a_misspelt_card_name_suggests_the_card():
    with pytest.raises(InvalidMove, match="unknown card 'Jurney': did you mean Journey?"):
        tw.find_card("Jurney")


def test_a_reveal_naming_someone_not_playing_says_so_not_unknown_card():
    s = started()
    with pytest.raises(InvalidMove, match=r"expected a player name before 'dan' \(ana, ben, cy\)"):
        G.parse(s, "reveal ana Painter, ben Castle, dan Author")
    with pytest.raises(InvalidMove, match="expected a player name before 'Painter'"):
        G.parse(s, "reveal Painter")
    assert G.parse(s, "reveal ana Chance Meeting, ben Castle cy Author").plays[0][0] == "ana"


@pytest.mark.parametrize("players, example", [
    (("ana", "ben"), "grid Journey, Mountain / Sea, Bard"),
    (PLAYERS, "grid Journey, Mountain, Forest / Sea, Bard, End"),
])
def test_the_set_up_prompt_shows_a_grid_of_the_right_shape(players, example):
    assert example in G.show(G.setup(players, {})).split("type it row by row: ")[1]


def test_a_bare_rank_is_ambiguous_and_says_which_cards():
    with pytest.raises(AmbiguousMove) as e:
        tw.find_card("3")
    assert set(e.value.candidates) == {"Journey", "Painter", "Savage"}


@pytest.mark.parametrize("text", ["Joker", "3 Suns Moons", "#99", "Excuse"])
def test_unknown_cards_are_invalid(text):
    with pytest.raises(InvalidMove):
        tw.find_card(text)


def test_referee_start_does_not_load_reportlab():
    code = ("import sys, referee.games.thricewise, referee.games.coda; "
            "assert not [m for m in sys.modules if m.startswith(('reportlab', 'PIL'))]")
    subprocess.run([sys.executable, "-c", code], check=True)


# scoring: the worked examples of docs/reference/rules.md §2


def test_journey_mountain_forest_is_straight_and_flush_6():
    assert window_score("Journey", "Mountain", "Forest") == [(3, "straight"), (3, "flush")]


def test_ace_2_3_straight_is_2():
    assert window_score("Ace Suns", "Author", "Journey") == [(2, "straight")]


def test_8_9_crown_is_8():
    assert window_score("Mill", "Merchant", "Windfall") == [(8, "straight")]


def test_three_crowns_is_a_set_worth_0():
    assert window_score("Huntress", "Bard", "Sea") == [(0, "set")]


def test_mountain_diplomat_pact_flush_counts_once():
    assert window_score("Mountain", "Diplomat", "Pact") == [(4, "flush")]


def test_straights_read_in_line_order_either_way():
    assert window_score("Castle", "Lunatic", "Forest") == [(5, "straight")]  # 7-6-5
    assert window_score("Forest", "Castle", "Lunatic") == []  # 5-7-6


def test_a_card_in_the_middle_scores_every_window_through_it():
    # a plus shape: the centre card completes one row and one column window, and the
    # windows on each side of it in the row
    cells = {(0, 1): cid("Author"), (1, 1): cid("Desert"), (3, 1): cid("Desert"),
             (4, 1): cid("Origin"), (2, 0): cid("Painter"), (2, 2): cid("Savage")}
    cells[(2, 1)] = cid("Origin")  # rank 2
    items = tw.score_placement(cells, (2, 1), "ana")
    labels = sorted(i.label.split(":")[0] for i in items)
    assert labels == ["set row A1-B1-C1", "set row B1-C1-D1", "set row C1-D1-E1"]
    cells[(2, 1)] = cid("Journey")  # rank 3 between Painter(3) and Savage(3): a set
    items = tw.score_placement(cells, (2, 1), "ana")
    assert [(i.points, i.label.split(":")[0]) for i in items] == [(3, "set column C0-C1-C2")]


# T1–T4


def test_t1_occupied_cell_is_illegal_empty_is_legal():
    s = play(started(), "reveal ana Pact, ben Diplomat, cy Ace Moons")
    assert rules_broken(s, "Ace Moons E5") == {"T1"}
    assert verdict(s, "Ace Moons D5").legal


def test_t2_cell_must_touch_diagonal_is_enough():
    s = play(started(), "reveal ana Pact, ben Diplomat, cy Ace Moons")
    assert rules_broken(s, "Ace Moons B5") == {"T2"}
    assert verdict(s, "Ace Moons D4").legal  # touches E5 diagonally only


def test_t3_grid_at_most_six_wide():
    s = play(started(), "reveal ana Pact, ben Diplomat, cy Ace Moons",
             "D5", "H5", "I5")  # D..I: 6 columns
    s = play(s, "reveal ana Castle, ben Lunatic, cy Author")
    v = verdict(s, "Author J5")
    assert not v.legal and {x.rule.id for x in v.violations} == {"T3"}
    assert "7 columns wide" in v.violations[0].reason
    assert rules_broken(s, "Author C4") == {"T3"}
    assert verdict(s, "Author E4").legal
    assert verdict(s, "Author E7").legal  # 3 rows tall is fine


def test_t4_set_aside_only_when_no_cell_is_legal():
    s = play(started(), "reveal ana Pact, ben Diplomat, cy Ace Moons")
    v = verdict(s, "set-aside Ace Moons")
    assert not v.legal and v.violations[0].rule.id == "T4"
    assert "legal cell" in v.violations[0].reason
    # a full 6×6 box leaves no legal cell (unreachable with 36 cards, so built by hand)
    full = tuple(((c, r), 1 + (c * 6 + r) % 36) for c in range(6) for r in range(6))
    stuck = replace(s, grid=full)
    assert tw.legal_cells(stuck.cells) == []
    assert verdict(stuck, "set-aside Ace Moons").legal
    assert G.legal_moves(stuck) == [tw.SetAside(cid("Ace Moons"), "cy")]
    after = G.apply(stuck, G.parse(stuck, "set-aside Ace Moons", "cy"))
    assert after.set_aside[0][:2] == ("cy", cid("Ace Moons"))
    assert totals(after.ledger, PLAYERS)["cy"] == 0


# the turn: reveal, deferral, rank order, draws


def test_placements_go_in_ascending_rank_by_their_owner():
    s = play(started(), "reveal ana Pact, ben Diplomat, cy Ace Moons")
    assert G.to_move(s) == "cy"
    assert rules_broken(s, "Pact D5") == {"T-turn"}
    assert rules_broken(s, "Ace Moons D5", player="ben") == {"T-turn"}
    assert rules_broken(s, "Sea D5") == {"T-turn"}  # not revealed this turn
    s = play(s, "D5")  # the next card is implied
    assert G.to_move(s) == "ben"


def test_reveal_needs_everyone_and_unseen_cards():
    s = started()
    assert rules_broken(s, "reveal ana Pact, ben Diplomat") == {"T-turn"}
    assert rules_broken(s, "reveal ana Journey, ben Diplomat, cy Pact") == {"T-deck"}
    with pytest.raises(InvalidMove):
        G.parse(s, "reveal ana Pact, ana Diplomat, cy Sea")
    with pytest.raises(InvalidMove):
        G.parse(s, "reveal Pact, Diplomat")


def test_shared_ranks_are_deferred_and_draws_counted():
    s = started()
    assert s.deck == 21 and s.hands == (3, 3, 3)
    v = verdict(s, "reveal ana Castle, ben Cave, cy Author")
    assert "deferred (rank revealed more than once): ana Castle, ben Cave" in v.notes
    s = play(s, "reveal ana Castle, ben Cave, cy Author")
    assert s.deferred == ((cid("Castle"),), (cid("Cave"),), ())
    assert s.pending == (("cy", cid("Author")),)
    v = verdict(s, "D6")
    assert any("draw one card each; deck 18" in n for n in v.notes)
    s = play(s, "D6")
    assert s.hands == (3, 3, 3) and s.deck == 18 and s.phase == "reveal"
    # the deferred card waits for the final turn under the default rule
    assert rules_broken(s, "reveal ana Castle, ben Lunatic, cy Sailor") == {"T-deferred"}


def test_nobody_draws_when_the_deck_cannot_serve_everyone():
    s = replace(started(), deck=2)
    s = play(s, "reveal ana Pact, ben Diplomat, cy Ace Moons", "D5", "H5")
    v = verdict(s, "H6")
    assert "the deck (2) cannot serve all 3: nobody draws" in v.notes
    s = play(s, "H6")
    assert s.hands == (2, 2, 2) and s.deck == 2


def test_moves_before_the_grid_and_a_wrong_grid_are_rejected():
    s = G.setup(PLAYERS, {})
    assert rules_broken(s, "reveal ana Pact, ben Diplomat, cy Sea") == {"T-setup"}
    assert rules_broken(s, "grid Journey, Mountain / Forest, Sea") == {"T-setup"}  # 2×2 for 3
    assert rules_broken(s, "grid Journey, Journey, Forest / Sea, Bard, End") == {"T-deck"}
    assert verdict(s, "grid Journey, Forest / Mountain, Sea / Bard, End").legal  # 3×2 turned
    four = G.setup(("a", "b", "c", "d"), {})
    assert verdict(four, "grid Journey Mountain / Forest Sea").legal


def test_any_turn_variant_plays_a_deferred_card_later_and_final_turn_places_unique_ranks():
    s = started(("ana", "ben"), deferred="any-turn")  # grid E5 F5 / E6 F6
    s = play(s, "reveal ana Castle, ben Cave")  # both deferred, nobody placed
    assert s.deferred == ((cid("Castle"),), (cid("Cave"),))
    assert s.hands == (3, 3) and s.deck == 24
    s = play(s, "reveal ana Castle, ben Author", "E4", "F4")
    assert s.hands == (3, 3) and s.deck == 23  # only ben replaced a hand card
    assert s.deferred == ((), (cid("Cave"),))


def test_final_turn_sets_aside_shared_ranks_and_places_the_rest():
    s = started(("ana", "ben"), deferred="any-turn")
    s = play(s, "reveal ana Castle, ben Cave", "reveal ana Castle, ben Author", "E4", "F4")
    s = replace(s, hands=(1, 1), deck=0)
    v = verdict(s, "reveal ana Pact, ben Diplomat")
    s = play(s, "reveal ana Pact, ben Diplomat", "G4")
    v = verdict(s, "G5")
    assert any(n.startswith("final turn: the deferred cards are revealed: ben Cave") for n in v.notes)
    s = play(s, "G5")
    assert s.final and G.to_move(s) == "ben" and s.pending == (("ben", cid("Cave")),)
    s = play(s, "D4")
    assert G.outcome(s) is not None


# a full game for three players


SCRIPT = """grid Journey, Mountain, Forest / Sea, Bard, End
reveal ana Pact, ben Diplomat, cy Ace Moons
D5
H5
H6
reveal ana Castle, ben Cave, cy Author
D6
reveal ana Huntress, ben Lunatic, cy Chance Meeting
E4
F4
G4
reveal ana Ace Suns, ben Desert, cy Painter
D4
E7
F7
reveal ana Savage, ben Soldier, cy Discovery
G7
reveal ana Sailor, ben Penitent, cy Mill
H4
H7
D7
reveal ana Market, ben Betrayal, cy Darkness
E3
F3
G3
reveal ana Merchant, ben Calamity, cy Ace Waves
H3
D3
C5
reveal ana Windfall, ben Ace Leaves, cy Origin
E8
F8
G8
reveal ana Ace Wyrms, ben Battle, cy Ace Knots
C4""".splitlines()


def full_game():
    return play(G.setup(PLAYERS, {}), *SCRIPT)


def test_full_three_player_game_scores_and_winner():
    s = full_game()
    assert totals(G.ledger(s), PLAYERS) == {"ana": 20, "ben": 13, "cy": 15}
    out = G.outcome(s)
    assert out.winners == ("ana",) and "20" in out.reason
    labels = [(i.player, i.points, i.label.split(":")[0]) for i in G.ledger(s)]
    assert ("cy", 5, "flush Moons diagonal \\ F4-G5-H6") in labels
    assert ("cy", 2, "set diagonal \\ D6-E7-F8") in labels
    assert ("ana", 6, "flush Knots row D3-E3-F3") in labels
    # the deck ran out after seven draws; the deferred pairs share ranks in the final turn
    assert s.deck == 0 and s.hands == (0, 0, 0)
    assert sorted(tw.card_by_id(c).name for _, c, _ in s.set_aside) == [
        "Ace of Knots", "Ace of Wyrms", "Castle", "Cave", "Discovery", "Soldier"]
    assert len(s.grid) == 30


def test_full_game_ledger_matches_an_independent_count():
    """Rescan the whole grid after each placement for windows through the new card."""
    s = G.setup(PLAYERS, {})
    expected = []
    for text in SCRIPT:
        before = s
        s = G.apply(s, G.parse(s, text, G.to_move(s)))
        new = [x for x in s.grid if x not in before.grid]
        if not new or text.startswith("grid"):
            continue
        (cell, _), cells = new[0], s.cells
        owner = before.pending[0][0]
        lines = set()
        for (c, r) in cells:
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                win = ((c, r), (c + dc, r + dr), (c + 2 * dc, r + 2 * dr))
                if cell in win and all(w in cells for w in win):
                    lines.add(win)
        for win in lines:
            cards = [tw.card_by_id(cells[w]) for w in win]
            ranks = [x.value for x in cards]
            numerals = [x for x in ranks if 2 <= x <= 9]
            value = min(numerals) if numerals else 0
            kinds = (len(set(ranks)) == 1) + (ranks in ([a, a + 1, a + 2] for a in range(1, 9))
                                               or ranks[::-1] in ([a, a + 1, a + 2]
                                                                  for a in range(1, 9)))
            kinds += bool(set.intersection(*(set(x.suits) for x in cards)))
            expected.extend([(owner, value)] * kinds)
    got = [(i.player, i.points) for i in G.ledger(s)]
    assert sorted(got) == sorted(expected)




def test_the_game_is_over_after_the_final_turn():
    s = full_game()
    with pytest.raises(IllegalMove) as e:
        G.apply(s, G.parse(s, "reveal ana Pact, ben Sea, cy End"))
    assert e.value.rule_ids == ("T-turn",)


def test_ties_are_shared():
    s = replace(full_game(), ledger=())
    assert G.outcome(s).winners == PLAYERS


# what players see


def test_show_draws_the_grid_with_coordinates_and_whose_turn():
    s = play(started(), "reveal ana Pact, ben Diplomat, cy Ace Moons", "D5")
    text = G.show(s)
    lines = text.splitlines()
    assert lines[1].split() == ["C", "D", "E", "F", "G", "H"]  # with the legal margin
    assert any(line.startswith(" 5") and "3 Journey" in line and "A Moons" in line
               for line in lines)
    assert "·" in text
    assert "now: ben places Diplomat (8)" in text and "then ana Pact" in text
    assert "hands: ana 2, ben 2, cy 2; deck 21" in text
    assert "scores: ana 0, ben 0, cy 3" in text
    end = G.show(full_game())
    assert "game over: ana" in end and "set aside:" in end


def test_cli_end_to_end(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    run = CliRunner().invoke

    def ref(*args):
        return run(main, ["--db", db, *args])

    r = ref("new", "thricewise", "--players", "ana,ben,cy")
    assert r.exit_code == 0, r.output
    assert "grid" in r.output
    assert ref("play", "grid Journey, Mountain, Forest / Sea, Bard, End").exit_code == 0
    assert ref("play", "reveal ana Pact, ben Diplomat, cy Ace Moons").exit_code == 0
    r = ref("play", "B5")
    assert r.exit_code == 1 and "T2" in r.output
    r = ref("play", "D5")
    assert r.exit_code == 0 and "cy +3 flush Moons row D5-E5-F5" in r.output
    assert "next: ben" in r.output
    r = ref("play", "3")
    assert r.exit_code == 2 and "Journey" in r.output
    r = ref("show", "--as", "ben")
    assert r.exit_code == 0 and "now: ben places Diplomat" in r.output
    r = ref("score")
    assert "cy" in r.output and "+3" in r.output


def test_questions_at_the_table(tmp_path):
    s = play(started(), "reveal ana Pact, ben Diplomat, cy Ace Moons")
    assert G.query(s, "cells").startswith("cy's Ace of Moons (Ace) may go on 14 cell(s): D4 E4")
    assert G.query(s, "where journey") == "Journey is on the table at E5"
    assert G.query(s, "where Pact") == "Pact is revealed by ana and waiting to be placed"
    assert G.query(s, "where Sailor") == "Sailor is unseen (in a hand or the deck)"
    db = str(tmp_path / "q.sqlite3")
    CliRunner().invoke(main, ["--db", db, "new", "thricewise", "--players", "ana,ben"])
    CliRunner().invoke(main, ["--db", db, "play", "grid Journey, Mountain / Sea, Bard"])
    r = CliRunner().invoke(main, ["--db", db, "ask", "where", "Sea"])
    assert r.exit_code == 0 and r.output == "Sea is on the table at E6\n"


def test_position_text_round_trips_through_a_whole_game():
    s = G.setup(PLAYERS, {})
    for text in SCRIPT:
        s = G.apply(s, G.parse(s, text, G.to_move(s)))
        back = G.load_position(G.setup(PLAYERS, {}), G.position(s))
        assert G.position(back) == G.position(s)
        assert (back.phase, G.to_move(back), back.cells) == (s.phase, G.to_move(s), s.cells)
        assert totals(G.ledger(back), PLAYERS) == totals(G.ledger(s), PLAYERS)


def test_a_position_must_account_for_every_card():
    base = G.setup(PLAYERS, {})
    good = G.position(started())
    assert G.load_position(base, good).phase == "reveal"
    with pytest.raises(RefereeError, match="each card exists once: Journey"):
        G.load_position(base, good.replace("G6 End", "G6 Journey"))
    with pytest.raises(RefereeError, match="must hold the 30 unseen cards"):
        G.load_position(base, good.replace("deck 21", "deck 20"))
    with pytest.raises(RefereeError, match=r"the grid is 26 columns wide and 9 rows tall, more "
                                           r"than 6 \(T3\)"):
        G.load_position(G.setup(("ana", "ben"), {}),
                        "grid A1 Journey, Z9 Pact\nhands ana 3, ben 3\ndeck 28")
    with pytest.raises(RefereeError, match="unknown player"):
        G.load_position(base, good.replace("hands ana 3", "hands zed 3"))


def test_cli_dispute_from_a_position_file(tmp_path):
    db, board = str(tmp_path / "p.sqlite3"), tmp_path / "board.txt"

    def ref(*args):
        return CliRunner().invoke(main, ["--db", db, *args])

    ref("new", "thricewise", "--players", "ana,ben,cy")
    ref("play", "grid Journey, Mountain, Forest / Sea, Bard, End")
    ref("play", "reveal ana Pact, ben Diplomat, cy Ace Moons")
    board.write_text(ref("position").output)
    r = ref("new", "thricewise", "--players", "ana,ben,cy", "--position", str(board))
    assert r.exit_code == 0, r.output
    r = ref("check", "D5")
    assert r.exit_code == 0 and "cy +3 flush Moons" in r.output


@pytest.mark.parametrize("n,mode,seed", [(2, "final", 1), (3, "any-turn", 2), (4, "final", 3),
                                         (5, "any-turn", 4), (5, "final", 5)])
def test_random_games_end_with_every_card_accounted_for(n, mode, seed):
    import random

    rng = random.Random(seed)
    players = tuple("abcde"[:n])
    s = G.setup(players, {"deferred": mode})
    cards = [c.name for c in tw.deck()]
    rng.shuffle(cards)
    rows, cols = tw.grid_shape(n)
    grid = [cards.pop() for _ in range(rows * cols)]
    s = play(s, "grid " + " / ".join(", ".join(grid[r * cols:(r + 1) * cols])
                                     for r in range(rows)))
    while G.outcome(s) is None:
        if s.phase == "reveal":
            plays = []
            for i, p in enumerate(players):
                own = [tw.card_by_id(c).name for c in s.deferred[i]]
                if own and mode == "any-turn" and (s.hands[i] == 0 or rng.random() < 0.3):
                    plays.append(f"{p} {own[0]}")
                elif s.hands[i]:
                    plays.append(f"{p} {cards.pop()}")
            s = play(s, "reveal " + ", ".join(plays))
        else:
            cell = rng.choice(G.legal_moves(s)).cell
            s = play(s, tw.cell_name(cell))
        unseen = 36 - len(s.grid) - sum(map(len, s.deferred)) - len(s.set_aside) - len(s.pending)
        assert s.deck + sum(s.hands) == unseen == len(cards)
        c0, r0, c1, r1 = tw.box(s.cells)
        assert c1 - c0 < 6 and r1 - r0 < 6
    assert s.hands == (0,) * n and not any(s.deferred) and not cards
    assert len(s.grid) + len(s.set_aside) == 36
