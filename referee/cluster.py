"""`referee simulate --scheduler`: the same games played on a Dask cluster.

A game's seed comes from the master seed and its number (referee/simulate.py), so a batch of
game numbers plays the same games on any machine; the batches come back in any order and are
put back in game-number order, so the report is byte-identical to a one-process run. A worker
lost mid-run loses only its unfinished batches, which the scheduler gives to another worker.

Dask (`distributed`) is the optional extra `cluster`, imported here only, inside the functions
that use it, so the referee starts as fast without it.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path

from referee import simulate
from referee.engine import RefereeError

INSTALL = "pip install 'pnp-toolkit[cluster]'"
LOCAL = "local"  # --scheduler local: a cluster of --workers processes on this machine
CONNECT_TIMEOUT = 20  # seconds to reach a scheduler before saying it cannot be reached
PACKAGES = ("referee", "pnp_model", "pnp_shared", "pnp_templates")  # what plays a game


def require() -> None:
    """Fail early, as one line, when the extra is not installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise RefereeError(f"--scheduler needs Dask: {INSTALL}", "--scheduler") from None


def check_address(address: str) -> None:
    """A scheduler's address as Dask names it, or `local`: a mistyped one fails here, at once,
    not after the connection's timeout."""
    if address != LOCAL and not address.startswith(("tcp://", "tls://")):
        raise RefereeError(f"{address!r} is not a scheduler: give tcp://HOST:PORT (or "
                           f"'{LOCAL}' for a cluster of --workers processes here)", "--scheduler")


def runner(address: str, workers: int | None = None) -> Callable[..., list[simulate.GameRecord]]:
    """A run() for simulate.run_with_progress that plays the games on the cluster at
    `address` (`local`: one started for this run on 127.0.0.1 with --workers processes)."""
    check_address(address)
    if workers is not None and address != LOCAL:
        raise RefereeError("--workers sizes a local cluster; the scheduler at "
                           f"{address} has its own workers", "--workers")
    require()

    def run(plan, games, workers=None, progress=None, player=None):
        import sys

        _quiet()
        with _client(address, workers) as client:  # where the games go, on stderr
            sys.stderr.write(f"{games:,} games to the Dask scheduler at "
                             f"{client.scheduler.address} ({len(client.nthreads())} workers)\n")
            return play(client, plan, games, progress, player)

    return run


def _quiet() -> None:
    """Dask logs a lost connection as a traceback; here what went wrong is one line. Its own
    configuration gives each of its loggers a level, so each is set."""
    import distributed  # noqa: F401  (its loggers exist once it is imported)

    for name in list(logging.Logger.manager.loggerDict):
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)


def _client(address: str, workers: int | None):
    from distributed import Client, LocalCluster

    if address == LOCAL:  # processes, loopback only, no dashboard port opened; stderr keeps
        # to the progress (a slow worker's shutdown is no news to the user)
        cluster = LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None,
                               silence_logs=logging.ERROR)
        return _Owned(Client(cluster), cluster)
    try:
        return Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, ValueError, TypeError) as e:  # refused, timed out, tls:// not set up
        raise RefereeError(f"cannot reach the Dask scheduler at {address}: {e}",
                           "--scheduler") from None


class _Owned:
    """A client and the local cluster started for it, closed together."""

    def __init__(self, client, cluster):
        self.client, self.cluster = client, cluster

    def __enter__(self):
        return self.client

    def __exit__(self, *exc):
        self.client.close()
        self.cluster.close()


def play(client, plan: simulate.Plan, games: int,
         progress: Callable[[int], None] | None = None,
         player: Callable | None = None) -> list[simulate.GameRecord]:
    """Every game, in batches on the client's cluster, back in game-number order."""
    from dataclasses import replace

    from distributed import as_completed

    if plan.deck is not None:  # a worker's working folder is not this one
        plan = replace(plan, deck=str(Path(plan.deck).resolve()))
    threads = sum(client.nthreads().values()) or 1  # none yet: they may join later
    expected = fingerprint(plan.deck)
    futures = {client.submit(play_batch, plan, list(batch), expected, player, pure=False):
               batch.start for batch in batches(games, threads)}
    done: dict[int, list[simulate.GameRecord]] = {}
    try:
        for future in as_completed(futures):
            records = _result(future, client)
            done[futures[future]] = records
            if progress:
                progress(len(records))
    finally:
        client.cancel(list(futures))
    return [r for start in sorted(done) for r in done[start]]


def _result(future, client):
    """A batch's result, or one line when the cluster could not give it."""
    from distributed import KilledWorker
    from distributed.comm.core import CommClosedError
    from distributed.utils import CancelledError

    try:
        return future.result()
    except KilledWorker:
        raise RefereeError("a batch of games was given to several workers in turn and each one "
                           "died while playing it (out of memory?): see the workers' logs",
                           "--scheduler") from None
    except (CancelledError, CommClosedError):  # the scheduler gone or the connection lost
        raise RefereeError(f"lost the connection to the Dask scheduler at "
                           f"{client.scheduler.address} before every game was played: run "
                           "again when it is back", "--scheduler") from None


def batches(games: int, threads: int) -> Iterator[range]:
    """Batches of game numbers: several per worker thread (progress moves, a lost worker loses
    little), at most 50 games each, in order."""
    size = max(1, min(50, games // (threads * 8)))
    for start in range(0, games, size):
        yield range(start, min(games, start + size))


def play_batch(plan: simulate.Plan, indices: Sequence[int], expected: str,
               player: Callable | None = None) -> list[simulate.GameRecord]:
    """On a worker: the games, if it has the code and cards the caller has (else it would play
    other games). A long-lived worker may have dealt another run's deck: the plan's own deck
    (or the bundled cards) is dealt again first."""
    from distributed import get_worker

    from referee.components import deal_from

    if fingerprint(plan.deck) != expected:
        raise RefereeError(f"the worker at {get_worker().address} has other rules, cards or "
                           "deck than this machine: install the same pnp-toolkit there (and "
                           "give it the same --deck folder)", "--scheduler")
    deal_from(plan.deck)
    return simulate.play_games(plan, indices, player)


def fingerprint(deck: str | None) -> str:
    """A digest of the code and cards that play the games, and of the deck folder: a worker
    whose digest differs from the caller's would play other games, so it refuses to."""
    h = hashlib.sha256(_code_digest().encode())
    if deck is not None:
        h.update(_tree_digest(Path(deck)).encode())
    return h.hexdigest()


@cache  # the code a process runs is the code it loaded: read once per process
def _code_digest() -> str:
    from importlib.util import find_spec

    h = hashlib.sha256()
    for name in PACKAGES:
        spec = find_spec(name)
        folders = spec.submodule_search_locations if spec else None
        for folder in folders or ():  # the code packages' Python; every file of the templates
            suffix = "" if name == "pnp_templates" else ".py"
            h.update(name.encode() + _tree_digest(Path(folder), suffix).encode())
    return h.hexdigest()


def _tree_digest(root: Path, suffix: str = "") -> str:
    """Names and bytes of the files under root (those ending in suffix), as a worker reads them."""
    h = hashlib.sha256()
    if not root.is_dir():
        return "missing"
    for path in sorted(p for p in root.rglob(f"*{suffix}") if p.is_file()
                       and "__pycache__" not in p.parts and p.suffix != ".pyc"):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()
