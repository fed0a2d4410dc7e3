"""Seats: each player enters their own moves from their phone (`referee serve --seats`).

tokens.py: each seat's link and token; guard.py: who may write (seat, same origin, size,
rate); api.py: the HTTP API the seat pages use (move, check, undo with consent, state);
clock.py: time on turn from the record's event times. Imported by `referee serve --seats`
only, and for the clock by the table page, `playtests` and the BG Stats export: never at
the referee's start-up.
"""
