"""Private copies of a frozen state's fields for engine.Draft, made cheaply.

A simulation applies a move per step, and copy.deepcopy of every field was most of a Duplicon
step: containers (dict, list, set) are copied, frozen values (str, int, tuples of them, frozen
dataclasses of them) are shared, anything else is deep-copied as before.
"""

from __future__ import annotations

import copy
from dataclasses import fields
from typing import Any

_FROZEN = (str, int, float, bool, type(None), frozenset)


def _frozen(v: Any) -> bool:
    t = type(v)
    if t in _FROZEN:
        return True
    if t is tuple or (isinstance(v, tuple) and hasattr(t, "_fields")):  # named tuples too
        return all(_frozen(x) for x in v)
    params = getattr(t, "__dataclass_params__", None)
    return bool(params and params.frozen) and all(_frozen(getattr(v, f.name)) for f in fields(v))


def thawed(v: Any) -> Any:
    """A private copy of a state field for a Draft: dicts, lists and sets copied, frozen values
    shared (a simulation applies a move per step: deepcopy was most of Duplicon's time)."""
    t = type(v)
    if t is dict:
        return {k: thawed(x) for k, x in v.items()}
    if t is list:
        return [thawed(x) for x in v]
    if t is set:
        return set(v)
    return v if _frozen(v) else copy.deepcopy(v)
