"""Coda's sealed game: seals made from a secret, checked and opened.

Why scrypt and a salt: the log is public (`referee log --json`), and a hidden tile is one of 26,
so a seal is only as strong as the passphrase. A random salt per player and round (kept in the
seal, `SALT:HASH`) stops one precomputed table from serving every match, and scrypt (memory
hard, in the standard library) makes every passphrase tried cost ~0.1 s of CPU and 32 MiB, so
the dictionary search that opened "kiwi" in 3.7 s would take days for a passphrase that passes
`weakness`. Seals from older logs (16 hex digits, unsalted) are still read.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from dataclasses import replace
from functools import lru_cache

from referee.engine import IllegalMove, InvalidMove, Violation
from referee.games.coda.deduction import fits
from referee.games.coda.model import (
    SEAL,
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
from referee.games.coda.notation import VERBS, parse_move, player_named, tile_value


def seal_problems(state: State, move: Seal) -> list[Violation]:
    hidden = [s for s in state.row(move.player) if s.tile is None]
    if state.phase in ("closed", "over"):
        return [violation("C-seal", "the round is over: nothing left to seal")]
    if not state.dealt[state.players.index(move.player)]:
        return [violation("C-seal", f"{move.player}'s row is not dealt yet")]
    if len(move.hashes) != len(hidden) or not all(is_seal(h) for h in move.hashes):
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


SCRYPT = {"n": 2**15, "r": 8, "p": 1, "maxmem": 64 * 1024 * 1024, "dklen": 32}
MIN_LENGTH = 12
# Guesses an attacker trying the likeliest passphrases first (zxcvbn's estimate: keyboard walks,
# sequences, dictionary words, l33t) needs at the least: at one scrypt per guess, decades of CPU.
MIN_GUESSES = 10**10
KEY = "key:"  # an accepted unseal keeps the round's scrypt key, never the passphrase


def is_seal(word: str) -> bool:
    return SEAL.fullmatch(word) is not None


def weakness(phrase: str, players: tuple[str, ...] = ()) -> str | None:
    """Why a passphrase is too easy to find by trying (None when it is strong enough): the
    guesses zxcvbn estimates an attacker needs, against MIN_GUESSES."""
    if len(phrase) < MIN_LENGTH:
        return (f"the passphrase is too short ({len(phrase)} characters): use {MIN_LENGTH} or "
                "more, e.g. three unrelated words joined by dashes")
    from zxcvbn import zxcvbn  # only here: a passphrase is checked once per seal

    found = zxcvbn(phrase[:72], user_inputs=[*players, "coda", "referee"])  # its longest
    guesses = float(found["guesses"])
    if guesses >= MIN_GUESSES:
        return None
    why = found["feedback"]["warning"] or "it is made of guessable parts"
    return (f"the passphrase would be found in about {guesses:.0e} guesses, fewer than the "
            f"{MIN_GUESSES:.0e} required ({why.rstrip('.').lower()}): use three or more "
            "unrelated words joined by dashes")


@lru_cache(maxsize=32)
def seal_key(phrase: str, salt: str) -> bytes:
    """The memory-hard key of a passphrase and a salt (one per player and round)."""
    return hashlib.scrypt(phrase.encode("utf-8", "surrogatepass"), salt=bytes.fromhex(salt),
                          **SCRYPT)


def tile_seal(phrase: str, salt: str, player: str, round_no: int, slot: int, tile: int) -> str:
    """The public commitment to one hidden tile: SALT:HASH."""
    return keyed_seal(seal_key(phrase, salt), salt, player, round_no, slot, tile)


def keyed_seal(key: bytes, salt: str, player: str, round_no: int, slot: int, tile: int) -> str:
    body = f"coda|{player}|{round_no}|{slot}|{tile}".encode()
    return f"{salt}:{hashlib.sha256(key + body).hexdigest()[:32]}"


def public_unseal(state: State, player: str, phrase: str) -> str:
    """What the log keeps of an unseal: the round's key (it opens this round's seals, which
    the unseal shows anyway), not the passphrase a player may use again. Seals of older logs
    (unsalted) are opened by the passphrase itself, so it is kept for them."""
    salts = {s.seal.split(":")[0] for s in state.row(player) if s.seal}
    if phrase.startswith(KEY) or len(salts) != 1 or not all(re.fullmatch("[0-9a-f]+", x)
                                                               for x in salts):
        return phrase
    return KEY + seal_key(phrase, salts.pop()).hex()


def player_salt(state: State, player: str) -> str:
    """The salt of the player's seals this round (the first seal's), or a new random one."""
    for s in state.row(player):
        if ":" in s.seal:
            return s.seal.split(":")[0]
    return secrets.token_hex(16)


def opened(state: State, player: str, phrase: str, slot: Slot) -> int | None:
    salt = slot.seal.split(":")[0] if ":" in slot.seal else None
    key = None
    if salt and phrase.startswith(KEY):
        try:
            key = bytes.fromhex(phrase[len(KEY):])
        except ValueError:
            return None
    elif salt:
        key = seal_key(phrase, salt)
    for t in tile_set():
        made = (keyed_seal(key, salt, player, state.round, slot.id, t) if salt and key
                else seal_hash(phrase, player, state.round, slot.id, t))
        if made == slot.seal:
            return t
    return None


def withheld(state: State, text: str) -> tuple[str, str] | None:
    """Typed text the parser could not read, kept in the log (public) in place of what was
    typed when it may hold a passphrase: in a sealed match always (a typo in the verb, a wrong
    player, extra words: any word may be the secret), elsewhere when it mentions a seal in any
    spelling (`SEAL`, `ｓｅａｌ`, `unsealed`). Kept: the verb and the player named when they are
    words of a move, and how many words were left out."""
    if not state.sealed and "seal" not in unicodedata.normalize("NFKC", text).casefold():
        return None
    said, colon, rest = text.partition(":")
    speaker = [f"{p}:" for p in state.players if colon and p.lower() == said.strip().lower()]
    words = (rest if speaker else text).split()  # `ana: ...` when --by names someone else
    shown = [w.lower() for w in words[:1] if w.lower() in VERBS]
    if shown and len(words) > 1:
        shown += [p for p in state.players if p.lower() == words[1].lower()]
    left = len(words) - len(shown)
    shown = speaker + shown
    hint = ("what was typed could not be read and may hold a secret, so it is not recorded: "
            f"a move starts with {', '.join(VERBS[:-1])} or {VERBS[-1]}; seal with "
            "`referee play 'seal NAME' --secret`, unseal with `unseal NAME PASSPHRASE`")
    gone = [f"[{left} word{'s' * (left != 1)} withheld]"] if left else []
    return " ".join([*shown, *gone]), hint


def recorded(state: State, move, legal: bool) -> str | None:
    """A rejected unseal as the log keeps it: without its passphrase, nor the key made from
    it (a wrong passphrase may be a player's other one); None: the move's notation."""
    if isinstance(move, Unseal) and not legal:
        return f"unseal {move.player} [passphrase withheld]"
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
    if text.split()[:1] == ["unseal"]:
        return "your passphrase (the log keeps this round's key, not the passphrase)"
    if text.split()[:1] == ["stop"]:
        return "the drawn tile's number (or dash) and your passphrase, e.g. 7 quokka-lamp-river"
    return "your hidden tiles left to right (numbers or dash) and a passphrase, e.g. 3 7 quokka-lamp-river"


def secret_move(state: State, text: str, secret: str, player: str | None = None) -> str:
    """The public move for a privately typed secret: hashes in place of the tiles."""
    words = secret.split()
    if text.split()[:1] == ["unseal"] and len(words) == 1:  # typed where no history keeps it
        who = player_named(state, text.split()[1:2])
        return f"unseal {who} {public_unseal(state, who, words[0])}"
    if len(words) < 2:
        raise InvalidMove("type the tile numbers then a passphrase (nothing is shown)")
    *values, phrase = words
    weak = weakness(phrase, state.players)
    if weak is not None:
        raise InvalidMove(f"{weak} (the passphrase comes last, as one word; anyone can try "
                          "passphrases against the public log)")
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
        h = tile_seal(phrase, player_salt(state, state.to_play), state.to_play, state.round,
                      slot.id, tile)
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
    salt = player_salt(state, who)
    hashes = [tile_seal(phrase, salt, who, state.round, s.id, fixed[s.id]) for s in hidden]
    return f"seal {who} " + " ".join(hashes)
