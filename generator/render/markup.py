"""Escaping for reportlab paragraph markup (xml.sax.saxutils pulls in urllib and http: a
noticeable share of start-up for three replacements)."""

from __future__ import annotations


def escape(text: str) -> str:
    """Text that prints as written inside paragraph markup."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quoteattr(value: str) -> str:
    """An attribute value in double quotes."""
    return '"' + escape(value).replace('"', "&quot;") + '"'
