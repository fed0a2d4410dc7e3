"""Inline icons stay with the characters they touch: "gain 2 :coin:." never breaks before ".".

reportlab's line breaker treats every inline image as a word of its own, so it may break a line
between an image and the punctuation written right after it (or the bracket right before it),
leaving a lone "." on the next line. While our paragraphs are measured, its word list is
regrouped: an image and the words it touches without a space between become one word. The
drawing code already handles images inside words (as it does for zero-width tags).
The swap of reportlab's function lasts one wrap() and is not thread-safe: builds draw in one
thread (parallel exports use processes).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def icons_glued() -> Iterator[None]:
    """Within the block, reportlab's paragraphs keep images and touching text together."""
    from reportlab.platypus import paragraph

    original = paragraph._getFragWords

    def glued(frags, maxWidth=None):
        return _glue(original(frags, maxWidth), paragraph._HSFrag)

    paragraph._getFragWords = glued
    try:
        yield
    finally:
        paragraph._getFragWords = original


def _glue(words: list, hanging: type) -> list:
    """Merge each image word with the words it touches (no space between them)."""
    if not any(_ends_with_image(w) for w in words):
        return words
    out: list = []
    for w in words:
        previous = out[-1] if out else None
        if previous is not None and type(previous) is list and type(w) in (list, hanging) \
                and (_ends_with_image(previous) or _starts_with_image(w)):
            merged = [previous[0] + w[0], *previous[1:], *w[1:]]
            out[-1] = hanging(merged) if type(w) is hanging else merged
        else:
            out.append(w)
    return out


def _image(frag) -> bool:
    return getattr(getattr(frag, "cbDefn", None), "kind", None) == "img"


def _ends_with_image(word) -> bool:
    return len(word) > 1 and _image(word[-1][0])


def _starts_with_image(word) -> bool:
    return len(word) > 1 and _image(word[1][0])
