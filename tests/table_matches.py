"""Matches for the table page's tests and bench, recorded as the table would record them
(session.new_match and session.play, the moves `referee play` takes): a Tripple Domino board of
30 tiles, a Dobble Connect grid of four teams, a sealed Coda round with known hidden tiles."""

from __future__ import annotations

import random
from pathlib import Path

from referee import registry, session
from referee.record import Store

CODA_PASSPHRASES = {"ana": "quokka-lamp-river-ana", "ben": "quokka-lamp-river-ben"}
# The hidden tiles typed at the hidden prompt: values never revealed in the moves below.
CODA_HIDDEN = {"ana": "1 7 9 10", "ben": "2 6 8 11"}


def _played(store: Store, moves: list[str]) -> None:
    for text in moves:
        p = session.play(store, text)
        assert p.error is None and p.verdict.legal, (text, p.error, p.verdict)


def random_moves(game_name: str, players: tuple[str, ...], first: list[str], enough,
                 seed: int, options: dict | None = None) -> list[str]:
    """Legal moves from `first` on, placements preferred, until enough(state) (seeded)."""
    g = registry.game(game_name)
    rnd = random.Random(seed)
    state = g.setup(players, options or {})
    moves = list(first)
    for text in first:
        state = g.apply(state, g.parse(state, text, g.to_move(state)))
    while not enough(state):
        found = g.legal_moves(state)
        grows = [m for m in found if type(m).__name__ == "Place"]
        move = rnd.choice(grows or found)
        after = g.apply(state, move)
        if len(getattr(after, "board", ())) < len(getattr(state, "board", ())):
            continue  # a placement that would end the round (the table is cleared)
        who = g.mover(move)
        text = g.format(state, move)
        moves.append(f"{who}: {text}" if who and g.to_move(state) is None else text)
        state = after
    return moves


def tripple_domino_30(db: Path) -> int:
    """A three-player round with 30 tiles on the table; returns the match id."""
    store = Store(db)
    players = ("ana", "bob", "cy")
    moves = random_moves("tripple-domino", players, ["start ana=5-5-5 bob=4-4-4 cy=3-3-3"],
                         lambda s: len(s.board) >= 30 or s.phase != "play", seed=2)
    m = session.new_match(store, "tripple-domino", players, {}).match
    _played(store, moves)
    store.close()
    return m.id


def dobble_connect_grid(db: Path, cards: int = 24) -> int:
    """Four teams of one, `cards` cards on the table and no line of four yet."""
    store = Store(db)
    players = ("ana", "bob", "cy", "dee")
    moves = random_moves("dobble-connect", players, [],
                         lambda s: len(s.board) >= cards + 1, seed=5)
    m = session.new_match(store, "dobble-connect", players, {}).match
    _played(store, moves)
    store.close()
    return m.id


def sealed_coda(db: Path) -> int:
    """A sealed Coda game in play: both rows sealed (CODA_HIDDEN), a few guesses made."""
    store = Store(db)
    m = session.new_match(store, "coda", ("ana", "ben"), {"sealed": "yes"}).match
    _played(store, ["row ana black white black white", "row ben white black white black"])
    cur = session.load(store)
    for who in ("ana", "ben"):
        text = cur.game.secret_move(cur.state, f"seal {who}",
                                    f"{CODA_HIDDEN[who]} {CODA_PASSPHRASES[who]}", who)
        _played(store, [text])
        cur = session.load(store)
    _played(store, ["draw black", "guess ben 1 3 miss"])
    store.close()
    return m.id


def finish_coda(db: Path) -> None:
    """sealed_coda played to the end of its round: ana revealed by ben's hits, ben tallies his
    hidden tiles, both unseal (the unseal moves carry the passphrases into the log)."""
    store = Store(db)
    _played(store, ["place 0 at 1", "draw white", "guess ana 2 1 hit", "guess ana 3 7 hit",
                    "guess ana 4 9 hit", "guess ana 5 10 hit"])
    cur = session.load(store)
    stop = cur.game.secret_move(cur.state, "stop at 2", f"3 {CODA_PASSPHRASES['ben']}", "ben")
    _played(store, [stop, "tally 2 3 6 8 11",
                    *(f"unseal {p} {phrase}" for p, phrase in CODA_PASSPHRASES.items())])
    store.close()
