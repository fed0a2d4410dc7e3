"""A definition never chooses where pnp writes: file names are slugs, only -o writes elsewhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def named(mini: Path, name: str) -> Path:
    """The mini game with `name` under [game] (a TOML basic string, escapes allowed)."""
    text = (mini / "game.toml").read_text()
    (mini / "game.toml").write_text(text.replace("[game]\n", f'[game]\nname = "{name}"\n', 1))
    return mini


def files_under(root: Path) -> set[Path]:
    return {p.relative_to(root) for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("name, stem", [
    ("../../escaped", "escaped"),
    ("/tmp/pnp-absolute-name", "tmp-pnp-absolute-name"),
    ("a\\u0000b", "a-b"),
    ("Été à deux", "ete-a-deux"),
    ("", "mini"),
    ("..", "mini"),
])
def test_a_game_name_becomes_a_slug_inside_output(tmp_path, mini, monkeypatch, name, stem):
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    before = files_under(tmp_path)
    result = run("build", str(named(mini, name)), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)[0]["path"] == f"output/{stem}.pdf"
    assert files_under(tmp_path) - before == {Path("a/b/output") / f"{stem}.pdf"}
    assert not Path("/tmp/pnp-absolute-name.pdf").exists()


def test_building_dot_inside_a_game_folder_is_named_after_the_folder(mini, monkeypatch):
    monkeypatch.chdir(mini)
    result = run("build", ".")
    assert result.exit_code == 0, result.output
    assert (mini / "output" / "mini.pdf").is_file()
    assert not (mini / "output" / ".pdf").exists()
    assert result.output.startswith("mini: ")


def test_previews_and_exports_use_the_slug_too(tmp_path, mini, monkeypatch):
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    game = str(named(mini, "../../x"))
    for args in (["preview", game, "--card", "1", "--dpi", "20"],
                 ["preview", game, "--page", "1", "--dpi", "20"],
                 ["export", game, "--dpi", "30", "--workers", "1"],
                 ["export", game, "--format", "tts", "--dpi", "30", "--workers", "1"]):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)
    everything = files_under(tmp_path)
    assert all(p.parts[:3] == ("a", "b", "output") or p.parts[0] == "mini" for p in everything)
    written = {p.parts[3] for p in everything if p.parts[0] == "a"}
    assert written == {"x-card-1.png", "x-page-1.png", "x-png", "x-tts"}
    assert (work / "output" / "x-tts" / "x.tts.json").is_file()


def test_o_still_writes_where_the_user_asks(tmp_path, mini):
    out = tmp_path / "elsewhere" / "mine.pdf"
    result = run("build", str(named(mini, "../../x")), "-o", str(out))
    assert result.exit_code == 0 and out.is_file()


def test_verify_inside_a_game_folder_names_the_folder_in_errors(mini, monkeypatch):
    (mini / "game.toml").write_text((mini / "game.toml").read_text() + "\n[verify]\ncount = nan\n")
    monkeypatch.chdir(mini)
    result = run("verify", ".")
    assert result.exit_code == 2
    assert "(mini/game.toml [verify].count)" in result.output, result.output


def test_games_named_in_other_scripts_keep_their_names(tmp_path, monkeypatch):
    """日本語 and 🎲🎲 both became output/game.pdf, the second build overwriting the first."""
    monkeypatch.chdir(tmp_path)
    pdfs = {}
    for name in ("日本語", "🎲🎲"):
        assert run("new", name, "--blank").exit_code == 0
        result = run("build", name)
        assert result.exit_code == 0 and result.output.strip().endswith(f"output/{name}.pdf")
        pdfs[name] = (tmp_path / "output" / f"{name}.pdf").read_bytes()
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == sorted(
        f"{name}.pdf" for name in pdfs)
    assert run("build", "日本語").exit_code == 0  # one game's build leaves the other's PDF alone
    assert (tmp_path / "output" / "🎲🎲.pdf").read_bytes() == pdfs["🎲🎲"]


@pytest.mark.parametrize("name", ["", "  "])
def test_new_with_an_empty_name_says_so(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["new", name, "--blank"])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "folder name is empty" in result.output and not any(tmp_path.iterdir())
