"""The shell examples of the print-shop and Tabletop Simulator guides run as written (in a
scratch folder: they write under output/)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

GUIDES = Path(__file__).resolve().parent.parent / "docs" / "guides"


def examples(name: str) -> list[str]:
    text = (GUIDES / name).read_text(encoding="utf-8")
    return [line for block in re.findall(r"```sh\n(.*?)```", text, re.S)
            for line in block.strip().splitlines()]


@pytest.mark.parametrize("guide", ["print-shop.md", "tabletop-simulator.md"])
def test_every_example_of_the_guide_runs(guide, tmp_path):
    commands = examples(guide)
    assert commands
    for command in commands:
        words = shlex.split(command)
        assert words[0] == "pnp", command
        r = subprocess.run([sys.executable, "-m", "generator", *words[1:]], cwd=tmp_path,
                           capture_output=True, text=True)
        assert r.returncode == 0, f"{command}: {r.stderr or r.stdout}"
    assert any((tmp_path / "output").iterdir())
