"""Hostile definitions (issue 28): each was a traceback, gigabytes or minutes, or a silent
misreading; each is now one line `error: ...` naming the file, with exit code 2."""

from __future__ import annotations

import io
import zipfile

import pytest
from click.testing import CliRunner

from generator.cli import main
from pnp_shared import limits
from tests.test_hostile_values import edit
from tests.test_hostile_values import one_line_error as one_error_line

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">{}</svg>'
TEXT = 'type = "text"\n'


def build(folder):
    return CliRunner().invoke(main, ["build", str(folder), "-o", str(folder / "out.pdf")])


def one_line_error(result, *words: str) -> str:
    """The one error line (tests.test_hostile_values), no traceback, capped in length."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    line = one_error_line(result, *words)
    assert len(line) <= limits.MAX_ERROR_CHARS, len(line)
    return line


@pytest.mark.parametrize("where, line", [("[game]\n", 2), ("[colors]\n", None)])
def test_an_integer_over_4300_digits_under_any_key_names_its_line(mini, where, line):
    edit(mini, where, f"{where}unknown_key = {'9' * 5000}\n")
    text = one_line_error(build(mini), "4,300 digits", "game.toml")
    if line:
        assert f"game.toml:{line})" in text


@pytest.mark.parametrize("w", ['"-3mm"', '"-50%"'])
def test_a_negative_text_box_width_is_refused(mini, w):
    edit(mini, 'text = "{name}"', 'text = "**{name}** and more"')
    edit(mini, TEXT, f"{TEXT}w = {w}\n")
    one_line_error(build(mini), "cannot be negative", ".w")


def test_a_negative_text_box_width_from_a_column_names_the_card(mini):
    (mini / "cards.csv").write_text("name,color,width\nAlpha,red,20mm\nBeta,red,-4mm\n")
    edit(mini, TEXT, f'{TEXT}w = "{{width}}"\n')
    one_line_error(build(mini), "cannot be negative", "card 2")


def test_a_csv_header_past_the_csv_module_field_limit_is_a_one_line_error(mini):
    (mini / "cards.csv").write_text("name,color,qty," + "x" * 140_000 + "\nA,red,1\n")
    one_line_error(build(mini), "cards.csv:1", f"limit of {limits.MAX_CELL_CHARS:,}")


def test_a_cell_over_the_limit_is_refused_without_echoing_it(mini):
    (mini / "cards.csv").write_text("name,color,qty\nA,red," + "z" * 100_000 + "\n")
    line = one_line_error(build(mini), "cards.csv:2", "100,000 characters")
    assert "zzzz" not in line


@pytest.mark.parametrize("shape", [
    '<g transform="scale(1e308)"><rect x="1" y="1" width="5" height="5"/></g>',
    '<circle cx="inf" cy="50" r="10"/>',
])
def test_an_inline_icon_svg_with_coordinates_past_any_page_names_the_file(mini, shape):
    edit(mini, 'text = "{name}"', 'text = "{name} :ic:"')
    (mini / "game.toml").write_text((mini / "game.toml").read_text() + '[icons]\nic = "ic.svg"\n')
    (mini / "ic.svg").write_text(SVG.format(shape))
    one_line_error(build(mini), "ic.svg", "coordinate")


def _workbook(path, edit_part) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    for row in [("name", "color", "qty"), ("A", "red", 1), ("B", "red", 2)]:
        wb.active.append(row)
    tmp = io.BytesIO()
    wb.save(tmp)
    source = zipfile.ZipFile(tmp)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name in source.namelist():
            data = source.read(name)
            out.writestr(name, edit_part(name, data))


def _entity(name: str, data: bytes) -> bytes:
    if name != "xl/worksheets/sheet1.xml":
        return data
    return data.replace(b"<worksheet", b'<!DOCTYPE worksheet [<!ENTITY e SYSTEM '
                        b'"file:///etc/passwd">]><worksheet', 1).replace(b"<t>A</t>", b"<t>&e;</t>")


def test_a_workbook_declaring_an_xml_entity_is_refused(mini):
    _workbook(mini / "cards.xlsx", _entity)
    edit(mini, 'file = "cards.csv"', 'file = "cards.xlsx"')
    line = one_line_error(build(mini), "cards.xlsx", "entities")
    assert "root:" not in line


def test_a_workbook_inflating_past_the_limit_is_refused_before_it_is_read(mini):
    def inflated(name: str, data: bytes) -> bytes:
        if name != "xl/worksheets/sheet1.xml":
            return data
        return data.replace(b"</sheetData>", b"</sheetData><!--" + b" " * 60_000_000 + b"-->")

    _workbook(mini / "cards.xlsx", inflated)
    assert (mini / "cards.xlsx").stat().st_size < 1_000_000
    edit(mini, 'file = "cards.csv"', 'file = "cards.xlsx"')
    one_line_error(build(mini), "cards.xlsx", "unpacks to", f"{limits.MAX_WORKBOOK_BYTES:,}")


def _svg_image(mini, body: str) -> None:
    edit(mini, TEXT, 'type = "image"\nfile = "art.svg"\nw = "20mm"\nh = "20mm"\n[[face]]\n'
         + TEXT)
    (mini / "art.svg").write_text(SVG.format(body))


def test_an_svg_of_more_elements_than_the_limit_is_refused(mini):
    _svg_image(mini, '<circle cx="5" cy="5" r="1"/>' * (limits.MAX_SVG_ELEMENTS + 1))
    one_line_error(build(mini), "art.svg", "elements", f"{limits.MAX_SVG_ELEMENTS:,}")


def test_a_path_of_more_points_than_the_limit_is_refused(mini):
    points = "".join(f" L{i % 100} {i * 7 % 100}" for i in range(limits.MAX_SVG_NUMBERS // 2 + 1))
    _svg_image(mini, f'<path d="M0 0{points}"/>')
    one_line_error(build(mini), "art.svg", "numbers")


def test_a_text_of_more_icons_than_the_limit_is_refused(mini):
    edit(mini, 'text = "{name}"', 'text = "{name} {rules}"')
    (mini / "game.toml").write_text((mini / "game.toml").read_text()
                                    + '[icons]\nic = { shape = "heart" }\n')
    (mini / "cards.csv").write_text(f"name,color,rules\nA,red,{':ic:' * 1000}\n")
    one_line_error(build(mini), "icons", f"limit of {limits.MAX_INLINE_ICONS}", "card 1")


def test_a_png_of_more_pixels_than_the_limit_is_refused_before_it_is_decoded(mini):
    from PIL import Image

    edit(mini, TEXT, 'type = "image"\nfile = "huge.png"\nw = "20mm"\nh = "20mm"\n[[face]]\n' + TEXT)
    Image.new("1", (8_000, 8_000), 1).save(mini / "huge.png")  # 64 megapixels, a few KB
    one_line_error(build(mini), "huge.png", "8,000×8,000 pixels", f"{limits.MAX_ART_PIXELS:,}")


def test_a_raster_symbol_of_more_pixels_than_the_limit_is_refused(tmp_path):
    from PIL import Image

    art = tmp_path / "game" / "art"
    art.mkdir(parents=True)
    for i in range(6):
        ink = Image.new("RGBA", (8, 8), (0, 0, 0, 0))
        ink.paste((200, 0, 0, 255), (2, 2, 6, 6))
        ink.save(art / f"s{i}.png")
    Image.new("1", (4_000, 3_000), 1).save(art / "s6.png")  # 12 megapixels, a few KB
    (tmp_path / "game" / "game.toml").write_text(
        '[deck]\nsource = "plane"\nshape = "circle"\nsize = "60x60mm"\noptions = { order = 2, '
        'symbols = "folder:art" }\n[[face]]\ntype = "symbols"\n')
    one_line_error(build(tmp_path / "game"), "s6.png", f"{limits.MAX_SYMBOL_PIXELS:,}")


def test_a_title_of_20_mb_is_refused_by_the_definition_size(mini):
    edit(mini, 'title = "Mini"', f'title = "{"T" * 2_000_000}"')
    one_line_error(build(mini), "game.toml", f"{limits.MAX_DEFINITION_BYTES:,}")


def test_a_text_value_over_the_limit_names_its_key(mini):
    edit(mini, 'title = "Mini"', f'title = "{"T" * (limits.MAX_TEXT_CHARS + 1)}"')
    one_line_error(build(mini), "game.toml game.title", f"{limits.MAX_TEXT_CHARS:,}")


@pytest.mark.parametrize("qty, name", [("٣", "arabic-indic digit three"),
                                       ("３", "fullwidth digit three")])
def test_qty_in_other_scripts_digits_is_refused_naming_the_digit(mini, qty, name):
    (mini / "cards.csv").write_text(f"name,color,qty\nA,red,{qty}\nB,red,1\n")
    one_line_error(build(mini), name, "0-9", "cards.csv:2")


def test_a_length_in_fullwidth_digits_is_refused(mini):
    edit(mini, 'y = "20mm"', 'y = "２0mm"')
    one_line_error(build(mini), ".y")


def test_an_error_echoing_a_huge_value_is_capped(mini):
    (mini / "cards.csv").write_text("name,color,qty\nA," + "q" * 4_000 + ",1\n")
    one_line_error(build(mini))


# --- item 7: files outside the game's folder


@pytest.fixture
def secret(tmp_path):
    from PIL import Image

    folder = tmp_path / "private"
    folder.mkdir()
    Image.new("RGB", (8, 8), "red").save(folder / "secret.png")
    return folder / "secret.png"


def _image(mini, name: str) -> None:
    edit(mini, TEXT, f'type = "image"\nfile = "{name}"\nw = "20mm"\nh = "20mm"\n[[face]]\n'
         + TEXT)


@pytest.mark.parametrize("how", ["absolute", "dotdot", "symlink"])
def test_art_outside_the_game_folder_is_refused_naming_the_file(mini, secret, how):
    name = {"absolute": str(secret), "dotdot": "../private/secret.png",
            "symlink": "link.png"}[how]
    if how == "symlink":
        (mini / "link.png").symlink_to(secret)
    _image(mini, name)
    one_line_error(build(mini), repr(name), "outside the game's folder", "--allow-folder")
    assert not (mini / "out.pdf").exists()


def test_allow_folder_lets_the_user_read_art_elsewhere(mini, secret):
    _image(mini, str(secret))
    result = CliRunner().invoke(main, ["build", str(mini), "-o", str(mini / "out.pdf"),
                                       "--allow-folder", str(secret.parent)])
    assert result.exit_code == 0, result.output
    # allowed for that run only: the next build without the option refuses again
    one_line_error(build(mini), "outside the game's folder")


def test_an_assets_list_in_the_definition_allows_a_folder(mini, secret):
    _image(mini, "../private/secret.png")
    edit(mini, "[game]\n", '[game]\nassets = ["../private"]\n')
    result = build(mini)
    assert result.exit_code == 0, result.output


def test_a_card_list_or_icon_outside_the_folder_is_refused(mini, secret):
    (secret.parent / "cards.csv").write_text("name,color\nA,red\n")
    edit(mini, 'file = "cards.csv"', f'file = "{secret.parent / "cards.csv"}"')
    one_line_error(build(mini), "card list", "outside")
    edit(mini, f'file = "{secret.parent / "cards.csv"}"', 'file = "cards.csv"')
    (mini / "game.toml").write_text((mini / "game.toml").read_text()
                                    + '[icons]\nic = "../private/secret.png"\n')
    one_line_error(build(mini), "icon file", "outside")


def test_a_symbol_folder_holding_a_symlink_out_is_refused(tmp_path, secret):
    art = tmp_path / "game" / "art"
    art.mkdir(parents=True)
    for i in range(6):
        (art / f"s{i}.svg").write_text(SVG.format('<rect x="10" y="20" width="80" height="30"/>'))
    (art / "s6.png").symlink_to(secret)
    (tmp_path / "game" / "game.toml").write_text(
        '[deck]\nsource = "plane"\nshape = "circle"\nsize = "60x60mm"\noptions = { order = 2, '
        'symbols = "folder:art" }\n[[face]]\ntype = "symbols"\n')
    one_line_error(build(tmp_path / "game"), "'s6.png'", "outside")
