"""User-facing errors: each one says what is wrong and where, in one line."""


from pathlib import Path

from pnp_shared.errors import UserError


class PnpError(UserError):
    """A mistake in the generator's input (a definition, an option, a path)."""

    def __init__(self, what: str, where: str = ""):
        super().__init__(what, where)


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


class PnpErrors(PnpError):
    """Several mistakes of one definition, found in one run; each is still one line.

    `what` and `where` are the first mistake's, so code that handles one error still reads it;
    the CLI prints every line of `errors` (the first 20 and a count of the rest).
    """

    def __init__(self, errors: list[PnpError]):
        super().__init__(errors[0].what, errors[0].where or "")
        self.errors = list(errors)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)
