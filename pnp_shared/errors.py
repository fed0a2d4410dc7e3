"""The one user-error type of both CLIs: what is wrong and where."""


class UserError(Exception):
    """A mistake in the user's input, for both CLIs: `what` is wrong and `where` (a file and
    line, a card id, a flag, a command). The CLI prints `error: what (where)`, exit code 2.

    The library names the input it read; `where` left as None lets the CLI name the command.
    """

    def __init__(self, what: str, where: str | None = None):
        super().__init__(what, where)
        self.what = what
        self.where = where

    def __str__(self) -> str:
        return f"{self.what} ({self.where})" if self.where else self.what
