"""What a referee command imports before it answers: a command has 150 ms of CPU, a third of it
the interpreter and click. `referee --help` lists every command without loading the rules or
the store; a match command loads its own game only; the user's folders are found without
platformdirs where the XDG rule can be read directly, and agree with it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from pnp_shared.folders import user_folder
from referee.cli import main
from referee.cli_group import LISTED, RefereeGroup
from tests.programs import REFEREE

ROOT = Path(__file__).resolve().parents[1]


def imported_by(args: list[str], env: dict[str, str]) -> tuple[str, set[str]]:
    """(stdout, modules imported) of one referee command run in a fresh interpreter."""
    code = ("import sys\nfrom referee.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print('MODULES', ' '.join(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    out, _, modules = done.stdout.rpartition("MODULES ")
    assert modules, done.stderr
    return out, set(modules.split())


@pytest.fixture
def env(tmp_path):
    return {**os.environ, "REFEREE_DB": str(tmp_path / "m.sqlite3"),
            "REFEREE_CACHE": str(tmp_path / "cache")}


def test_help_lists_every_command_with_its_help(env):
    out, _ = imported_by(["--help"], env)
    for name in ("games", "new", "matches", "use", "play", "check", "show", "score", "log",
                 "replay", "rule", "standings", "export", "position", "verify", "ask",
                 *RefereeGroup.elsewhere):
        assert f"\n  {name} " in out, name
    assert "Take back the latest entry" in out and "Play GAME many times with bots" in out


@pytest.mark.parametrize("name", sorted(RefereeGroup.elsewhere))
def test_the_help_kept_for_a_command_of_another_module_is_its_own(name):
    """LISTED is what --help shows for the commands it does not import: their help's first
    paragraph, so the list reads the same as if they were loaded."""
    ctx = click.Context(main)
    real = main.get_command(ctx, name)
    for limit in (40, 60, 200):
        assert click.Command(name, help=LISTED[name]).get_short_help_str(limit) == \
            real.get_short_help_str(limit)


@pytest.mark.parametrize("typed, meant", [("und", "undo"), ("simulat", "simulate"),
                                          ("sho", "show")])
def test_a_mistyped_command_is_suggested_even_when_it_lives_in_another_module(typed, meant):
    from click.testing import CliRunner

    r = CliRunner().invoke(main, [typed])
    assert r.exit_code == 2 and f"did you mean {meant}" in r.output, r.output


def test_a_match_command_finds_its_game_without_the_cache_folder(env):
    from click.testing import CliRunner

    CliRunner().invoke(main, ["--db", env["REFEREE_DB"], "new", "tripple-domino", "--players",
                              "ana,bob"])
    env = {k: v for k, v in env.items() if k != "REFEREE_CACHE"}
    out, _ = imported_by(["show"], env)
    assert "match 1: tripple-domino" in out


@pytest.mark.parametrize("kind", ["data", "cache"])
@pytest.mark.parametrize("xdg", [None, "", "/srv/xdg-home", "relative/xdg"])
def test_the_users_folders_are_those_platformdirs_names(kind, xdg, monkeypatch):
    import platformdirs

    variable = {"data": "XDG_DATA_HOME", "cache": "XDG_CACHE_HOME"}[kind]
    monkeypatch.setenv("HOME", "/home/ana")
    if xdg is None:
        monkeypatch.delenv(variable, raising=False)
    else:
        monkeypatch.setenv(variable, xdg)
    find = platformdirs.user_data_path if kind == "data" else platformdirs.user_cache_path
    assert user_folder(kind) == find("referee", appauthor=False)


@pytest.mark.parametrize("args", [["games"], ["show"]])
def test_a_process_importing_the_cli_keeps_its_cycle_collector(env, args):
    """Only the `referee` program starts without the cyclic garbage collector (it exits after
    one command): a process that imports the CLI and runs commands in it keeps collecting."""
    import gc

    from click.testing import CliRunner

    assert gc.isenabled()
    CliRunner().invoke(main, ["--db", env["REFEREE_DB"], *args])
    assert gc.isenabled()


def test_the_program_ends_without_teardown_yet_every_output_and_exit_code_arrive(env):
    """The `referee` program leaves with os._exit once a command is done (program.leave_now):
    what it printed into a pipe (block-buffered) still arrives whole, on stdout and stderr,
    with the command's exit code (0, 1 for a rejected move or a broken record, 2)."""
    from click.testing import CliRunner

    for args in (["new", "tripple-domino", "--players", "ana,bob"],
                 ["play", "start ana=5-5-5 bob=4-4-4"], ["play", "4-5-5 D-1,0"]):
        assert CliRunner().invoke(main, args, env=env).exit_code == 0

    def program(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([REFEREE, *args], env=env, capture_output=True, text=True,
                              timeout=60)

    for args in (["log", "--json"], ["show"], ["log", "--all"]):
        done = program(*args)
        assert (done.returncode, done.stdout) == (0, CliRunner().invoke(main, args,
                                                                        env=env).output), args
        assert done.stdout.strip()
    helped = program("--help")
    assert helped.returncode == 0 and helped.stdout.splitlines()[-1].lstrip().startswith("verify")
    rejected = program("play", "5-5-5 D9,9")
    assert rejected.returncode == 1 and rejected.stdout.startswith("illegal: ")
    assert rejected.stdout.rstrip().endswith("(not for the first tile)")
    mistyped = program("play", "9-9-9 D5,5")
    assert mistyped.returncode == 2 and mistyped.stderr.startswith("error: ")
    assert program("verify").returncode == 0


WEB = {"starlette", "uvicorn", "jinja2", "segno", "referee.table_page.app", "pnp_shared.web"}


def test_only_serve_loads_the_web_server(env):
    """`referee serve` alone imports Starlette, uvicorn and Jinja2 (its page); the other
    commands start as before, `show --svg` included, and nothing loads reportlab or Pillow."""
    from click.testing import CliRunner

    CliRunner().invoke(main, ["--db", env["REFEREE_DB"], "new", "tripple-domino", "--players",
                              "ana,bob"])
    CliRunner().invoke(main, ["--db", env["REFEREE_DB"], "play", "start ana=5-5-5 bob=4-4-4"])
    picture = str(Path(env["REFEREE_DB"]).parent / "board.svg")
    for args in (["--help"], ["show"], ["play", "4-5-5 D-1,0"], ["show", "--svg", picture],
                 ["serve", "--help"]):
        out, modules = imported_by(args, env)
        assert not WEB & modules, (args, WEB & modules)
        assert not {"reportlab", "PIL"} & modules, args
        assert ("referee.svg" in modules) == (args[:2] == ["show", "--svg"]), args
    assert "<svg" in Path(picture).read_text()
    _, modules = imported_by(["serve", "--match", "7"], env)  # fails before serving: no match 7
    assert "referee.commands.serve" in modules


CAMERA = {"cv2", "numpy", "referee.camera", "referee.commands.look"}


def test_only_look_loads_opencv(env):
    """OpenCV (the camera extra) and the photo reader load for `referee look` alone: `--help`,
    a match command and `look --help` start without them."""
    from click.testing import CliRunner

    CliRunner().invoke(main, ["--db", env["REFEREE_DB"], "new", "tripple-domino", "--players",
                              "ana,bob"])
    for args in (["--help"], ["show"], ["play", "start ana=5-5-5 bob=4-4-4"], ["look", "--help"]):
        _, modules = imported_by(args, env)
        assert not (CAMERA - {"referee.commands.look"}) & modules, (args, CAMERA & modules)
    _, modules = imported_by(["look", "missing.jpg", "--game", "tripple-domino"], env)
    assert "referee.camera" in modules


DASK = {"dask", "distributed", "referee.cluster"}


def test_only_simulate_on_a_cluster_loads_dask(env):
    """Dask (the cluster extra) loads for `simulate --scheduler` alone: `--help`, `simulate
    --help` and a simulation on this machine start without it."""
    pytest.importorskip("distributed")
    for args in (["--help"], ["simulate", "--help"],
                 ["simulate", "thricewise", "--players", "2", "--games", "2", "--workers", "1"]):
        _, modules = imported_by(args, env)
        assert not DASK & modules, (args, DASK & modules)
    _, modules = imported_by(["simulate", "thricewise", "--players", "2", "--scheduler", "x"], env)
    assert "referee.cluster" in modules  # the address is refused before Dask is imported


def test_ctrl_c_while_the_program_loads_is_one_line_and_exit_130(env, tmp_path):
    """The tester's report: Ctrl-C in the first ~70 ms (`timeout -s INT 0.06 referee show`)
    printed a KeyboardInterrupt traceback; the interrupt came during the imports, before
    click's handler. Here it arrives there for sure: a module the CLI imports first (click,
    shadowed on PYTHONPATH) interrupts the program as it loads."""
    (tmp_path / "click.py").write_text("import os, signal\nos.kill(os.getpid(), signal.SIGINT)\n")
    done = subprocess.run([REFEREE, "show"], env={**env, "PYTHONPATH": str(tmp_path)},
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr, done.stdout) == (130, "error: aborted (referee)\n", "")


def test_ctrl_c_during_a_command_is_the_same_line_and_exit_130(env, monkeypatch):
    """Later in the run click turns the interrupt into Abort: the same line, the same code."""
    from click.testing import CliRunner

    from referee import session

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    from referee.record import Store

    Store(env["REFEREE_DB"]).close()
    monkeypatch.setattr(session, "load", interrupted)
    done = CliRunner().invoke(main, ["show"], env=env)
    assert done.exit_code == 130 and done.stderr.strip() == "error: aborted (referee)"
