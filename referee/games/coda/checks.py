"""Coda's checks: which rules a move breaks in a position (C1-C4, turn, pool, end)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine import Violation
from referee.games.coda import deduce
from referee.games.coda.deduction import can_be, can_text, domain, fits
from referee.games.coda.model import (
    COLOURS,
    Deal,
    Draw,
    Expose,
    Guess,
    Place,
    Seal,
    Slot,
    State,
    Stop,
    Tally,
    Unseal,
    inserted,
    new_round,
    tile_name,
    tile_of,
    tile_short,
    violation,
)
from referee.games.coda.sealing import seal_problems, unseal_problems


def violations(state: State, move) -> list[Violation]:
    if state.phase == "over" and not isinstance(move, Unseal):
        return [violation("C-end", "the game is over (only `unseal` is still possible)")]
    if isinstance(move, Deal):
        return deal_problems(state, move)
    if isinstance(move, Seal):
        return seal_problems(state, move)
    if isinstance(move, Unseal):
        return unseal_problems(state, move)
    if state.phase in ("deal", "closed"):
        missing = [p for p, d in zip(state.players, state.dealt, strict=True) if not d]
        if state.phase == "closed":
            return [violation("C-setup", f"round {state.round} is over: deal round "
                                  f"{state.round + 1} first (row <player> <colours>)")]
        if missing:
            return [violation("C-setup", f"the rows come first: {', '.join(missing)} to deal")]
        unsealed = [p for p in state.players if any(not s.seal for s in state.row(p))]
        return [violation("C-seal", f"sealed game: {', '.join(unsealed)} must seal their tiles "
                             "first (referee play 'seal NAME' --secret)")]
    if state.phase == "tally" or isinstance(move, Tally):
        if state.phase != "tally":
            return [violation("C-turn", "the round is not over: only its winner tallies")]
        if not isinstance(move, Tally):
            return [violation("C-end", f"{state.winner} won the round: {state.winner} reveals "
                                "the hidden tiles (tally N N ...)")]
        return tally_problems(state, move)
    return turn_problems(state, move)


def deal_problems(state: State, move: Deal) -> list[Violation]:
    if state.phase not in ("deal", "closed"):
        return [violation("C-setup", "the rows are already dealt")]
    i = state.players.index(move.player)
    if state.phase == "deal" and state.dealt[i]:
        return [violation("C-setup", f"{move.player}'s row is already on the table")]
    out = []
    want = 3 if len(state.players) == 4 else 4
    if len(move.colours) != want:
        out.append(violation("C-setup", f"with {len(state.players)} players each takes {want} "
                                 f"tiles, not {len(move.colours)}"))
    pool = new_round(state, state.round).pool if state.phase == "closed" else state.pool
    for c in (0, 1):
        n = move.colours.count(c)
        if n > pool[c]:
            out.append(violation("C-pool", f"the pool has {pool[c]} {COLOURS[c]} tile(s) left, "
                                    f"not {n}"))
    return out


def turn_problems(state: State, move) -> list[Violation]:
    me = state.to_play
    if move.player is not None and move.player != me:
        if move.player in state.players and state.hidden(move.player) == 0:
            return [violation("C3", f"{move.player} is out (every tile revealed)")]
        return [violation("C-turn", f"it is {me}'s turn, not {move.player}'s")]
    phase = state.phase
    expect = {
        "draw": "draw a tile first (draw black|white)",
        "guess": "guess (guess NAME POSITION NUMBER hit|miss)"
                 + (" or stop" if state.hits else ""),
        "stop": "stop: the round is won, put the drawn tile in its place (stop at N)",
        "place": "put the drawn tile revealed into its place (place NUMBER at N)",
        "expose": "the pool is empty: reveal one of your hidden tiles (reveal POSITION NUMBER)",
        "tally": f"{state.winner} reveals their hidden tiles (tally N N ...)",
    }[phase]
    allowed = {"draw": Draw, "guess": (Guess, Stop), "stop": Stop, "place": Place,
               "expose": Expose, "tally": Tally}[phase]
    if not isinstance(move, allowed) or (phase == "guess" and isinstance(move, Stop)
                                         and not state.hits):
        return [violation("C-turn", f"{me} must now {expect}")]
    if isinstance(move, Draw):
        c = move.colour
        if state.pool[c] == 0:
            return [violation("C-pool", f"no {COLOURS[c]} tile is left in the pool "
                                 f"({state.pool[1 - c]} {COLOURS[1 - c]})")]
        return []
    if isinstance(move, Guess):
        return guess_problems(state, move)
    if isinstance(move, Stop):
        return stop_problems(state, move)
    if isinstance(move, Place):
        return place_problems(state, move)
    return expose_problems(state, move)


def named_tile(state: State, colour: int, value: str, out: list[Violation]) -> int:
    if value == "dash" and not state.advanced:
        out.append(violation("C4", "this is the basic game: there are no dashes"))
    return tile_of(colour, value)


def guess_problems(state: State, move: Guess) -> list[Violation]:
    me, out = state.to_play, []
    row = state.row(move.target)
    if move.target == me:
        return [violation("C2", "a player guesses an opponent's tile, not their own")]
    if state.hidden(move.target) == 0:
        return [violation("C2", f"{move.target} is out: every tile is revealed")]
    if not 1 <= move.position <= len(row):
        return [violation("C2", f"{move.target} has tiles 1-{len(row)}, no tile {move.position}")]
    slot = row[move.position - 1]
    if slot.tile is not None:
        return [violation("C2", f"{move.target}'s tile {move.position} is already revealed "
                         f"({tile_name(slot.tile)})")]
    tile = named_tile(state, slot.colour, move.value, out)
    if out:
        return out
    where = f"{move.target}'s tile {move.position} ({COLOURS[slot.colour]})"
    if move.hit and not can_be(state, slot.id, {tile}, answers=True) and not (
            can_be(state, slot.id, {tile}, answers=False)):
        can = can_text(state, slot.id)
        out.append(violation("C1", f"a hit is impossible: {where} cannot be {tile_name(tile)} "
                            f"given the revealed tiles ({can})"))
    if not move.hit:
        # judged with the earlier answers, unless those already contradict each other
        answers = fits(state, answers=True)
        others = domain(state, slot, answers) - {tile}
        if not can_be(state, slot.id, others, answers=answers):
            basis = "the order rule, the revealed tiles" + (" and earlier answers"
                                                            if answers else "")
            out.append(violation("C1", f"a miss is impossible: {where} can only be "
                                f"{tile_name(tile)} given {basis}"))
    return out


def stop_problems(state: State, move: Stop) -> list[Violation]:
    me = state.to_play
    if state.drawn is None:
        if move.position is not None:
            return [violation("C-turn", "no tile was drawn (the pool is empty): just `stop`")]
        return []
    if move.position is None:
        return [violation("C-turn", f"where does {me}'s drawn {COLOURS[state.drawn]} tile go? "
                             "stop at N")]
    if state.sealed and not move.seal:
        return [violation("C-seal", "sealed game: place the drawn tile with its seal: "
                             f"referee play 'stop at {move.position}' --secret")]
    return insert_problems(state, move.position, None)


def place_problems(state: State, move: Place) -> list[Violation]:
    out: list[Violation] = []
    tile = named_tile(state, state.drawn, move.value, out)
    if out:
        return out
    for p in state.players:
        for i, s in enumerate(state.row(p), start=1):
            if s.tile == tile:
                return [violation("C-pool", f"{tile_name(tile)} is already revealed "
                                     f"({p}'s tile {i})")]
    return insert_problems(state, move.position, tile)


def insert_problems(state: State, position: int, tile: int | None) -> list[Violation]:
    me = state.to_play
    row = state.row(me)
    if not 1 <= position <= len(row) + 1:
        return [violation("C1", f"{me}'s row has {len(row)} tiles: the new one goes at 1-"
                         f"{len(row) + 1}, not {position}")]
    trial = inserted(state, position, tile)
    if not fits(trial, answers=False):
        what = tile_name(tile) if tile is not None else f"a hidden {COLOURS[state.drawn]} tile"
        return [violation("C1", f"{what} cannot stand at {position} in {me}'s row: "
                         f"{neighbours(trial.row(me), position)}")]
    return []


def neighbours(row: Sequence[Slot], position: int) -> str:
    left = [s.tile for s in row[: position - 1] if s.tile is not None
            and not deduce.is_dash(s.tile)]
    right = [s.tile for s in row[position:] if s.tile is not None
             and not deduce.is_dash(s.tile)]
    parts = []
    if left:
        parts.append(f"{tile_name(left[-1])} stands to its left")
    if right:
        parts.append(f"{tile_name(right[0])} to its right")
    return " and ".join(parts) or "no arrangement of the hidden tiles fits the order rule"


def expose_problems(state: State, move: Expose) -> list[Violation]:
    me, out = state.to_play, []
    row = state.row(me)
    if not 1 <= move.position <= len(row) or row[move.position - 1].tile is not None:
        hidden = [str(i) for i, s in enumerate(row, start=1) if s.tile is None]
        return [violation("C-turn", f"{me} reveals one of their own hidden tiles "
                             f"({', '.join(hidden)}), not {move.position}")]
    slot = row[move.position - 1]
    tile = named_tile(state, slot.colour, move.value, out)
    if not out and not can_be(state, slot.id, {tile}, answers=False):
        out.append(violation("C1", f"{me}'s tile {move.position} cannot be {tile_name(tile)}: "
                            f"{can_text(state, slot.id)}"))
    return out


def tally_problems(state: State, move: Tally) -> list[Violation]:
    if move.player is not None and move.player != state.winner:
        return [violation("C-end", f"{state.winner} won the round and tallies, not {move.player}")]
    row = state.row(state.winner)
    hidden = [s for s in row if s.tile is None]
    if len(move.values) != len(hidden):
        return [violation("C-end", f"{state.winner} has {len(hidden)} hidden tile(s) to reveal, "
                            f"not {len(move.values)}")]
    out: list[Violation] = []
    fixed = {s.id: named_tile(state, s.colour, v, out) for s, v in zip(hidden, move.values,
                                                                        strict=True)}
    if out:
        return out
    if not fits(state, answers=False, fixed=fixed):
        shown = " ".join(tile_short(t) for t in fixed.values())
        out.append(violation("C1", f"{state.winner}'s hidden tiles cannot be {shown}: that breaks "
                            "the order rule or repeats a revealed tile"))
    return out
