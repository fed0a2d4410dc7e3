"""Element parameters that vary per card: `size = "{tsize}"`, `x = "{col}mm"`, `fill = ...`.

A geometric or numeric parameter written with {fields} cannot be checked when the definition
is read, only once a card fills it in. It is kept as a PerCard value; the loader resolves it for
every card (so a bad value is an error naming the card, the parameter, the column and the
value before anything is drawn) and the renderer resolves it again for the card it draws.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pnp_model.components import Card, Element
from pnp_model.errors import PnpError
from pnp_model.input_limits import ascii_digits

# A converter from the filled-in text to the parameter's value, given a `where` for errors.
Convert = Callable[[Any, str], Any]
TRUE_WORDS, FALSE_WORDS = ("true", "yes", "1"), ("false", "no", "0", "")


@dataclass(frozen=True)
class PerCard:
    template: str
    columns: tuple[str, ...]
    convert: Convert
    kind: str

    def value(self, card: Card, where: str) -> Any:
        from pnp_model.cardvalues import fill

        text = fill(self.template, card).strip()
        said = (f"{self.template!r} is {text!r} on card #{card.id} ({card.name}), from column "
                f"{', '.join(self.columns)}")
        try:
            return self.convert(_typed(self.kind, text, where), where)
        except PnpError as e:
            raise PnpError(f"{said}: {e.what}", e.where) from None


def _typed(kind: str, text: str, where: str) -> Any:
    """The filled-in text as the type the parameter's converter expects from TOML."""
    if kind == "bool":
        if text.lower() in TRUE_WORDS + FALSE_WORDS:
            return text.lower() in TRUE_WORDS
        raise PnpError("expected true or false (yes/no)", where)
    if kind in ("num", "fraction", "pt"):
        ascii_digits(text, "the number", where)
        try:
            return float(text)
        except ValueError:
            if kind != "pt":  # a font size may also be a length such as "4mm"
                raise PnpError("expected a number", where) from None
    return text


def has_per_card(el: Element) -> bool:
    return any(isinstance(v, PerCard) for v in el.params.values())


def for_card(el: Element, card: Card) -> Element:
    """The element with every per-card parameter resolved for this card."""
    if not has_per_card(el):
        return el
    params = {k: v.value(card, f"{el.where}.{k}") if isinstance(v, PerCard) else v
              for k, v in el.params.items()}
    return replace(el, params=params)
