"""The referee's vocabulary: games, moves, verdicts, rule references, errors, and the fold.

A game module (referee/games/<game>.py) exposes GAME, an object following the Game protocol.
State is whatever the game wants (ideally an immutable value); the engine never looks inside.
State is always derived: fold(game, events) rebuilds it from the match's event log.
Nothing here knows any particular game, and nothing here imports reportlab or Pillow.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class RuleRef:
    """A rule of ../shared/rules.md: its id (D3, T2, ...) and its text."""

    id: str
    text: str

    def __str__(self) -> str:
        return f"{self.id}: {self.text}"


@dataclass(frozen=True)
class Violation:
    """One broken rule and the concrete reason in this position."""

    rule: RuleRef
    reason: str

    def __str__(self) -> str:
        return f"{self.rule.id} {self.reason} — rule: {self.rule.text}"


@dataclass(frozen=True)
class ScoreItem:
    """One itemised line of the score ledger: who, how many points, why, in which round."""

    player: str
    points: int
    label: str
    round: int = 1


@dataclass(frozen=True)
class Verdict:
    """The referee's answer to a move: legal or not, why, and the points it earns."""

    legal: bool
    violations: tuple[Violation, ...] = ()
    score: tuple[ScoreItem, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Option:
    """A named game option (variants are options, never code forks)."""

    name: str
    default: str
    help: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winner(s) (several on a shared win) and why."""

    winners: tuple[str, ...]
    reason: str


class RefereeError(Exception):
    """A user mistake (unknown game, bad option, no current match): one line, exit code 2."""


class InvalidMove(RefereeError):
    """The move text cannot be parsed; the message says what was expected."""


class AmbiguousMove(RefereeError):
    """The move parses but could mean several things; the message says what to add."""

    def __init__(self, message: str, candidates: Sequence[str] = ()):
        super().__init__(message)
        self.candidates = tuple(candidates)


class IllegalMove(RefereeError):
    """The move parses but breaks one or more rules; carries the violations."""

    def __init__(self, violations: Sequence[Violation]):
        self.violations = tuple(violations)
        super().__init__("; ".join(str(v) for v in self.violations))

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return tuple(v.rule.id for v in self.violations)


class Game(Protocol):
    """What a game module provides. `Move` and `State` are the game's own types.

    Optional, with defaults in this module when a game lacks them:
    `load_position(state, text) -> State` and `position(state) -> str` (a position typed in
    for a dispute: `referee new GAME --position FILE`, `referee position`), and `notation: str`
    (one line shown by `referee games`), and `judge(state, move) -> (Verdict, state or None)`
    (check and apply in one pass; CheckThenApply provides it). A move object with a
    `player: str` attribute tells the log who acted when the command did not say (--by) and
    nobody was to move.
    """

    name: str  # "tripple-domino": the name users type
    title: str  # "Tripple Domino"
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    rules: Mapping[str, RuleRef]  # rule id -> rule

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> Any:
        """The state before the first move."""

    def parse(self, state: Any, text: str, player: str | None = None) -> Any:
        """A move from its notation; InvalidMove / AmbiguousMove when it cannot be one move."""

    def format(self, state: Any, move: Any) -> str:
        """The canonical notation of a move (parse(format(m)) == m)."""

    def check(self, state: Any, move: Any) -> Verdict:
        """Legal or not, with the violated rules and the score the move would earn."""

    def apply(self, state: Any, move: Any) -> Any:
        """The state after a legal move (raises IllegalMove for an illegal one). Pure."""

    def show(self, state: Any, viewer: str | None = None) -> str:
        """The position as text: board with coordinates, whose turn, scores."""

    def to_move(self, state: Any) -> str | None:
        """Who acts next, when the game has turns."""

    def legal_moves(self, state: Any) -> list[Any] | None:
        """Every legal move where that is feasible, else None."""

    def ledger(self, state: Any) -> tuple[ScoreItem, ...]:
        """Every score item so far, in order, itemised."""

    def outcome(self, state: Any) -> Outcome | None:
        """The end of the game, or None while it goes on."""


class CheckThenApply:
    """Base for games that state their checks apart from their effect.

    A subclass writes `_violations(state, move) -> list[Violation]` and
    `_transition(state, move) -> (state, score items, notes)`; check and apply follow.
    """

    def _violations(self, state: Any, move: Any) -> list[Violation]:
        raise NotImplementedError

    def _transition(self, state: Any, move: Any) -> tuple[Any, Sequence[ScoreItem], Sequence[str]]:
        raise NotImplementedError

    def check(self, state: Any, move: Any) -> Verdict:
        return self.judge(state, move)[0]

    def judge(self, state: Any, move: Any) -> tuple[Verdict, Any]:
        """The verdict and the state after the move (None when illegal), worked out once."""
        problems = self._violations(state, move)
        if problems:
            return Verdict(False, tuple(problems)), None
        after, score, notes = self._transition(state, move)
        return Verdict(True, (), tuple(score), tuple(notes)), after

    def apply(self, state: Any, move: Any) -> Any:
        problems = self._violations(state, move)
        if problems:
            raise IllegalMove(problems)
        return self._transition(state, move)[0]


def judge(game: Game, state: Any, move: Any) -> tuple[Verdict, Any]:
    """`game.check` and, when legal, `game.apply`: in one pass for a game that offers `judge`
    (every CheckThenApply game), else the two calls."""
    one_pass = getattr(game, "judge", None)
    if one_pass is not None:
        return one_pass(state, move)
    verdict = game.check(state, move)
    return verdict, game.apply(state, move) if verdict.legal else None


def totals(ledger: Iterable[ScoreItem], players: Sequence[str]) -> dict[str, int]:
    """Sum of a ledger per player, every player present."""
    out = dict.fromkeys(players, 0)
    for item in ledger:
        out[item.player] = out.get(item.player, 0) + item.points
    return out


@dataclass(frozen=True)
class Event:
    """One entry of a match's append-only log.

    kinds: "new" (data: players, options), "position" (data: text, a set-up position),
    "move" (data: text in canonical notation, player), "undo" (data: seq retracted),
    "rejected" (data: text, reason: kept so nothing typed is lost; no effect on state).
    """

    seq: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict)


def retracted(events: Sequence[Event]) -> set[int]:
    """The seq numbers of moves withdrawn by undo events."""
    return {int(e.data["seq"]) for e in events if e.kind == "undo"}


def fold(game: Game, events: Sequence[Event]) -> Any:
    """Rebuild a match's state from its events: the log is the record, state is derived."""
    state = None
    for _event, after in steps(game, events):
        state = after
    return state


def steps(game: Game, events: Sequence[Event]) -> Iterator[tuple[Event, Any]]:
    """Each event with the state right after it (the fold, one step at a time, for logs)."""
    gone = retracted(events)
    state = None
    for e in events:
        if e.kind == "new":
            state = game.setup(tuple(e.data["players"]), dict(e.data.get("options", {})))
        elif e.kind == "position":
            state = load_position(game, state, e.data["text"])
        elif e.kind == "move" and e.seq not in gone:
            state = game.apply(state, game.parse(state, e.data["text"], e.data.get("player")))
        yield e, state


def last_move(events: Sequence[Event]) -> Event | None:
    """The latest move still in force (what undo retracts next), or None."""
    gone = retracted(events)
    for e in reversed(events):
        if e.kind == "move" and e.seq not in gone:
            return e
    return None


# Optional parts of the Game protocol. A game that lacks them still works; the engine answers
# with a default here, so games written against the first contract keep working unchanged.


def load_position(game: Game, state: Any, text: str) -> Any:
    """`game.load_position(state, text)`: the state with the position from text (disputes)."""
    loader = getattr(game, "load_position", None)
    if loader is None:
        raise RefereeError(f"{game.name} cannot set up a position directly: start a new match "
                           "and type the moves (--position)")
    return loader(state, text)


def position(game: Game, state: Any) -> str | None:
    """`game.position(state)`: the position as text that load_position reads back, or None."""
    writer = getattr(game, "position", None)
    return writer(state) if writer is not None else None


def notation(game: Game) -> str:
    """`game.notation`: a short summary of the move notation, shown by `referee games`."""
    return str(getattr(game, "notation", "") or "")


def check_options(game: Game, options: Mapping[str, str]) -> dict[str, str]:
    """Every option of the game with its value: unknown names and bad choices are user errors."""
    known = {o.name: o for o in game.options}
    out = {o.name: o.default for o in game.options}
    for key, value in options.items():
        opt = known.get(key)
        if opt is None:
            names = ", ".join(sorted(known)) or "none"
            raise RefereeError(f"unknown option {key!r} for {game.name} (options: {names})")
        if opt.choices and value not in opt.choices:
            raise RefereeError(
                f"option {key}={value!r} is not one of {', '.join(opt.choices)} for "
                f"{game.name} (--option {key})"
            )
        out[key] = value
    return out


def find_player(players: Sequence[str], name: str, where: str = "",
                error: type[RefereeError] = InvalidMove) -> str:
    """A player of the match by name as typed, in any case (names differ by more than case);
    an unknown name is an error listing the players."""
    key = name.strip().lower()
    for p in players:
        if p.lower() == key:
            return p
    at = f" ({where})" if where else ""
    raise error(f"unknown player {name.strip()!r}, the players are {', '.join(players)}{at}")


def check_players(game: Game, players: Sequence[str]) -> tuple[str, ...]:
    """The player names, checked: count within the game's limits, unique, non-empty."""
    names = tuple(p.strip() for p in players)
    if any(not n for n in names):
        raise RefereeError("a player name is empty (--players ana,bob)")
    if len(set(names)) != len(names):
        raise RefereeError(f"a player name appears twice: {', '.join(names)} (--players)")
    for n in names:  # moves name players as one word, in any case
        if not re.fullmatch(r"[^\s=,:#]+", n):
            raise RefereeError(f"player name {n!r} cannot be written in moves: use one word "
                               "without spaces, =, :, , or # (--players)")
    folded = [n.lower() for n in names]
    if len(set(folded)) != len(folded):
        twins = [n for n in names if folded.count(n.lower()) > 1]
        raise RefereeError(f"player names {' and '.join(twins)} differ only in case: moves "
                           "could not tell them apart (--players)")
    if not game.min_players <= len(names) <= game.max_players:
        raise RefereeError(
            f"{game.name} takes {game.min_players}-{game.max_players} players, "
            f"not {len(names)} (--players)"
        )
    return names


def games() -> dict[str, Game]:
    """Every game module in referee/games, by name."""
    import pkgutil

    from referee import games as pkg

    found: dict[str, Game] = {}
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"referee.games.{info.name}")
        game = getattr(module, "GAME", None)
        if game is not None:
            found[game.name] = game
    return found


def game(name: str) -> Game:
    """One game by name, with the list of names when the name is unknown (a typo)."""
    key = name.strip().lower().replace("-", "_")
    modname = f"referee.games.{key}"
    if not key.isidentifier() or key.startswith("_"):
        known = ", ".join(sorted(games()))
        raise RefereeError(f"unknown game {name!r} (games: {known})")
    try:
        module = importlib.import_module(modname)
        return module.GAME
    except (ModuleNotFoundError, AttributeError) as e:
        if isinstance(e, ModuleNotFoundError) and e.name != modname:
            raise  # the game module exists but itself fails to import: a bug, not a typo
        known = ", ".join(sorted(games()))
        raise RefereeError(f"unknown game {name!r} (games: {known})") from None
