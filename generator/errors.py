"""User-facing errors: each one says what is wrong and where, in one line."""


from pathlib import Path


class PnpError(Exception):
    """A mistake in the user's input; the CLI prints it as one line and exits with code 2."""

    def __init__(self, what: str, where: str = ""):
        self.what = what
        self.where = where
        super().__init__(f"{what} ({where})" if where else what)


def read_text(path: Path, name: str | None = None) -> str:
    """A user's text file as UTF-8 (a BOM is fine); anything else is a PnpError with its line."""
    name = name or path.name
    try:
        data = path.read_bytes()
    except OSError as e:
        raise PnpError(f"cannot read the file: {e.strerror}", name) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise PnpError(f"the file is not UTF-8 text (byte {data[e.start]:#04x}); save it as "
                       "UTF-8", f"{name}:{line}") from None
