"""Where a deck's cards come from: a CSV file, or a combinatorial design computed in designs/.

A source turns its options into rows (fields, symbols, where-it-came-from). The definition
loader expands `qty`, numbers the cards and validates them; sources only produce rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp_model.art_folders import inside
from pnp_model.errors import PnpError
from pnp_model.remote import cached_copy, is_url
from pnp_model.tables import read_table


@dataclass(frozen=True)
class Row:
    fields: dict[str, str]
    symbols: tuple[str, ...] = ()
    where: str = ""


def check_options(options: dict[str, Any], known: tuple[str, ...], source: str, where: str) -> None:
    """Refuse an option the source does not take: a misspelt `maxx = 9` must not build the
    default set. `file` passes (the loader copies [deck] file into every source's options)."""
    unknown = sorted(set(options) - set(known) - {"file"})
    if unknown:
        raise PnpError(f"unknown option {unknown[0]!r} for a {source} source (known: "
                       f"{', '.join(sorted(known)) or 'none'})", f"{where}.options.{unknown[0]}")


def csv_rows(options: dict[str, Any], root: Path, where: str) -> list[Row]:
    """Rows of a card list with a header line: CSV (`,` `;` or tab) or an .xlsx sheet
    (`sheet = "Cards"`, else the first); empty rows and trailing empty columns are skipped."""
    check_options(options, ("file", "sheet"), "csv", where)
    name = options.get("file")
    if not name:
        raise PnpError("a csv source needs file = \"cards.csv\"", where)
    if is_url(str(name)):  # a published sheet: fetched only when allowed (pnp_model.remote)
        path = cached_copy(str(name), f"{where}.file")
    else:
        path = inside(root, str(name), f"{where}.file", "card list")
    if not path.is_file():
        raise PnpError(f"card list {name!r} not found", f"{where}.file")
    sheet = options.get("sheet")
    table = read_table(path, None if sheet is None else str(sheet))
    rows = []
    for line, values in table.rows:
        fields = dict(zip(table.header, values, strict=True))
        # a symbols column lists a symbol card's symbols, separated by spaces or ;
        symbols = tuple(fields.pop("symbols", "").replace(";", " ").split())
        rows.append(Row(fields, symbols, where=line))
    return rows


SourceFn = Callable[[dict[str, Any], Path, str], list[Row]]

# "xlsx" reads the same way: the file's content, not the source name, decides the format
SOURCES: dict[str, SourceFn] = {"csv": csv_rows, "xlsx": csv_rows}


def register(name: str, fn: SourceFn) -> None:
    SOURCES[name] = fn
