"""`pnp` ends with os._exit once a command is done (pnp_shared/program.py): Python's teardown
after a build cost ~45 ms of its wall time. Nothing may be lost for it: the PDF is whole, what
the command printed into a pipe arrives, and so do exit codes 0, 1 and 2. A process that only
imports the CLI (the tests) still ends as click's programs do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pnp_shared.program import is_program

ROOT = Path(__file__).resolve().parents[1]

# run the CLI under the name `argv0`, with an exit handler that says whether teardown ran
RUN = ("import atexit, sys\n"
       "atexit.register(lambda: print('TEARDOWN', file=sys.stderr))\n"
       "sys.argv[0] = {argv0!r}\n"
       "from generator.cli import main\n"
       "main()\n")


def run(argv0: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", RUN.format(argv0=argv0), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("argv0", ["/usr/local/bin/pnp", str(ROOT / "generator" / "__main__.py")])
def test_the_program_skips_teardown_yet_its_pdf_output_and_exit_codes_arrive(tmp_path, argv0):
    pdf = tmp_path / "dobble.pdf"
    built = run(argv0, "build", "dobble", "-o", str(pdf))
    assert built.returncode == 0, built.stderr
    assert "TEARDOWN" not in built.stderr
    assert built.stdout.startswith("dobble: 55 cards on ") and built.stdout.endswith(f"{pdf}\n")
    assert pdf.read_bytes().rstrip().endswith(b"%%EOF")
    assert len(pdfium.PdfDocument(pdf)) == 20  # 55 fronts, 6 a page, and their backs

    bad = tmp_path / "bad.csv"
    bad.write_text("a,b,c\na,b,d\n")
    failed = run(argv0, "verify", str(bad))
    assert failed.returncode == 1 and "share 2, not 1: a, b" in failed.stdout
    assert "TEARDOWN" not in failed.stderr
    mistaken = run(argv0, "build", "no-such-game")  # a mistake ends as before, teardown and all
    assert mistaken.returncode == 2 and mistaken.stderr.startswith("error: no game 'no-such-game'")


def test_a_process_importing_the_cli_ends_as_usual():
    helped = run("pytest", "--help")
    assert helped.returncode == 0 and "build" in helped.stdout
    assert helped.stderr == "TEARDOWN\n"


def test_which_process_is_the_program(monkeypatch):
    for argv0, expected in (("pnp", True), ("/venv/bin/pnp", True), ("C:/venv/pnp.exe", True),
                            ("/src/generator/__main__.py", True), ("/src/other/__main__.py", False),
                            ("/venv/bin/pytest", False), ("-c", False), ("pnpx", False)):
        monkeypatch.setattr(sys, "argv", [argv0])
        assert is_program("pnp", "generator") is expected, argv0
