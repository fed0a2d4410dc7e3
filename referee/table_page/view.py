"""What the table page shows of a match, as plain data: players and one total each, whose
turn, the last verdict with its rule and reason, the round ledger, the board as a picture.

Why a module of its own without the web server: the page, its JSON and its event stream are
all made from this one dict, so what one of them carries the others carry too, and the check
that no secret gets out looks at one place. Everything here is read through `session.load`,
as `referee show` reads it; move texts pass through the game's `redact` (an `unseal` keeps
its passphrase in the log, the page never shows it).
"""

from __future__ import annotations

from typing import Any

from referee import engine, session
from referee.engine import ScoreItem
from referee.seats.clock import clock_view

ROUNDS_SHOWN = 30  # rounds listed in the ledger: a screenful on a phone
ITEMS_SHOWN = 40  # lines of the latest round itemised


def total_texts(cur: session.Loaded) -> dict[str, tuple[int, str]]:
    """Each player's one total, corrections included, and how to read it: "27 (22 + 5
    adjusted)", as every other view writes it (referee/scoreboard.py)."""
    return {player: (t.total, str(t)) for player, t in cur.scores().items()}


def table_view(cur: session.Loaded) -> dict[str, Any]:
    """The page's data for a loaded match (public information only)."""
    g, m, state = cur.game, cur.match, cur.state
    outcome = cur.outcome()
    to_move = None if outcome is not None else g.to_move(state)
    totals = total_texts(cur)
    ledger = cur.ledger()
    return {
        "match": m.id,
        "game": g.name,
        "title": g.title or g.name,
        "event": cur.events[-1].seq,
        "status": cur.status(),
        "to_move": to_move,
        "players": [{"name": p, "total": totals[p][0], "total_text": totals[p][1],
                     "to_move": p == to_move} for p in m.players],
        "outcome": {"winners": list(outcome.winners), "reason": outcome.reason}
        if outcome else None,
        "scratch": cur.scratch(),
        "pending": list(g.pending(state)) if outcome is None else [],
        "verdict": last_verdict(cur),
        "rounds": rounds(ledger, m.players),
        "clock": clock_view(cur.stamped, m.players, to_move),
        "picture": g.picture(state),
        "text": g.show(cur.scored()),  # as `referee show` draws it: corrected totals, one winner
    }


def real_match(store, scratch_id: int) -> int | None:
    """The match a scratch match was typed in beside: the latest earlier match that counts
    (the table goes back to it once the dispute is settled)."""
    from referee import record

    found = [x.match.id for x in record.summaries_of(store)
             if x.match.id < scratch_id and not x.scratch and not x.error]
    return max(found, default=None)


def last_verdict(cur: session.Loaded) -> dict[str, Any] | None:
    """The latest move or rejected attempt: who, what (secrets withheld), legal or the rules
    it broke with the reason, the points it scored; None before the first one."""
    g = cur.game
    undone = engine.undos(cur.table_events)
    for e in reversed(cur.events):
        if e.kind == "adjust":  # the table's own ruling is the latest: not the move before it
            return adjustment(e, e.seq in undone.gone)
        if e.kind not in ("move", "rejected"):
            continue
        d = e.data
        who, move = d.get("player"), g.redact(str(d.get("text", "")))
        if who and move.startswith(f"{who}:"):  # real-time moves name their player: once
            move = move[len(who) + 1:].strip()
        out: dict[str, Any] = {"event": e.seq, "player": who, "move": move,
                               "legal": e.kind == "move",
                               "undone": e.seq in undone.gone or e.seq in undone.dismissed}
        if e.kind == "rejected":
            ids = [str(r) for r in d.get("rules", ())]
            out["rules"] = [{"id": i, "text": g.rules[i].text if i in g.rules else ""}
                            for i in ids]
            out["reason"] = str(d.get("reason", ""))
            out["points"] = []
        else:
            items = session.added(g.ledger(cur.state), cur.marks, e.seq) if cur.marks else ()
            out["points"] = [_item(i) for i in items]
        return out
    return None


def adjustment(e: engine.Event, undone: bool) -> dict[str, Any]:
    """A score correction as the last ruling: who, how many points, why."""
    d = e.data
    return {"event": e.seq, "adjust": True, "player": str(d.get("player", "")),
            "points": int(d.get("points", 0)), "reason": str(d.get("reason", "")),
            "legal": True, "undone": undone, "rules": []}


def rounds(ledger: tuple[ScoreItem, ...], players: tuple[str, ...]) -> list[dict[str, Any]]:
    """Each round's points per player (the latest ROUNDS_SHOWN rounds), the latest itemised."""
    by_round = engine.by_round(ledger)
    shown = list(by_round)[-ROUNDS_SHOWN:]
    out = []
    for r in shown:
        items = by_round[r]
        out.append({"round": r, "points": engine.totals(items, players),
                    "items": [_item(i) for i in items[-ITEMS_SHOWN:]] if r == shown[-1] else []})
    return out


def _item(i: ScoreItem) -> dict[str, Any]:
    return {"player": i.player, "points": i.points, "label": i.label, "round": i.round}
