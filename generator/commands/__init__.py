"""Extra `pnp` commands, one module each; every module lists its click commands in COMMANDS."""
