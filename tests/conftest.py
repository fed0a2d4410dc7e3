"""Shared fixtures: a small valid definition folder that tests can break one way at a time."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import browser, firefox  # noqa: F401  (one of each for every page test)


@pytest.fixture(scope="session", autouse=True)
def _session_pnp_cache(tmp_path_factory):
    """The build memo (generator.render.symbol_memo) of the whole session in a temporary
    folder, never the user's (module fixtures build before a test's own folder is set)."""
    import os

    before = os.environ.get("PNP_CACHE")
    os.environ["PNP_CACHE"] = str(tmp_path_factory.mktemp("pnp-cache-session"))
    # printer profiles too: the user's default printer must never change a test's build
    os.environ["PNP_CONFIG"] = str(tmp_path_factory.mktemp("pnp-config-session"))
    yield
    if before is None:
        os.environ.pop("PNP_CACHE", None)
    else:
        os.environ["PNP_CACHE"] = before


@pytest.fixture(autouse=True)
def _own_pnp_cache(tmp_path_factory, monkeypatch):
    """Each test its own build memo and printer profiles: a build in one test never reads
    another's memo, nor a default printer another test saved."""
    monkeypatch.setenv("PNP_CACHE", str(tmp_path_factory.mktemp("pnp-cache")))
    monkeypatch.setenv("PNP_CONFIG", str(tmp_path_factory.mktemp("pnp-config")))


GAME_TOML = """\
[game]
title = "Mini"
description = "a tiny test deck"

[deck]
source = "csv"
file = "cards.csv"
size = "poker"
corner_radius = "3mm"

[colors]
team = "#123456"

[[face]]
type = "rect"
bleed = true
fill = "{color}"

[[face]]
type = "text"
text = "{name}"
x = "50%"
y = "20mm"
size = 12
align = "center"

[[back]]
type = "rect"
bleed = true
fill = "team"
"""

CARDS_CSV = """\
name,color,qty
Alpha,red,2
Beta,#00ff00,1
Gamma,team,3
"""


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    """A valid definition folder with 6 cards (qty 2 + 1 + 3) and a common back."""
    return mini_game(tmp_path)


def mini_game(folder: Path) -> Path:
    """The `mini` definition written in `folder` (for fixtures of a wider scope)."""
    root = folder / "mini"
    root.mkdir()
    (root / "game.toml").write_text(GAME_TOML)
    (root / "cards.csv").write_text(CARDS_CSV)
    return root


@pytest.fixture
def referee_run(tmp_path):
    """`referee` run in-process on a fresh database: run(*args, code=0) checks the exit code
    (code=None: any) and returns click's result; run.db is the database file."""
    from click.testing import CliRunner

    from referee.cli import main

    db = tmp_path / "referee.sqlite3"

    def invoke(*args: str, code: int | None = 0):
        result = CliRunner().invoke(main, ["--db", str(db), *args])
        if code is not None:
            assert result.exit_code == code, (args, result.output, result.stderr)
        return result

    invoke.db = db
    return invoke


@pytest.fixture(autouse=True, scope="session")
def _referee_key(tmp_path_factory):
    """The key of the referee's cache MACs (referee/record/key.py) in a folder of this run,
    never the user's data folder."""
    import os

    if "REFEREE_KEY" in os.environ:
        yield
        return
    os.environ["REFEREE_KEY"] = str(tmp_path_factory.mktemp("referee-key") / "referee.key")
    yield
    del os.environ["REFEREE_KEY"]


@pytest.fixture(autouse=True, scope="session")
def _referee_cache(tmp_path_factory):
    """The referee's memos (cards, games, what each test database was verified to hold) in a
    folder of this run, not the user's cache folder (each test database would leave a file)."""
    import os

    if "REFEREE_CACHE" in os.environ:
        yield
        return
    os.environ["REFEREE_CACHE"] = str(tmp_path_factory.mktemp("referee-cache"))
    yield
    del os.environ["REFEREE_CACHE"]
