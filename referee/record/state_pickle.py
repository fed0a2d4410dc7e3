"""A folded state as bytes and back, for the snapshot cache: fast to read, and safe to read from
a database someone handed you.

Why not plain pickle: a long match's state carries its whole score ledger (24,000 items after
20,000 events), and pickle rebuilds each item through its own opcodes, a large share of a
command. A ledger field of the state (a tuple or list of ScoreItem at its top level, as every
game keeps it) is stored as four columns instead and rebuilt in one pass, several times faster
(bench/bench_referee.py). Reading
builds nothing but the referee's own dataclasses, named tuples and enums and plain containers,
so a database cannot make the referee run code.
"""

from __future__ import annotations

import copy
import gc
import io
import pickle
from dataclasses import fields, is_dataclass
from enum import Enum
from itertools import repeat
from typing import Any

from referee import engine, registry
from referee.engine import ScoreItem


def dumps(state: Any) -> bytes:
    """The state as bytes; its ledger fields as columns (player, points, label, round) with
    each player's sum, so that reading it back does not add 24,000 items up again."""
    ledgers = {}
    if is_dataclass(state) and not isinstance(state, type):
        for f in fields(state):
            value = getattr(state, f.name)
            if _is_ledger(value):
                known = value.sums if type(value) is engine.SummedLedger else None
                ledgers[f.name] = (type(value) is list, _columns(value),
                                   known or engine.sums(value))
    shell = copy.copy(state) if ledgers else state  # the state itself is never changed
    for name in ledgers:
        object.__setattr__(shell, name, None)
    out = io.BytesIO()
    pickle.Pickler(out, protocol=pickle.DEFAULT_PROTOCOL).dump((shell, ledgers))
    return out.getvalue()


def loads(blob: bytes) -> Any:
    """The state dumps() wrote (UnpicklingError when the bytes would build anything else).
    The cyclic garbage collector waits meanwhile: the tens of thousands of objects made here
    hold no cycles, and it would walk them again and again (half the time of a long ledger)."""
    was = gc.isenabled()
    gc.disable()
    try:
        shell, ledgers = _Unpickler(io.BytesIO(blob)).load()
        for name, (as_list, columns, sums) in ledgers.items():
            items = map(tuple.__new__, repeat(ScoreItem), zip(*columns, strict=True))
            ledger = list(items) if as_list else engine.SummedLedger(items, sums)
            object.__setattr__(shell, name, ledger)
    finally:
        if was:
            gc.enable()
    return shell


def _is_ledger(value: Any) -> bool:
    return (type(value) in (tuple, list, engine.SummedLedger) and len(value) > 0
            and all(type(i) is ScoreItem for i in value))


def _columns(ledger: tuple[ScoreItem, ...] | list[ScoreItem]) -> tuple[tuple[Any, ...], ...]:
    """The ledger's columns, each value one object however often it repeats: the pickle then
    writes a label once and refers back to it (24,000 items carry ~5,000 labels), so every
    command reads and unpickles a snapshot 40% smaller."""
    return tuple(tuple(map({}.setdefault, column, column)) for column in zip(*ledger, strict=True))


class _Unpickler(pickle.Unpickler):
    """Builds only the referee's dataclasses, named tuples and enums, and plain containers."""

    SAFE = {("builtins", "frozenset"), ("builtins", "set"), ("builtins", "tuple"),
            ("builtins", "list"), ("builtins", "dict")}

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in self.SAFE:
            return super().find_class(module, name)
        if _trusted(module):
            found = super().find_class(module, name)
            if isinstance(found, type) and (is_dataclass(found) or issubclass(found, Enum)
                                            or (issubclass(found, tuple)
                                                and hasattr(found, "_fields"))):
                return found
        raise pickle.UnpicklingError(f"a snapshot may not build {module}.{name}")


def _trusted(module: str) -> bool:
    """The referee's own modules, and those of games registered as plug-ins (code the referee
    already runs); never anything a database names."""
    if module == "referee" or module.startswith("referee."):
        return True
    roots = {type(g).__module__.rpartition(".")[0] or type(g).__module__
             for g in registry.added()}
    return any(module == r or module.startswith(r + ".") for r in roots)
