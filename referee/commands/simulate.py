"""`referee simulate`: the command line of the balance simulation (referee/simulate.py).

referee/cli.py loads it only when `simulate` is run or listed; it shares the store and the
--option/--json helpers through referee/clictx.py, so no command module imports another.
"""

from __future__ import annotations

from pathlib import Path

import click

from referee.clictx import echo_json, parse_options, store_of


@click.command("simulate")
@click.argument("game")
@click.option("--players", "n_players", type=int, required=True, help="Seats at the table.")
@click.option("--games", type=int, default=1000, show_default=True, help="Games to play.")
@click.option("--bot", default="random", show_default=True,
              help="random (any legal move), greedy (best immediate score), mcts[:N] or ismcts[:N] "
                   "(OpenSpiel search, N simulations a move; extra 'ai'); a,b,... one per seat.")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A game option, as for `referee new` (repeatable).")
@click.option("--workers", type=int, default=None,
              help="Worker processes (default: both cores; with --scheduler local, the local "
                   "cluster's, default 2). Results do not depend on it.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local",
              help="Play the games on this Dask cluster ('local': start one of --workers "
                   "processes on 127.0.0.1); needs the 'cluster' extra. Same results.")
@click.option("--keep", type=int, default=0, show_default=True,
              help="Save the first N games as matches (see `referee matches`, `log`, `replay`).")
@click.option("--max-rounds", type=int, default=12, show_default=True,
              help="Stop a game no bot can finish after this many rounds (leaders win).")
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help="Write histograms and win rates to a PNG (with --against: the differences "
                   "and the cards the change moved).")
@click.option("--deck", type=click.Path(file_okay=False, exists=True), default=None,
              help="Deal from this definition folder (your copy of the game's template).")
@click.option("--against", type=click.Path(file_okay=False, exists=True), default=None,
              help="Compare --deck with this older folder: the same seeds on both.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
def simulate_cmd(ctx, game, n_players, games, bot, seed, options, workers, scheduler, keep,
                 max_rounds, plot, deck, against, as_json) -> None:
    """Play GAME many times with bots, dealt from the printed components: seat win rates,
    scores, game length, rounds with no winner, per-card figures."""
    from referee import simulate as sim

    if plot is not None:
        from referee import plot as plotting

        plotting.require()
    run = _runner(scheduler, workers)
    if against is not None:
        _against(game, n_players, games, bot, seed, options, workers, max_rounds, deck, against,
                 as_json, run, plot)
        return
    try:
        plan = sim.plan(game, n_players, games, bot, seed, parse_options(options), keep,
                        max_rounds, workers, deck)
        records = sim.run_with_progress(plan, games, workers, _searching(plan), run)
    except sim.DECK_FAILURES as e:
        if deck is None:
            raise
        raise sim.deck_error(deck, game, e) from None
    finally:
        if deck is not None:  # the bundled cards again, for whatever runs next in-process
            from referee.components import deal_from

            deal_from(None)
    from referee import report

    note = "; ".join(x for x in (sim.notes(plan.game), deck and f"dealt from {deck}") if x)
    summary = report.summarise(records, plan.game, bot, seed, dict(plan.options), note)
    if keep:
        from referee.keep import keep as keep_games

        summary["kept"] = keep_games(store_of(ctx), plan, records)
    if plot is not None:
        plotting.write(records, summary, Path(plot))
    if as_json:
        echo_json(summary)
        return
    click.echo(report.text(summary))
    if keep:
        click.echo(f"kept as matches: {', '.join(map(str, summary['kept']))} "
                   "(referee log --match ID)")
    if plot is not None:
        click.echo(f"wrote {plot}")


COMMANDS = [simulate_cmd]  # loaded by the group when run


def _against(game, n_players, games, bot, seed, options, workers, max_rounds, deck, against,
             as_json, run, plot=None) -> None:
    """--deck NEW --against OLD: both decks on the same seeds, the differences."""
    from referee import compare
    from referee import simulate as sim
    from referee.components import deal_from
    from referee.engine import RefereeError

    if deck is None:
        raise RefereeError("--against compares with --deck: give the new deck too", "--against")
    runs = []
    try:
        for folder in (deck, against):
            try:
                plan = sim.plan(game, n_players, games, bot, seed, parse_options(options), 0,
                                max_rounds, workers, folder)
                runs.append(sim.run_with_progress(plan, games, workers, _searching(plan), run))
            except sim.DECK_FAILURES as e:
                raise sim.deck_error(folder, game, e) from None
    finally:
        deal_from(None)
    from referee import card_rates

    result = compare.compare(*runs)
    cards = card_rates.rates(runs[0])  # the new deck's cards: which one the change moved
    if plot is not None:
        from referee import plot as plotting

        plotting.write_change(result, cards, f"{game}: {deck} against {against}", Path(plot))
    if as_json:
        echo_json({"game": game, "deck": deck, "against": against, **result,
                   "card_win_rates": cards})
        return
    click.echo(compare.text(result, deck, against))
    click.echo("\n".join(card_rates.text(cards)))
    if plot is not None:
        click.echo(f"wrote {plot}")


def _runner(scheduler, workers):
    """The games' runner: this machine's processes, or the Dask cluster of --scheduler (the
    extra `cluster`, imported only then)."""
    from referee import simulate as sim

    if scheduler is None:
        return sim.run
    from referee import cluster

    return cluster.runner(scheduler, workers)


def _searching(plan):
    """The game loop of search bots (referee/openspiel, the extra `ai`), when a seat has one."""
    from referee import simulate as sim
    from referee.engine import RefereeError

    if not sim.search_bots(plan):
        return None
    try:
        from referee.openspiel import play, search
    except ImportError:
        raise RefereeError("search bots need OpenSpiel: pip install '.[ai]'", "--bot") from None
    for name in sim.seat_bots(plan):
        search.parse(name)
    return play.play_batch
