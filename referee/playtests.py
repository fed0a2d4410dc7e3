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

from pnp_shared.columns import left, widest
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
    from referee.card_rates import played_in_match

    gone = table.undos(cur.table_events).gone
    movers = [e.data.get("player") for e in cur.events if e.kind == "move" and e.seq not in gone]
    turns = sum(1 for i, p in enumerate(movers) if p is not None and (i == 0 or movers[i - 1] != p))
    ledger = cur.ledger()
    totals = cur.totals()
    players = cur.match.players
    return GameRecord(index, cur.match.id, players,  # its "seed": the match it was
                      tuple(players.index(w) for w in winners), tuple(totals[p] for p in players),
                      turns, len(movers), max((i.round for i in ledger), default=1), 0,
                      played_by=played_in_match(cur.game, cur.events, players))


def gather(store: Store, game: str, simulate: int = 0) -> dict[str, Any]:
    """Every figure of the report, as plain data (what --json prints); with `simulate`, that
    many greedy games of each table size beside the real ones, card by card."""
    name, found_matches = select(store, game)
    matches: list[Match] = []  # those counted: a scratch match (a dispute's) is not, unkept
    scratch: list[int] = []
    plays: list[dict[str, Any]] = []
    by_size: dict[int, list[GameRecord]] = {}
    categories: dict[str, list[int]] = {}
    notes: dict[str, list[dict[str, Any]]] = {}
    minutes: list[float] = []
    turn_seconds: list[float] = []
    player_seconds: dict[str, float] = {}
    adjustments = []
    finished_categories: list[dict[str, dict[str, int]]] = []  # per match: player -> label
    played: list[tuple[GameRecord, Match]] = []  # each finished match's record
    for m in found_matches:
        cur = session.load(store, m.id)
        if cur.scratch():
            scratch.append(m.id)
            continue
        matches.append(m)
        outcome = cur.outcome()
        status = cur.status()
        finished = outcome is not None and status != "abandoned"
        gone = table.undos(cur.table_events).gone
        stamps = {x.event.seq: x.at for x in cur.stamped}
        for e in cur.table_events:
            if e.kind == "note" and e.seq not in gone:
                for card in e.data.get("cards") or [{"name": ""}]:
                    entry = {"match": m.id, "text": e.data["text"], "player": e.data.get("player")}
                    notes.setdefault(card["name"], []).append(
                        {**entry, **_noted(card, e.data.get("deck"), stamps.get(e.seq, ""))})
        adjustments += [{"match": m.id, "player": i.player, "points": i.points,
                         "reason": i.label.removeprefix("adjusted: ")}
                        for _, i in table.fold_table(cur.table_events).adjustments]
        done = [t for t in turns(cur.stamped, m.players)[0] if t.player is not None]
        spent = per_player(done, m.players)
        play_seconds = play_time(cur.stamped, m.players)
        turn_seconds += [t.seconds for t in done]
        for who, seconds in spent.items():
            player_seconds[who] = player_seconds.get(who, 0.0) + seconds
        plays.append({"match": m.id, "created": m.created, "players": list(m.players),
                      "time": {"on_turn": spent, "turns": len(done),
                               "seconds": sum(spent.values()), "play": play_seconds},
                      "status": status, "totals": cur.totals(),
                      "winners": list(outcome.winners) if finished else None,
                      "categories": _by_category(cur.game, cur.game.ledger(cur.state),
                                                 m.players)})
        if not finished:
            continue
        minutes.append(play_seconds / 60)
        by_size.setdefault(len(m.players), []).append(_record(len(plays), cur, outcome.winners))
        played.append((by_size[len(m.players)][-1], m))
        finished_categories.append(plays[-1]["categories"])
    sheet = [c for m in matches for c in m.options.get("categories", "").split(",") if c]
    labels = list(dict.fromkeys([*sheet, *(c for per in finished_categories
                                           for row in per.values() for c in row)]))
    for per in finished_categories:  # a category a player scored nothing in counts as 0
        for row in per.values():
            for c in labels:
                categories.setdefault(c, []).append(row.get(c, 0))
    finished = [p for p in plays if p["winners"] is not None]
    found = _versions(notes, registry.game(found_matches[0].game))
    for r, m in played:
        _by_version(r, m, found, notes)
    sizes = []
    for n, records in sorted(by_size.items()):
        s = report.summarise(records, name, "real play", 0, {})
        sizes.append({"players": n, **{k: s[k] for k in (
            "games", "seats", "first_seat", "scores", "winning_scores", "turns", "moves",
            "rounds", "card_win_rates")}})
        if simulate and sizes[-1]["card_win_rates"]:
            sizes[-1]["simulated_card_win_rates"] = _simulated_cards(
                name, n, simulate, [m for m in matches if len(m.players) == n])
    return {
        "game": name, "matches": len(plays),
        "finished": sum(p["winners"] is not None for p in plays),
        "abandoned": sum(p["status"] == "abandoned" for p in plays),
        "in_play": sum(p["status"] == "in play" for p in plays),
        "scratch_left_out": scratch,
        "by_players": sizes,
        "minutes": report.spread(minutes) if minutes else None,
        "turn_seconds": report.spread(turn_seconds) if turn_seconds else None,
        "player_seconds": player_seconds,
        "categories": {c: statistics.fmean(v) for c, v in categories.items()},
        "players": _per_player(finished, labels),
        "adjustments": adjustments,
        "notes": [{"card": card or None, "notes": kept,
                   **({"versions": found[card]} if found.get(card) else {})}
                  for card, kept in sorted(notes.items(), key=lambda kv: (not kv[0], kv[0]))],
        "plays": plays,
        "balance": _balance(matches, sizes),
    }


def _noted(card: Any, deck: Any, at: str) -> dict[str, Any]:
    """The card's version a note kept (referee note --card): its digest and fields, checked
    as read, since the row is the database's word; {} for a note that kept none."""
    fields = card.get("fields") if isinstance(card, dict) else None
    if not (isinstance(fields, dict) and isinstance(card.get("digest"), str)
            and isinstance(deck, str)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in fields.items())):
        return {}
    return {"digest": card["digest"], "fields": fields, "at": at, "deck": deck}


def _versions(notes: dict[str, list[dict[str, Any]]], rules: Any
              ) -> dict[str, list[dict[str, Any]]]:
    """Per card, the versions its notes saw against the card as its definition has it now,
    named as the game names it (referee/notes.py: named_cards); each note is told its version."""
    from pnp_shared.errors import UserError
    from referee import card_versions
    from referee.notes import named_cards

    decks: dict[str, dict[str, dict[str, str]]] = {}
    out: dict[str, list[dict[str, Any]]] = {}
    for card, kept in notes.items():
        noted = sorted((n for n in kept if "digest" in n), key=lambda n: n["at"])
        if not noted:
            continue
        deck = noted[-1]["deck"]
        if deck not in decks:
            try:
                decks[deck] = {name: f for _, name, _, f in reversed(named_cards(rules, deck))}
            except UserError:  # the definition moved or has a mistake now: versions still show
                decks[deck] = {}
        out[card] = card_versions.versions(card, noted, decks[deck].get(card))
        number = {v["digest"]: v["version"] for v in out[card]}
        for n in kept:
            if "digest" in n:
                n["version"] = number[n["digest"]]
    return out


def _by_version(record: GameRecord, match: Match, found: dict[str, list[dict[str, Any]]],
                notes: dict[str, list[dict[str, Any]]]) -> None:
    """A card with more than one version, or edited since, counts under the version the
    match played (referee/card_versions.py: in_force): `Scout v1`, `Scout v2`."""
    from referee.card_versions import in_force

    for card in list(record.played_by):
        seen = found.get(card)
        if not seen or (len(seen) == 1 and seen[0]["current"]):
            continue
        own = next((n["digest"] for n in notes[card]
                    if n["match"] == match.id and "digest" in n), None)
        version = in_force(seen, match.created, own)
        record.played_by[f"{card} v{version}"] = record.played_by.pop(card)


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


def _by_category(rules: Any, ledger: Sequence[ScoreItem], players: Sequence[str]
                 ) -> dict[str, dict]:
    """Each player's points by kind of score item, as the game names them (Rules.score_kind:
    a scorepad's labels are its categories; a label naming the very tile would make a column
    of each move)."""
    out: dict[str, dict[str, int]] = {p: {} for p in players}
    for i in ledger:
        kind = rules.score_kind(i)
        out[i.player][kind] = out[i.player].get(kind, 0) + i.points
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
    ran = isinstance(simulated, dict) and "error" not in simulated
    return {"players": settings["players"], "real_games": real["games"] if real else 0,
            "simulation": {k: settings[k] for k in ("game", "games", "bot", "seed")} if ran
            else simulated, "targets": rows,
            "card_win_rates": simulated["card_win_rates"] if ran else []}


def _simulated_cards(game: str, players: int, games: int, matches: Sequence[Match]
                     ) -> list[dict[str, Any]]:
    """The per-card table of `games` greedy games at this table size, with the options of
    the last match played at it (seed 0: the same figures every time)."""
    from referee import card_rates, simulate
    from referee.engine import check_options

    rules = registry.game(game)
    known = {o.name for o in rules.options}
    options = {k: v for k, v in matches[-1].options.items() if k in known}
    plan = simulate.plan(game, players, games, "greedy", 0, check_options(rules, options))
    return card_rates.rates(simulate.run_with_progress(plan, games))


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
    if s["scratch_left_out"]:
        ids = ", ".join(map(str, s["scratch_left_out"]))
        out.append(f"left out: scratch match(es) {ids}, typed in from a position to settle a "
                   "dispute (`referee keep --match N` counts one)")
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
        b = s["balance"]
        beside = size.get("simulated_card_win_rates") or (
            b.get("card_win_rates") if b and b.get("players") == size["players"] else None)
        out += _cards_table(size["card_win_rates"], beside)
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
            out += [f"    match {n['match']}: {n['text']}" for n in group["notes"]
                    if "version" not in n]
            for v in group.get("versions", ()):
                out.append(f"    {v['about']}")
                out += [f"      match {n['match']}: {n['text']}" for n in group["notes"]
                        if n.get("version") == v["version"]]
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


def _cards_table(real: Sequence[dict[str, Any]], simulated: Sequence[dict[str, Any]] | None,
                 ends: int = 5) -> list[str]:
    """Per card from the real matches (the outliers named, then the strongest and weakest),
    with the simulation's figures for the same card beside them when [balance] simulated."""
    from referee import card_rates

    if not real:
        return []
    sim = {r["card"]: r for r in simulated or ()}
    out = card_rates.text(real)
    shown = list(real) if len(real) <= 2 * ends else [*real[:ends], *real[-ends:]]
    width = max(4, *(len(r["card"]) for r in shown))
    out.append(f"  {'card':<{width}}  played  wins  without  difference (95% CI)"
               + ("   simulated: wins  difference" if sim else ""))
    for r in shown:
        lo, hi = r["difference_ci95"]
        line = (f"  {r['card']:<{width}}  {r['played']:>6}  {100 * r['win_rate']:>3.0f} %"
                f"  {100 * r['without']:>5.0f} %  {100 * r['difference']:>+4.0f} "
                f"({100 * lo:+.0f} to {100 * hi:+.0f})")
        if sim:
            other = sim.get(r["card"])
            line = f"{line:<{width + 62}}" + (
                f"{100 * other['win_rate']:>6.0f} %  {100 * other['difference']:>+6.0f}"
                if other else "       -")
        out.append(line)
    out.append("  (percentage points; with few matches the intervals are wide"
               + ("; simulated: greedy bots, the same table size" if sim else "") + ")")
    return out


def _players_table(players: Sequence[dict[str, Any]], pooled: dict[str, float]) -> list[str]:
    """Wins and category averages per player, then every player pooled."""
    pct = report.pct
    width = widest((p["player"] for p in players), 11)
    cats = list(pooled)
    cols = [max(6, len(c)) for c in cats]
    head = "".join(f"  {c:>{w}}" for c, w in zip(cats, cols, strict=True))
    out = ["per player, in finished games (category averages before score corrections):",
           f"  {'player':<{width}}  games  wins    rate  95% CI       {head}"]
    for p in players:
        lo, hi = p["ci95"]
        avg = "".join(f"  {p['categories'][c]:>{w}.1f}" for c, w in zip(cats, cols, strict=True))
        out.append(f"  {left(p['player'], width)}  {p['games']:>5}  {p['wins']:>4}  "
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
