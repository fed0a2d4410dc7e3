"""docs/guides/refereeing.md: its shell examples run as written, in order, in one shell (they
share the scratch database the first one makes), and say what the guide says they say."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guides" / "refereeing.md"


def test_the_refereeing_guide_runs_as_written(tmp_path):
    text = GUIDE.read_text(encoding="utf-8")
    script = "\n".join(re.findall(r"```sh\n(.*?)```", text, re.S))
    bin_dir = tmp_path / "bin"  # `referee` and `pnp` of this interpreter, not whatever is on PATH
    bin_dir.mkdir()
    for tool in ("referee", "pnp"):  # the console scripts installed beside this interpreter
        (bin_dir / tool).symlink_to(Path(sys.executable).parent / tool)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "TMPDIR": str(tmp_path)}
    env.pop("REFEREE_DB", None)
    done = subprocess.run(["bash", "-e", "-c", script], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout + done.stderr
    assert "adjusted: cy 18 (13 + 5 adjusted)" in out
    assert "total: ana 20, bob 9, cy 18 (13 + 5 adjusted)" in out
    assert "`referee undo --match 2` takes it back" in out and "(abandoned, scratch)" in out
    assert "match 2 kept" in out and "in plain words:" in out
    shown = [line for line in text.split("```text\n", 1)[1].split("```")[0].splitlines()]
    for line in shown:  # the errors the guide prints are the ones the tools print
        assert line in out, line
