"""docs/tutorials/playtest.md runs as written: its ```sh blocks, in order, in one shell from the
repository root, with the installed `pnp` and `referee` first on PATH."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from tests.programs import with_programs

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "tutorials" / "playtest.md"


def test_the_playtest_walk_through_runs_and_says_what_it_promises(tmp_path):
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) > 10
    env = with_programs({**os.environ, "TMPDIR": str(tmp_path)})
    env.pop("REFEREE_DB", None)
    done = subprocess.run(["bash", "-c", "\n".join(blocks)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    out, err = done.stdout, done.stderr
    assert done.returncode == 0 and "Traceback" not in err, err
    assert "did you mean coins?" in err and "S1: military is at most 18, not 20" in out
    assert out.count("rejected, nothing changed") == 2
    assert "note [Scout]: Scout too strong in round 1" in out
    assert "game over: ana — highest total 9" in out  # 3 + 6: the undone 40 is gone
    assert "mygame\n  player" in out  # standings under the designer's game name
    assert "mygame: 3 match(es): 2 finished, 1 abandoned, 0 in play" in out
    assert "  Scout: 1" in out and "  Ambush: 1" in out
    assert (tmp_path.glob("*/playtests.csv")).__next__().read_text().startswith("game,match")
    assert not (ROOT / "referee.sqlite3").exists()
