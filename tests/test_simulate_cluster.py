"""referee simulate --scheduler: the games on a Dask cluster of processes on 127.0.0.1 give the
same JSON, byte for byte, as one process, even when a worker is killed mid-run; without the
extra, or with a scheduler that cannot be reached, one line."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from tests.programs import REFEREE

ROOT = Path(__file__).resolve().parents[1]
# 60 Tripple Domino games to 80 points: ~2 s of CPU, long enough to kill a worker as it plays
RUN = ["simulate", "tripple-domino", "--players", "3", "--seed", "5", "--option", "target=80",
       "--json", "--games", "60"]
TIMEOUT = 120  # seconds any one step may take on a loaded machine


def referee(args: list[str], tmp: Path, **kw) -> subprocess.Popen:
    env = {**os.environ, "REFEREE_DB": str(tmp / "m.sqlite3"), "REFEREE_CACHE": str(tmp / "c")}
    return subprocess.Popen([REFEREE, *args], env=env, cwd=tmp, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **kw)


@pytest.fixture(scope="module")
def one_process(tmp_path_factory) -> bytes:
    """The report of the same games played in one process: what every cluster must print."""
    out, err = referee([*RUN, "--workers", "1"], tmp_path_factory.mktemp("one")).communicate(
        timeout=TIMEOUT)
    assert out, err
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dask(module: str, *args: str, cwd: Path, env: dict[str, str] | None = None
         ) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", f"distributed.cli.{module}", *args], cwd=cwd,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def start(tmp: Path, workers: int, env: dict[str, str] | None = None
          ) -> tuple[str, list[subprocess.Popen]]:
    """A scheduler and single-thread workers (no nanny: a killed one stays dead), each its own
    process on 127.0.0.1, started as a user would start them on other machines."""
    address = f"tcp://127.0.0.1:{free_port()}"
    procs = [dask("dask_scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                  "--no-dashboard", cwd=tmp)]
    procs += [dask("dask_worker", address, "--nthreads", "1", "--no-nanny", "--host",
                   "127.0.0.1", "--no-dashboard", cwd=tmp, env=env) for _ in range(workers)]
    return address, procs


def stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.kill()
        p.wait(timeout=TIMEOUT)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """Two workers, shared by the tests (the one that kills a worker comes last)."""
    distributed = pytest.importorskip("distributed")
    address, procs = start(tmp_path_factory.mktemp("cluster"), 2)
    try:
        with distributed.Client(address, timeout=TIMEOUT) as client:
            client.wait_for_workers(2, timeout=TIMEOUT)
            by_pid = {pid: w for w, pid in client.run(os.getpid).items()}
        yield address, {by_pid[p.pid]: p for p in procs[1:]}
    finally:
        stop(procs)


def test_a_cluster_of_two_workers_gives_the_one_process_json(cluster, one_process, tmp_path):
    address, _ = cluster
    run = referee([*RUN, "--scheduler", address], tmp_path)
    out, err = run.communicate(timeout=TIMEOUT)
    assert run.returncode == 0, err
    assert out == one_process


def test_a_local_cluster_gives_the_one_process_json(one_process, tmp_path):
    pytest.importorskip("distributed")
    run = referee([*RUN, "--scheduler", "local", "--workers", "2"], tmp_path)
    out, err = run.communicate(timeout=TIMEOUT)
    assert run.returncode == 0, err
    assert out == one_process


def test_a_worker_killed_mid_run_loses_no_game(cluster, one_process, tmp_path):
    """The victim is killed while it plays a batch; the scheduler gives its batches to the
    other worker, and the report is still the one-process report."""
    distributed = pytest.importorskip("distributed")
    address, workers = cluster
    run = referee([*RUN, "--scheduler", address], tmp_path)
    with distributed.Client(address, timeout=TIMEOUT) as client:
        deadline = time.monotonic() + TIMEOUT
        busy = {}
        while not any(busy.values()) and time.monotonic() < deadline:
            busy = client.processing(list(workers))
            time.sleep(0.05)
        victim = next(w for w, tasks in busy.items() if tasks)
        assert run.poll() is None  # mid-run
        workers[victim].send_signal(signal.SIGKILL)
        out, err = run.communicate(timeout=TIMEOUT)
        assert run.returncode == 0, err
        assert list(client.nthreads()) == [w for w in workers if w != victim]
    assert out == one_process


def _one_line(args, tmp_path) -> str:
    res = CliRunner().invoke(main, ["--db", str(tmp_path / "db"), *args])
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    return lines[0]


def test_without_the_extra_one_line_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    line = _one_line([*RUN, "--scheduler", "tcp://127.0.0.1:1"], tmp_path)
    assert line == ("error: --scheduler needs Dask: pip install 'pnp-toolkit[cluster]' "
                    "(--scheduler)")


@pytest.mark.parametrize("args,where", [
    (["--scheduler", "127.0.0.1:8786"], "give tcp://HOST:PORT"),
    (["--scheduler", "tcp://127.0.0.1:8786", "--workers", "2"], "(--workers)"),
])
def test_scheduler_mistakes_are_one_line(tmp_path, args, where):
    assert where in _one_line([*RUN, *args], tmp_path)


def test_a_scheduler_nobody_runs_is_one_line(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from referee import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2)
    line = _one_line([*RUN, "--scheduler", f"tcp://127.0.0.1:{free_port()}"],
                     tmp_path)
    assert line.startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:")


def test_a_worker_with_other_rules_is_refused(tmp_path):
    """A worker with another version of the rules (here: one comment added to them) could play
    other games: the run stops with one line naming the cause, never a mixed report."""
    distributed = pytest.importorskip("distributed")
    other = tmp_path / "other"
    shutil.copytree(ROOT / "referee", other / "referee",
                    ignore=shutil.ignore_patterns("__pycache__"))
    rules = other / "referee" / "games" / "tripple_domino" / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "# another version\n", encoding="utf-8")
    address, procs = start(tmp_path, 1, {**os.environ, "PYTHONPATH": str(other)})
    try:
        with distributed.Client(address, timeout=TIMEOUT) as client:
            client.wait_for_workers(1, timeout=TIMEOUT)
        run = referee([*RUN, "--scheduler", address], tmp_path)
        out, err = run.communicate(timeout=TIMEOUT)
    finally:
        stop(procs)
    assert run.returncode == 2 and out == b"" and b"Traceback" not in err
    line = err.decode().splitlines()[-1]
    assert line.startswith("error: the worker at tcp://127.0.0.1:") and \
        "has other rules, cards or deck than this machine" in line


def test_the_scheduler_lost_mid_run_is_one_line(tmp_path):
    """Its games cannot all be played: one line saying so, no traceback, no partial report."""
    distributed = pytest.importorskip("distributed")
    address, procs = start(tmp_path, 1)
    try:
        with distributed.Client(address, timeout=TIMEOUT) as client:
            client.wait_for_workers(1, timeout=TIMEOUT)
            run = referee([*RUN[:-1], "600", "--scheduler", address], tmp_path)
            deadline = time.monotonic() + TIMEOUT
            while not any(client.processing().values()) and time.monotonic() < deadline:
                time.sleep(0.05)
            procs[0].send_signal(signal.SIGKILL)
        out, err = run.communicate(timeout=TIMEOUT)
    finally:
        stop(procs)
    assert run.returncode == 2 and out == b"" and b"Traceback" not in err, err
    assert err.decode().splitlines()[-1].startswith(
        f"error: lost the connection to the Dask scheduler at {address} before every game")
