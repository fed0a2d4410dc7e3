"""The scorepad's state and moves, and its sheet (Spec): categories, rounds or a target, who
wins, the checks of each category.

The sheet travels in the match's options, so the match header (covered by the chain) holds
all of it: a match replays the same even after the game.toml it came from is edited. A
[scoring] table (pnp_model/scoring.py) is turned into these options by `referee new FOLDER`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from referee.engine import RefereeError, ScoreItem, find_player

NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
RESERVED = ("round", "finish")  # move words, never category names
LIMIT = re.compile(r"(-?\d+)?\.\.(-?\d+)?")


@dataclass(frozen=True)
class Spec:
    """What the score sheet holds and how it ends."""

    categories: tuple[str, ...] = ("points",)
    rounds: int | None = None
    target: int | None = None
    lowest_wins: bool = False
    tie_breaks: tuple[str, ...] = ()
    limits: tuple[tuple[str, int | None, int | None], ...] = ()  # (category, min, max)
    seats: tuple[int, int] | None = None
    game: str = ""  # the designer's game this sheet keeps score of
    definition: str = ""  # the folder it was read from

    def limit(self, category: str) -> tuple[int | None, int | None]:
        for name, low, high in self.limits:
            if name == category:
                return low, high
        return None, None

    def category(self, word: str, where: str | None = None) -> str:
        """A category by name as typed (any case), or an error with the nearest names."""
        key = word.strip().lower()
        if key in self.categories:
            return key
        from difflib import get_close_matches

        from referee.engine import InvalidMove

        close = get_close_matches(key, self.categories, n=1, cutoff=0.6)
        hint = f": did you mean {close[0]}?" if close else ""
        raise InvalidMove(f"unknown category {word!r} (categories: "
                          f"{', '.join(self.categories)}){hint}", where)

    def options(self) -> dict[str, str]:
        """The sheet as match options (what the match header records)."""
        return {"categories": ",".join(self.categories),
                "rounds": "" if self.rounds is None else str(self.rounds),
                "target": "" if self.target is None else str(self.target),
                "lowest-wins": "yes" if self.lowest_wins else "no",
                "tie-breaks": ",".join(self.tie_breaks),
                "limits": ",".join(f"{c}={'' if lo is None else lo}..{'' if hi is None else hi}"
                                   for c, lo, hi in self.limits),
                "seats": "" if self.seats is None else f"{self.seats[0]}-{self.seats[1]}",
                "game-name": self.game, "definition": self.definition}

    def ending(self) -> str:
        """How the game ends and who wins, in words (shown with the sheet)."""
        ends = [f"after round {self.rounds}" if self.rounds else "",
                f"when a round closes with someone at {self.target}" if self.target else ""]
        how = " or ".join(x for x in ends if x) or "at `finish`"
        who = "lowest" if self.lowest_wins else "highest"
        ties = f"; ties: most {', then '.join(self.tie_breaks)}" if self.tie_breaks else ""
        return f"ends {how}; {who} total wins{ties}"


def spec_from_options(options: Mapping[str, str]) -> Spec:
    """The sheet from the match options, every value checked (typed with --option too)."""
    cats = tuple(c.strip().lower() for c in options.get("categories", "points").split(",")
                 if c.strip())
    if not cats:
        raise RefereeError("a score sheet needs at least one category, e.g. "
                           "categories=coins,military", "--option categories")
    for c in cats:
        if not NAME.fullmatch(c) or c in RESERVED:
            raise RefereeError(f"category {c!r}: one lowercase word (letters, digits, - or _), "
                               f"not {' or '.join(RESERVED)}", "--option categories")
    if len(set(cats)) != len(cats):
        raise RefereeError("a category is listed twice", "--option categories")
    spec = Spec(cats, _whole(options, "rounds", 1), _whole(options, "target"),
                _yes(options.get("lowest-wins", "no")),
                tuple(_known(cats, t, "tie-breaks") for t in _words(options.get("tie-breaks"))),
                tuple(_limit(cats, x) for x in _words(options.get("limits"))),
                _seats(options.get("seats", "")), options.get("game-name", "").strip(),
                options.get("definition", "").strip())
    return spec


def _words(value: str | None) -> list[str]:
    return [w.strip() for w in (value or "").split(",") if w.strip()]


def _whole(options: Mapping[str, str], key: str, low: int | None = None) -> int | None:
    text = options.get(key, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise RefereeError(f"{key} is a whole number, not {text!r}", f"--option {key}") from None
    if low is not None and value < low:
        raise RefereeError(f"{key} is {low} or more, not {value}", f"--option {key}")
    return value


def _yes(text: str) -> bool:
    word = text.strip().lower()
    if word not in ("yes", "no", "true", "false"):
        raise RefereeError(f"lowest-wins is yes or no, not {text!r}", "--option lowest-wins")
    return word in ("yes", "true")


def _known(cats: tuple[str, ...], name: str, key: str) -> str:
    if name.lower() not in cats:
        from difflib import get_close_matches

        close = get_close_matches(name.lower(), cats, n=1, cutoff=0.6)
        hint = f": did you mean {close[0]}?" if close else ""
        raise RefereeError(f"{name!r} is not a category ({', '.join(cats)}){hint}",
                           f"--option {key}")
    return name.lower()


def _limit(cats: tuple[str, ...], text: str) -> tuple[str, int | None, int | None]:
    """`military=-6..18`, `coins=0..` (an open end)."""
    name, _, bounds = text.partition("=")
    m = LIMIT.fullmatch(bounds.replace(" ", ""))
    if not m or m[1] is None and m[2] is None:
        raise RefereeError(f"a limit is category=MIN..MAX (an end may be left out), not "
                           f"{text!r}", "--option limits")
    low, high = (int(m[1]) if m[1] else None), (int(m[2]) if m[2] else None)
    if low is not None and high is not None and low > high:
        raise RefereeError(f"limit {text!r} runs backwards", "--option limits")
    return _known(cats, name.strip(), "limits"), low, high


def _seats(text: str) -> tuple[int, int] | None:
    if not text.strip():
        return None
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if not m or int(m[1]) < 1 or int(m[2] or m[1]) < int(m[1]):
        raise RefereeError(f"seats is a number or a range such as 2-5, not {text!r}",
                           "--option seats")
    return int(m[1]), int(m[2] or m[1])


def spec_from_scoring(scoring: Mapping, game: str, definition: str) -> Spec:
    """The sheet from a checked [scoring] table (pnp_model/scoring.py's plain form)."""
    seats = scoring.get("players")
    return Spec(tuple(scoring["categories"]), scoring.get("rounds"), scoring.get("target"),
                bool(scoring.get("lowest_wins")), tuple(scoring.get("tie_breaks", ())),
                tuple((c, lo, hi) for c, (lo, hi) in scoring.get("limits", {}).items()),
                tuple(seats) if seats else None, game, definition)


# moves


@dataclass(frozen=True)
class Score:
    """`ana coins 5`: points for a player in a category, in the round under way."""

    player: str
    category: str
    points: int


@dataclass(frozen=True)
class Round:
    """`round`: the round under way closes (the game may end with it)."""

    player: None = None


@dataclass(frozen=True)
class Finish:
    """`finish`: the round under way closes and the game ends, whatever the sheet says."""

    player: None = None


Move = Score | Round | Finish


# state


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    spec: Spec
    round: int = 1
    ledger: tuple[ScoreItem, ...] = ()
    over: bool = False

    def player(self, word: str) -> str:
        return find_player(self.players, word)

    def in_round(self, player: str, category: str | None = None) -> int:
        """What a player scored in the round under way (in one category, or at all: the
        number of entries)."""
        if category is None:
            return sum(1 for i in self.ledger if i.round == self.round and i.player == player)
        return sum(i.points for i in self.ledger
                   if i.round == self.round and i.player == player and i.label == category)

    def waiting(self) -> list[str]:
        """Players with no entry in the round under way."""
        scored = {i.player for i in self.ledger
                  if i.round == self.round and i.label in self.spec.categories}
        return [p for p in self.players if p not in scored]

    def table(self) -> dict[str, dict[str, int]]:
        """Each player's total in each category (the table's corrections, which views add to
        the ledger, count in the total only)."""
        out = {p: dict.fromkeys(self.spec.categories, 0) for p in self.players}
        for i in self.ledger:
            if i.label in out[i.player]:
                out[i.player][i.label] += i.points
        return out
