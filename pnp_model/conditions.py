"""`when` / `unless` conditions: a tiny parser and evaluator, never eval().

A condition is parsed once when the definition loads, with its {field} placeholders kept as
placeholders, then evaluated per card: a card's value can never change what the condition
means (a name containing "or" stays a name). Grammar, loosest first:

    expr    := conj ("or" conj)*
    conj    := neg ("and" neg)*
    neg     := "not" neg | compare
    compare := value [op value]         op: == != < > <= >= in, not in
    value   := word | "quoted" | 'quoted' | (expr) | (value, value, ...)

A word is a run of characters other than spaces, quotes, brackets, commas and operators; it may
hold {fields} ("{type}", "x{n}"). A lone value is true when it is not empty, 0, false, no or
none, as before. Two values that both read as numbers compare as numbers ("10" > "9",
"3" == "3.0"); `<` and friends on an empty value are false, on any other non-number an error
naming the card. `x in (a, b)` tests membership in the list; `x in {field}` tests whether x is
one of the field's items, separated by commas (or by spaces when there is no comma).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pnp_model.errors import PnpError

Fill = Callable[[str], str]  # a template with one card's fields filled in

_TOKEN = re.compile(r"""
    \s*(?:
      (?P<op>==|!=|<=|>=|<|>|=)
    | (?P<punct>[(),])
    | (?P<quoted>"[^"]*"|'[^']*')
    | (?P<word>(?:\{[^{}]*\}|[^\s()"',=!<>{}])+)
    | (?P<bad>\S)
    )""", re.X)
KEYWORDS = ("and", "or", "not", "in")
FALSE_WORDS = ("", "0", "false", "no", "none")
MAX_DEPTH = 40  # brackets and nots nested deeper are a generated mistake, not a condition


def truthy(value: str) -> bool:
    return value.strip().lower() not in FALSE_WORDS


def number(value: str) -> float | None:
    try:
        n = float(value.strip())
    except ValueError:
        return None
    return n if n == n else None  # nan is not a number to compare


@dataclass(frozen=True)
class Value:
    template: str  # literal text or a {field} template

    def text(self, fill: Fill) -> str:
        return fill(self.template).strip()


@dataclass(frozen=True)
class Items:
    values: tuple[Value, ...]


@dataclass(frozen=True)
class Compare:
    op: str
    left: Value
    right: Value | Items


@dataclass(frozen=True)
class Logic:
    op: str  # and | or | not | value
    args: tuple


@dataclass(frozen=True)
class Condition:
    """A parsed condition; `holds` evaluates it for one card."""

    source: str
    tree: object
    where: str

    def holds(self, fill: Fill, card: Callable[[], str] | None = None) -> bool:
        """Whether it holds with these values; `card` names the card in an error."""
        try:
            return _eval(self.tree, fill)
        except _NotANumber as e:
            raise PnpError(str(e), f"{card()}, {self.where}" if card else self.where) from None


class _NotANumber(ValueError):
    """An ordering comparison met text; holds() turns it into a PnpError naming the card."""


def parse(source: str, where: str) -> tuple[Condition, list[str]]:
    """The condition and the {fields} it names; a one-line PnpError when it does not parse."""
    tokens = _tokens(source, where)
    parser = _Parser(tokens, source, where)
    if not tokens:
        tree = Logic("value", (Value(""),))
    else:
        tree = parser.expr()
        if parser.pos < len(tokens):
            parser.fail(f"unexpected {tokens[parser.pos][1]!r}")
    return Condition(source, tree, where), parser.fields


def _tokens(source: str, where: str) -> list[tuple[str, str]]:
    out = []
    pos = 0
    source = source.rstrip()
    while pos < len(source):
        m = _TOKEN.match(source, pos)
        kind = m.lastgroup
        text = m.group(kind)
        if kind == "bad" or (kind == "op" and text == "="):
            hint = " (write == to compare)" if text == "=" else ""
            raise PnpError(f"cannot read the condition {_shown(source)}: unexpected "
                           f"{text!r}{hint}", where)
        if kind == "word" and text.lower() in KEYWORDS:
            kind = text.lower()
        elif kind == "punct":
            kind = text
        out.append((kind, text))
        pos = m.end()
    return out


def _shown(source: str, most: int = 60) -> str:
    """The condition quoted for an error line, cut short when it is long."""
    return repr(source if len(source) <= most else source[:most - 3] + "...")


class _Parser:
    def __init__(self, tokens, source: str, where: str):
        self.tokens, self.source, self.where = tokens, source, where
        self.pos = 0
        self.depth = 0
        self.fields: list[str] = []

    def fail(self, why: str):
        raise PnpError(f"cannot read the condition {_shown(self.source)}: {why}", self.where)

    def peek(self, ahead: int = 0) -> str:
        i = self.pos + ahead
        return self.tokens[i][0] if i < len(self.tokens) else "end"

    def take(self) -> tuple[str, str]:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def expr(self):
        args = [self.conj()]
        while self.peek() == "or":
            self.take()
            args.append(self.conj())
        return args[0] if len(args) == 1 else Logic("or", tuple(args))

    def conj(self):
        args = [self.neg()]
        while self.peek() == "and":
            self.take()
            args.append(self.neg())
        return args[0] if len(args) == 1 else Logic("and", tuple(args))

    def neg(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(f"brackets and nots nested more than {MAX_DEPTH} deep")
        try:
            if self.peek() == "not":
                self.take()
                return Logic("not", (self.neg(),))
            return self.compare()
        finally:
            self.depth -= 1

    def compare(self):
        if self.peek() == "(":
            self.take()
            inner = self.expr()
            if self.peek() != ")":
                self.fail("a ( without its )")
            self.take()
            if self.peek() in ("op", "in") or (self.peek() == "not" and self.peek(1) == "in"):
                self.fail("put the value to compare outside the brackets")
            return inner
        left = self.value()
        if self.peek() == "op":
            op = self.take()[1]
            return Compare(op, left, self.value())
        if self.peek() == "in" or (self.peek() == "not" and self.peek(1) == "in"):
            op = "not in" if self.take()[0] == "not" else "in"
            if op == "not in":
                self.take()
            return Compare(op, left, self.items())
        return Logic("value", (left,))

    def items(self) -> Value | Items:
        if self.peek() != "(":
            return self.value()
        self.take()
        values = [self.value()]
        while self.peek() == ",":
            self.take()
            values.append(self.value())
        if self.peek() != ")":
            self.fail("a list is written (a, b, c)")
        self.take()
        return Items(tuple(values))

    def value(self) -> Value:
        kind = self.peek()
        if kind == "end":
            self.fail("it ends where a value is expected")
        if kind not in ("word", "quoted"):
            self.fail(f"a value is expected before {self.tokens[self.pos][1]!r}")
        text = self.take()[1]
        if kind == "quoted":
            text = text[1:-1]
        self.fields += re.findall(r"\{([^{}]*)\}", text)
        return Value(text)


def _eval(node, fill: Fill) -> bool:
    if isinstance(node, Compare):
        return _compare(node, fill)
    if node.op == "value":
        return truthy(node.args[0].text(fill))
    if node.op == "not":
        return not _eval(node.args[0], fill)
    if node.op == "and":
        return all(_eval(a, fill) for a in node.args)
    return any(_eval(a, fill) for a in node.args)


def _same(a: str, b: str) -> bool:
    na, nb = number(a), number(b)
    return na == nb if na is not None and nb is not None else a == b


def _compare(node: Compare, fill: Fill) -> bool:
    left = node.left.text(fill)
    if node.op in ("in", "not in"):
        if isinstance(node.right, Items):
            items = [v.text(fill) for v in node.right.values]
        else:
            text = node.right.text(fill)
            items = [i.strip() for i in (text.split(",") if "," in text else text.split())]
        found = any(_same(left, i) for i in items)
        return found if node.op == "in" else not found
    right = node.right.text(fill)
    if node.op == "==":
        return _same(left, right)
    if node.op == "!=":
        return not _same(left, right)
    if left == "" or right == "":
        return False
    a, b = number(left), number(right)
    if a is None or b is None:
        bad = left if a is None else right
        raise _NotANumber(f"{node.op} compares numbers, but {bad!r} is not a number")
    return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[node.op]
