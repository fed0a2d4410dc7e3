"""Dobble Connect's rules: the game contract over the model (legality, effects, scoring)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from referee.engine import (
    Draft,
    Option,
    Outcome,
    RefereeError,
    RuleRef,
    Rules,
    Sample,
    ScoreItem,
    Violation,
)
from referee.games.dobble_connect import notation, position, view
from referee.games.dobble_connect.model import (
    AXES,
    BLACK,
    NOTATION,
    RULES,
    TARGETS,
    DeckInfo,
    Hex,
    Move,
    Place,
    Start,
    State,
    around,
    hex_name,
    parse_teams,
    printed_deck,
)


class DobbleConnect(Rules):
    """The Game protocol for Dobble Connect; the deck is injectable for tests."""

    name = "dobble-connect"
    title = "Dobble Connect"
    min_players = 2
    max_players = 8
    options = (Option("teams", "", 'teams and colours, e.g. "ana+bob:pink,cy+dee:orange" '
                                    "(default: one team per player, colours in order)"),)
    rules: Mapping[str, RuleRef] = RULES
    notation = NOTATION
    sample = Sample(("ana", "bob", "cy", "dee"), (
        "ana: 11 on 1 shrimp at 1,0", "bob: 18 on 11 shrimp at 2,-1", "bob: 16 on 1 gift at 0,1"),
        {"teams": "ana+bob:pink,cy:orange,dee:green"})

    def __init__(self, deck: Callable[[], DeckInfo] = printed_deck):
        self._deck = deck

    @property
    def deck(self) -> DeckInfo:
        return self._deck()

    # setup

    def score_kind(self, item: ScoreItem) -> str:
        """`red line #3 #9 #12` is a line, whichever cards made it: the kind `referee
        playtests` sums by."""
        return "lines" if " line #" in item.label else item.label

    def setup(self, players: Sequence[str], options: Mapping[str, str]) -> State:
        teams = parse_teams(options.get("teams", ""), players, self.deck.team_colors)
        start = self._next_black(set())
        return State(teams=teams, target=TARGETS[len(teams)], start=start,
                     board={(0, 0): start}, points=dict.fromkeys(teams, 0),
                     kept={t: [] for t in teams}, received={t: {} for t in teams})

    def _next_black(self, won: set[int]) -> int:
        free = [i for i, c in sorted(self.deck.colors.items()) if c == BLACK and i not in won]
        if not free:
            raise RefereeError("no black start card left")
        return free[0]

    # notation, the board as text, positions: one module each (referee/games/<game>/ shape)

    def parse(self, state: State, text: str, player: str | None = None) -> Move:
        return notation.parse_move(self, state, text, player)

    def format(self, state: State, move: Move) -> str:
        return notation.format_move(self, state, move)

    def show(self, state: State) -> str:
        return view.show(self, state)

    def position(self, state: State) -> str:
        return position.write_position(self, state)

    def load_position(self, state: State, text: str) -> State:
        return position.read_position(self, state, text)

    def photo(self, seen, geometry):
        """The cards' hexes from their markers; numpy is imported only here."""
        from referee.games.dobble_connect import photo

        return photo.read(seen, geometry, self.deck.colors)

    # rules

    def violations(self, state: State, move: Move) -> list[Violation]:
        if state.outcome is not None:
            return [Violation(RULES["end"], f"the game is over: {state.outcome.reason}")]
        if isinstance(move, Start):
            return self._check_start(state, move.card)
        return self._dc1(state, move) + self._dc2(state, move)

    def transition(self, state: State, move: Move) -> tuple[State, list[str]]:
        s = Draft(state)
        if isinstance(move, Start):
            s.board = {(0, 0): move.card}
            s.start = move.card
            s.notes.append(f"round {s.round} starts with black card #{move.card}")
        else:
            self._place(s, move)
        return s.done(), s.notes

    def _check_start(self, s: State, card: int) -> list[Violation]:
        rule = RULES["start"]
        if self.deck.colors[card] != BLACK:
            return [Violation(rule, f"#{card} is {self.deck.colors[card]}, not a black start "
                                    "card")]
        if len(s.board) > 1:
            return [Violation(rule, f"round {s.round} is under way with #{s.start} in the centre; "
                                    "the start card is chosen before the first placement")]
        if any(card in k for k in s.kept.values()):
            return [Violation(rule, f"black card #{card} was already won")]
        if s.restart and card != s.start:
            return [Violation(rule, f"after a round without a winner #{s.start} starts again")]
        return []

    def available(self, s: State, team: str) -> int:
        """Cards of its own colour a team still holds in its piles."""
        lent = sum(held.get(team, 0) for held in s.received.values())
        return self.deck.count(team) - self.on_table(s, team) - lent

    def on_table(self, s: State, color: str) -> int:
        return sum(1 for c in s.board.values() if self.deck.colors[c] == color)

    def _dc1(self, s: State, m: Move) -> list[Violation]:
        rule, team, color = RULES["DC1"], s.team_of(m.player), self.deck.colors[m.card]
        where = s.hex_of(m.card)
        if where is not None:
            return [Violation(rule, f"#{m.card} is already on the table at {hex_name(where)}")]
        if color == BLACK:
            return [Violation(rule, f"#{m.card} is a black start card: it is in no one's pile")]
        if color == team:
            if self.available(s, team) < 1:
                return [Violation(rule, f"{team} has no {team} card left in its piles "
                                        f"({self.on_table(s, team)} on the table, the rest with "
                                        "rivals)")]
            return []
        if color not in s.teams:
            return [Violation(rule, f"#{m.card} is {color}: no team plays {color} in this game")]
        if s.received[team].get(color, 0) < 1:
            return [Violation(rule, f"#{m.card} is {color} but {m.player} plays {team}, and "
                                    f"{team}'s piles hold no {color} card (rival cards come only "
                                    "through the catch-up transfer)")]
        return []

    def _dc2(self, s: State, m: Move) -> list[Violation]:
        rule, out = RULES["DC2"], []
        base = s.hex_of(m.against)
        if base is None:
            return [Violation(rule, f"#{m.against} is not on the table")]
        if m.hex in s.board:
            out.append(Violation(rule, f"hex {hex_name(m.hex)} already holds #{s.board[m.hex]}"))
        elif m.hex not in around(base):
            free = " ".join(hex_name(h) for h in around(base) if h not in s.board) or "none"
            out.append(Violation(rule, f"hex {hex_name(m.hex)} does not share an edge with "
                                       f"#{m.against} at {hex_name(base)} (free next to it: {free})"))
        shared = self.deck.symbols[m.card] & self.deck.symbols[m.against]
        if m.symbol not in shared:
            real = ", ".join(sorted(shared))
            out.append(Violation(rule, f"#{m.card} and #{m.against} share {real}, not "
                                       f"{m.symbol}"))
        return out

    def _place(self, s: Draft, m: Place) -> None:
        team, color = s.team_of(m.player), self.deck.colors[m.card]
        s.board[m.hex] = m.card
        if color != team:
            s.received[team][color] -= 1
        s.notes.append(f"{m.player} ({team}) places {color} #{m.card} at {hex_name(m.hex)}")
        line = self.line_at(s, m.hex)
        if line:
            self._win(s, color, line)
        elif self.available(s, team) + sum(s.received[team].values()) == 0:
            self._dead(s, team)

    def line_at(self, s: State, at: Hex) -> tuple[int, ...]:
        """Four or more cards of the new card's colour in a row through it, or ()."""
        color = self.deck.colors[s.board[at]]
        for dq, dr in AXES:
            run = [at]
            for sign in (1, -1):
                q, r = at
                while True:
                    q, r = q + sign * dq, r + sign * dr
                    card = s.board.get((q, r))
                    if card is None or self.deck.colors[card] != color:
                        break
                    run.append((q, r))
            if len(run) >= 4:
                return tuple(s.board[h] for h in sorted(run))
        return ()

    def _win(self, s: Draft, team: str, line: tuple[int, ...]) -> None:
        s.points[team] += 1
        k = s.points[team]
        s.kept[team].append(s.start)
        cards = " ".join(f"#{c}" for c in line)
        s.last_win = f"{team} {cards} won round {s.round}"
        s.notes.append(f"DC3: {team} line {cards}: {team} wins round {s.round} and keeps black "
                       f"#{s.start} ({k}/{s.target} points)")
        for p in s.teams[team]:
            s.ledger.append(ScoreItem(p, 1, f"{team} line {cards}", s.round))
        if k >= s.target:
            players = ", ".join(s.teams[team])
            s.outcome = Outcome(s.teams[team], f"{team} ({players}) reaches {k} points")
            s.notes.append(f"game over: {s.outcome.reason}")
            return
        gifts = []
        for rival in s.teams:
            if rival == team:
                continue
            n = min(k, self.deck.count(rival) - sum(h.get(rival, 0) for h in s.received.values()))
            s.received[team][rival] = s.received[team].get(rival, 0) + n
            gifts.append(f"{rival} gives {team} {n} {rival} card{'s' if n != 1 else ''}")
        s.notes.append(f"catch-up transfer for {team}'s point {k}: " + "; ".join(gifts)
                       + f" (shuffle them into {team}'s piles)")
        self._new_round(s, self._next_black({c for kept in s.kept.values() for c in kept}))

    def _dead(self, s: Draft, team: str) -> None:
        s.notes.append(f"every player of {team} has run out of cards: round {s.round} ends "
                       f"without a winner; #{s.start} starts again")
        self._new_round(s, s.start)
        s.restart = True

    def _new_round(self, s: Draft, start: int) -> None:
        """Every team takes back the cards of its colour; the next black card goes down."""
        s.round += 1
        s.start = start
        s.restart = False
        s.board = {(0, 0): start}
        s.notes.append(f"round {s.round}: black #{start} in the centre at 0,0")

    def legal_moves(self, state: State) -> list[Move]:
        """Every placement any player could make now (a real-time game: all act at once)."""
        if state.outcome is not None:
            return []
        out: list[Move] = []
        on_table = set(state.board.values())
        for team, members in state.teams.items():
            held = {c for c, n in state.received[team].items() if n > 0}
            if self.available(state, team) > 0:
                held.add(team)
            cards = [c for c, col in sorted(self.deck.colors.items())
                     if col in held and c not in on_table]
            for card in cards:
                for at, against in sorted(state.board.items()):
                    for symbol in sorted(self.deck.symbols[card] & self.deck.symbols[against]):
                        for h in around(at):
                            if h not in state.board:
                                out.extend(Place(p, card, against, symbol, h)
                                           for p in members)
        return self.accepted(state, out)

    # the position

    def to_move(self, state: State) -> str | None:
        return None  # real time: everyone plays at once


    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    # disputes: positions typed in, questions, secrets

    def picture(self, state: State) -> str:
        """The board as SVG; its drawing code is imported only when a picture is asked for."""
        from referee.games.dobble_connect import picture

        return picture.picture(self, state)


GAME = DobbleConnect()
