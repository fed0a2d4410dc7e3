"""`referee serve`: the table page, a read-only view of a match for the phones and the TV at the
table (view.py: what it shows; reader.py: noticing moves; app.py: the web app, imported only by
the command; command.py: the click command)."""
