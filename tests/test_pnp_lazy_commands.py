"""`pnp` loads a command's module only when that command runs: `pnp build` (most runs) skips
the exporter, the verifier and the watcher, and every help text reads as it did when all of
them were imported up front."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from pnp_imports import imported_by

from generator.cli import main
from generator.cli_group import ELSEWHERE, LISTED

LAZY = sorted(set(ELSEWHERE.values()))


WEB = {"generator.serve", "generator.serve.app", "starlette", "uvicorn", "jinja2", "watchfiles",
       "segno"}  # the live page's server: imported by `pnp serve` alone


@pytest.mark.parametrize("args", [["--help"], ["list"], ["preview", "--help"]])
def test_other_commands_do_not_import_the_web_server(args):
    status, modules = imported_by(args)
    assert status == 0 and not modules & WEB, sorted(modules & WEB)


def test_a_build_does_not_import_the_web_server(tmp_path):
    status, modules = imported_by(["build", "decktet", "-o", str(tmp_path / "d.pdf")])
    assert status == 0 and (tmp_path / "d.pdf").stat().st_size > 0
    assert not modules & WEB, sorted(modules & WEB)


@pytest.mark.parametrize("command", sorted(ELSEWHERE))
def test_a_lazy_command_still_runs_from_its_module(command):
    status, modules = imported_by([command, "--help"])
    assert status == 0 and ELSEWHERE[command] in modules


EAGER = """
import click
from generator.cli import main
group = click.Group("pnp", help=main.help, params=main.params,
                    context_settings=main.context_settings)
for name in main.list_commands(None):
    group.add_command(main.get_command(None, name), name)
group(["--help"], prog_name="pnp")
"""  # the help as a plain click group prints it with every command imported first: what
#      `pnp --help` printed before its commands were loaded lazily


def help_output(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env={**os.environ, "COLUMNS": "80"}).stdout


def test_pnp_help_is_what_the_imported_commands_say():
    fresh = help_output("from generator.cli import main; main(['--help'], prog_name='pnp')")
    assert fresh == help_output(EAGER)
    for name in ELSEWHERE:
        assert f"\n  {name} " in fresh


@pytest.mark.parametrize("command", sorted(ELSEWHERE))
def test_listed_help_is_the_first_paragraph_of_the_command_help(command):
    assert main.get_command(None, command).help.split("\n\n")[0] == LISTED[command]


def test_every_command_module_is_listed_as_lazy():
    from pathlib import Path

    import generator.commands as commands

    modules = {f"generator.commands.{p.stem}" for p in Path(commands.__file__).parent.glob("*.py")
               if p.stem != "__init__"}
    assert modules == set(LAZY)
    for name, module in ELSEWHERE.items():
        assert name in {c.name for c in __import__(module, fromlist=["COMMANDS"]).COMMANDS}


@pytest.mark.parametrize(("typo", "meant"), [("verif", "verify"), ("exprot", "export"),
                                             ("buld", "build")])
def test_a_mistyped_command_still_gets_the_suggestion(typo, meant):
    out = subprocess.run([sys.executable, "-m", "generator", typo], capture_output=True,
                         text=True)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.splitlines() == [
        f"error: unknown command '{typo}': did you mean {meant}? (python -m generator)"]
