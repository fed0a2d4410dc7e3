"""The two programs as installed beside the Python running the tests (the venv's own scripts),
so the tests run them whether or not the virtual environment is activated."""

import sys
from pathlib import Path

BIN = Path(sys.executable).parent
REFEREE = str(BIN / "referee")
PNP = str(BIN / "pnp")


def with_programs(env: dict[str, str]) -> dict[str, str]:
    """`env` with these programs first on PATH, for a script that names them (`log --script`,
    a documentation example)."""
    import os

    return {**env, "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}"}


def look(*args, **kwargs):
    """`referee look ARGS`, its output captured (cwd=, env= pass through); a photo's reading is
    bounded, so a hang fails the test instead of the run."""
    import subprocess

    return subprocess.run([REFEREE, "look", *map(str, args)], capture_output=True, text=True,
                          timeout=120, **kwargs)
