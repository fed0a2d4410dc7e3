"""User-facing errors: each one says what is wrong and where, in one line."""


class PnpError(Exception):
    """A mistake in the user's input; the CLI prints it as one line and exits with code 2."""

    def __init__(self, what: str, where: str = ""):
        self.what = what
        self.where = where
        super().__init__(f"{what} ({where})" if where else what)
