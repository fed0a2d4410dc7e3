"""Balance targets (`[balance]` in game.toml): the table read and checked, nothing run.

The table names the referee game whose rules play the deck and the figures it must reach:

    [balance]
    game = "my-game"             # the referee game (default: the definition's name)
    players = 3
    games = 500                  # default 500
    bot = "random"               # or greedy
    first_seat_win = "25%..42%"  # a range, or <X, <=X, >X, >=X
    no_winner_rounds = "<5%"
    turns_p95 = "<200"

Reading them belongs to the model, so that a typo is one line when any tool loads the
definition; running the simulation that checks them is the generator's (generator.balance).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pnp_model.errors import PnpError

# target key -> (what it measures, whether it is a rate, where the summary keeps it)
TARGETS: dict[str, tuple[str, bool, tuple[str, ...]]] = {
    "first_seat_win": ("first seat's win rate", True, ("first_seat", "rate")),
    "no_winner_rounds": ("rounds with no winner", True, ("no_winner_rounds", "rate")),
    "turns_p95": ("game length, 95th percentile of turns", False, ("turns", "p95")),
    "turns_mean": ("game length, mean turns", False, ("turns", "mean")),
    "moves_p95": ("moves a game, 95th percentile", False, ("moves", "p95")),
    "rounds_mean": ("rounds a game, mean", False, ("rounds", "mean")),
    "capped_games": ("games stopped at the round cap", False, ("capped",)),
}
SETTINGS = {"game", "players", "games", "bot", "seed", "options", "max_rounds"}
NUMBER = r"(-?\d+(?:\.\d+)?)(%?)"


@dataclass(frozen=True)
class Target:
    key: str
    text: str  # as written: "40%..60%"
    low: float | None
    high: float | None
    low_open: bool = False  # > rather than >=
    high_open: bool = False  # < rather than <=

    def met(self, value: float) -> bool:
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            return False
        return not (self.high is not None and (value > self.high
                                                or (self.high_open and value == self.high)))


def parse_target(key: str, text: Any, where: str) -> Target:
    """'40%..60%', '<5%', '>=0.5', '10..20' as bounds; rates are written in percent."""
    rate = TARGETS[key][1]
    raw = str(text).strip().replace(" ", "")

    def number(value: str, pct: str) -> float:
        if rate and not pct:
            raise PnpError(f"{key} is a rate: write it in percent, e.g. \"40%..60%\" or "
                           f"\"<5%\", not {text!r}", where)
        if pct and not rate:
            raise PnpError(f"{key} is a count, not a rate: write e.g. \"<60\", not {text!r}",
                           where)
        return float(value) / 100 if pct else float(value)

    m = re.fullmatch(NUMBER + r"\.\." + NUMBER, raw)
    if m:
        low, high = number(m[1], m[2]), number(m[3], m[4])
        if low > high:
            raise PnpError(f"{key} range {text!r} runs backwards", where)
        return Target(key, str(text), low, high)
    m = re.fullmatch(r"(<=|>=|<|>)" + NUMBER, raw)
    if m:
        value = number(m[2], m[3])
        if m[1].startswith("<"):
            return Target(key, str(text), None, value, high_open=m[1] == "<")
        return Target(key, str(text), value, None, low_open=m[1] == ">")
    raise PnpError(f"{key} = {text!r} is not a target: write a range \"40%..60%\" or a bound "
                   "\"<5%\", \"<=60\", \">0.5\"", where)


@dataclass(frozen=True)
class Balance:
    """A checked [balance] table: how to simulate and what to reach."""

    game: str
    players: int
    games: int
    bot: str
    seed: int
    max_rounds: int
    options: dict[str, str]
    targets: tuple[Target, ...]


def parse(table: dict[str, Any], default_game: str, where: str) -> Balance:
    """The [balance] table, every key known and every value of its type (a typo is an
    error naming the key, never a target silently skipped)."""
    unknown = sorted(set(table) - SETTINGS - set(TARGETS))
    if unknown:
        raise PnpError(f"unknown key {unknown[0]!r} in [balance] (known: "
                       f"{', '.join(sorted(SETTINGS | set(TARGETS)))})", where)

    def whole(key: str, default: int, low: int, high: int) -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise PnpError(f"[balance] {key} must be a whole number {low}-{high}, not "
                           f"{value!r}", where)
        return value

    options = table.get("options", {})
    if not isinstance(options, dict):
        raise PnpError("[balance] options must be a table, e.g. { target = \"200\" }", where)
    targets = tuple(parse_target(k, table[k], f"{where} {k}") for k in TARGETS if k in table)
    return Balance(
        game=str(table.get("game", default_game)),
        players=whole("players", 2, 1, 8),
        games=whole("games", 500, 1, 1_000_000),
        bot=str(table.get("bot", "random")),
        seed=whole("seed", 0, 0, 10**9),
        max_rounds=whole("max_rounds", 12, 1, 10_000),
        options={str(k): str(v) for k, v in options.items()},
        targets=targets,
    )


def read_balance(table: dict[str, Any], root: Any, fname: str) -> dict[str, Any]:
    """[balance] as written, its keys and values checked when the definition loads (a typo is
    one line at once, not a surprise at `pnp verify --balance`)."""
    if table:
        parse(table, root.resolve().name, f"{fname} [balance]")
    return table


def figure(summary: dict[str, Any], key: str) -> float:
    value: Any = summary
    for part in TARGETS[key][2]:
        value = value[part]
    return float(value)


def shown(key: str, value: float) -> str:
    return f"{100 * value:.1f}%" if TARGETS[key][1] else f"{value:g}"
