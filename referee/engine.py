"""The referee's vocabulary: games, moves, verdicts, rule references, errors, and the fold.

A game module (referee/games/<game>.py, or a package) exposes GAME, an instance of a `Rules`
subclass: the one contract, every hook declared here with a default. The engine never looks
inside a game's state.
State is always derived: fold(game, events) rebuilds it from the match's event log.
Nothing here knows any particular game, and nothing here imports reportlab or Pillow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from types import MappingProxyType
from typing import Any, Generic, NamedTuple, TypeVar

from pnp_shared.errors import UserError
from referee.thaw import thawed


class RuleRef(NamedTuple):
    """A rule of docs/reference/rules.md: its id (D3, T2, ...) and its text."""

    id: str
    text: str

    def __str__(self) -> str:
        return f"{self.id}: {self.text}"


class Violation(NamedTuple):
    """One broken rule and the concrete reason in this position."""

    rule: RuleRef
    reason: str

    def __str__(self) -> str:
        return f"{self.rule.id} {self.reason} — rule: {self.rule.text}"


class ScoreItem(NamedTuple):
    """One itemised line of the score ledger: who, how many points, why, in which round.

    A named tuple rather than a dataclass: a long match's state holds tens of thousands, and
    a snapshot rebuilds them four times faster as tuples (referee/record/state_pickle.py)."""

    player: str
    points: int
    label: str
    round: int = 1


class Verdict(NamedTuple):
    """The referee's answer to a move: legal or not, why, and the points it earns."""

    legal: bool
    violations: tuple[Violation, ...] = ()
    score: tuple[ScoreItem, ...] = ()
    notes: tuple[str, ...] = ()


class Option(NamedTuple):
    """A named game option (variants are options, never code forks)."""

    name: str
    default: str
    help: str
    choices: tuple[str, ...] = ()


class Outcome(NamedTuple):
    """How a game ended: the winner(s) (several on a shared win) and why."""

    winners: tuple[str, ...]
    reason: str


class Sample(NamedTuple):
    """A short legal opening of a game: the contract tests start their checks from it. (A
    named tuple: every game creates one at import, cheaper than a dataclass.)"""

    players: tuple[str, ...]
    moves: tuple[str, ...]  # as typed at the table; "ana: ..." says who acts
    options: Mapping[str, str] = MappingProxyType({})  # read-only: one default for all


class RefereeError(UserError):
    """A user mistake (unknown game, bad option, no current match): `what` and `where` (the
    input: a flag, a file line, a match); one line, exit code 2. Shared with pnp."""


class InvalidMove(RefereeError):
    """The move text cannot be parsed; the message says what was expected."""


class AmbiguousMove(RefereeError):
    """The move parses but could mean several things; the message says what to add."""

    def __init__(self, what: str, candidates: Sequence[str] = (), where: str | None = None):
        super().__init__(what, where)
        self.candidates = tuple(candidates)


class IllegalMove(RefereeError):
    """The move parses but breaks one or more rules; carries the violations."""

    def __init__(self, violations: Sequence[Violation]):
        self.violations = tuple(violations)
        super().__init__("; ".join(str(v) for v in self.violations))

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return tuple(v.rule.id for v in self.violations)


State = TypeVar("State")
Move = TypeVar("Move")


class Rules(Generic[State, Move]):
    """The game contract: every hook a game can have, each with a default, by its public name.

    A game module defines `GAME = MyGame()` for a subclass. It must write `setup`, `parse`,
    `format`, `transition`, `show` and `legal_moves`; the rest have defaults that
    suit a game without them. Check and apply follow from `violations` + `transition`; the
    score a move earns is what it added to the ledger, so a game keeps one record of points.
    State is an immutable value (frozen dataclasses, changed with `dataclasses.replace`), so
    a state handed out is never changed by a later move. A move is an object whose `player`
    attribute says who acted (None when the move does not say).
    """

    name: str = ""  # "tripple-domino": the name users type, and the registry key
    title: str = ""  # "Tripple Domino"
    min_players: int = 2
    max_players: int = 2
    options: tuple[Option, ...] = ()
    rules: Mapping[str, RuleRef] = {}  # rule id -> rule
    notation: str = ""  # one line shown by `referee games`
    sample: Sample | None = None  # a short legal opening, for tests/test_game_contract.py
    bgg_id: int | None = None  # its BoardGameGeek id, where it has one (BG Stats exports)
    # Words of the notation (lower case) no player may be named: a move naming that player
    # would read as the word (Duplicon's `steal steal ...`); `new` refuses them (check_players).
    move_words: frozenset[str] = frozenset()
    # The bundled template whose cards the game plays when it is not the one named like the
    # game (Thricewise plays the Decktet): where `referee note --card` finds the card.
    bundled_deck: str = ""

    # moves: notation in and out

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> State:
        """The state before the first move."""
        raise NotImplementedError

    def parse(self, state: State, text: str, player: str | None = None) -> Move:
        """A move from its notation; InvalidMove / AmbiguousMove when it cannot be one move."""
        raise NotImplementedError

    def format(self, state: State, move: Move) -> str:
        """The canonical notation of a move (parse(format(m)) == m)."""
        raise NotImplementedError

    def mover(self, move: Move) -> str | None:
        """Who made the move, when the move says so (its `player`)."""
        who = getattr(move, "player", None)
        return who if isinstance(who, str) else None

    # rules: what is legal and what it does

    def violations(self, state: State, move: Move) -> list[Violation]:
        """The rules the move breaks here (empty when legal)."""
        return []

    def transition(self, state: State, move: Move) -> tuple[State, Sequence[str]]:
        """The state after a legal move, and notes for the table about what happened."""
        raise NotImplementedError

    def legal_moves(self, state: State) -> list[Move]:
        """Moves the judge accepts here, as the table can know them (empty when none can be
        listed, e.g. the game is over); the random playouts of the contract tests use them."""
        raise NotImplementedError

    def public_moves(self, state: State) -> list[Move]:
        """The legal moves `referee moves` lists for the player to act. A game whose moves turn
        on what only the table sees (a face-down card, a hand) raises RefereeError saying so,
        rather than list guesses (unlisted); by default legal_moves."""
        return self.legal_moves(state)

    @staticmethod
    def unlisted(due: str) -> RefereeError:
        """What public_moves raises when the move due is typed from what only the table sees:
        `due` says the move and its form."""
        return RefereeError(f"the next move is {due}: it cannot be listed (`referee check "
                            "MOVE` judges one)", "referee moves")

    def accepted(self, state: State, candidates: Iterable[Move]) -> list[Move]:
        """The candidates the judge accepts here (a helper for legal_moves)."""
        return [m for m in candidates if not self.violations(state, m)]

    def judge(self, state: State, move: Move) -> tuple[Verdict, State | None]:
        """The verdict and the state after the move (None when illegal), worked out once."""
        problems = self.violations(state, move)
        if problems:
            return Verdict(False, tuple(problems)), None
        after, notes = self.transition(state, move)
        earned = tuple(self.ledger(after)[len(self.ledger(state)):])
        return Verdict(True, (), earned, tuple(notes)), after

    def check(self, state: State, move: Move) -> Verdict:
        """Legal or not, with the violated rules and the score the move would earn."""
        return self.judge(state, move)[0]

    def apply(self, state: State, move: Move) -> State:
        """The state after a legal move (raises IllegalMove for an illegal one). Pure."""
        problems = self.violations(state, move)
        if problems:
            raise IllegalMove(problems)
        return self.transition(state, move)[0]

    # the position: whose turn, scores, the end

    def to_move(self, state: State) -> str | None:
        """Who acts next, when the game has turns."""
        return None

    def pending(self, state: State) -> tuple[str, ...]:
        """What the table must know is half done (a tile drawn and not yet placed), as the
        notes of the move that left it so: the table page shows them beside whose turn."""
        return ()

    def ledger(self, state: State) -> tuple[ScoreItem, ...]:
        """Every score item so far, in order, itemised (it only grows move by move); by default
        the state's `ledger` field (a tuple as it is: a long match's holds 24,000 items, and a
        SummedLedger keeps its sums)."""
        ledger = state.ledger  # type: ignore[attr-defined]
        return ledger if isinstance(ledger, tuple) else tuple(ledger)

    def with_corrections(self, state: State, items: tuple[ScoreItem, ...]) -> State:
        """The state as views draw it once the table corrected the score (`referee adjust`):
        its ledger followed by the corrections, so the board's totals are the referee's. By
        default the state's `ledger` field extended; a game that keeps its score elsewhere
        overrides this (or its board shows the rules' figures beside the referee's line)."""
        if not is_dataclass(state) or not any(f.name == "ledger" for f in fields(state)):
            return state
        ledger = state.ledger  # type: ignore[attr-defined]
        more = list(items) if isinstance(ledger, list) else tuple(items)
        return replace(state, ledger=ledger + more)  # type: ignore[type-var]

    def outcome(self, state: State) -> Outcome | None:
        """The end of the game, or None while it goes on."""
        return None

    def show(self, state: State) -> str:
        """The position as text: board with coordinates, whose turn, scores. Everything the
        referee records is public (secrets are never stored), so every player sees the same."""
        raise NotImplementedError

    def show_full(self, state: State) -> str:
        """The whole position however large (`show --full`), where `show` abridges it to fit
        a terminal; by default the same as show."""
        return self.show(state)

    # optional: disputes, questions, secrets

    def position(self, state: State) -> str | None:
        """The position as text that load_position reads back, or None (cannot be written)."""
        return None

    def load_position(self, state: State, text: str) -> State:
        """The state with the position from text (`referee new GAME --position FILE`)."""
        raise RefereeError(f"{self.name} cannot set up a position directly: start a new match "
                           "and type the moves", "--position")

    def query(self, state: State, text: str) -> str:
        """The answer to a question about the position (`referee ask`)."""
        raise RefereeError(f"{self.name} answers no questions", "referee ask")

    def secret_prompt(self, state: State, text: str) -> str:
        """What the hidden prompt of `play --secret` asks for (asked before the secret is typed,
        so a game without secrets says so before anyone types one)."""
        raise RefereeError(f"{self.name} takes no secret input", "--secret")

    def secret_move(self, state: State, text: str, secret: str, player: str | None) -> str:
        """The public move a secret turns into (e.g. salted hashes); the secret is never kept."""
        raise RefereeError(f"{self.name} takes no secret input", "--secret")

    def picture(self, state: State) -> str | None:
        """The board drawn as SVG (`referee serve`, `show --svg`), public information only, as
        `show`; None for a game that draws none. A game's rules hand it to its picture.py."""
        return None

    def photo(self, seen: Sequence[Mapping[str, Any]], geometry: Mapping[str, float]
              ) -> dict[str, Any] | None:
        """What the markers `referee look` found in a photo say (referee/camera): per card its
        place in the game's terms, and the cards not read; None for a game read from no
        photo. A game's rules hand it to its photo.py."""
        return None

    def photo_move(self, state: State, cells: Mapping[int, Any]) -> tuple[str | None, str]:
        """The move a photo shows, the table's position one move on: (the move as a player
        types it, or None and why not). `cells` is photo()'s reading of the photo."""
        return None, "a move is not read from a photo of this game: type it"

    def photo_deck(self, options: Mapping[str, str]) -> str | None:
        """The printed deck a photo of this table shows when the game reads no markers itself
        (a score sheet kept for a symbol deck): its name, whose reference pack the cards are
        found against by their features (referee/camera/symbol_deck.py); None for none."""
        return None

    def definition_options(self, folder: Any) -> dict[str, str] | None:
        """The options of a match of a designer's own game (`referee new path/to/mygame`),
        read from its definition folder (a pathlib.Path) when this game can keep it; None when
        it cannot (e.g. the folder's game.toml has nothing this game reads)."""
        return None

    def score_kind(self, item: ScoreItem) -> str:
        """The kind of score an item is, what `referee playtests` averages a player's score by:
        by default its label (a score sheet's labels are its categories). A game whose labels
        describe the move (`tile 5-5-5 at U1,0`, `draw 2`) names the kind (`tiles`, `draws`)."""
        return item.label

    def card_name(self, name: str, fields: Mapping[str, Any]) -> str:
        """A card of the game's definition as the game's reports name it (per-card win rates,
        notes), from its name and fields there: by default that name. A game whose cards are
        known by what they show says so (a Tripple Domino tile is 5-5-5, not `card 56`)."""
        return name

    def card_typed(self, text: str) -> str:
        """A card as a player typed it (`referee note --card`), spelled as card_name spells it
        (a tile's numbers in any order the notation takes); by default the text as typed."""
        return text

    def lowest_wins(self, options: Mapping[str, str]) -> bool:
        """Whether the lowest total wins a match with these options (ranks in exports)."""
        return False

    def recorded(self, state: State, move: Move, legal: bool, typed: str) -> str:
        """A move read from typed text as the record keeps it: an accepted one in its
        notation; a rejected one as typed by default, as a game with no secret move has
        nothing to hide. A game with secrets writes it from its fields, secrets left out.
        referee/inputs.py `kept` is the only caller."""
        return self.format(state, move) if legal else typed

    def withheld(self, state: State, text: str) -> tuple[str, str] | None:
        """For typed text the game could not read: when it may hold a secret, what to keep
        instead, as (text, reason) that quote nothing of it; None keeps it as typed."""
        return None

    def redact(self, text: str) -> str:
        """A stored move as a page shows it (the table page's latest verdict): the record
        keeps no secret, and a game may shorten what is public but long (a round's key)."""
        return text


Game = Rules[Any, Any]


class Draft:
    """A frozen state being worked on by one move: its fields as private copies that the
    move's helpers change in place, and the notes the move makes. `done()` is the next state
    (`dataclasses.replace`); the state it came from is never changed. For games whose moves
    change many nested tables at once; the state's properties and methods work on the draft.
    """

    def __init__(self, state: Any):
        object.__setattr__(self, "_state", state)
        for f in fields(state):
            setattr(self, f.name, thawed(getattr(state, f.name)))
        self.notes: list[str] = []

    def __getattr__(self, name: str) -> Any:
        found = getattr(type(self._state), name)  # a property or method of the state's class
        if isinstance(found, property):
            return found.fget(self)
        return found.__get__(self)

    def done(self) -> Any:
        return replace(self._state, **{f.name: getattr(self, f.name) for f in fields(self._state)})


def totals(ledger: Iterable[ScoreItem], players: Sequence[str]) -> dict[str, int]:
    """Sum of a ledger per player, every player present."""
    out = dict.fromkeys(players, 0)
    known = ledger.sums if isinstance(ledger, SummedLedger) else sums(ledger)
    for player, points in known.items():
        out[player] = out.get(player, 0) + points
    return out


def by_round(ledger: Iterable[ScoreItem]) -> dict[int, list[ScoreItem]]:
    """A ledger's items grouped by round, rounds in the order they first appear."""
    out: dict[int, list[ScoreItem]] = {}
    for item in ledger:
        out.setdefault(item.round, []).append(item)
    return out


def sums(ledger: Iterable[ScoreItem]) -> dict[str, int]:
    """Each player's points in a ledger, players in the order they first score."""
    out: dict[str, int] = {}
    for item in ledger:
        out[item.player] = out.get(item.player, 0) + item.points
    return out


class SummedLedger(tuple):
    """A ledger read back from a snapshot (referee/record/state_pickle.py) with each player's sum
    (what sums() gives) kept beside it: a long match's ledger is 24,000 items, and every
    command shows the totals. A tuple cannot change, so neither can its sums."""

    sums: dict[str, int]

    def __new__(cls, items: Iterable[ScoreItem], its_sums: dict[str, int]) -> SummedLedger:
        ledger = super().__new__(cls, items)
        ledger.sums = its_sums
        return ledger

    def __reduce__(self) -> tuple:  # pickle and deepcopy pass the sums to __new__
        return SummedLedger, (tuple(self), dict(self.sums))

    def __add__(self, items: tuple[ScoreItem, ...]) -> SummedLedger:  # type: ignore[override]
        """The ledger with a move's items appended, sums kept (`ledger + tuple(items)` in a
        game's rules): a command folding the moves after a snapshot would otherwise add the
        24,000 items up again to show the totals."""
        return SummedLedger(tuple.__add__(self, items), {**self.sums, **{
            p: self.sums.get(p, 0) + n for p, n in sums(items).items()}})


@dataclass(frozen=True)
class Event:
    """One entry of a match's append-only log.

    kinds: "new" (data: players, options), "position" (data: text, a set-up position),
    "move" (data: text in canonical notation, player), "rejected" (data: text, reason: kept so
    nothing typed is lost; no effect on state), "adjust" and "end" (table entries: a score
    correction, an early end; see referee/table.py), "note" (a playtest remark on cards,
    referee/notes.py), "undo" (data: seq taken back, or
    dismissed: the rejected attempts it set aside) and "redo" (data: seq put back).
    """

    seq: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict)


TAKE_BACK = ("move", "adjust", "end", "note")  # what undo takes back and redo puts back


class Undos(NamedTuple):
    """What the undo/redo events of a log amount to (they are folded like everything else)."""

    gone: frozenset[int]  # entries taken back and not put back
    redoable: tuple[int, ...]  # entries redo can put back, the next one last
    dismissed: frozenset[int]  # rejected attempts set aside by undo


def undos(events: Sequence[Event]) -> Undos:
    """Fold the undo and redo events: a new entry (move, adjust, end) empties the redo list,
    as in any editor, so a redone entry always lands where it was."""
    gone: set[int] = set()
    stack: list[int] = []
    dismissed: set[int] = set()
    for e in events:
        if e.kind in TAKE_BACK:
            stack.clear()
        elif e.kind == "undo":
            if "seq" in e.data:
                gone.add(int(e.data["seq"]))
                stack.append(int(e.data["seq"]))
            dismissed.update(int(s) for s in e.data.get("dismissed", ()))
        elif e.kind == "redo":
            seq = int(e.data["seq"])
            gone.discard(seq)
            if seq in stack:
                stack.remove(seq)
    return Undos(frozenset(gone), tuple(stack), frozenset(dismissed))


def retracted(events: Sequence[Event]) -> set[int]:
    """The seq numbers of entries withdrawn by undo events (and not put back by redo)."""
    return set(undos(events).gone)


def fold(game: Game, events: Sequence[Event]) -> Any:
    """Rebuild a match's state from its events: the log is the record, state is derived."""
    state = None
    for _event, after in steps(game, events):
        state = after
    return state


def steps(game: Game, events: Sequence[Event], state: Any = None,
          gone: set[int] | None = None) -> Iterator[tuple[Event, Any]]:
    """Each event with the state right after it (the fold, one step at a time, for logs).
    A cached snapshot continues the fold: `state` after the events before these, `gone` the
    moves retracted anywhere in the match (by default, those these events retract)."""
    gone = retracted(events) if gone is None else gone
    for e in events:
        if e.kind == "new":
            state = game.setup(tuple(e.data["players"]), dict(e.data.get("options", {})))
        elif e.kind == "position":
            state = game.load_position(state, e.data["text"])
        elif e.kind == "move" and e.seq not in gone:
            state = game.apply(state, game.parse(state, e.data["text"], e.data.get("player")))
        yield e, state


def last_move(events: Sequence[Event]) -> Event | None:
    """The latest move still in force, or None."""
    gone = retracted(events)
    for e in reversed(events):
        if e.kind == "move" and e.seq not in gone:
            return e
    return None


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
            raise RefereeError(f"option {key}={value!r} is not one of {', '.join(opt.choices)} "
                               f"for {game.name}", f"--option {key}")
        out[key] = value
    return out


def same_name(name: str) -> str:
    """A name as names are compared: Unicode NFC (`José` typed with é, or e and a combining
    accent, is one name; keyboards and phones send either) and lower case."""
    import unicodedata

    return unicodedata.normalize("NFC", name.strip()).lower()


def find_player(players: Sequence[str], name: str, where: str | None = None,
                error: type[RefereeError] = InvalidMove) -> str:
    """A player of the match by name as typed, in any case (names differ by more than case);
    an unknown name is an error listing the players."""
    key = same_name(name)
    for p in players:
        if same_name(p) == key:
            return p
    from pnp_shared.suggest import did_you_mean

    hint = did_you_mean(name, players, n=1)
    raise error(f"unknown player {name.strip()!r}" + (f" ({hint})" if hint else "")
                + f", the players are {', '.join(players)}", where)


def named_within_limits(name: str) -> None:
    """A player's name is short, printable text: it is shown in every verdict and list."""
    from pnp_shared.limits import MAX_NAME_CHARS

    if len(name) > MAX_NAME_CHARS:
        raise RefereeError(f"a player name of {len(name):,} characters: at most "
                           f"{MAX_NAME_CHARS}", "--players")
    if not name.isprintable():  # repr shows the control character or bad byte escaped
        raise RefereeError(f"player name {name!r} holds a control character or a byte that "
                           "is not UTF-8: type it again", "--players")
    from pnp_shared.digits import digit_name, foreign_digit

    digit = foreign_digit(name)
    if digit is not None:  # moves name players, and a move's digits are 0-9 only
        raise RefereeError(f"player name {name!r} holds the digit {digit_name(digit)}: use the "
                           "digits 0-9", "--players")


def _code_points(name: str) -> str:
    """A name's letters as code points (`U+0430 U+006E U+0061`): what tells look-alikes apart."""
    return " ".join(f"U+{ord(c):04X}" for c in name)


def check_players(game: Game, players: Sequence[str]) -> tuple[str, ...]:
    """The player names, checked: count within the game's limits, unique, non-empty."""
    names = tuple(p.strip() for p in players)
    if any(not n for n in names):
        raise RefereeError("a player name is empty", "--players ana,bob")
    if len(set(names)) != len(names):
        raise RefereeError(f"a player name appears twice: {', '.join(names)}", "--players")
    for n in names:  # moves name players as one word, in any case
        named_within_limits(n)
        if not re.fullmatch(r"[^\s=,:#]+", n):
            raise RefereeError(f"player name {n!r} cannot be written in moves: use one word "
                               "without spaces, =, :, , or #", "--players")
        if n.lower() in game.move_words:
            raise RefereeError(f"player name {n!r} cannot be written in moves: it is a word of "
                               f"the notation of {game.name} (" + ", ".join(sorted(
                                   game.move_words)) + ")", "--players")
    folded = [n.lower() for n in names]
    if len(set(folded)) != len(folded):
        twins = [n for n in names if folded.count(n.lower()) > 1]
        raise RefereeError(f"player names {' and '.join(twins)} differ only in case: moves "
                           "could not tell them apart", "--players")
    from referee.names import lookalikes  # only where a match is made

    twins = lookalikes(names)
    if twins:
        shown = " and ".join(f"{n!r} ({_code_points(n)})" for n in twins)
        raise RefereeError(f"player names {shown} look alike: the table could not tell them "
                           "apart (Unicode look-alike letters, width or accents)", "--players")
    if not game.min_players <= len(names) <= game.max_players:
        raise RefereeError(f"{game.name} takes {game.min_players}-{game.max_players} players, "
                           f"not {len(names)}", "--players")
    import unicodedata  # stored as NFC: whichever way `José` is typed later, it is one player

    return tuple(unicodedata.normalize("NFC", n) for n in names)
