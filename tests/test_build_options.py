"""`pnp build`'s options as a user meets them: --strict keeps the last good PDF, options that
cannot go together are refused alike, -o says plainly whether it is a file or a folder."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from generator.cli import main

WORDY = "word " * 400


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def blank(tmp_path: Path, monkeypatch, name: str = "g") -> Path:
    monkeypatch.chdir(tmp_path)
    assert run("new", name, "--blank").exit_code == 0
    return tmp_path / name


def test_strict_leaves_the_last_good_pdf_untouched(tmp_path, monkeypatch):
    game = blank(tmp_path, monkeypatch)
    assert run("build", "g").exit_code == 0
    good = (tmp_path / "output" / "g.pdf").read_bytes()
    (game / "cards.csv").write_text(f"name,type,cost,text,qty\nA,action,1,{WORDY},1\n")
    result = run("build", "g", "--strict")
    assert result.exit_code == 1
    assert (tmp_path / "output" / "g.pdf").read_bytes() == good  # the overflowing card is not
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("error:") and "did not write output/g.pdf" in last, last
    assert run("build", "g").exit_code == 0  # without --strict the warnings do not stop it
    assert (tmp_path / "output" / "g.pdf").read_bytes() != good
