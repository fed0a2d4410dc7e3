"""What a simulated table knows that the referee does not: the dealer's vocabulary.

The referee records only public facts; a simulation also needs the hidden ones (hands, deck
order, face-down cards). A game's dealer (referee/games/<game>/dealer.py, class DEALER) keeps
them, offers the player to act their choices (moves the judge is asked about, filled in with
what the hidden cards really are) and says what the table itself announces (a deal, a reveal,
the hands left at a round's end). The simulator sends every move through the game's judge, so a
dealer can never make the referee accept a move it would reject at the table.

A game without a dealer module is played from public information only (PublicDealer).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.engine import Game, RefereeError


@dataclass(frozen=True)
class Choice:
    """One option of the player to act: a referee move, or an intent that is not a move yet
    (e.g. "draw and look", "this card face down for the reveal"), which the dealer commits.

    `worth` is the expected immediate points when hidden cards decide the result (a bot must
    not peek at them); None means: ask the judge what the move scores."""

    move: Any = None
    intent: Any = None
    worth: float | Callable[[], float] | None = None  # a callable is worked out only if asked
    listed: bool = False  # listed by the rules' own legal_moves: known legal, judged anyway


@dataclass(frozen=True)
class Turn:
    """Who decides now and among what; player None is the table (a single forced move)."""

    player: str | None
    choices: Sequence[Choice]


@dataclass(frozen=True)
class Take:
    """One unseen card a step takes from a pile, declared before it is taken so that
    OpenSpiel sees the draw as a chance node (referee/openspiel): the pile (the dealer's list
    of that name, or its entry `key` when that is a dict of piles; the top is the end), who
    sees the card, and which cards of the pile can come (`kind`, e.g. a colour; see
    Dealer.fits)."""

    pile: str
    seen_by: tuple[str, ...] = ()
    key: Any = None
    kind: Any = None


class Dealer:
    """The hidden side of one simulated game. Subclasses keep the cards; this base is the
    public-information default: the player to act chooses among Rules.legal_moves."""

    note = ""  # what the simulation approximates, printed with the report
    # whether a choice carries what hidden cards answer (a guess's hit, a flipped card): a
    # determinisation then asks for the turn's choices again, answered by the cards dealt again
    choices_answer = False

    def __init__(self, rules: Game, state: Any, rng: random.Random):
        self.rules = rules
        self.rng = rng

    def turn(self, state: Any) -> Turn | None:
        """The next decision, or None when the game is over."""
        if self.rules.outcome(state) is not None:
            return None
        who = self.rules.to_move(state)
        moves = self.rules.legal_moves(state)
        if not moves:
            return None
        return Turn(who, [Choice(m, listed=True) for m in moves])

    def commit(self, state: Any, intent: Any) -> None:
        """An intent was chosen: update the hidden side (the next turn follows from it)."""
        raise NotImplementedError

    def moved(self, before: Any, move: Any, after: Any) -> None:
        """The judge accepted a move: keep the hidden side in step."""

    def sees(self, state: Any, player: str) -> str:
        """What the player holds or knows that the table does not (their hand), as text: with
        the public moves, exactly what they may see (the OpenSpiel information state)."""
        return ""

    def intent_text(self, intent: Any) -> str:
        """An intent in words, for the player who chose it (OpenSpiel's action strings)."""
        return str(intent)

    def resample(self, state: Any, player: str, rng: random.Random) -> None:
        """Deal again, in place, every card the player cannot see, keeping what they can:
        a determinisation for search bots (referee/openspiel), which must never peek."""
        raise RefereeError(f"{self.rules.name} cannot be searched yet: its dealer does not "
                           "deal the unseen cards again", "--bot")

    # draws as chance nodes (referee/openspiel): what a step takes, before it takes it

    @classmethod
    def chance_cards(cls, rules: Game) -> Sequence[Any]:
        """Every card a pile can hold, in a fixed order: a chance outcome's id is its index."""
        return ()

    def card_text(self, card: Any) -> str:
        return str(card)

    def takes(self, state: Any, choice: Choice | None = None, after: Any = None
              ) -> Sequence[Take]:
        """The unseen cards the next step takes from the top of a pile, in the order taken:
        the table's next turn (choice None), a chosen intent, or an accepted move (`after`:
        the judged state) before `moved`. A draw left out stays decided by the shuffle."""
        return ()

    def pile(self, take: Take) -> list:
        found = getattr(self, take.pile)
        return found if take.key is None else found[take.key]

    def fits(self, take: Take, card: Any) -> bool:
        """Whether the card can come from the pile (a draw of one colour: only that colour)."""
        return True

    # figures for the report

    def round_of(self, state: Any) -> int:
        return int(getattr(state, "round", 1) or 1)

    def starts_turn(self, before: Any, move: Any) -> bool | None:
        """Whether the move starts a turn (None: when another player than the last acts)."""
        return None

    def no_winner(self, before: Any, move: Any, after: Any) -> bool:
        """The move ended a round that nobody won."""
        return False

    def cards(self, before: Any, move: Any) -> Sequence[str]:
        """The printed cards a move plays (for the per-card figures)."""
        return ()

    def all_cards(self) -> Sequence[str]:
        """Every card that can be played (so the report can say which never were)."""
        return ()


PublicDealer = Dealer


def dealer_class(rules: Game) -> type[Dealer]:
    """The game's dealer: DEALER in the dealer module next to its rules, else PublicDealer."""
    import importlib

    module = type(rules).__module__
    package = module.rsplit(".", 1)[0] if module.count(".") >= 3 else module
    for name in (f"{package}.dealer", f"{module}_dealer"):
        try:
            found = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            continue
        return found.DEALER
    return getattr(rules, "dealer", PublicDealer)
