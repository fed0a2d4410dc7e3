"""Where a deck's cards come from: a CSV file, or a combinatorial design computed in designs/.

A source turns its options into rows (fields, symbols, where-it-came-from). The definition
loader expands `qty`, numbers the cards and validates them; sources only produce rows.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.errors import PnpError, read_text


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
    """Rows of a CSV file with a header line; blank lines are skipped."""
    check_options(options, ("file",), "csv", where)
    name = options.get("file")
    if not name:
        raise PnpError("a csv source needs file = \"cards.csv\"", where)
    path = root / str(name)
    if not path.is_file():
        raise PnpError(f"card list {name!r} not found", f"{where}.file")
    reader = csv.DictReader(io.StringIO(read_text(path), newline=""), strict=True)
    try:
        if not reader.fieldnames:
            raise PnpError("the CSV file is empty (it needs a header line)", path.name)
        header = [h.strip() for h in reader.fieldnames]
        if len(set(header)) != len(header) or "" in header:
            raise PnpError(f"the header has an empty or repeated column: {header}", f"{path.name}:1")
        rows = []
        for rec in reader:
            line = f"{path.name}:{reader.line_num}"
            if None in rec:
                raise PnpError("this line has more values than the header has columns", line)
            values = {k.strip(): (v or "").strip() for k, v in rec.items()}
            if not any(values.values()):
                continue
            # a symbols column lists a symbol card's symbols, separated by spaces or ;
            symbols = tuple(values.pop("symbols", "").replace(";", " ").split())
            rows.append(Row(values, symbols, where=line))
        return rows
    except csv.Error as e:
        raise PnpError(f"malformed CSV: {e} (a quote opened and never closed?)",
                       f"{path.name}:{reader.line_num}") from None


SourceFn = Callable[[dict[str, Any], Path, str], list[Row]]

SOURCES: dict[str, SourceFn] = {"csv": csv_rows}


def register(name: str, fn: SourceFn) -> None:
    SOURCES[name] = fn
