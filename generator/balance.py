"""`pnp verify --balance`: simulate the deck with the referee's rules and compare the targets.

The targets are read by the model (pnp_model.balance); the simulation is the referee's,
imported only when asked for: the generator never needs it to build a sheet.
"""

from __future__ import annotations

from typing import Any

from pnp_model.balance import TARGETS, figure, parse, shown
from pnp_model.errors import PnpError


def check(deck: Any, workers: int | None = None) -> dict[str, Any]:
    """Simulate as the table says and compare every target: the report `pnp verify` prints."""
    where = f"{deck.root.resolve().name}/game.toml [balance]"
    if not deck.balance:
        raise PnpError("no [balance] table: add targets such as first_seat_win = \"40%..60%\"",
                       f"{deck.root.resolve().name}/game.toml")
    b = parse(deck.balance, deck.name, where)
    if not b.targets:
        raise PnpError(f"[balance] sets no target (targets: {', '.join(TARGETS)})", where)
    from referee import report, simulate
    from referee.components import deal_from

    try:  # the deck as this definition prints it: its cards are the ones dealt and judged
        plan = simulate.plan(b.game, b.players, b.games, b.bot, b.seed, b.options,
                             max_rounds=b.max_rounds, workers=workers, deck=str(deck.root))
        records = simulate.run_with_progress(plan, b.games, workers)
    finally:
        deal_from(None)
    summary = report.summarise(records, plan.game, b.bot, b.seed, dict(plan.options),
                               simulate.notes(plan.game))
    results = []
    for t in b.targets:
        value = figure(summary, t.key)
        line = {"target": t.key, "want": t.text, "value": value, "ok": t.met(value),
                "what": TARGETS[t.key][0], "shown": shown(t.key, value)}
        if t.key == "first_seat_win":
            lo, hi = summary["first_seat"]["ci95"]
            line["ci95"] = [lo, hi]
            line["shown"] += f" (95% CI {100 * lo:.1f}%-{100 * hi:.1f}%)"
        results.append(line)
    return {"ok": all(r["ok"] for r in results), "game": plan.game, "games": b.games,
            "players": b.players, "bot": b.bot, "seed": b.seed, "options": dict(plan.options),
            "note": summary["note"], "targets": results,
            "first_seat": report.first_seat_line(summary)}
