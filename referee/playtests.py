"""`referee playtests GAME`: what a game's real matches say, with the figures `simulate` prints.

Finished matches are turned into the simulation's own records (referee.simulate.GameRecord)
and summarised by its report (referee.report), so seat win rates carry the same 95 % Wilson
intervals and the spreads are the same percentiles. Matches of different table sizes are
reported apart (a seat's fair share depends on it). Beside them: plays (finished, abandoned,
in play), category averages, table corrections, notes grouped by card, and, when the game's
definition has a [balance] table, each target with the real figure and the simulation's.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from pnp_shared.csv_text import csv_text
from referee import registry, report, session, table
from referee.engine import RefereeError, ScoreItem
from referee.record import Match, Store
from referee.seats.clock import per_player, play_time, turns
from referee.simulate import GameRecord


def select(store: Store, game: str) -> tuple[str, list[Match]]:
    """The matches of GAME: a designer's game by name or folder, or a bundled game by name."""
    from pathlib import Path

    from referee.definitions import looks_like_path

    wanted = game.strip()
    if looks_like_path(wanted) or (Path(wanted) / "game.toml").is_file():
        from referee.components import scoring_table

        folder = Path(wanted).parent if wanted.endswith(".toml") else Path(wanted)
        found = scoring_table(folder) if (folder / "game.toml").is_file() else None
        if found is None:
            raise RefereeError(f"no game.toml with a [scoring] table in {str(folder)!r}",
                               "GAME")
        wanted = found[0]
    every = store.matches()
    names = list(dict.fromkeys(m.own_name for m in every))
    mine = [m for m in every if m.own_name == wanted]
    if not mine:
        try:  # a bundled game's name in another spelling (Tripple_Domino)
            wanted = registry.game(wanted).name
            mine = [m for m in every if m.own_name == wanted]
        except RefereeError:
            pass
    if not mine:
        import difflib

        close = difflib.get_close_matches(wanted, names, n=1, cutoff=0.6)
        hint = f": did you mean {close[0]}?" if close else ""
        raise RefereeError(f"no match of {wanted!r} yet (games played: "
                           f"{', '.join(names) or 'none'}){hint}", "GAME")
    return wanted, mine


def _record(index: int, cur: session.Loaded, winners: Sequence[str]) -> GameRecord:
    """A finished match as a simulated game's record (turns: runs of one player's moves)."""
    gone = table.undos(cur.table_events).gone
    movers = [e.data.get("player") for e in cur.events if e.kind == "move" and e.seq not in gone]
    turns = sum(1 for i, p in enumerate(movers) if p is not None and (i == 0 or movers[i - 1] != p))
    ledger = cur.ledger()
    totals = cur.totals()
    players = cur.match.players
    return GameRecord(index, cur.match.id, players,  # its "seed": the match it was
                      tuple(players.index(w) for w in winners), tuple(totals[p] for p in players),
                      turns, len(movers), max((i.round for i in ledger), default=1), 0)


def gather(store: Store, game: str) -> dict[str, Any]:
    """Every figure of the report, as plain data (what --json prints)."""
    name, matches = select(store, game)
    plays: list[dict[str, Any]] = []
    by_size: dict[int, list[GameRecord]] = {}
    categories: dict[str, list[int]] = {}
    notes: dict[str, list[dict[str, Any]]] = {}
    minutes: list[float] = []
    turn_seconds: list[float] = []
    player_seconds: dict[str, float] = {}
    adjustments = []
    finished_categories: list[dict[str, dict[str, int]]] = []  # per match: player -> label
    for m in matches:
        cur = session.load(store, m.id)
        outcome = cur.outcome()
        status = cur.status()
        finished = outcome is not None and status != "abandoned"
        gone = table.undos(cur.table_events).gone
        for e in cur.table_events:
            if e.kind == "note" and e.seq not in gone:
                entry = {"match": m.id, "text": e.data["text"], "player": e.data.get("player")}
                for card in e.data.get("cards") or [{"name": ""}]:
                    notes.setdefault(card["name"], []).append(entry)
        adjustments += [{"match": m.id, "player": i.player, "points": i.points,
                         "reason": i.label.removeprefix("adjusted: ")}
                        for _, i in table.fold_table(cur.table_events).adjustments]
        done = [t for t in turns(cur.stamped, m.players)[0] if t.player is not None]
        spent = per_player(done, m.players)
        played = play_time(cur.stamped, m.players)
        turn_seconds += [t.seconds for t in done]
        for who, seconds in spent.items():
            player_seconds[who] = player_seconds.get(who, 0.0) + seconds
        plays.append({"match": m.id, "created": m.created, "players": list(m.players),
                      "time": {"on_turn": spent, "turns": len(done),
                               "seconds": sum(spent.values()), "play": played},
                      "status": status, "totals": cur.totals(),
                      "winners": list(outcome.winners) if finished else None,
                      "categories": _by_category(cur.game.ledger(cur.state), m.players)})
        if not finished:
            continue
        minutes.append(played / 60)
        by_size.setdefault(len(m.players), []).append(
            _record(len(plays), cur, outcome.winners))
        finished_categories.append(plays[-1]["categories"])
    sheet = [c for m in matches for c in m.options.get("categories", "").split(",") if c]
    labels = list(dict.fromkeys([*sheet, *(c for per in finished_categories
                                           for row in per.values() for c in row)]))
    for per in finished_categories:  # a category a player scored nothing in counts as 0
        for row in per.values():
            for c in labels:
                categories.setdefault(c, []).append(row.get(c, 0))
    finished = [p for p in plays if p["winners"] is not None]
    sizes = []
    for n, records in sorted(by_size.items()):
        s = report.summarise(records, name, "real play", 0, {})
        sizes.append({"players": n, **{k: s[k] for k in (
            "games", "seats", "first_seat", "scores", "winning_scores", "turns", "moves",
            "rounds")}})
    return {
        "game": name, "matches": len(plays),
        "finished": sum(p["winners"] is not None for p in plays),
        "abandoned": sum(p["status"] == "abandoned" for p in plays),
        "in_play": sum(p["status"] == "in play" for p in plays),
        "by_players": sizes,
        "minutes": report.spread(minutes) if minutes else None,
        "turn_seconds": report.spread(turn_seconds) if turn_seconds else None,
        "player_seconds": player_seconds,
        "categories": {c: statistics.fmean(v) for c, v in categories.items()},
        "players": _per_player(finished, labels),
        "adjustments": adjustments,
        "notes": [{"card": card or None, "notes": found}
                  for card, found in sorted(notes.items(), key=lambda kv: (not kv[0], kv[0]))],
        "plays": plays,
        "balance": _balance(matches, sizes),
    }


def _per_player(finished: Sequence[dict[str, Any]], labels: Sequence[str]) -> list[dict[str, Any]]:
    """Each player by name over the finished matches they played: wins with the 95 % Wilson
    interval, and their average in each category (a category not scored in counts as 0). The
    pooled averages hide who scores what; a designer asks whether one player's style wins."""
    rows: dict[str, dict[str, Any]] = {}
    for play in finished:
        for who in play["players"]:
            r = rows.setdefault(who, {"games": 0, "wins": 0, "points": dict.fromkeys(labels, 0)})
            r["games"] += 1
            r["wins"] += who in play["winners"]
            for c in labels:
                r["points"][c] += play["categories"][who].get(c, 0)
    out = []
    for who, r in rows.items():
        n, wins = r["games"], r["wins"]
        out.append({"player": who, "games": n, "wins": wins, "rate": wins / n,
                    "ci95": list(report.wilson(wins, n)),
                    "categories": {c: v / n for c, v in r["points"].items()}})
    return out


def _by_category(ledger: Sequence[ScoreItem], players: Sequence[str]) -> dict[str, dict]:
    """Each player's points by ledger label (a scorepad's labels are its categories)."""
    out: dict[str, dict[str, int]] = {p: {} for p in players}
    for i in ledger:
        out[i.player][i.label] = out[i.player].get(i.label, 0) + i.points
    return out


def _balance(matches: Sequence[Match], sizes: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The [balance] targets of the game's definition: real play beside the simulation."""
    folder = next((m.options["definition"] for m in reversed(matches)
                   if m.options.get("definition")), None)
    if folder is None:
        return None
    from pnp_shared.errors import UserError
    from referee.components import balance_of

    try:
        found = balance_of(folder)
    except UserError as e:  # the definition has a mistake now (or moved): say so, keep the rest
        return {"error": f"cannot read {folder}: {e}"}
    if found is None:
        return None
    settings, targets, figure = found
    real = next((s for s in sizes if s["players"] == settings["players"]), None)
    simulated = _simulate(settings, folder)
    rows = []
    for key, want, what, rate in targets:
        rows.append({"target": key, "want": want, "what": what, "rate": rate,
                     "real": _figure(figure, real, key),
                     "simulated": _figure(figure, simulated, key)
                     if isinstance(simulated, dict) and "error" not in simulated else None})
    return {"players": settings["players"], "real_games": real["games"] if real else 0,
            "simulation": simulated if isinstance(simulated, dict) and "error" in simulated
            else {k: settings[k] for k in ("game", "games", "bot", "seed")},
            "targets": rows}


def _figure(figure: Any, summary: dict[str, Any] | None, key: str) -> float | None:
    if summary is None:
        return None
    try:
        return figure(summary, key)
    except (KeyError, TypeError):
        return None  # not measured at the table (e.g. rounds with no winner)


def _simulate(settings: dict[str, Any], folder: str) -> dict[str, Any]:
    """The simulation [balance] asks for, dealt from the definition folder."""
    from referee import simulate
    from referee.components import deal_from

    try:
        plan = simulate.plan(settings["game"], settings["players"], settings["games"],
                             settings["bot"], settings["seed"], settings["options"],
                             max_rounds=settings["max_rounds"], deck=folder)
        records = simulate.run_with_progress(plan, settings["games"])
    except RefereeError as e:
        return {"error": str(e)}
    finally:
        deal_from(None)
    return report.summarise(records, plan.game, settings["bot"], settings["seed"],
                            dict(plan.options))


# as text and CSV


def _line(label: str, d: dict[str, float]) -> str:
    return (f"  {label:<15} mean {d['mean']:>6.1f}  sd {d['sd']:>5.1f}  min {d['min']:>6.1f}"
            f"  median {d['p50']:>6.1f}  max {d['max']:>6.1f}")


def text(s: dict[str, Any]) -> str:
    pct = report.pct
    out = [f"{s['game']}: {s['matches']} match(es): {s['finished']} finished, "
           f"{s['abandoned']} abandoned, {s['in_play']} in play"]
    for size in s["by_players"]:
        f = size["first_seat"]
        lo, hi = f["ci95"]
        out += ["", f"with {size['players']} players: {size['games']} finished game(s)",
                f"  first seat wins {pct(f['rate'])} (95% CI {pct(lo)}-{pct(hi)}); an even "
                f"game gives {pct(f['fair'])}"
                + ("; too few games to tell" if size["games"] < 30 else ""),
                "  seat  wins   rate    95% CI         score mean"]
        for r in size["seats"]:
            lo, hi = r["ci95"]
            out.append(f"  {r['seat']:>4}  {r['wins']:>4}  {pct(r['rate']):>6}  "
                       f"{pct(lo):>6}-{pct(hi):<6}  {r['score']['mean']:>10.1f}")
        out += [_line("score", size["scores"]), _line("winning score", size["winning_scores"]),
                _line("moves", size["moves"]), _line("rounds", size["rounds"])]
    if s["minutes"]:
        out.append(_line("minutes", s["minutes"]))
    if s["turn_seconds"]:
        from referee.seats.clock import span

        out += [_line("seconds a turn", s["turn_seconds"]),
                "  time on turn, all matches: " + ", ".join(
                    f"{p} {span(v)}" for p, v in s["player_seconds"].items())]
    if s["players"]:
        out += ["", *_players_table(s["players"], s["categories"])]
    if s["adjustments"]:
        out += ["", f"score corrections: {len(s['adjustments'])}"]
        out += [f"  match {a['match']}: {a['player']} {a['points']:+d} ({a['reason']})"
                for a in s["adjustments"]]
    if s["notes"]:
        out += ["", "notes:"]
        for group in s["notes"]:
            out.append(f"  {group['card'] or '(no card)'}: {len(group['notes'])}")
            out += [f"    match {n['match']}: {n['text']}" for n in group["notes"]]
    b = s["balance"]
    if b:
        out += ["", "balance ([balance] of game.toml):"]
        if "error" in b:
            out.append(f"  {b['error']}")
        else:
            sim = b["simulation"]
            if "error" in sim:
                out.append(f"  simulation: {sim['error']}")
            else:
                out.append(f"  simulation: {sim['games']} games of {sim['game']}, "
                           f"{b['players']} players, {sim['bot']} bot, seed {sim['seed']}; "
                           f"real play: {b['real_games']} game(s) with {b['players']} players")
            for t in b["targets"]:
                def shown(v, rate=t["rate"]):
                    return "-" if v is None else pct(v) if rate else f"{v:g}"
                out.append(f"  {t['what']:<40} target {t['want']:<10} real {shown(t['real']):>7}"
                           f"  simulated {shown(t['simulated']):>7}")
    return "\n".join(out)


def _players_table(players: Sequence[dict[str, Any]], pooled: dict[str, float]) -> list[str]:
    """Wins and category averages per player, then every player pooled."""
    pct = report.pct
    width = max(11, *(len(p["player"]) for p in players))
    cats = list(pooled)
    cols = [max(6, len(c)) for c in cats]
    head = "".join(f"  {c:>{w}}" for c, w in zip(cats, cols, strict=True))
    out = ["per player, in finished games (category averages before score corrections):",
           f"  {'player':<{width}}  games  wins    rate  95% CI       {head}"]
    for p in players:
        lo, hi = p["ci95"]
        avg = "".join(f"  {p['categories'][c]:>{w}.1f}" for c, w in zip(cats, cols, strict=True))
        out.append(f"  {p['player']:<{width}}  {p['games']:>5}  {p['wins']:>4}  "
                   f"{pct(p['rate']):>6}  {pct(lo) + '-' + pct(hi):<13}{avg}")
    if pooled:
        avg = "".join(f"  {pooled[c]:>{w}.1f}" for c, w in zip(cats, cols, strict=True))
        out.append(f"  {'all players':<{width}}  {'':>5}  {'':>4}  {'':>6}  {'':<13}{avg}")
    return out


def rows_csv(s: dict[str, Any]) -> str:
    """One row per player of each match: for a spreadsheet. Times in seconds: the match's
    play time and this player's time on turn, as the table's clock reads the record."""
    cats = list(s["categories"]) or sorted({c for p in s["plays"]
                                            for per in p["categories"].values() for c in per})
    rows = [["game", "match", "created", "status", "players", "seat", "player", "total",
             "won", "play_seconds", "player_seconds", *cats]]
    for p in s["plays"]:
        for seat, who in enumerate(p["players"], start=1):
            won = "" if p["winners"] is None else int(who in p["winners"])
            rows.append([s["game"], p["match"], p["created"], p["status"], len(p["players"]),
                         seat, who, p["totals"][who], won, round(p["time"]["play"], 1),
                         round(p["time"]["on_turn"][who], 1),
                         *(p["categories"][who].get(c, 0) for c in cats)])
    return csv_text(rows)  # every text cell guarded against formulas (pnp_shared/csv_text.py)
