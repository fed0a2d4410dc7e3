"""All the mistakes of a definition in one run (the first 20 and a count), each one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from pnp_model.definition import load
from pnp_model.errors import PnpError

ART = '''
[[face]]
type = "image"
file = "art/{name}.png"
'''


def build(root: Path, tmp_path: Path):
    out = tmp_path / "out.pdf"
    result = CliRunner().invoke(main, ["build", str(root), "-o", str(out)])
    return result, result.output.strip().splitlines(), out


def add_to_face(root: Path, text: str) -> None:
    toml = root / "game.toml"
    toml.write_text(toml.read_text().replace("\n[[back]]", text + "\n[[back]]", 1))


def test_three_misspelt_art_files_are_three_lines_in_one_run(mini, tmp_path):
    add_to_face(mini, ART)
    (mini / "art").mkdir()
    for name in ("Alpha", "Beta", "Gamma"):
        (mini / "art" / f"{name.lower()}.png").write_bytes(b"")  # misspelt: lower case
    result, lines, out = build(mini, tmp_path)
    assert result.exit_code == 2
    assert lines == [
        "error: missing image 'art/Alpha.png' (card 1, game.toml [[face]] #3 (image); also "
        "card #2)",
        "error: missing image 'art/Beta.png' (card 3, game.toml [[face]] #3 (image))",
        "error: missing image 'art/Gamma.png' (card 4, game.toml [[face]] #3 (image); also "
        "cards #5, #6)",
    ]
    assert not out.exists()


def test_mistakes_in_toml_and_csv_come_together(mini, tmp_path):
    toml = mini / "game.toml"
    toml.write_text(toml.read_text().replace('size = 12', 'size = 0').replace(
        'corner_radius = "3mm"', 'corner_radius = "3xx"').replace('align = "center"',
                                                                   'align = "centre"'))
    (mini / "cards.csv").write_text("name,color,qty\nAlpha,teal,2\nBeta,red,one\nGamma,red,1,x\n")
    result, lines, _ = build(mini, tmp_path)
    assert result.exit_code == 2
    assert all(line.startswith("error: ") for line in lines)
    for words in (["unknown unit 'xx'", "[deck].corner_radius"],
                  ["align must be one of", "[[face]] #2 (text).align"],
                  ["more than 0", "[[face]] #2 (text).size"],
                  ["qty must be a whole number", "cards.csv:3"],
                  ["more values than the header", "cards.csv:4"],
                  ["unknown colour 'teal'", "card 1", "also card #2"]):
        assert sum(all(w in line for w in words) for line in lines) == 1, (words, lines)
    assert len(lines) == 6, lines


def test_the_first_twenty_are_shown_and_the_rest_counted(mini, tmp_path):
    (mini / "cards.csv").write_text("name,color,qty\n" + "".join(
        f"C{i},red,q{i}\n" for i in range(1, 26)))
    result, lines, _ = build(mini, tmp_path)
    assert result.exit_code == 2 and len(lines) == 21
    assert lines[0] == "error: qty must be a whole number, not 'q1' (cards.csv:2)"
    assert lines[19] == "error: qty must be a whole number, not 'q20' (cards.csv:21)"
    assert lines[20] == "error: 5 more mistakes not shown (25 in all)"


def test_the_library_raises_one_error_carrying_all(mini):
    (mini / "cards.csv").write_text("name,color,qty\nAlpha,red,x\nBeta,red,y\n")
    with pytest.raises(PnpError) as e:
        load(mini)
    assert [str(x) for x in e.value.errors] == [
        "qty must be a whole number, not 'x' (cards.csv:2)",
        "qty must be a whole number, not 'y' (cards.csv:3)"]
    assert (e.value.what, e.value.where) == ("qty must be a whole number, not 'x'", "cards.csv:2")
