"""Coda's sealed game: seals (salted hashes) made from a secret, checked and opened."""

from __future__ import annotations

import re
from dataclasses import replace

from referee.engine import IllegalMove, InvalidMove, Violation
from referee.games.coda.deduction import fits
from referee.games.coda.model import (
    Seal,
    Slot,
    State,
    Unseal,
    inserted,
    maybe_start,
    seal_hash,
    tile_name,
    tile_of,
    tile_set,
    value_word,
    violation,
)
from referee.games.coda.notation import parse_move, player_named, tile_value


def seal_problems(state: State, move: Seal) -> list[Violation]:
    hidden = [s for s in state.row(move.player) if s.tile is None]
    if state.phase in ("closed", "over"):
        return [violation("C-seal", "the round is over: nothing left to seal")]
    if not state.dealt[state.players.index(move.player)]:
        return [violation("C-seal", f"{move.player}'s row is not dealt yet")]
    if len(move.hashes) != len(hidden) or not all(re.fullmatch(r"[0-9a-f]{16}", h)
                                                  for h in move.hashes):
        return [violation("C-seal", f"{move.player} has {len(hidden)} hidden tile(s): one 16-digit "
                             "hash each (use --secret to make them)")]
    return []


def unseal_problems(state: State, move: Unseal) -> list[Violation]:
    row = state.row(move.player)
    sealed = [s for s in row if s.seal]
    if not sealed:
        return [violation("C-seal", f"{move.player} sealed no tile this round")]
    if state.phase not in ("tally", "closed", "over") and state.hidden(move.player):
        return [violation("C-seal", f"{move.player}'s tiles are still hidden: unseal at the end")]
    if state.phase == "tally" and move.player == state.winner:
        return [violation("C-seal", f"{move.player} tallies first, then unseals")]
    if not any(opened(state, move.player, move.passphrase, s) is not None
               for s in sealed):
        return [violation("C-seal", f"the passphrase opens none of {move.player}'s seals")]
    return []


def opened(state: State, player: str, phrase: str, slot: Slot) -> int | None:
    for t in tile_set():
        if seal_hash(phrase, player, state.round, slot.id, t) == slot.seal:
            return t
    return None


def seal_row(state: State, move: Seal, notes: list[str]) -> State:
    i = state.players.index(move.player)
    hashes = iter(move.hashes)
    row = tuple(replace(s, seal=next(hashes)) if s.tile is None else s for s in state.rows[i])
    rows = list(state.rows)
    rows[i] = row
    notes.append(f"{move.player}'s {len(move.hashes)} hidden tile(s) sealed")
    return maybe_start(replace(state, rows=tuple(rows)), notes)


def unseal_row(state: State, move: Unseal, notes: list[str]) -> State:
    found = []
    positions = {s.id: i for i, s in enumerate(state.row(move.player), start=1)}
    for s in state.row(move.player):
        if not s.seal:
            continue
        sealed = opened(state, move.player, move.passphrase, s)
        pos = positions[s.id]
        if sealed is None:
            found.append(f"{move.player}'s tile {pos}: the seal does not open with this "
                         "passphrase")
            continue
        if s.tile is not None and s.tile != sealed:
            found.append(f"{move.player}'s tile {pos} was sealed as {tile_name(sealed)} "
                         f"but shown as {tile_name(s.tile)}")
        for a in state.asked:
            if a.target == move.player and a.slot == s.id and a.hit != (a.tile == sealed):
                said = "hit" if a.hit else "miss"
                found.append(f"false answer: {move.player} said {said} to {a.guesser}'s "
                             f"guess {value_word(a.tile)} on tile {pos} (guess {a.seq}), "
                             f"sealed {tile_name(sealed)}")
    if not found:
        notes.append(f"{move.player}'s seals open and every answer was true")
    notes.extend(found)
    return replace(state, reports=state.reports + tuple(found),
                   opened=state.opened + (move.player,))


def secret_prompt(state: State, text: str) -> str:
    if text.split()[:1] == ["stop"]:
        return "the drawn tile's number (or dash) and your passphrase, e.g. 7 kiwi"
    return "your hidden tiles left to right (numbers or dash) and a passphrase, e.g. 3 7 kiwi"


def secret_move(state: State, text: str, secret: str, player: str | None = None) -> str:
    """The public move for a privately typed secret: hashes in place of the tiles."""
    words = secret.split()
    if len(words) < 2:
        raise InvalidMove("type the tile numbers then a passphrase (nothing is shown)")
    *values, phrase = words
    if len(phrase) < 4 or phrase.isdigit():
        raise InvalidMove("the passphrase comes last and is a word of 4+ letters, not a "
                          "number (so nobody can guess the seals)")
    verb = text.split()[0].lower() if text.split() else ""
    if verb not in ("stop", "seal"):
        raise InvalidMove("--secret works with `seal NAME` and `stop at N`")
    if verb == "stop":
        move = parse_move(state, text, player)
        if move.position is None or len(values) != 1 or state.drawn is None:
            raise InvalidMove("type the drawn tile's number then your passphrase")
        tile = tile_of(state.drawn, tile_value(values[0]))
        trial = inserted(state, move.position, None)
        slot = trial.row(state.to_play)[move.position - 1]
        if not fits(trial, answers=False, fixed={slot.id: tile}):
            raise IllegalMove([violation("C1", f"that tile cannot stand at {move.position}")])
        h = seal_hash(phrase, state.to_play, state.round, slot.id, tile)
        return f"stop at {move.position} sealed {h}"
    who = player_named(state, text.split()[1:2])
    hidden = [s for s in state.row(who) if s.tile is None]
    if len(values) != len(hidden):
        raise InvalidMove(f"{who} has {len(hidden)} hidden tile(s): type {len(hidden)} "
                          "numbers, then the passphrase")
    fixed = {s.id: tile_of(s.colour, tile_value(v)) for s, v in zip(hidden, values,
                                                                    strict=True)}
    if not fits(state, answers=False, fixed=fixed):
        raise IllegalMove([violation("C1", "those tiles break the order rule or repeat a revealed "
                                    "tile (colours must match the row)")])
    hashes = [seal_hash(phrase, who, state.round, s.id, fixed[s.id]) for s in hidden]
    return f"seal {who} " + " ".join(hashes)
