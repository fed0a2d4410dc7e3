"""What a `pnp` command imports, run in a fresh interpreter: the tests that keep a build
from loading what it does not use."""

from __future__ import annotations

import json
import subprocess
import sys


def imported_by(args: list[str]) -> tuple[int, set[str]]:
    """Run `pnp ARGS` in a fresh interpreter: its exit code and every module it imported."""
    code = ("import json, sys; from generator.cli import main\n"
            "try:\n    main(sys.argv[1:], prog_name='pnp')\n"
            "except SystemExit as e:\n    status = e.code or 0\n"
            "print(json.dumps([status, list(sys.modules)]))")
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         check=True).stdout
    status, modules = json.loads(out.strip().splitlines()[-1])
    return status, set(modules)
