"""What each referee command does, over the game contract and the store; the CLI only prints.

Every command is one store transaction: read the match's events, fold them into the state,
decide, append, commit. A move typed in is never lost: a rejected or unreadable one is recorded
as a "rejected" event (no effect on state) before the command reports the rejection.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from typing import Any, NamedTuple

from referee import engine, record, registry, scoreboard, table
from referee.engine import (
    Event,
    Game,
    InvalidMove,
    RefereeError,
    ScoreItem,
    Verdict,
)
from referee.record import Match, Stamped, Store


class Loaded(NamedTuple):
    """A match read from the store: its game, its events and the state they fold into.

    Named tuples rather than frozen dataclasses for this and Played: every command imports
    them, and a dataclass costs about three times as much to create at import."""

    match: Match
    game: Game
    events: list[Event]
    state: Any
    stamped: tuple[Stamped, ...] = ()  # the events as stored, with when each was recorded
    entries: Sequence[Event] | None = None  # every event but moves and rejected ones
    marks: Sequence[int] = ()  # the game's ledger length after each event (Folded.marks)

    @property
    def table_events(self) -> Sequence[Event]:
        """What the table's fold reads (corrections, ends, undo and redo): the few events
        read apart from the moves when the store gave them, so a 20,000-move match is not
        read whole to total its score."""
        return self.events if self.entries is None else self.entries

    def ledger(self) -> tuple[ScoreItem, ...]:
        """Every score item: the game's, then the table's corrections (`referee adjust`)."""
        return table.ledger(self.game, self.state, self.table_events)

    def scores(self) -> dict[str, scoreboard.Total]:
        """Each player's one total, corrections named (referee/scoreboard.py): every view."""
        return scoreboard.scores(self.game, self.state, self.table_events, self.match.players)

    def totals(self) -> dict[str, int]:
        return {p: t.total for p, t in self.scores().items()}

    def scored(self) -> Any:
        """The state as views draw it: the table's corrections in its totals."""
        return scoreboard.as_scored(self.game, self.state, self.table_events)

    def board(self, full: bool = False) -> str:
        """The game's view of the position, with the same totals as every other view, and
        the players whose score the table corrected: `adjusted: cy 27 (22 + 5 adjusted)`."""
        state = self.scored()
        text = self.game.show_full(state) if full else self.game.show(state)
        adjusted = scoreboard.corrected(self.scores())
        return f"{text}\nadjusted: {adjusted} (`referee score` itemises)" if adjusted else text

    def outcome(self) -> engine.Outcome | None:
        """The rules' outcome (on the corrected totals), or the table's when it ended the
        match early: referee.table.outcome, the one place a winner is decided."""
        return table.outcome(self.game, self.state, self.table_events)

    def status(self) -> str:
        return table.status(self.game, self.state, self.table_events)

    def position(self) -> str | None:
        """The position as text (None: the game cannot write it), the table's corrections
        after the game's lines, so `new --position` rebuilds the same totals."""
        text = self.game.position(self.state)
        if text is None:
            return None
        return text.rstrip("\n") + "\n" + table.position_lines(self.table_events)

    def scratch(self) -> bool:
        """Typed in from a position and not kept: out of standings, playtests and exports."""
        return table.scratch(self.table_events)


class Played(NamedTuple):
    """The outcome of `play`/`check`: the canonical move and verdict, or the rejection."""

    match: Match
    text: str
    player: str | None
    verdict: Verdict | None = None
    move: str = ""  # canonical notation of the move
    event: Event | None = None
    error: RefereeError | None = None  # InvalidMove / AmbiguousMove
    state: Any = None
    outcome: engine.Outcome | None = None  # the match's, once this move ended it (table.outcome)


def load(store: Store, match_id: int | None = None, upto: int | None = None) -> Loaded:
    """The current (or given) match, folded up to event `upto` (all events when None)."""
    m, g, folded = record.read(store, match_id, upto)
    return Loaded(m, g, record.EventsView(folded.log), folded.state, folded.log,
                  folded.control, folded.marks)


def checked(store: Store, match_id: int | None = None) -> Loaded:
    """The current (or given) match's events, verified as load() verifies them, without its
    state (None): for a command that decides from the log alone (redo)."""
    m, g, folded = record.read(store, match_id, replay=False)
    return Loaded(m, g, record.EventsView(folded.log), None, folded.log, folded.control)


def new_match(
    store: Store,
    game_name: str,
    players: Sequence[str],
    options: Mapping[str, str],
    position_text: str | None = None,
) -> Loaded:
    """Create a match (the current one from now on), optionally from a set-up position; a
    designer's game folder is kept by the game that reads it (referee/definitions.py)."""
    from referee.definitions import resolve

    game_name, options = resolve(game_name, options)
    g = registry.game(game_name)
    names = engine.check_players(g, players)
    opts = engine.check_options(g, options)
    state = g.setup(names, opts)  # options a game rejects in setup fail before anything is stored
    if position_text is not None and not position_text.strip():
        raise RefereeError("the position is empty: write it as `referee position` prints it",
                           "--position")
    if position_text is not None:
        from referee import inputs  # typed text only: reading commands start without it

        position_text = nfc(position_text)  # its names as --players stores them
        inputs.check(position_text, "position")
        position_text, corrections = table.corrections_in(position_text, names)
        state = g.load_position(state, position_text)
    with store.transaction():
        m = store.create_match(g.name, names, opts)
        if position_text is not None:
            store.append(m.id, "position", {"text": position_text})
            for data in corrections:  # the table's, as `referee adjust` records them
                store.append(m.id, "adjust", data)
        events = store.events(m.id)
    return Loaded(m, g, events, state)


def play(store: Store, text: str, player: str | None = None, dry: bool = False,
         match_id: int | None = None) -> Played:
    """Check a move and, unless dry or illegal, append it. Rejections are recorded (not dry),
    as referee/inputs.py `kept` decides: built from what the parser read, secrets left out.
    `match_id` picks a match other than the current one."""
    from referee import inputs

    text = typed(text)
    if not text:
        raise InvalidMove("empty move: type a move, e.g. `referee play 'pass'`", "referee play")
    if player is not None:  # a bad byte in --by is kept as \xNN like one in the move
        player = typed(inputs.printable(player))
    with nullcontext() if dry else store.transaction():  # a dry run takes no write lock
        cur = load(store, match_id)
        m, g, state = cur.match, cur.game, cur.state
        reading = inputs.read(g, m.players, state, text, player)
        ended = table.fold_table(cur.table_events).ending
        if ended is not None:  # typed all the same: kept, like any rejected attempt
            e = RefereeError(f"match {m.id} was ended ({cur.status()}) at event {ended.seq}: "
                             "`referee undo` takes the end back to play on")
            k = inputs.kept(g, state, text, reading, reason=str(e))
            if not dry:
                store.append(m.id, "rejected", _rejected(k, []))
            return Played(m, k.text, k.player, error=e, state=state)
        if reading.move is None:
            k = inputs.kept(g, state, text, reading)
            if not dry:
                store.append(m.id, "rejected", _rejected(k, []))
            error = reading.error  # its message as kept: no secret, at most 600 characters
            if k.reason != str(error):
                error = InvalidMove(k.reason)
            return Played(m, k.text, k.player, error=error, state=state)
        move = reading.move
        who = reading.who if reading.who is not None else g.mover(move)  # e.g. who opens
        verdict, after = g.judge(state, move)
        if not verdict.legal:
            reason = "; ".join(f"{v.rule.id}: {v.reason}" for v in verdict.violations)
            k = inputs.kept(g, state, text, reading._replace(who=who), reason=reason)
            if not dry:
                store.append(m.id, "rejected", _rejected(k, [v.rule.id for v in
                                                            verdict.violations]))
            shown = g.recorded(state, move, False, g.format(state, move))  # as the game writes it
            return Played(m, k.text, who, verdict=verdict, move=shown, state=state)
        canonical = inputs.kept(g, state, text, reading, legal=True).text
        event = None
        if not dry:
            event = store.append(m.id, "move", {"text": canonical, "player": who})
        return Played(m, canonical, who, verdict, canonical, event, state=after,
                      outcome=table.outcome(g, after, cur.table_events))


def typed(text: str) -> str:
    """Typed text as the rules read it: words one space apart, in NFC (nfc)."""
    return nfc(" ".join(text.split()))


def nfc(text: str) -> str:
    """Unicode NFC: a name or card typed with `é` or with `e` and a combining accent (which
    keyboards and phones send) is the same one."""
    import unicodedata

    return unicodedata.normalize("NFC", text)


def kept_text(store: Store, text: str, player: str | None = None) -> str:
    """What the record keeps of a typed move, as a rejected one (`referee shell` keeps the
    same in its history): referee/inputs.py `kept` decides, from what the parser read."""
    from referee import inputs

    text = typed(text)
    cur = load(store)
    g, state = cur.game, cur.state
    return inputs.kept(g, state, text, inputs.read(g, cur.match.players, state, text,
                                                   player)).text


def _rejected(k: Any, rules: list[str]) -> dict[str, Any]:
    return {"text": k.text, "player": k.player, "reason": k.reason, "rules": rules}


def ask(store: Store, text: str, match_id: int | None = None) -> tuple[Loaded, str]:
    """A game's answer to a question about the position (`referee ask`)."""
    from referee import inputs

    text = nfc(text)
    inputs.check(text, "question")
    cur = load(store, match_id)
    return cur, cur.game.query(cur.state, text)


class LogLine(NamedTuple):
    """One event of the log as people read it, with the points it scored."""

    seq: int
    kind: str
    player: str | None
    text: str
    at: str
    points: tuple[ScoreItem, ...] = ()
    retracted: bool = False
    set_aside: bool = False  # a rejected attempt dismissed by undo


def log(store: Store, match_id: int | None = None, last: int | None = None) -> list[LogLine]:
    """Every event in order, or the `last` N, as log lines (log_lines)."""
    _, g, folded = record.read(store, match_id)
    count = len(folded.log)
    return log_lines(g, folded, 1 if last is None else max(1, count - last + 1))


def log_lines(g: Game, folded: record.Folded, first: int) -> list[LogLine]:
    """Events `first`.. as log lines: moves carry the score items they added to the ledger
    (read from the final ledger by the ledger length after each event, which the fold keeps),
    adjustments the correction they made. Only these events are read: which were undone or set
    aside follows from the undo and redo events alone."""
    undone = engine.undos(folded.control)
    ledger = g.ledger(folded.state)
    marks = folded.marks
    lines: list[LogLine] = []
    for s in folded.log.span(first, len(folded.log)):
        e = s.event
        seq = e.seq
        items: tuple[ScoreItem, ...] = ()
        if e.kind == "move":
            items = tuple(added(ledger, marks, seq))
        elif e.kind == "adjust":
            items = (table.adjustment_item(e),)
        lines.append(LogLine(seq, e.kind, e.data.get("player"), describe(e), s.at,
                             items, seq in undone.gone, seq in undone.dismissed))
    return lines


def added(ledger: Sequence[ScoreItem], marks: Sequence[int], seq: int) -> Sequence[ScoreItem]:
    """The items event `seq` added to the game's ledger (marks: its length after each event)."""
    return ledger[marks[seq - 2] if seq > 1 else 0:marks[seq - 1]]


def describe(e: Event) -> str:
    """An event as the log reads it (and as undo and redo record what they took)."""
    d = e.data
    if e.kind == "new":
        opts = " ".join(f"{k}={v}" for k, v in sorted(d.get("options", {}).items()))
        return f"new {d.get('game', '')} players {','.join(d['players'])} {opts}".strip()
    if e.kind == "position":
        return "position set up:\n" + str(d["text"]).rstrip()
    if e.kind == "move":
        return str(d["text"])
    if e.kind == "undo" and "seq" not in d:
        return "undo: set aside rejected attempt(s) " + ", ".join(map(str, d["dismissed"]))
    if e.kind in ("undo", "redo"):
        return f"{e.kind} event {d['seq']} ({d.get('text', '')})"
    if e.kind == "adjust":
        return f"adjust {int(d['points']):+d}: {d.get('reason', '')}"
    if e.kind == "keep":
        return "kept: the match typed in from a position counts in standings, playtests and exports"
    if e.kind == "end":
        why = f": {d['reason']}" if d.get("reason") else ""
        if d.get("abandoned"):
            return f"end: abandoned{why}"
        return f"end: won by {', '.join(d.get('winners', ()))} (declared){why}"
    if e.kind == "rejected":
        return f"rejected {d['text']!r}: {d.get('reason', '')}"
    if e.kind == "note":
        from referee.note_text import describe

        return describe(d)
    return f"{e.kind} {d}"

