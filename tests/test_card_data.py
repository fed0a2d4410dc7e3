"""Card lists as spreadsheets write them: .xlsx sheets, semicolon and tab CSVs, trailing empty
columns and rows, and files that are not what their names say."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from generator.cli import main
from pnp_model.definition import load
from pnp_model.errors import PnpError

EXPECTED = [("Alpha", "red"), ("Alpha", "red"), ("Beta", "#00ff00"),
            ("Gamma", "team"), ("Gamma", "team"), ("Gamma", "team")]


def cards_of(root: Path) -> list[tuple[str, str]]:
    return [(c["name"], c["color"]) for c in load(root).cards]


def use_file(root: Path, name: str, extra: str = "") -> None:
    toml = root / "game.toml"
    toml.write_text(toml.read_text().replace('file = "cards.csv"', f'file = "{name}"{extra}', 1))


def workbook(path: Path, sheets: dict[str, list[list[object]]]) -> None:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        ws = book.create_sheet(title)
        for row in rows:
            ws.append(row)
    book.save(path)


ROWS = [["name", "color", "qty"], ["Alpha", "red", 2], ["Beta", "#00ff00", 1.0],
        ["Gamma", "team", 3]]


@pytest.mark.parametrize("text", [
    "name;color;qty\nAlpha;red;2\nBeta;#00ff00;1\nGamma;team;3\n",
    "name\tcolor\tqty\nAlpha\tred\t2\nBeta\t#00ff00\t1\nGamma\tteam\t3\n",
    # Excel and Google Sheets exports: trailing empty columns and rows, CRLF line ends
    "name,color,qty,,\r\nAlpha,red,2,,\r\nBeta,#00ff00,1,,\r\nGamma,team,3,,\r\n,,,,\r\n,,,,\r\n",
    'name;color;qty;\nAlpha;red;2;\n"Beta";"#00ff00";"1";\nGamma;team;3;\n;;;\n',
    # the delimiter hint line Excel writes and reads
    "sep=;\r\nname;color;qty\r\nAlpha;red;2\r\nBeta;#00ff00;1\r\nGamma;team;3\r\n",
])
def test_spreadsheet_csv_exports_load(mini, text):
    (mini / "cards.csv").write_text(text, newline="")
    assert cards_of(mini) == EXPECTED


def test_a_semicolon_csv_with_commas_in_its_text_keeps_them(mini):
    (mini / "cards.csv").write_text("name;color;qty\n\"Alpha, the first\";red;1\nBeta, too;blue;1\n")
    assert [c["name"] for c in load(mini).cards] == ["Alpha, the first", "Beta, too"]


def test_a_value_beyond_the_header_is_still_refused_with_its_line(mini):
    (mini / "cards.csv").write_text("name;color;qty;;\nAlpha;red;2;;\nBeta;blue;1;;oops\n")
    with pytest.raises(PnpError, match=r"more values than the header .*'oops' \(cards.csv:3\)"):
        load(mini)


def test_an_xlsx_first_sheet_loads_with_numbers_as_shown(mini):
    workbook(mini / "cards.xlsx", {"Cards": ROWS + [[None, None, None]], "Notes": [["x"]]})
    use_file(mini, "cards.xlsx")
    assert cards_of(mini) == EXPECTED


def test_an_xlsx_named_sheet_and_its_cell_values(mini):
    workbook(mini / "cards.xlsx", {
        "Notes": [["nothing here"]],
        "Cards": [["name", "color", "qty", "cost", "when", "flag"],
                  ["Alpha", "red", 1, 2.5, dt.date(2024, 5, 1), True]]})
    use_file(mini, "cards.xlsx", '\nsheet = "Cards"')
    card = load(mini).cards[0]
    assert (card["cost"], card["when"], card["flag"]) == ("2.5", "2024-05-01", "TRUE")


def test_an_unknown_sheet_lists_the_sheets(mini):
    workbook(mini / "cards.xlsx", {"Cards": ROWS, "Notes": [["x"]]})
    use_file(mini, "cards.xlsx", '\nsheet = "Cardz"')
    with pytest.raises(PnpError, match=r"no sheet 'Cardz' .*sheets: Cards, Notes.*cards.xlsx"):
        load(mini)


def test_an_xlsx_row_mistake_names_sheet_and_row(mini):
    workbook(mini / "cards.xlsx", {"Cards": [["name", "color", "qty"], ["Alpha", "red", "x"]]})
    use_file(mini, "cards.xlsx")
    with pytest.raises(PnpError, match=r"qty must be a whole number.*\(cards.xlsx\[Cards\]:2\)"):
        load(mini)


def test_an_xlsx_game_builds_from_the_command_line(mini, tmp_path):
    workbook(mini / "cards.xlsx", {"Cards": ROWS})
    use_file(mini, "cards.xlsx")
    (mini / "cards.csv").unlink()
    out = tmp_path / "x.pdf"
    result = CliRunner().invoke(main, ["build", str(mini), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "6 cards" in result.output and out.stat().st_size > 1000


@pytest.mark.parametrize("name, content, words", [
    ("cards.csv", "xlsx", ["is an Excel workbook, not CSV text", "name it cards.xlsx", "(cards.csv)"]),
    ("cards.xlsx", "csv", ["is CSV text, not an Excel workbook", "name it cards.csv",
                           "(cards.xlsx)"]),
    ("cards.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ["is an image, not CSV text",
                                                          "(cards.csv)"]),
    ("cards.csv", b"\x00\x01\x02binary\x00", ["is binary data, not CSV text", "(cards.csv)"]),
    ("cards.csv", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(64), ["old-format", ".xls"]),
    ("cards.csv", "name,color\nAlpha,red\n".encode("utf-16"), ["UTF-16 text"]),
    ("cards.xlsx", b"PK\x03\x04garbage", ["damaged ZIP archive", "not an Excel workbook"]),
])
def test_a_file_that_is_not_what_its_name_says_is_named_as_such(mini, tmp_path, name, content,
                                                                words):
    target = mini / name
    if content == "xlsx":
        workbook(target, {"Cards": ROWS})
    elif content == "csv":
        target.write_text((mini / "cards.csv").read_text())
    else:
        target.write_bytes(content)
    use_file(mini, name)
    result = CliRunner().invoke(main, ["build", str(mini), "-o", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    for word in words:
        assert word in lines[0]
    assert not (tmp_path / "x.pdf").exists()


def test_a_sheet_for_a_csv_is_a_mistake_not_ignored(mini):
    use_file(mini, "cards.csv", '\nsheet = "Cards"')
    with pytest.raises(PnpError, match=r"sheet applies to an .xlsx workbook; .*\(cards.csv sheet\)"):
        load(mini)


def test_lines_are_counted_from_the_top_of_the_file_with_a_sep_hint(mini):
    (mini / "cards.csv").write_text("sep=,\nname,color,qty\nAlpha,red,2\nBeta,red,x\n")
    with pytest.raises(PnpError, match=r"not 'x' \(cards.csv:4\)"):
        load(mini)


def test_a_workbook_whose_stated_size_is_wrong_is_read_whole(mini):
    """Some exporters write <dimension ref="A1"/> whatever the sheet holds."""
    import re
    import zipfile

    workbook(mini / "made.xlsx", {"Cards": ROWS})
    with zipfile.ZipFile(mini / "made.xlsx") as src, \
            zipfile.ZipFile(mini / "cards.xlsx", "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename.startswith("xl/worksheets/"):
                data, n = re.subn(rb'<dimension ref="[^"]*"', b'<dimension ref="A1"', data)
                assert n == 1
            dst.writestr(item, data)
    use_file(mini, "cards.xlsx")
    assert cards_of(mini) == EXPECTED
