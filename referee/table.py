"""What the table decides beside the rules: score corrections and ending a match early.

Both are events of the match's log ("adjust", "end"), folded like moves (undo and redo take
them back and put them back), but they never enter the game's own state: the rules keep
judging the position as played, while every total the referee reports (score, log, matches,
standings, exports) includes the corrections, and a match ended early is over whatever the
rules would say. What `undo` takes back is decided here too (`to_undo`). Nothing here knows
any particular game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from pnp_shared.limits import MAX_POINT_DIGITS
from referee.engine import (
    TAKE_BACK,
    Event,
    Game,
    Outcome,
    RefereeError,
    ScoreItem,
    find_player,
    undos,
)


class Ending(NamedTuple):
    """An early end: abandoned (nobody wins) or a result the table declared."""

    seq: int
    abandoned: bool
    winners: tuple[str, ...]
    reason: str

    def outcome(self) -> Outcome:
        if self.abandoned:
            return Outcome((), "abandoned" + (f": {self.reason}" if self.reason else ""))
        why = "declared by the table" + (f": {self.reason}" if self.reason else "")
        return Outcome(self.winners, why)


class Table(NamedTuple):
    """The table's entries in force: adjustments (as score items) and the early end, if any."""

    adjustments: tuple[tuple[int, ScoreItem], ...] = ()  # (event seq, item)
    ending: Ending | None = None


def fold_table(events: Sequence[Event]) -> Table:
    """The adjustments and early end still in force (not taken back by undo)."""
    gone = undos(events).gone
    adjustments: list[tuple[int, ScoreItem]] = []
    ending = None
    for e in events:
        if e.seq in gone:
            continue
        if e.kind == "adjust":
            adjustments.append((e.seq, adjustment_item(e)))
        elif e.kind == "end":
            ending = Ending(e.seq, bool(e.data.get("abandoned")),
                            tuple(e.data.get("winners", ())), str(e.data.get("reason", "")))
    return Table(tuple(adjustments), ending)


def to_undo(events: Sequence[Event], over: bool = False,
            entries: Sequence[Event] | None = None) -> tuple[Event | None, list[Event]]:
    """What `undo` takes back: the latest entry in force (a move, an adjustment, an early end),
    or, when rejected attempts came after it, those attempts instead. A rejected attempt is
    not a move (it changed nothing), so undoing it must not take back the move before it:
    it is only set aside, and the next undo takes back that move. Once the game is `over`,
    attempts could never have been moves, and undo takes back the entry that ended it."""
    u = undos(events if entries is None else entries)  # undo/redo events suffice
    attempts: list[Event] = []
    for e in reversed(events):
        if e.kind == "rejected" and e.seq not in u.dismissed and not over:
            attempts.append(e)
        elif e.kind in TAKE_BACK and e.seq not in u.gone:
            return (None if attempts else e), attempts[::-1]
    return None, attempts[::-1]


def redoable(events: Sequence[Event], entries: Sequence[Event]) -> tuple[int, ...]:
    """What redo can put back, the next one last (`undos(events).redoable`), reading only the
    end of the log: a new entry (move, adjustment, end) empties the redo list, so only the
    undo and redo events after the latest entry count. `entries` holds every event but the
    moves and rejected attempts (the undo and redo events among them)."""
    latest = next((e.seq for e in reversed(events) if e.kind in TAKE_BACK), 0)
    return undos([e for e in entries if e.seq > latest]).redoable


def adjustment_item(e: Event) -> ScoreItem:
    """The score item an "adjust" event adds."""
    return ScoreItem(str(e.data["player"]), int(e.data["points"]),
                     f"adjusted: {e.data.get('reason', '')}", int(e.data.get("round", 1)))


CORRECTION = "adjust"  # the first word of a correction's line in a position


def position_lines(events: Sequence[Event]) -> str:
    """The corrections in force as lines of a position, after the game's own: `adjust ROUND
    PLAYER POINTS REASON`. `referee new --position` records them again as corrections, so a
    match rebuilt from `referee position` has the same totals (they used to be left out)."""
    items = table_items(events)
    if not items:
        return ""
    return ("# the table's corrections (referee adjust): adjust ROUND PLAYER POINTS REASON\n"
            + "".join(f"{CORRECTION} {i.round} {i.player} {i.points:+d} "
                      f"{i.label.removeprefix('adjusted: ')}\n" for i in items))


def corrections_in(text: str, players: Sequence[str]) -> tuple[str, list[dict[str, Any]]]:
    """A position without its correction lines (left blank, so the game's errors still name
    the right line), and the data of each correction's "adjust" event, checked as `referee
    adjust` checks it. In a match with a player named `adjust`, the lines are the game's."""
    if any(p.lower() == CORRECTION for p in players):
        return text, []
    lines = text.splitlines()
    found = []
    for n, line in enumerate(lines, start=1):
        words = line.split(None, 4)
        if not words or words[0].lower() != CORRECTION:
            continue
        try:
            if len(words) < 5:
                raise RefereeError("a correction is adjust ROUND PLAYER POINTS REASON")
            if not words[1].isdecimal() or not words[1].isascii() or int(words[1]) < 1:
                raise RefereeError(f"the round is a whole number from 1, not {words[1]!r}")
            found.append(adjustment(players, words[2], words[3], words[4], int(words[1])))
        except RefereeError as e:
            raise RefereeError(f"cannot read {line.strip()!r}: {e.what}",
                               f"position line {n}") from None
        lines[n - 1] = ""
    return "\n".join(lines) + "\n", found


def table_items(events: Sequence[Event]) -> tuple[ScoreItem, ...]:
    """The table's corrections in force, as score items (they follow the game's ledger)."""
    return tuple(i for _, i in fold_table(events).adjustments)


def ledger(game: Game, state: Any, events: Sequence[Event]) -> tuple[ScoreItem, ...]:
    """The game's ledger followed by the table's corrections; a SummedLedger when the game's
    is one (SummedLedger + items keeps the sums: totals need not add up 24,000 items again)."""
    own = game.ledger(state)
    return (own if isinstance(own, tuple) else tuple(own)) + table_items(events)


def outcome(game: Game, state: Any, events: Sequence[Event]) -> Outcome | None:
    """The one winner of a match, read by every command and page: the early end when the
    table ended the match, else what the rules say of the position as played (`state`, the
    game's own) with the table's corrections in its totals. An adjustment is a correction, so
    it can change who won; deciding this anywhere else once printed two winners for one match.
    """
    found = fold_table(events)
    if found.ending is not None:
        return found.ending.outcome()
    items = tuple(i for _, i in found.adjustments)
    return game.outcome(game.with_corrections(state, items) if items else state)


def places(result: Outcome | None, totals: Mapping[str, int], lowest_wins: bool = False
           ) -> dict[str, int]:
    """Each player's place (1 = first): the winners `outcome` names first, whatever their
    totals (a declared winner, Coda's last player with hidden tiles), then the others by
    total; equal totals share a place and the next total takes the next one (1, 2, 2, 3).
    Ranked on totals alone, an export once put the winner second. With no winner (in play,
    abandoned) the totals alone decide."""
    winners = set(result.winners) if result is not None else set()
    rest = sorted({t for p, t in totals.items() if p not in winners}, reverse=not lowest_wins)
    first = 2 if winners else 1
    return {p: 1 if p in winners else first + rest.index(t) for p, t in totals.items()}


def winner_change(before: Outcome | None, after: Outcome | None) -> str | None:
    """What a table entry (an adjustment, its undo or redo) did to a finished match's result:
    `the winner is now bob — highest total 16 (was ana)`; None when the winners stayed or the
    match is not over. Said at once, so nobody reads a changed result later as a mistake."""
    if before is None or after is None or set(before.winners) == set(after.winners):
        return None
    verb = "winners are" if len(after.winners) > 1 else "winner is"
    return (f"the {verb} now {', '.join(after.winners) or 'nobody'} — {after.reason} "
            f"(was {', '.join(before.winners) or 'nobody'})")


def status(game: Game, state: Any, events: Sequence[Event]) -> str:
    """One phrase for lists of matches: in play, won by ..., abandoned (`state` as played)."""
    ending = fold_table(events).ending
    if ending is not None and ending.abandoned:
        return "abandoned"
    result = outcome(game, state, events)
    if result is None:
        return "in play"
    return f"won by {', '.join(result.winners)}" + (" (declared)" if ending else "")


def scratch(events: Sequence[Event]) -> bool:
    """A match typed in from a position (to settle a dispute) is scratch: it stays out of
    standings and exports until the table keeps it (a "keep" event, `referee keep`)."""
    kinds = {e.kind for e in events}
    return "position" in kinds and "keep" not in kinds


def adjustment(players: Sequence[str], player: str, points: str, reason: str,
               round_now: int) -> dict[str, Any]:
    """The data of an "adjust" event, checked: a player of the match, a signed whole number
    other than 0, a reason."""
    who = find_player(players, player, "PLAYER", RefereeError)
    text = points.strip()
    number_within_limits(text, "POINTS")
    reason = reason_within_limits(reason)
    try:
        value = int(text)
    except ValueError:
        raise RefereeError(f"a score correction is a whole number such as +5 or -3, not {text!r}",
                           "POINTS") from None
    if value == 0:
        raise RefereeError("a correction of 0 points changes nothing", "POINTS")
    if len(str(abs(value))) > MAX_POINT_DIGITS:  # as `play` takes points: no score is larger
        top = 10 ** MAX_POINT_DIGITS - 1
        raise RefereeError(f"a correction has at most {MAX_POINT_DIGITS} digits (up to "
                           f"{top:,}), not the {len(str(abs(value)))} of "
                           + (text if len(text) <= 12 else f"{text[:12]}..."), "POINTS")
    if not reason.strip():
        raise RefereeError("say why the score is corrected", "--reason")
    return {"player": who, "points": value, "reason": " ".join(reason.split()),
            "round": round_now}


def number_within_limits(text: str, where: str) -> None:
    """Score points are written in 0-9 and are not longer than any score."""
    from pnp_shared.digits import digit_name, foreign_digit
    from pnp_shared.limits import MAX_DIGITS

    ch = foreign_digit(text)
    if ch is not None:
        raise RefereeError(f"write the points with the digits 0-9, not {digit_name(ch)}", where)
    if sum(c.isdigit() for c in text) > MAX_DIGITS:
        raise RefereeError(f"a correction of {len(text):,} characters: no score has more than "
                           f"{MAX_DIGITS} digits", where)


def reason_within_limits(reason: str) -> str:
    """The reason as stored: bytes that were not UTF-8 as \\xNN (kept, not refused), at most
    MAX_REASON_CHARS characters."""
    from pnp_shared.limits import MAX_REASON_CHARS
    from referee.inputs import printable

    if len(reason) > MAX_REASON_CHARS:
        raise RefereeError(f"the reason is {len(reason):,} characters long: at most "
                           f"{MAX_REASON_CHARS}", "--reason")
    return printable(reason)


def ending(players: Sequence[str], abandoned: bool, winners: Sequence[str],
           reason: str) -> dict[str, Any]:
    """The data of an "end" event, checked: abandoned, or the declared winner(s) by name."""
    if abandoned == bool(winners):
        raise RefereeError("end a match either --abandoned or with --winner NAME (a shared win: "
                           "--winner ana,bob)", "referee end")
    names = tuple(dict.fromkeys(find_player(players, w, "--winner", RefereeError)
                                for w in winners))
    reason = reason_within_limits(reason)
    return {"abandoned": abandoned, "winners": list(names), "reason": " ".join(reason.split())}
