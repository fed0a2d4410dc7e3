"""Card lists as designers keep them: CSV from any spreadsheet (`,` `;` or tab) or an .xlsx.

Excel and Google Sheets exports carry trailing empty columns and rows, European Excel writes
semicolons, and a workbook is easily saved under the wrong name: each of these either just
works or is named for what it is, never reported as a misleading column count.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from pnp_model.errors import PnpError, read_text
from pnp_model.input_limits import check_workbook, long_cell, too_big
from pnp_model.problems import record
from pnp_shared import limits

DELIMITERS = (",", ";", "\t")
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
TEXT_SUFFIXES = (".csv", ".tsv", ".txt")
_SEP_HINT = re.compile(r"^sep=(.)\r?\n")


@dataclass(frozen=True)
class Table:
    """A header and its rows of values, each row with where it came from (file:line)."""

    header: list[str]
    rows: list[tuple[str, list[str]]]


def content_kind(data: bytes) -> str:
    """What a file's bytes are, whatever its name says: 'xlsx', 'text' or a description."""
    if data.startswith(b"PK\x03\x04"):
        import zipfile  # only for a workbook: the referee reads CSV card lists on every command

        try:
            names = zipfile.ZipFile(io.BytesIO(data)).namelist()
        except zipfile.BadZipFile:
            return "a damaged ZIP archive"
        if any(n.startswith("xl/") for n in names):
            return "xlsx"
        if "content.xml" in names:
            return "an OpenDocument spreadsheet (.ods)"
        return "a ZIP archive"
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        return "an old-format or password-protected Excel workbook (.xls)"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16 text (Excel's \"Unicode Text\")"
    if data.startswith(b"%PDF"):
        return "a PDF document"
    if data.startswith((b"\x89PNG", b"\xff\xd8\xff", b"GIF8")):
        return "an image"
    if b"\x00" in data[:8192]:
        return "binary data"
    return "text"


def read_table(path: Path, sheet: str | None = None) -> Table:
    """The header and rows of a card list, read by what the file is; a file that is not what
    its name says is a PnpError saying what it is."""
    too_big(path, limits.MAX_TABLE_BYTES, "the card list", path.name)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise PnpError(f"cannot read the file: {e.strerror}", path.name) from None
    kind = content_kind(data)
    workbook_name = path.suffix.lower() in WORKBOOK_SUFFIXES
    if kind == "xlsx" and path.suffix.lower() in TEXT_SUFFIXES:
        raise PnpError(f"the file is an Excel workbook, not CSV text as its name says: name it "
                       f"{path.stem}.xlsx (or export the sheet as CSV)", path.name)
    if kind == "xlsx":
        return _workbook_table(data, path.name, sheet)
    if workbook_name:
        hint = f": name it {path.stem}.csv" if kind == "text" else ""
        raise PnpError(f"the file is {'CSV text' if kind == 'text' else kind}, not an Excel "
                       f"workbook as its name says{hint}", path.name)
    if kind != "text":
        raise PnpError(f"the file is {kind}, not CSV text: save the sheet as .xlsx or as "
                       "CSV UTF-8", path.name)
    if sheet is not None:
        raise PnpError("sheet applies to an .xlsx workbook; a CSV file has one table",
                       f"{path.name} sheet")
    return _csv_table(read_text(path), path.name)


def sniff_delimiter(text: str) -> str:
    """The delimiter of a CSV: whichever of , ; tab splits its header line into the most
    columns (quotes respected); a comma when none does."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        counts = {d: len(next(csv.reader([first], delimiter=d), [])) for d in DELIMITERS}
    except csv.Error:  # a header cell past csv's own limit: _csv_table names it
        return ","
    best = max(DELIMITERS, key=lambda d: counts[d])  # max keeps the first of equals: a comma
    return best if counts[best] > 1 else ","


def _csv_table(text: str, name: str) -> Table:
    return _table(csv_records(text, name), name, whole_rows=True)


def csv_records(text: str, name: str) -> list[tuple[str, list[str]]]:
    """Each line of CSV text as (file:line, values), the delimiter found as a spreadsheet
    wrote it (`sep=` first line, else `,` `;` or tab): every CSV a user gives is read alike."""
    lines = io.StringIO(text, newline="")
    hint = _SEP_HINT.match(text)  # Excel's "sep=;" first line names the delimiter
    if hint:
        lines.readline()
    reader = csv.reader(lines, delimiter=hint.group(1) if hint else sniff_delimiter(text),
                        strict=True)
    records: list[tuple[str, list[str]]] = []
    skipped = 1 if hint else 0
    try:
        for values in reader:
            where = f"{name}:{reader.line_num + skipped}"
            for value in values:
                long_cell(value, where)
            records.append((where, values))
    except csv.Error as e:
        if "field larger" in str(e):  # csv's own limit, far past ours
            raise PnpError(f"a cell of more than {csv.field_size_limit():,} characters, past the "
                           f"limit of {limits.MAX_CELL_CHARS:,}",
                           f"{name}:{reader.line_num + skipped}") from None
        raise PnpError(f"malformed CSV: {e} (a quote opened and never closed?)",
                       f"{name}:{reader.line_num + skipped}") from None
    return records


def _workbook_table(data: bytes, name: str, sheet: str | None) -> Table:
    import openpyxl

    check_workbook(data, name)
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as e:  # openpyxl raises many types for a damaged workbook
        raise PnpError(f"cannot read the workbook ({type(e).__name__}): save it again from "
                       "the spreadsheet as .xlsx", name) from None
    try:
        if sheet is None:
            ws = book.worksheets[0]
        elif sheet in book.sheetnames:
            ws = book[sheet]
        else:
            raise PnpError(f"no sheet {sheet!r} in the workbook (sheets: "
                           f"{', '.join(book.sheetnames)})", f"{name} sheet")
        ws.reset_dimensions()  # some exporters state a size of A1 whatever the sheet holds
        label = f"{name}[{ws.title}]"
        records = _sheet_records(ws, label, name)
    finally:
        book.close()
    return _table(records, label)


def _sheet_records(ws, label: str, name: str) -> list[tuple[str, list[str]]]:
    """Each row of the sheet as text, within the cell limits; a sheet that cannot be read
    to its end is a PnpError naming the workbook."""
    records, cells = [], 0
    try:
        for i, row in enumerate(ws.iter_rows(values_only=True), 1):
            cells += len(row)
            if cells > limits.MAX_SHEET_CELLS:
                raise PnpError(f"the sheet has more than {limits.MAX_SHEET_CELLS:,} cells "
                               "(empty ones included): delete the unused rows and columns",
                               f"{label}:{i}")
            values = [cell_text(v) for v in row]
            for value in values:
                long_cell(value, f"{label}:{i}")
            records.append((f"{label}:{i}", values))
    except PnpError:
        raise
    except Exception as e:  # openpyxl and its XML parser raise many types for a damaged sheet
        raise PnpError(f"cannot read the workbook ({type(e).__name__}): save it again from "
                       "the spreadsheet as .xlsx", name) from None
    return records


def cell_text(value: object) -> str:
    """A workbook cell as the spreadsheet shows it: 3 not 3.0, dates as 2024-05-01."""
    import datetime as dt
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.15g}"
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return str(value)


def _table(records: list[tuple[str, list[str]]], name: str, whole_rows: bool = False) -> Table:
    """Header and rows, with trailing empty columns and empty rows left out (spreadsheet
    exports have them); a value beyond the header's last named column is an error, and so,
    with whole_rows (CSV text: spreadsheets write every column, empty ones as `,,`), is a
    line with fewer values than the header: one value left out moves the others under the
    wrong columns."""
    records = [(where, [v.strip() for v in values]) for where, values in records]
    records = [(where, values) for where, values in records if any(values)]
    if not records:
        raise PnpError("the card list is empty (it needs a header line)", name)
    header_where, header = records[0]
    while header and not header[-1]:
        header.pop()
    if len(set(header)) != len(header) or "" in header:
        raise PnpError(f"the header has an empty or repeated column: {header}", header_where)
    width = _widest_line(records, header) if whole_rows else len(header)
    rows = []
    for where, values in records[1:]:
        extra = [v for v in values[width:] if v]
        if extra:  # a bad line is named and left out; the others are still read
            record(PnpError(f"this line has more values than the header has columns "
                            f"({width}: {', '.join(header)}); extra {extra[0]!r}", where))
            continue
        if whole_rows and len(values) < width:
            record(PnpError(f"this line has {len(values)} values and the header {width} "
                            f"columns ({', '.join(header)}): write an empty one as ,, so "
                            f"that each value stays under its column", where))
            continue
        rows.append((where, values[:width] + [""] * (width - len(values))))
    return Table(header, rows)


def _widest_line(records: list[tuple[str, list[str]]], header: list[str]) -> int:
    """The columns to read: the header's, unless no line reaches its last ones (a column
    added to the header alone): that is one mistake of the header, named once, not one per
    line, and the lines are read under the columns they fill."""
    widest = max((len(values) for _, values in records[1:]), default=len(header))
    if widest >= len(header):
        return len(header)
    extra = header[widest:]
    record(PnpError(f"the header has {len(header)} columns and no line more than {widest} "
                    f"values: extra column{'s' if len(extra) > 1 else ''} "
                    f"{', '.join(map(repr, extra))} (give each line a value for it, an empty "
                    "one as ,, or remove it from the header)", records[0][0]))
    del header[widest:]
    return widest
