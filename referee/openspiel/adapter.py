"""An adapter from the game contract (referee/engine.py) and a game's dealer
(referee/dealing.py) to OpenSpiel's Python game API.

The first chance node is the deal: its outcome k is simulated game number k of the `seed`
(`referee simulate --seed`). Every later draw of an unseen card (Dealer.takes: a draw, a
refill, a card turned from a pile) is a chance node of its own, so the field's algorithms see
it: its outcomes are the cards of that pile that can come, uniform, each id the card's index in
the game's card list (Dealer.chance_cards). `dealer_outcome()` is the card the deal's shuffle
puts there: resolved by it, the adapter plays exactly the games our dealer deals. Player
actions are the positions of the dealer's choices in its list for this turn; the table's
forced moves (a reveal, the round's end) follow by themselves. Every move goes through the
judge.
"""

from __future__ import annotations

import copy
import functools
import random
from typing import Any

import numpy as np
import pyspiel

from referee import engine, registry
from referee.dealing import Choice, dealer_class
from referee.openspiel import draws
from referee.simulate import MAX_STEPS, game_seed, seats

GAMES = ("tripple-domino", "thricewise", "coda", "dobble-connect", "duplicon")
MAX_CHOICES = 4096  # the most choices one turn offers, with room (Duplicon: about 1,500)
DEFAULTS = {"players": 2, "seed": 0, "deals": 1000, "max_rounds": 12, "options": ""}


@functools.cache
def _rules(game: str) -> Any:
    return registry.game(game)


@functools.cache
def _cards(game: str) -> tuple[tuple, dict]:
    """The game's chance cards in id order, and each card's id."""
    cards = tuple(dealer_class(_rules(game)).chance_cards(_rules(game)))
    return cards, {c: k for k, c in enumerate(cards)}


def short_name(game: str) -> str:
    return "pnp_" + game.replace("-", "_")


def game_type(game: str) -> pyspiel.GameType:
    rules = registry.game(game)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"pnp {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=dict(DEFAULTS))


class PnpGame(pyspiel.Game):
    """One of our games for OpenSpiel; parameters: players, seed, deals, max_rounds, options."""

    game = ""  # set per game by register()

    def __init__(self, params: dict | None = None):
        params = {**DEFAULTS, **(params or {})}
        players = engine.check_players(self.rules, seats(int(params["players"])))
        info = pyspiel.GameInfo(
            num_distinct_actions=MAX_CHOICES,
            max_chance_outcomes=max(int(params["deals"]), len(_cards(self.game)[0])),
            num_players=len(players), min_utility=0.0, max_utility=1.0,
            utility_sum=1.0, max_game_length=MAX_STEPS)
        super().__init__(game_type(self.game), info, params)

    # read from the parameters each time: pyspiel rebuilds a pickled game from them alone

    @property
    def rules(self) -> Any:
        return _rules(self.game)

    def param(self, name: str) -> int:
        return int(self.get_parameters().get(name, DEFAULTS[name]))

    @property
    def players(self) -> tuple[str, ...]:
        return seats(self.param("players"))

    @property
    def options(self) -> dict[str, str]:
        """The game's options, "key:value;key:value" (OpenSpiel's game strings reserve = and
        the comma)."""
        text = str(self.get_parameters().get("options", ""))
        pairs = (p.partition(":") for p in text.split(";") if p.strip())
        return engine.check_options(self.rules, {k.strip(): v.strip() for k, _, v in pairs})

    def new_initial_state(self) -> PnpState:
        return PnpState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return Observer(recall)


class Shared(tuple):
    """A tuple of immutable things (frozen moves, texts) that a clone shares instead of
    copying: a search clones a state at every step, and a long game's record is thousands of
    entries."""

    def __deepcopy__(self, memo: dict) -> Shared:
        return self


class Hidden:
    """The dealer's side of one game (hands, deck order): copied with a state's clone, sharing
    what never changes (the rules, the referee's immutable state)."""

    def __init__(self, dealer: Any):
        self.dealer = dealer

    def __deepcopy__(self, memo: dict) -> Hidden:
        rules = self.dealer.rules
        memo.update({id(rules): rules, **{id(v): v for v in vars(rules).values()}})
        return Hidden(copy.deepcopy(self.dealer, memo))


class PnpState(pyspiel.State):
    """A position: the referee's state, the dealer's hidden side, and who saw what."""

    def __init__(self, game: PnpGame):
        super().__init__(game)
        self._game = game
        self.table: Any = None  # the referee's state, after the deal
        self.hidden: Hidden | None = None
        self.choices: tuple = Shared()  # (move, intent) per choice of the player to act
        self.legal: list[int] | None = None
        self.listed: frozenset[int] = frozenset()  # choices the rules listed: known legal
        self.actor: int | None = None
        self.over = False
        self.capped = False
        self.seen: tuple = Shared()  # (seats that see the private text, public, private)
        self.pending: tuple = Shared()  # (Take, depth below the pile's top) still to draw
        self.step: tuple = Shared()  # what waits for those draws (see _await)
        self.determined = False  # draws come from the dealer's deck: a determinisation

    # the OpenSpiel API

    def current_player(self) -> int:
        if self.over:
            return pyspiel.PlayerId.TERMINAL
        if self.hidden is None or self.pending:
            return pyspiel.PlayerId.CHANCE
        return self.actor

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.actor or self.over:
            return []
        if self.legal is None:  # judged when asked: a replay of a history never asks
            rules = self._game.rules
            self.legal = [k for k, (move, intent) in enumerate(self.choices)
                          if move is None or k in self.listed
                          or not rules.violations(self.table, move)]
            if not self.legal:
                raise engine.RefereeError(f"{self._game.players[self.actor]} has no legal "
                                          "choice", "openspiel adapter")
        return list(self.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.hidden is None:
            p = 1.0 / self._game.param("deals")
            return [(k, p) for k in range(self._game.param("deals"))]
        can = self._can_come()
        ids = _cards(self._game.game)[1]
        counts: dict[int, int] = {}
        for card in can:
            counts[ids[card]] = counts.get(ids[card], 0) + 1
        return [(k, n / len(can)) for k, n in sorted(counts.items())]

    def _apply_action(self, action: int) -> None:
        g = self._game
        if self.hidden is None:
            self.table = g.rules.setup(g.players, g.options)
            rng = random.Random(game_seed(g.param("seed"), action))
            self.hidden = Hidden(dealer_class(g.rules)(g.rules, self.table, rng))
        elif self.pending:
            self._draw(_cards(g.game)[0][action])
            if self.pending:
                return
            step, self.step = self.step, Shared()
            if not step:  # the draws the table's next turn takes
                self._advance(asked=True)
                return
            self._finish(*step)
        else:
            move, intent = self.choices[action]
            if self._start(self.actor, move, intent):
                return
        self._advance()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.hidden is None:
                return f"deal {action}"
            return f"draw {self.hidden.dealer.card_text(_cards(self._game.game)[0][action])}"
        move, intent = self.choices[action]
        return self._text(move) if move is not None else self.hidden.dealer.intent_text(intent)

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        """The win, shared among the winners (at the round cap: the leaders, as simulate)."""
        n = len(self._game.players)
        if not self.over:
            return [0.0] * n
        winners = self.winners()
        return [1.0 / len(winners) if i in winners else 0.0 for i in range(n)]

    def __str__(self) -> str:
        return "" if self.table is None else self._game.rules.show(self.table)

    # our side

    def winners(self) -> tuple[int, ...]:
        g = self._game
        outcome = g.rules.outcome(self.table)
        if outcome is not None:
            return tuple(g.players.index(w) for w in outcome.winners)
        tot = engine.totals(g.rules.ledger(self.table), g.players)
        best = max(tot.values())
        return tuple(i for i, p in enumerate(g.players) if tot[p] == best)

    def scores(self) -> tuple[int, ...]:
        g = self._game
        tot = engine.totals(g.rules.ledger(self.table), g.players)
        return tuple(tot[p] for p in g.players)

    def sees(self, player: int) -> str:
        """What the player holds or knows in secret now, as their dealer says."""
        if self.hidden is None:
            return ""
        return self.hidden.dealer.sees(self.table, self._game.players[player])

    def dealer_outcome(self) -> int:
        """At a draw, the card the deal's shuffle puts there (our simulator's game)."""
        return _cards(self._game.game)[1][self._can_come()[-1]]

    def resampled(self, player: int, rng: random.Random) -> PnpState:
        """A copy where every card the player cannot see is dealt again (a determinisation):
        what a search bot may look into without peeking. Its later draws come from the deck
        as dealt again, not from chance nodes: a determinisation fixes the order too."""
        out = self.clone()
        out.determined = True
        dealer = out.hidden.dealer
        dealer.rng = random.Random(rng.getrandbits(64))  # later shuffles are unseen too
        dealer.resample(out.table, self._game.players[player], rng)
        if dealer.choices_answer and self.actor is not None and not self.over:
            turn = dealer.turn(out.table)
            if turn.player != self._game.players[self.actor] or \
                    len(turn.choices) != len(self.choices):
                raise AssertionError("a determinisation changed the choices on offer")
            out.choices = Shared((c.move, c.intent) for c in turn.choices)
        out.legal = None
        return out

    def _text(self, move: Any) -> str:
        rules = self._game.rules
        return rules.redact(rules.format(self.table, move))

    def _start(self, actor: int | None, move: Any, intent: Any) -> bool:
        """A choice is made: judged now, done once the cards it takes are drawn (True while
        they wait as chance nodes)."""
        g, dealer = self._game, self.hidden.dealer
        after = text = None
        if move is not None:
            text = self._text(move)
            verdict, after = g.rules.judge(self.table, move)
            if not verdict.legal:
                raise engine.RefereeError(f"{g.rules.name}: the judge rejected {text!r}",
                                          "openspiel adapter")
        step = (actor, move, intent, after, text)
        if self._await(dealer.takes(self.table, Choice(move, intent), after), step):
            return True
        self._finish(*step)
        return False

    def _finish(self, actor: int | None, move: Any, intent: Any, after: Any,
                text: str | None) -> None:
        g, dealer = self._game, self.hidden.dealer
        if move is None:  # a secret decision: only its maker knows what
            dealer.commit(self.table, intent)
            who = g.players[actor]
            self.seen = Shared(self.seen + (((actor,), f"{who} decides in secret",
                                             dealer.intent_text(intent)),))
            return
        dealer.moved(self.table, move, after)
        self.table = after
        self.seen = Shared(self.seen + (((), text, None),))

    def _await(self, takes: Any, step: tuple) -> bool:
        """The draws become chance nodes, `step` waiting for them (() for the table's next
        turn); a determinisation draws from its deck as dealt."""
        if not takes or self.determined:
            return False
        self.pending, self.step = Shared(draws.queued(takes)), Shared(step)
        return True

    def _can_come(self) -> list:
        return draws.can_come(self.hidden.dealer, *self.pending[0])

    def _draw(self, card: Any) -> None:
        (take, depth), *rest = self.pending
        dealer = self.hidden.dealer
        draws.bring(dealer, take, depth, card)
        self.pending = Shared(rest)
        line = draws.seen_line(take, f"draw {dealer.card_text(card)}", self._game.players)
        self.seen = Shared(self.seen + (line,))

    def _advance(self, asked: bool = False) -> None:
        """On to the next decision of a player or draw: the table's forced moves are made
        here. `asked`: the draws the next turn takes are drawn already."""
        g, dealer, rules = self._game, self.hidden.dealer, self._game.rules
        cap = g.param("max_rounds")
        for _step in range(MAX_STEPS):
            if dealer.round_of(self.table) > cap and rules.outcome(self.table) is None:
                self.over = self.capped = True
                return
            if not asked and self._await(dealer.takes(self.table), ()):
                return
            asked = False
            turn = dealer.turn(self.table)
            if turn is None:
                self.over = True
                return
            self.choices = Shared((c.move, c.intent) for c in turn.choices)
            if turn.player is None:
                if self._start(None, *self.choices[0]):
                    return
                continue
            self.actor = g.players.index(turn.player)
            self.legal = None
            self.listed = frozenset(k for k, c in enumerate(turn.choices) if c.listed)
            if len(self.choices) > MAX_CHOICES:
                raise engine.RefereeError(f"{len(self.choices)} choices, more than "
                                          f"{MAX_CHOICES}", "openspiel adapter")
            return


class Observer:
    """Strings of what a player may see: with perfect recall (the information state) every
    public move and their own secret decisions in order, then what they hold now; without,
    the position as the referee shows it and what they hold now."""

    def __init__(self, perfect_recall: bool):
        self.recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict = {}

    def set_from(self, state: PnpState, player: int) -> None:
        pass

    def string_from(self, state: PnpState, player: int) -> str:
        you = f"you: {state._game.players[player]}"
        if state.hidden is None:
            return f"{you}\nbefore the deal"
        if not self.recall:
            return f"{you}\n{state}\n{state.sees(player)}"
        lines = [you]
        for seers, public, private in state.seen:
            lines.append(private if private is not None and player in seers else public)
        lines.append(state.sees(player))
        return "\n".join(lines)


def _game_class(game: str) -> type[PnpGame]:
    """A module-level class per game: pyspiel pickles games and states by class name."""
    name = "Pnp" + "".join(w.title() for w in game.split("-"))
    cls = type(name, (PnpGame,), {"game": game, "__module__": __name__})
    globals()[name] = cls
    return cls


CLASSES = {game: _game_class(game) for game in GAMES}


def register() -> None:
    """Make the five games known to pyspiel."""
    for game, cls in CLASSES.items():
        pyspiel.register_game(game_type(game), cls)
