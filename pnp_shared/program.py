"""One of our programs itself (`pnp`, `referee`), as against a process that imports its CLI
(the tests, the referee shell's own commands): only the program may start without cycle
collection (referee/cli.py) and end without Python's teardown. Nothing here imports click, so a
CLI module can ask before loading it."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def is_program(name: str, package: str | None = None) -> bool:
    """Whether this process is the program `name`: its console script, or `python -m package`
    (whose sys.argv[0] is the package's __main__.py)."""
    run = Path(sys.argv[0])
    return run.stem == name or (package is not None and run.parts[-2:] == (package, "__main__.py"))


def leave_now(code: int) -> None:
    """End the program without Python's teardown, which frees every module and object one by
    one: a visible share of a referee command on a long match and of a `pnp build` of raster
    symbols, most of it returning memory page by page (bench/bench_referee.py). Nothing is
    left to do by then: the command closed its database, files and pools (all in `with`
    blocks or the command's context); only the output still in Python's buffers is flushed."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader went away (`referee log | head`): as OneLineErrors
        pass
    os._exit(code)
