"""Numbers no printer can use (nan, inf, 1e308), nesting no parser survives, sizes no memory
holds and misspelt source options: each is one line `error: ...` with exit code 2."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from generator.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def one_line_error(result, *words: str) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def edit(mini, old: str, new: str) -> None:
    toml = mini / "game.toml"
    text = toml.read_text()
    assert old in text
    toml.write_text(text.replace(old, new, 1))


TEXT_ELEMENT = 'type = "text"\n'


@pytest.mark.parametrize("old, new, key", [
    ('corner_radius = "3mm"', "corner_radius = nan", "corner_radius"),
    ('corner_radius = "3mm"', "corner_radius = inf", "corner_radius"),
    ('corner_radius = "3mm"', "corner_radius = 1e308", "corner_radius"),
    ('corner_radius = "3mm"', "corner_radius = 10_000_000_000_000_000_000_000_000_000_000",
     "corner_radius"),
    ('size = "poker"', 'size = "63x' + "9" * 400 + 'mm"', "size"),
    ('size = "poker"', 'size = "6000x88mm"', "size"),
    ("[colors]", '[print]\nbleed = nan\n[colors]', "bleed"),
    ("[colors]", '[print]\ngutter = -inf\n[colors]', "gutter"),
    ("[colors]", '[print]\nback_offset = [nan, "0mm"]\n[colors]', "back_offset"),
    (TEXT_ELEMENT, TEXT_ELEMENT + "rotate = nan\n", "rotate"),
    (TEXT_ELEMENT, TEXT_ELEMENT + "rotate = 1e308\n", "rotate"),
    (TEXT_ELEMENT, TEXT_ELEMENT + "w = inf\n", ".w"),
    (TEXT_ELEMENT, TEXT_ELEMENT + 'w = "1e999%"\n', ".w"),
    (TEXT_ELEMENT, TEXT_ELEMENT + 'leading = "nan%"\n', "leading"),
    ("size = 12", "size = nan", ".size"),
    ("size = 12", "size = 1e308", ".size"),
])
def test_nan_inf_and_huge_numbers_are_one_line_errors(mini, old, new, key):
    edit(mini, old, new)
    one_line_error(run("build", mini, "-o", mini / "out.pdf"), key)
    assert not (mini / "out.pdf").exists()


def test_a_length_up_to_the_largest_pdf_page_is_still_fine(mini, tmp_path):
    edit(mini, 'size = "poker"', 'size = "5080mm x 200in"')
    result = run("build", mini, "--single", "--bleed", "0mm", "--part", "all", "-o", tmp_path / "big.pdf")
    assert result.exit_code == 0, result.output


def test_deeply_nested_toml_is_a_one_line_error(mini):
    (mini / "game.toml").write_text("[game]\ntitle = " + "[" * 5000 + "]" * 5000 + "\n")
    one_line_error(run("build", mini), "nested too deeply", "game.toml")


@pytest.mark.parametrize("key", [".".join(f"k{i}" for i in range(5000)),
                                 ".".join(f"k{i}" for i in range(33))])
def test_a_table_key_of_thousands_of_dotted_parts_is_a_one_line_error(mini, key):
    """tomllib reads `[k0.k1. ... .k4999]`; what walks the definition after it must not end in
    a RecursionError traceback. 33 parts: past the limit of 32 (the bundled games nest 5)."""
    toml = mini / "game.toml"
    toml.write_text(f"[{key}]\nx = 1\n" + toml.read_text())
    one_line_error(run("build", mini, "-o", mini / "out.pdf"), "nested more than 32 deep",
                   "game.toml k0.k1.k2")
    assert not (mini / "out.pdf").exists()


def test_a_table_key_nested_up_to_the_limit_is_read_as_any_other(mini):
    """Within the limit the key reaches the definition's own checks (an unknown table)."""
    toml = mini / "game.toml"
    toml.write_text("[" + ".".join(f"k{i}" for i in range(32)) + "]\nx = 1\n" + toml.read_text())
    one_line_error(run("build", mini, "-o", mini / "out.pdf"), "unknown table [k0]")


SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">{}</svg>'


@pytest.mark.parametrize("shape", [
    '<rect x="nan" y="20" width="80" height="30"/>',
    '<rect x="10" y="20" width="1e308" height="30"/>',
    '<circle cx="inf" cy="50" r="10"/>',
    '<g transform="scale(1e308)"><rect x="1" y="1" width="5" height="5"/></g>',
])
def test_an_svg_coordinate_that_is_not_a_number_names_the_file(tmp_path, shape):
    art = tmp_path / "art"
    art.mkdir()
    for i in range(7):
        body = shape if i == 3 else '<rect x="10" y="20" width="80" height="30"/>'
        (art / f"s{i}.svg").write_text(SVG.format(body))
    (tmp_path / "game.toml").write_text('[deck]\nsource = "plane"\nshape = "circle"\n'
                                        'size = "60x60mm"\noptions = { order = 2, symbols = '
                                        '"folder:art" }\n[[face]]\ntype = "symbols"\n')
    one_line_error(run("build", tmp_path, "-o", tmp_path / "out.pdf"), "s3.svg", "SVG")


def use_bomb(levels: int, each: int) -> str:
    """`levels` groups each drawing the one before `each` times through <use>."""
    groups = ['<g id="a0"><rect x="1" y="1" width="5" height="5"/></g>']
    groups += [f'<g id="a{i}">' + f'<use xlink:href="#a{i - 1}"/>' * each + "</g>"
               for i in range(1, levels)]
    return SVG.format("<defs>" + "".join(groups) + f'</defs><use href="#a{levels - 1}"/>').replace(
        "<svg ", '<svg xmlns:xlink="http://www.w3.org/1999/xlink" ', 1)


def svg_image_game(mini, svg: str):
    (mini / "art.svg").write_text(svg)
    edit(mini, TEXT_ELEMENT, 'type = "image"\nfile = "art.svg"\nw = "20mm"\nh = "20mm"\n'
                             '[[face]]\n' + TEXT_ELEMENT)


def test_an_svg_use_bomb_is_a_one_line_error_quickly(mini):
    """Ten levels of ten nested <use> (10^9 rectangles in 1.9 KB) took 17-34 s in svglib and
    printed its own log line; refused before svglib reads it."""
    import time

    svg_image_game(mini, use_bomb(10, 10))
    start = time.monotonic()
    result = run("build", mini, "-o", mini / "out.pdf")
    one_line_error(result, "more than 2,000 <use> references", "art.svg")
    assert time.monotonic() - start < 10
    assert not (mini / "out.pdf").exists()


def test_an_svg_use_that_draws_itself_is_a_one_line_error(mini):
    svg_image_game(mini, SVG.format('<g id="a"><rect width="5" height="5"/><use href="#a"/></g>'))
    one_line_error(run("build", mini, "-o", mini / "out.pdf"), "draws itself", "art.svg")


def test_an_svg_with_uses_within_the_limit_builds(mini):
    svg_image_game(mini, use_bomb(3, 10))  # 110 <use> expanded
    result = run("build", mini, "-o", mini / "out.pdf")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("source, options, key, known", [
    ("dominoes", "{ max = 6, maxx = 9 }", "maxx", "max"),
    ("triangles", "{ max = 5, size = 3 }", "size", "max"),
    ("csv", '{ file = "cards.csv", delimiter = ";" }', "delimiter", "file"),
    ("plane", "{ order = 2, colour = 'red' }", "colour", "cards, colors, order, per_card"),
])
def test_an_unknown_source_option_is_refused_naming_it_and_the_known_ones(mini, source, options,
                                                                          key, known):
    edit(mini, 'source = "csv"\nfile = "cards.csv"',
         f'source = "{source}"\noptions = {options}')
    edit(mini, 'text = "{name}"', 'text = "{id}"')
    edit(mini, 'fill = "{color}"', 'fill = "red"')
    line = one_line_error(run("build", mini, "-o", mini / "out.pdf"), repr(key), f"options.{key}")
    assert f"known: {known}" in line


def test_a_deck_over_the_card_limit_is_refused_with_its_size(mini):
    (mini / "cards.csv").write_text("name,color,qty\n" + "".join(f"N{i},red,10000\n"
                                                                  for i in range(100)))
    one_line_error(run("build", mini), "1,000,000 cards", "limit of 20,000", "cards.csv")


def test_a_deck_at_the_card_limit_loads(mini):
    from pnp_model.definition import load

    (mini / "cards.csv").write_text("name,color,qty\nA,red,10000\nB,red,10000\n")
    assert len(load(mini).cards) == 20_000


def test_a_preview_too_large_to_hold_in_memory_is_refused_with_its_size(mini, tmp_path):
    edit(mini, 'size = "poker"', 'size = "3000x3000mm"')
    out = tmp_path / "big.png"
    one_line_error(run("preview", mini, "--card", "1", "--dpi", "600", "-o", out),
                   "70,866×70,866 pixels", "--dpi")
    assert not out.exists()


@pytest.mark.parametrize("box", ['w = 0', 'h = "-307mm"', 'h = 2e-279'])
def test_a_symbols_box_without_room_is_a_one_line_error(mini, box):
    (mini / "cards.csv").write_text("name,color,symbols\nAlpha,red,sun moon\n")
    edit(mini, TEXT_ELEMENT, f'type = "symbols"\n{box}\n[[face]]\n' + TEXT_ELEMENT)
    one_line_error(run("build", mini, "-o", mini / "out.pdf"), "symbols box", "card 1")


def test_an_image_without_a_file_is_a_one_line_error(mini):
    edit(mini, TEXT_ELEMENT, 'type = "image"\n[[face]]\n' + TEXT_ELEMENT)
    one_line_error(run("build", mini, "-o", mini / "out.pdf"), "image needs file", "(image)")
