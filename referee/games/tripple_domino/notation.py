"""Tripple Domino's notation: moves read from what the table types, and written back.

`parse_move` takes the game for whose turn it is (`to_move`, `outcome`); it imports no rules.
"""

from __future__ import annotations

from referee.engine import AmbiguousMove, InvalidMove, Rules, find_player
from referee.games.tripple_domino.board import Cell
from referee.games.tripple_domino.model import (
    CELL_RE,
    NOTATION,
    TILE_RE,
    Draw,
    End,
    Move,
    Pass,
    Place,
    Start,
    State,
    Tile,
    cell_name,
    mismatches,
    name,
    parse_cell,
    parse_tile,
    rotations,
    strength,
    to_tell,
    tokens,
    unreadable,
)


def parse_move(game: Rules, state: State, text: str, player: str | None = None) -> Move:
    words = tokens(text)
    if not words:
        raise InvalidMove(f"empty move; moves: {NOTATION}")
    head = words[0]
    if head == "start":
        return parse_start(game, state, words[1:], player)
    if head == "end":
        return parse_end(game, state, words[1:])
    who = mover_named(game, state, player)
    if head == "pass":
        if len(words) > 1:
            raise InvalidMove(f"pass takes nothing after it, got {' '.join(words[1:])!r}")
        return Pass(who)
    if head == "draw":
        if len(words) == 1:
            return Draw(who)
        if len(words) == 2:
            raise InvalidMove("a drawn tile that is placed needs its cell: draw 2-3-3 U1,0 "
                              "(a drawn tile that is kept is just `draw`)")
        return parse_place(game, state, words[1:], who, drawn=True)
    return parse_place(game, state, words, who, drawn=False)


def mover_named(game: Rules, state: State, player: str | None) -> str:
    if player is not None:
        return find_player(state.players, player)
    now = game.to_move(state)
    if now is None:
        if state.phase == "start":
            raise AmbiguousMove("the round has not started: begin with "
                                "`start ana=5-5-5 bob=4-4-4` (everyone's best tile)")
        if state.phase == "over":
            raise InvalidMove(f"the game is over ({game.outcome(state).reason}): start a "
                              "new match with `referee new`")
        if state.phase == "end":
            names = " ".join(f"{p}=..." for p in to_tell(state))
            raise InvalidMove(f"round {state.round} is over: tell the tiles left in each "
                              f"hand first, `end {names}`")
        raise AmbiguousMove("nobody is to move now: say who plays", where="--by PLAYER")
    return now


def parse_start(game: Rules, state: State, words: list[str], player: str | None) -> Start:
    bare: Tile | None = None
    claims: list[tuple[str, Tile]] = []
    opener: str | None = None
    for w in words:
        if w == "vs":
            if not claims and bare is None:
                raise InvalidMove("`vs` comes after the opening tile: start ana=5-5-5 vs "
                                  "bob=4-4-4")
            if opener is None and claims:
                opener = claims[0][0]
            continue
        if "=" in w:
            who, _, tile = w.partition("=")
            named = find_player(state.players, who, "start")
            if any(p == named for p, _ in claims):
                raise InvalidMove(f"{named} is named twice in start")
            claims.append((named, tuple(sorted(parse_tile(tile)))))
        elif bare is None and not claims:
            bare = tuple(sorted(parse_tile(w, "opening tile")))
        else:
            raise InvalidMove(f"expected PLAYER=TILE in start, got {w!r}")
    if bare is not None:
        if player is None and len(state.players) == 1:
            player = state.players[0]  # solitaire: the reserve tile turned up opens
        if player is None:
            raise AmbiguousMove("who opens? add --by PLAYER, or write start ana=5-5-5 "
                                "bob=4-4-4")
        who = mover_named(game, state, player)
        if any(p == who for p, _ in claims):
            raise InvalidMove(f"{who} opens with {name(bare)}; do not list {who} again")
        return Start(who, bare, tuple(claims))
    if not claims:
        raise InvalidMove("start needs the opening tile: start ana=5-5-5 bob=4-4-4 "
                          "(everyone's best tile) or start 5-5-5 --by ana")
    if opener is None:  # no `vs`: the player who typed, else the strongest claim
        if player is not None and any(p == player for p, _ in claims):
            opener = player
        else:
            opener = max(claims, key=lambda c: strength(c[1]))[0]
    tile = dict(claims)[opener]
    return Start(opener, tile, tuple(c for c in claims if c[0] != opener))


def parse_end(game: Rules, state: State, words: list[str]) -> End:
    hands: dict[str, tuple[Tile, ...]] = {}
    for w in words:
        who, sep, rest = w.partition("=")
        match = [p for p in state.players if p.lower() == who]
        if not sep or not match:
            raise InvalidMove(f"expected PLAYER=TILE,TILE or PLAYER=- in end, got {w!r}")
        if match[0] in hands:
            raise InvalidMove(f"{match[0]} is named twice in end")
        got = () if rest in ("-", "") else tuple(
            tuple(sorted(parse_tile(t))) for t in rest.split(",") if t)
        hands[match[0]] = tuple(sorted(got))
    order = [(p, hands[p]) for p in state.players if p in hands]
    return End(tuple(order))


def parse_place(game: Rules, state: State, words: list[str], who: str, drawn: bool) -> Place:
    tile: tuple[int, int, int] | None = None
    cell: Cell | None = None
    given: tuple[int, int, int] | None = None
    i = 0
    while i < len(words):
        w = words[i]
        if w == "as":
            if i + 1 >= len(words):
                raise InvalidMove("`as` needs the corners clockwise from the apex: as 3-1-2")
            given = parse_tile(words[i + 1], "corner reading")
            i += 2
            continue
        if CELL_RE.match(w) and cell is None:
            cell = parse_cell(w)
        elif TILE_RE.match(w) and tile is None:
            tile = parse_tile(w)
        elif CELL_RE.match(w) or TILE_RE.match(w):
            raise InvalidMove(f"a placement is one tile on one cell, like 1-2-3 U1,0; "
                              f"{w.upper()} is one too many")
        else:
            raise InvalidMove(unreadable(w))
        i += 1
    if tile is None or cell is None:
        raise InvalidMove(f"a placement needs a tile and a cell, like 1-2-3 U1,0; "
                          f"moves: {NOTATION}")
    t: Tile = tuple(sorted(tile))
    if given is not None:
        return Place(who, t, cell, given, drawn)
    return Place(who, t, cell, rotation(game, state, Place(who, t, cell, None, drawn)), drawn)


def rotation(game: Rules, state: State, move: Place) -> Tile | None:
    """The rotation that fits the numbers around the cell, None when none does (D3).

    An edge shared with a tile fixes two corners, and two corners fix the rotation of a
    one-sided tile: a legal cell never leaves a choice. Several fit only a cell with no
    neighbour, which D2 rejects; the printed order is kept for that report.
    """
    if not state.board:
        return move.tile
    fits = [r for r in rotations(move.tile) if not mismatches(state, move.cell, r)]
    return fits[0] if fits else None



def format_move(state: State, move: Move) -> str:
    if isinstance(move, Start):
        vs = " ".join(f"{p}={name(t)}" for p, t in move.claims)
        return f"start {move.player}={name(move.tile)}" + (f" vs {vs}" if vs else "")
    if isinstance(move, Place):
        text = f"{name(move.tile)} {cell_name(move.cell)}"
        if move.corners is not None:
            text += f" as {name(move.corners)}"
        return f"draw {text}" if move.drawn else text
    if isinstance(move, Draw):
        return "draw"
    if isinstance(move, Pass):
        return "pass"
    hands = " ".join(f"{p}={','.join(name(t) for t in ts) or '-'}" for p, ts in move.hands)
    return f"end {hands}".strip()
