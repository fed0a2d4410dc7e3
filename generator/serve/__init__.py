"""`pnp serve`: the designer's live page of a game (live.py: the build kept up to date; geometry.py:
where cards lie, for the overlays; app.py: the Starlette app; templates/ and static/: the page)."""
