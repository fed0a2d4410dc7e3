"""Tripple Domino played through: a full scripted game with known scores, the notation
round-trip and random legal play (hypothesis), and fold/undo giving the same state."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import Event, fold, totals
from referee.games.tripple_domino import (
    GAME,
    Draw,
    End,
    Pass,
    Place,
    Start,
    corners,
    edge_neighbours,
    name,
    rotations,
    tiles,
)

PLAYERS = ("ana", "bob")

# A whole game, as typed at the table (target 150 so that one round decides it). Every score
# below was added up by hand from rules §1: ana opens 5-5-5 (15 + 5), completes a hexagon with
# 2-3-4 (9 + 40), goes out with 1-4-5 (10 + 20) and collects bob's five tiles (19).
SCRIPT = [
    ("start ana=5-5-5 bob=4-4-4", "ana", [15, 5]),
    ("4-5-5 D-1,0", "bob", [14]),
    ("3-5-5 D0,0", "ana", [13]),
    ("draw", "bob", [-5]),
    ("draw 4-4-5 U-1,1", "bob", [-5, 13]),
    ("3-4-5 U1,0", "ana", [12]),
    ("2-5-5 D0,-1", "bob", [12]),
    ("3-3-5 U0,1", "ana", [11]),
    ("draw", "bob", [-5]),
    ("draw 3-4-4 D-2,1", "bob", [-5, 11]),
    ("2-4-5 U-1,0", "ana", [11]),
    ("3-3-4 U-2,1", "bob", [10]),
    ("2-3-4 D-2,0", "ana", [9, 40]),
    ("2-3-5 U0,-1", "bob", [10]),
    ("3-3-3 D-3,1", "ana", [9]),
    ("2-2-5 U1,-1", "bob", [9]),
    ("2-3-3 U-3,2", "ana", [8]),
    ("2-2-4 D1,-2", "bob", [8]),
    ("2-4-4 U2,-2", "ana", [10]),
    ("1-4-4 D2,-3", "bob", [9]),
    ("1-4-5 U3,-3", "ana", [10, 20]),
    ("end bob=4-4-4,0-0-0,0-0-1,1-1-1,0-1-2", "ana", [19]),
]


def test_a_full_scripted_game_ends_with_the_known_scores():
    s = GAME.setup(PLAYERS, {"target": "150"})
    for text, who, points in SCRIPT:
        before = len(s.ledger)
        s = GAME.apply(s, GAME.parse(s, text))
        got = s.ledger[before:]
        assert [i.points for i in got] == points, text
        assert {i.player for i in got} == {who}, text
    assert totals(s.ledger, PLAYERS) == {"ana": 192, "bob": 76}
    assert GAME.outcome(s).winners == ("ana",)
    labels = [i.label for i in s.ledger]
    assert labels.count("hexagon completed") == 1 and "going out (last tile)" in labels




def test_undo_gives_the_state_of_never_having_played_the_move():
    base = [Event(1, "new", {"players": list(PLAYERS), "options": {}}),
            Event(2, "move", {"text": "start ana=5-5-5 vs bob=4-4-4"})]
    played = base + [Event(3, "move", {"text": "draw", "player": "bob"}),
                     Event(4, "undo", {"seq": 3}),
                     Event(5, "rejected", {"text": "zzz"})]
    assert GAME.position(fold(GAME, played)) == GAME.position(fold(GAME, base))
    assert fold(GAME, played).ledger == fold(GAME, base).ledger


# --- property-based -------------------------------------------------------------------------

TILES = sorted(tiles())
tile_st = st.sampled_from(TILES)
player_st = st.sampled_from(PLAYERS)
cell_st = st.tuples(st.sampled_from("UD"), st.integers(-12, 12), st.integers(-12, 12))


@st.composite
def moves(draw):
    kind = draw(st.sampled_from(["start", "place", "draw", "pass", "end"]))
    who = draw(player_st)
    if kind == "start":
        other = "bob" if who == "ana" else "ana"
        claims = draw(st.lists(tile_st, max_size=1))
        return Start(who, draw(tile_st), tuple((other, t) for t in claims))
    if kind == "place":
        t = draw(tile_st)
        return Place(who, t, draw(cell_st), draw(st.sampled_from(rotations(t))),
                     draw(st.booleans()))
    if kind == "draw":
        return Draw(who)
    if kind == "pass":
        return Pass(who)
    hands = draw(st.lists(st.lists(tile_st, max_size=4), min_size=2, max_size=2))
    return End(tuple((p, tuple(sorted(h))) for p, h in zip(PLAYERS, hands, strict=True)
                     if draw(st.booleans())))


@given(moves())
def test_parse_then_format_round_trips(move):
    s = GAME.setup(PLAYERS, {})
    text = GAME.format(s, move)
    player = getattr(move, "player", None)
    assert GAME.parse(s, text, player) == move
    assert GAME.format(s, GAME.parse(s, text, player)) == text


def _invariants(s):
    # every tile on the table agrees with the numbers at its vertices, in printed order (D3, D4)
    for cell, reading in s.board.items():
        assert reading in rotations(tuple(sorted(reading)))
        assert tuple(s.numbers[v] for v in corners(cell)) == reading
    on_table = [tuple(sorted(r)) for r in s.board.values()]
    assert len(set(on_table)) == len(on_table) and set(on_table) == set(s.used)  # D5
    assert not set(s.held) & s.used  # a tile declared at the start is in a hand or on the table
    assert min(s.hands) >= 0 and s.reserve >= 0 and 0 <= s.draws < 3
    assert s.cap is None or s.round_draws <= s.cap
    if s.phase in ("play", "end"):
        assert sum(s.hands) + s.reserve + len(s.board) == 56
    # the board is connected through edges (D2)
    if s.board:
        seen, todo = set(), [next(iter(s.board))]
        while todo:
            c = todo.pop()
            if c in seen:
                continue
            seen.add(c)
            todo += [n for n in edge_neighbours(c) if n in s.board]
        assert seen == set(s.board)


def _table_move(s, rnd):
    """What the table might type now: a random legal move, with the hands told at round end."""
    if s.phase == "start":
        claims = rnd.sample(TILES, len(s.players))
        return "start " + " ".join(f"{p}={name(t)}" for p, t in zip(s.players, claims,
                                                                     strict=True))
    if s.phase == "end":
        free = [t for t in TILES if t not in s.used and t not in s.held]
        rnd.shuffle(free)
        told = []
        for p, n in zip(s.players, s.hands, strict=True):
            if p != s.out:
                own = [t for t, holder in s.held.items() if holder == p]  # declared at start
                hand = own + free[:n - len(own)]
                told.append(f"{p}={','.join(name(t) for t in hand) or '-'}")
                free = free[n - len(own):]
        return "end " + " ".join(told)
    options = GAME.legal_moves(s)
    places = [m for m in options if isinstance(m, Place)]
    pick = rnd.choice(places) if places and rnd.random() < 0.85 else rnd.choice(options)
    return GAME.format(s, pick)


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["standard", "pressman"]),
       st.integers(1, 4), st.sampled_from(["none", "4"]))
def test_random_legal_play_never_breaks_an_invariant(rnd, variant, n, cap):
    players = ("ana", "bob", "cy", "dee")[:n]
    options = {"variant": variant, "target": "120", "draw-cap": cap}
    s = GAME.setup(players, options)
    events = [Event(1, "new", {"players": list(players), "options": options})]
    for step in range(70):
        if GAME.outcome(s) is not None:
            break
        text = _table_move(s, rnd)
        move = GAME.parse(s, text)
        verdict = GAME.check(s, move)
        assert verdict.legal, (text, verdict.violations)
        after = GAME.apply(s, move)
        assert after.ledger[len(s.ledger):] == verdict.score  # check previews what apply does
        s = after
        _invariants(s)
        events.append(Event(step + 2, "move", {"text": GAME.format(s, move)}))
    assert GAME.position(fold(GAME, events)) == GAME.position(s)  # the log rebuilds it
    if len(events) > 2:  # undoing the last move is the same as never having played it
        undone = events + [Event(len(events) + 1, "undo", {"seq": events[-1].seq})]
        assert GAME.position(fold(GAME, undone)) == GAME.position(fold(GAME, events[:-1]))
