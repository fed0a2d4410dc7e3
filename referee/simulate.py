"""Balance simulation: play a game thousands of times with bots, from the printed components.

Each game is dealt by the game's dealer (referee/dealing.py) with its own seed, derived from the
master seed and the game's number, so the results do not depend on how many workers share the
games. Every move goes through the game's judge, as a typed move would; a move the judge
rejects is a bug in the dealer and stops the simulation with the reason.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee import engine, registry
from referee.bots import BOTS
from referee.dealing import Choice, Dealer, dealer_class
from referee.engine import Game, RefereeError

SEATS = ("ana", "bob", "cy", "dee", "eve", "fay", "gus", "hal")
MAX_STEPS = 50_000  # no bundled game comes near; a dealer stuck in a loop stops here


@dataclass
class GameRecord:
    """What one simulated game came to."""

    index: int
    seed: int
    players: tuple[str, ...]
    winners: tuple[int, ...]  # seats (0 = first)
    scores: tuple[int, ...]
    turns: int
    moves: int
    rounds: int
    no_winner_rounds: int
    capped: bool = False  # stopped at the round cap before the game's own end
    cards: dict[str, list[int]] = field(default_factory=dict)  # card -> [plays, points]
    log: list[tuple[str, str | None]] | None = None  # (move text, player) when kept
    played_by: dict[str, set[int]] = field(default_factory=dict)  # card -> seats that played it


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs to play its games."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, str]
    bot: str
    seed: int
    keep: int = 0
    max_rounds: int = 12  # a game no bot can finish (random Duplicon never reaches 100) stops
    deck: str | None = None  # a user's definition folder dealt instead of the bundled one


class DealerError(RefereeError):
    """The judge rejected a simulated move: the dealer offered something the rules refuse."""


def game_seed(master: int, index: int) -> int:
    """A game's own seed: the same for a master seed and game number on every machine."""
    digest = hashlib.sha256(f"simulate/{master}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def seats(n: int) -> tuple[str, ...]:
    if not 1 <= n <= len(SEATS):
        raise RefereeError(f"simulate seats 1-{len(SEATS)} players, not {n}", "--players")
    return SEATS[:n]


def play_one(rules: Game, plan: Plan, index: int) -> GameRecord:
    """One game from the deal to the end, every move judged."""
    seed = game_seed(plan.seed, index)
    rng = random.Random(seed)
    by_seat = dict(zip(plan.players, (BOTS[b] for b in seat_bots(plan)), strict=True))
    state = rules.setup(plan.players, engine.check_options(rules, plan.options))
    dealer = dealer_class(rules)(rules, state, rng)
    record = GameRecord(index, seed, plan.players, (), (), 0, 0, 1, 0,
                        log=[] if index < plan.keep else None)
    last_player: str | None = None
    for _step in range(MAX_STEPS):
        turn = dealer.turn(state)
        if turn is None:
            break
        if turn.player is None:  # the table announces it: one forced move
            choice = turn.choices[0]
        else:
            cache: dict[int, bool] = {}

            def legal(c: Choice, _state=state, _cache=cache) -> bool:
                if c.move is None or c.listed:
                    return True
                key = id(c)
                if key not in _cache:
                    _cache[key] = not rules.violations(_state, c.move)
                return _cache[key]

            bot = by_seat[turn.player]
            choice = bot(rules, state, turn.player, turn.choices, legal, rng)
            if choice is None:
                raise DealerError(f"{rules.name}: {turn.player} has no legal choice; position:\n"
                                  + rules.show(state), f"simulated game {index}, seed {seed}")
        if choice.move is None:
            dealer.commit(state, choice.intent)
            continue
        starts = dealer.starts_turn(state, choice.move)
        if starts is None:  # by default a turn is a player's run of moves
            starts = turn.player is not None and turn.player != last_player
        record.turns += bool(starts)
        last_player = turn.player
        state = _judged(rules, dealer, record, state, choice.move, turn.player, index, seed)
        if dealer.round_of(state) > plan.max_rounds and rules.outcome(state) is None:
            record.capped = True
            break
    else:
        raise DealerError(f"{rules.name}: no end after {MAX_STEPS} steps",
                          f"simulated game {index}, seed {seed}")
    outcome = rules.outcome(state)
    tot = engine.totals(rules.ledger(state), plan.players)
    if outcome is None and not record.capped:
        raise DealerError(f"{rules.name}: the game stopped before its end; position:\n"
                          + rules.show(state), f"simulated game {index}, seed {seed}")
    if outcome is None:  # at the round cap the leaders count as the winners
        best = max(tot.values())
        record.winners = tuple(i for i, p in enumerate(plan.players) if tot[p] == best)
        record.rounds = plan.max_rounds
    else:
        record.winners = tuple(plan.players.index(w) for w in outcome.winners)
        record.rounds = dealer.round_of(state)
    record.scores = tuple(tot[p] for p in plan.players)
    for name in dealer.all_cards():
        record.cards.setdefault(name, [0, 0])
    return record


def _judged(rules: Game, dealer, record: GameRecord, state: Any, move: Any,
            player: str | None, index: int, seed: int) -> Any:
    """The move through the judge (as `referee play` does), then the figures it adds."""
    text = rules.format(state, move) if record.log is not None else ""
    verdict, after = rules.judge(state, move)
    if not verdict.legal:
        reasons = "; ".join(f"{v.rule.id}: {v.reason}" for v in verdict.violations)
        raise DealerError(f"{rules.name}: the judge rejected the simulated move "
                          f"{rules.format(state, move)!r}: {reasons}",
                          f"simulated game {index}, seed {seed}")
    record.moves += 1
    who = player if player is not None else rules.mover(move)
    if record.log is not None:
        record.log.append((text, who if who is not None else rules.to_move(state)))
    cards = dealer.cards(state, move)
    if cards:
        gained = sum(i.points for i in verdict.score if i.player == who)
        seat = record.players.index(who) if who in record.players else None
        for name in cards:
            if seat is not None:
                record.played_by.setdefault(name, set()).add(seat)
            figures = record.cards.setdefault(name, [0, 0])
            figures[0] += 1
            figures[1] += gained
    if dealer.no_winner(state, move, after):
        record.no_winner_rounds += 1
    dealer.moved(state, move, after)
    return after


# many games, on every core asked for


def _worker(args: tuple) -> list[GameRecord]:
    plan, indices, *player = args
    if plan.deck is not None:
        from referee.components import deal_from

        deal_from(plan.deck)
    if player and player[0] is not None:  # search bots: the caller's loop (referee.openspiel)
        return player[0](plan, indices)
    rules = registry.game(plan.game)
    return [play_one(rules, plan, i) for i in indices]


def play_games(plan: Plan, indices: Sequence[int],
               player: Callable[[Plan, Sequence[int]], list[GameRecord]] | None = None
               ) -> list[GameRecord]:
    """Games by number, as a worker plays them: a process here, or a cluster's
    (referee/cluster.py)."""
    return _worker((plan, indices, player))


def seat_bots(plan: Plan) -> tuple[str, ...]:
    """The bot of each seat: `--bot a,b` names one per seat, one name serves every seat."""
    names = tuple(b.strip() for b in plan.bot.split(","))
    return names * len(plan.players) if len(names) == 1 else names


SEARCH_BOT = re.compile(r"(mcts|ismcts)(:[1-9][0-9]*)?")  # played by referee/openspiel


def search_bots(plan: Plan) -> bool:
    """Whether a seat has a search bot: its games go through the OpenSpiel adapter, which
    the caller passes to run() (a layer above this one)."""
    return any(b not in BOTS for b in seat_bots(plan))


def check_bots(bot: str, players: Sequence[str]) -> None:
    """Every seat's bot known (a search bot needs the extra `ai`), one per seat or one."""
    names = [b.strip() for b in bot.split(",")]
    if len(names) not in (1, len(players)):
        raise RefereeError(f"--bot names {len(names)} bots for {len(players)} seats: name one "
                           "or one per seat", "--bot")
    for name in names:
        if name in BOTS:
            continue
        if name.partition(":")[0] not in ("mcts", "ismcts"):
            raise RefereeError(f"unknown bot {name!r} (bots: {', '.join(BOTS)}, mcts[:N], "
                               "ismcts[:N])", "--bot")
        if not SEARCH_BOT.fullmatch(name):
            raise RefereeError(f"{name!r}: a search bot is mcts or ismcts, then :N simulations "
                               "a move (1 or more)", "--bot")


def run(plan: Plan, games: int, workers: int | None = None,
        progress: Callable[[int], None] | None = None,
        player: Callable[[Plan, Sequence[int]], list[GameRecord]] | None = None
        ) -> list[GameRecord]:
    """`games` games in game-number order, shared among worker processes (both cores by
    default); `progress(n)` is told as each batch of n games finishes."""
    rules = registry.game(plan.game)
    engine.check_players(rules, plan.players)
    engine.check_options(rules, plan.options)
    check_bots(plan.bot, plan.players)
    workers = workers or min(2, os.cpu_count() or 1)
    if workers < 1:
        raise RefereeError(f"workers must be 1 or more, not {workers}", "--workers")
    batches = list(_batches(games, workers))
    out: list[GameRecord] = []
    if workers == 1 or games < 4:
        for batch in batches:
            out.extend(_worker((plan, batch, player)))
            if progress:
                progress(len(batch))
        return out
    from referee.worker_pool import ordered  # Ctrl-C ends the workers at once

    for done in ordered(_worker, [(plan, b, player) for b in batches], workers):
        out.extend(done)
        if progress:
            progress(len(done))
    return out


def _batches(games: int, workers: int) -> Iterator[range]:
    """Small batches in order: progress moves steadily and no core waits on a long tail."""
    size = max(1, min(50, games // (workers * 8) or 1))
    for start in range(0, games, size):
        yield range(start, min(games, start + size))


def plan(game: str, players: int, games: int, bot: str, seed: int,
         options: Mapping[str, str], keep: int = 0, max_rounds: int = 12,
         workers: int | None = None, deck: str | None = None) -> Plan:
    """A checked plan: every mistake found before a worker starts, as one line naming the
    flag (a dealer that cannot play the options, e.g. sealed coda, says so here too)."""
    rules = registry.game(game)
    names = engine.check_players(rules, seats(players))
    opts = engine.check_options(rules, options)
    for value, flag, low in ((games, "--games", 1), (max_rounds, "--max-rounds", 1),
                             (keep, "--keep", 0), (workers or 1, "--workers", 1)):
        if value < low:
            raise RefereeError(f"{flag} takes {low} or more, not {value}", flag)
    if games > 10_000_000:
        raise RefereeError(f"{games} games is more than 10,000,000", "--games")
    if keep and deck is not None:
        raise RefereeError("kept matches replay with the bundled cards, so --keep cannot be "
                           "used with --deck", "--keep")
    if keep > games:
        raise RefereeError(f"cannot keep {keep} of {games} games", "--keep")
    check_bots(bot, names)
    if deck is not None:
        from referee.components import deal_from

        deal_from(deck)
    searched = [b for b in bot.split(",") if b.strip() not in BOTS]
    if searched and keep:
        raise RefereeError("games of search bots are not kept: leave out --keep", "--keep")
    if searched and dealer_class(rules).resample is Dealer.resample:
        raise RefereeError(f"{searched[0].strip()} cannot play {rules.name} yet: its dealer "
                           "cannot deal the unseen cards again (a search bot never peeks)",
                           "--bot")
    try:
        state = rules.setup(names, opts)
        dealer_class(rules)(rules, state, random.Random(seed))
    except (*DECK_FAILURES, RefereeError) as e:
        if deck is None:
            raise
        raise deck_error(deck, rules.name, e) from None
    if deck is not None:  # a column nothing can be dealt from fails later, in a worker
        from referee import components, deck_check

        missing = deck_check.missing_columns(deck, components.READ_FROM_DECK)
        if missing:
            raise RefereeError(f"the cards in {deck} do not make a {rules.name} deck: "
                               + "; ".join(missing), "--deck")
    return Plan(rules.name, names, opts, bot, seed, keep, max_rounds, deck)


DECK_FAILURES = (KeyError, ValueError, TypeError, IndexError)  # rules reading cards unlike theirs


def deck_error(deck: str, game: str, e: Exception) -> Exception:
    """A failure of the rules on a user's deck as what is wrong with the deck: how its cards
    differ from the bundled ones in what the rules read (referee/deck_check.py)."""
    from referee import components, deck_check

    found = deck_check.differences(deck, components.READ_FROM_DECK)
    if isinstance(e, RefereeError) and not found:
        return e  # not the deck's fault (an option, the players)
    why = e.what if isinstance(e, RefereeError) else f"{type(e).__name__}: {e}"
    what = "; ".join(found) if found else "its cards are not what the rules read"
    return RefereeError(f"the cards in {deck} do not make a {game} deck: {what} (the rules "
                        f"stopped at: {why})", "--deck")


def run_with_progress(plan: Plan, games: int, workers: int | None = None,
                      player: Callable[[Plan, Sequence[int]], list[GameRecord]] | None = None,
                      run: Callable[..., list[GameRecord]] = run) -> list[GameRecord]:
    """run() (or a cluster's, referee/cluster.py), with a progress bar on stderr when it is a
    terminal, else progress lines (a log file or CI shows how far a long run got, and stdout
    stays the report alone)."""
    import sys

    import click

    if not sys.stderr.isatty():
        lines = ProgressLines(plan.game, games, sys.stderr.write)
        records = run(plan, games, workers, progress=lines.update, player=player)
        lines.done()
        return records
    with click.progressbar(length=games, label=f"simulating {plan.game}", file=sys.stderr) as bar:
        return run(plan, games, workers, progress=bar.update, player=player)


class ProgressLines:
    """One line per tenth of the games done (`simulating coda: 300 of 1,000 games (30 %),
    4 s`), from the first second on: a run shorter than that prints nothing."""

    QUIET_FOR = 1.0  # seconds

    def __init__(self, game: str, games: int, write: Callable[[str], Any],
                 clock: Callable[[], float] | None = None):
        import time

        self.game, self.games, self.write = game, games, write
        self.clock = clock or time.monotonic
        self.start = self.clock()
        self.done_games, self.tenths, self.printed = 0, 0, False

    def update(self, n: int) -> None:
        self.done_games += n
        tenths = 10 * self.done_games // self.games
        if tenths > self.tenths and self.done_games < self.games:
            self.tenths = tenths
            took = self.clock() - self.start
            if took >= self.QUIET_FOR:
                self.write(f"simulating {self.game}: {self.done_games:,} of {self.games:,} "
                           f"games ({100 * self.done_games // self.games} %), {took:.0f} s\n")
                self.printed = True

    def done(self) -> None:
        if self.printed:
            self.write(f"simulated {self.games:,} games of {self.game} in "
                       f"{self.clock() - self.start:.0f} s\n")


def notes(game: str) -> str:
    """What the game's simulation approximates (said in every report)."""
    rules = registry.game(game)
    return dealer_class(rules).note
