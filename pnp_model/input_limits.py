"""The size limits of pnp_shared.limits applied to what a definition reads: its game.toml, its
card list (CSV or workbook), its numbers. Pure Python (no reportlab), like the loader.

Why before the parsers: tomllib, csv and openpyxl fail on hostile sizes with their own
exceptions (a 4,301-digit integer, a 128 KiB field, an undefined entity) or take gigabytes
first (a workbook inflating to 1 GiB); each is refused here as one line naming the file.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from pnp_model.errors import PnpError, read_text
from pnp_shared import limits
from pnp_shared.digits import digit_name, foreign_digit

_LONG_INTEGER = re.compile(r"\d(?:_?\d){4300,}", re.ASCII)


def too_big(path: Path, most: int, what: str, where: str) -> None:
    """A PnpError when the file is larger than `most` bytes."""
    try:
        size = path.stat().st_size
    except OSError:
        return  # the reader names a file it cannot open
    if size > most:
        raise PnpError(f"{what} is {size:,} bytes, more than the limit of {most:,}", where)


def read_toml(path: Path, where: str) -> dict[str, Any]:
    """game.toml parsed, within the size, digit and text limits."""
    too_big(path, limits.MAX_DEFINITION_BYTES, "the definition", where)
    text = read_text(path, where)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PnpError(f"malformed TOML: {e}", where) from None
    except RecursionError:
        raise PnpError("malformed TOML: arrays or tables nested too deeply", where) from None
    except ValueError:  # Python's limit of 4,300 digits for an integer, under any key
        m = _LONG_INTEGER.search(text)
        line = f":{text.count(chr(10), 0, m.start()) + 1}" if m else ""
        raise PnpError("an integer of more than 4,300 digits: no value takes one",
                       f"{where}{line}") from None
    nesting(data, where)
    long_text(data, where)
    return data


def nesting(data: dict[str, Any], where: str) -> None:
    """A PnpError naming the first key nested deeper than MAX_TOML_DEPTH (tables, arrays and
    the parts of a dotted key alike): every reader of the definition walks it recursively.
    Walked without recursion, so the check itself cannot fail as they would."""
    todo: list[tuple[Any, int, str]] = [(data, 0, "")]
    while todo:
        value, depth, key = todo.pop()
        if depth > limits.MAX_TOML_DEPTH and isinstance(value, dict | list):
            shown = key if len(key) <= 80 else f"{key[:80]}…"
            raise PnpError(f"tables or arrays nested more than {limits.MAX_TOML_DEPTH} deep: no "
                           "definition needs that", f"{where} {shown}")
        if isinstance(value, dict):
            todo += [(v, depth + 1, f"{key}.{k}" if key else str(k)) for k, v in value.items()]
        elif isinstance(value, list):
            todo += [(v, depth + 1, f"{key}[{i}]") for i, v in enumerate(value)]


def long_text(value: Any, where: str, key: str = "") -> None:
    """A PnpError naming the first key whose text is longer than MAX_TEXT_CHARS."""
    if isinstance(value, str):
        if len(value) > limits.MAX_TEXT_CHARS:
            raise PnpError(f"a text of {len(value):,} characters, more than the limit of "
                           f"{limits.MAX_TEXT_CHARS:,}", f"{where} {key}".strip())
    elif isinstance(value, dict):
        for k, v in value.items():
            long_text(str(k), where, key)
            long_text(v, where, f"{key}.{k}" if key else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            long_text(v, where, f"{key}[{i}]")


def long_cell(value: str, where: str) -> None:
    """A PnpError when one cell of a card list is longer than MAX_CELL_CHARS."""
    if len(value) > limits.MAX_CELL_CHARS:
        raise PnpError(f"a cell of {len(value):,} characters, more than the limit of "
                       f"{limits.MAX_CELL_CHARS:,}", where)


def check_workbook(data: bytes, name: str) -> None:
    """Refuse a workbook too large once unpacked, or one whose XML declares anything (a
    spreadsheet program never writes a DOCTYPE; an entity is an attack or a broken file)."""
    import io
    import zipfile

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return  # openpyxl names a damaged workbook
    with archive:
        entries = archive.infolist()
        inflated = sum(e.file_size for e in entries)
        if inflated > limits.MAX_WORKBOOK_BYTES:
            raise PnpError(f"the workbook unpacks to {inflated:,} bytes, more than the limit "
                           f"of {limits.MAX_WORKBOOK_BYTES:,}", name)
        for entry in entries:
            if not entry.filename.endswith((".xml", ".rels")):
                continue
            with archive.open(entry) as part:
                head = part.read(limits.MAX_WORKBOOK_BYTES + 1)  # bounded by file_size above
            if len(head) > limits.MAX_WORKBOOK_BYTES or b"<!DOCTYPE" in head or \
                    b"<!ENTITY" in head:
                raise PnpError(f"the workbook's {entry.filename} declares XML entities or a "
                               "DOCTYPE, which no spreadsheet writes: save it again from the "
                               "spreadsheet as .xlsx", name)


def ascii_digits(text: str, what: str, where: str) -> None:
    """A PnpError when a number is written with digits other than 0-9 (pnp_shared.digits)."""
    ch = foreign_digit(text)
    if ch is not None:
        raise PnpError(f"{what} {text[:40]!r} holds the digit {digit_name(ch)}: write numbers "
                       "with the digits 0-9", where)
