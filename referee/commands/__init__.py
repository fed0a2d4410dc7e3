"""The commands that live outside referee/cli.py, one module each, loaded only when typed
(referee/cli_group.py lists them): the table's corrections, the shell, simulations, playtests
and the table page, as generator/commands/ holds pnp's.
"""
