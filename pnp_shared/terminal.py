"""What the tools write reaches the terminal without control characters from stored text.

Why on output and not only on input: a player's name, an adjust reason or a rejected move is
stored text, and a database written before names were checked (or edited by hand) may already
hold `ESC ] 0 ; ... BEL`, which sets the terminal's title, or sequences that do worse. Every
line either CLI writes goes through `escaped` while a command runs, so no stored text can
reach the terminal as a control sequence, whichever command prints it.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

# C0 and C1 controls and DEL, but not tab and newline; click's progress bar (on a terminal)
# returns to the line's start and hides, then shows, the cursor: those exact sequences pass.
# With them the bidirectional embeddings, overrides and isolates (U+202A-202E, U+2066-2069):
# stored in a note or a reason, they reverse how the rest of the line reads.
_CONTROL = re.compile(r"\r\x1b\[\?25l|\x1b\[\?25h"
                      r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_OURS = ("\r\x1b[?25l", "\x1b[?25h")


def _shown(m: re.Match) -> str:
    text = m.group()
    return text if text in _OURS else f"\\u{ord(text):04x}"


def escape(text: str) -> str:
    """Text with its control characters written as \\u00NN, bidirectional overrides as
    \\u202e... (tab and newline kept): readable, and inside a JSON string the same character
    again."""
    return _CONTROL.sub(_shown, text) if _CONTROL.search(text) else text


class EscapingBytes:
    """The binary side of Escaping: UTF-8 text (the JSON the referee writes as bytes) is
    escaped; other bytes (a PDF or an image written to stdout) pass as they are."""

    def __init__(self, text_stream, binary):
        self.text_stream, self.binary = text_stream, binary

    def write(self, data) -> int:
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            out = bytes(data)
        else:
            out = escape(text).encode("utf-8")
        self.text_stream.flush()
        if self.binary is None:
            self.text_stream.write(out.decode("utf-8", "replace"))
        else:
            self.binary.write(out)
        return len(data)

    def flush(self) -> None:
        if self.binary is not None:
            self.binary.flush()


class Escaping(io.TextIOBase):
    """A text stream writing to another with control characters escaped; its `buffer` escapes
    the UTF-8 text written as bytes."""

    def __init__(self, raw):
        self.raw = raw
        self.buffer = EscapingBytes(raw, getattr(raw, "buffer", None))

    def write(self, text) -> int:
        if isinstance(text, bytes | bytearray):
            return self.buffer.write(text)
        self.raw.write(escape(text))
        return len(text)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    @property
    def encoding(self):  # type: ignore[override]
        return getattr(self.raw, "encoding", "utf-8")

    @property
    def errors(self):  # type: ignore[override]
        return getattr(self.raw, "errors", None)

    def writable(self) -> bool:
        return True


@contextmanager
def escaped() -> Iterator[None]:
    """sys.stdout and sys.stderr escaped while the block runs (a command)."""
    out, err = sys.stdout, sys.stderr
    if isinstance(out, Escaping):  # a command run from another (the referee shell)
        yield
        return
    sys.stdout, sys.stderr = Escaping(out), Escaping(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
