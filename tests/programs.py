"""The two programs as installed beside the Python running the tests (the venv's own scripts),
so the tests run them whether or not the virtual environment is activated."""

import sys
from pathlib import Path

BIN = Path(sys.executable).parent
REFEREE = str(BIN / "referee")
PNP = str(BIN / "pnp")
