"""Card text markup → reportlab paragraph markup, with per-character font fallback.

What a designer writes in a CSV cell: **bold**, *italic*, <b>…</b>, <i>…</i>, a line break as
<br>, a real newline or the two characters \\n, and :name: for an icon of the [icons] table.
Everything else prints as written: & < > are escaped, a lone * stays a star, an unknown
:name: stays text (with a warning when the game has icons). reportlab's platypus Paragraph
then does the line breaking; this module only says which font draws each character:
the card's font (its bold/italic variant in a span), else the fallback (DejaVu Sans) when the
card's font lacks the glyph, else the card's font with a warning (an empty box would print).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from generator.render import fonts
from generator.render.markup import escape, quoteattr

# Tags, emphasis stars, icons and line breaks; everything between them is plain text.
_TOKEN = re.compile(r"(?P<tag><\s*(?P<close>/)?\s*(?P<name>b|i|br)\s*/?\s*>)"
                    r"|(?P<stars>\*\*|\*)|(?P<icon>:[A-Za-z][A-Za-z0-9_-]*:)|(?P<br>\r?\n|\\n)",
                    re.IGNORECASE)
BOLD, ITALIC = "b", "i"


@dataclass
class Token:
    kind: str  # text | on | off | br | icon
    value: str = ""  # the text, the style (b/i) or the icon name
    literal: str = ""  # what it was written as, printed if the token turns out unmatched


def tokens(text: str, icon_names: set[str] | frozenset[str] = frozenset()) -> list[Token]:
    """The text split into plain runs, style switches, breaks and icons; stars or tags that
    open nothing or close nothing print as written."""
    out: list[Token] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        if m.start() > pos:
            out.append(Token("text", text[pos:m.start()]))
        pos = m.end()
        if m.group("br") or (m.group("tag") and m.group("name").lower() == "br"):
            out.append(Token("br", literal=m.group(0)))
        elif m.group("tag"):
            kind = "off" if m.group("close") else "on"
            out.append(Token(kind, m.group("name").lower(), m.group(0)))
        elif m.group("icon"):
            name = m.group("icon")[1:-1]
            out.append(Token("icon", name, m.group(0)) if name in icon_names
                       else Token("text", m.group(0)))
        else:
            out.append(_star(text, m))
    if pos < len(text):
        out.append(Token("text", text[pos:]))
    _pair(out)
    return _merge(out)


def _star(text: str, m: re.Match) -> Token:
    """A * or ** that may open (a non-space follows) or close (a non-space precedes)."""
    before = text[m.start() - 1] if m.start() else " "
    after = text[m.end()] if m.end() < len(text) else " "
    style = BOLD if m.group(0) == "**" else ITALIC
    kind = "star" + ("o" if not after.isspace() else "") + ("c" if not before.isspace() else "")
    return Token(kind, style, m.group(0))


def _pair(out: list[Token]) -> None:
    """Match openers with closers of the same style; the unmatched become literal text."""
    open_at: dict[tuple[str, str], list[int]] = {}
    for i, t in enumerate(out):
        if t.kind.startswith("star"):
            key = ("star", t.value)
            if "c" in t.kind[4:] and open_at.get(key):
                out[open_at[key].pop()].kind = "on"
                t.kind = "off"
            elif "o" in t.kind[4:]:
                open_at.setdefault(key, []).append(i)
            else:
                t.kind, t.value = "text", t.literal
        elif t.kind == "on":
            open_at.setdefault(("tag", t.value), []).append(i)
        elif t.kind == "off":
            if open_at.get(("tag", t.value)):
                open_at[("tag", t.value)].pop()
            else:
                t.kind, t.value = "text", t.literal
    for (how, _), indices in open_at.items():
        if how == "star":  # an unclosed <b> runs to the end, as in HTML; a lone * is a star
            for i in indices:
                out[i].kind, out[i].value = "text", out[i].literal


def _merge(out: list[Token]) -> list[Token]:
    merged: list[Token] = []
    for t in out:
        if t.kind == "text" and merged and merged[-1].kind == "text":
            merged[-1].value += t.value
        else:
            merged.append(t)
    return merged


def is_plain(parts: list[Token]) -> bool:
    """Text without markup: at most one run of characters."""
    return all(t.kind == "text" for t in parts)


def pieces(parts: list[Token], variant: Callable[[bool, bool], str], plain_font: str,
           missing: list[str]) -> list[str | Token]:
    """Paragraph markup for the tokens, icons left as tokens (their markup depends on the
    size): each run in the font that has its glyphs, starting from variant(bold, italic),
    the element's font for the style; runs in plain_font (the paragraph's own) need no tag.
    Characters no font has are appended to `missing` (printed in the card's font)."""
    out: list[str | Token] = []
    depth = {BOLD: 0, ITALIC: 0}
    for t in parts:
        if t.kind == "on":
            depth[t.value] += 1
        elif t.kind == "off":
            depth[t.value] -= 1
        elif t.kind == "br":
            out.append("<br/>")
        elif t.kind == "icon":
            out.append(t)
        else:
            out.append(_runs(t.value, variant, depth[BOLD] > 0, depth[ITALIC] > 0,
                             plain_font, missing))
    return out


def _runs(text: str, variant: Callable[[bool, bool], str], bold: bool, italic: bool,
          plain_font: str, missing: list[str]) -> str:
    main = variant(bold, italic)
    spare = None
    found: list[tuple[str, str]] = []  # (font, characters)
    for ch in text:
        use = main
        if not ch.isspace() and not fonts.has_glyph(main, ch):
            spare = spare or fonts.fallback(bold, italic)
            if spare and fonts.has_glyph(spare, ch):
                use = spare
            elif ch not in missing:
                missing.append(ch)
        if found and found[-1][0] == use:
            found[-1] = (use, found[-1][1] + ch)
        else:
            found.append((use, ch))
    return "".join(escape(chars) if f == plain_font else
                   f"<font name={quoteattr(f)}>{escape(chars)}</font>" for f, chars in found)


def plain_text(parts: list[Token]) -> str:
    """The characters of plain tokens (see is_plain)."""
    return "".join(t.value for t in parts)
