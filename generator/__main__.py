"""`python -m generator` is `pnp`."""

from generator.cli import main

main()
