"""Extra `pnp` commands, one module each; every module lists its click commands in COMMANDS,
and generator/cli_group.py names them (ELSEWHERE, LISTED) so that they load only when run."""
