"""Card lists read from a URL (a published Google Sheet's CSV link, any CSV or .xlsx URL).

Only when the user allowed it: `--allow-url` on the command line, or `urls = true` in the
definition's [game] table (which the user can read before building). Each download is kept
with its ETag, so a build without the network uses the last copy and says how old it is.
"""

from pnp_model.remote.fetch import allow, cached_copy, is_url, notes, permitted

__all__ = ["allow", "cached_copy", "is_url", "notes", "permitted"]
