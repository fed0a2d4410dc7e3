"""pnp: the generator's command line (thin: parse options, call the library, print results)."""

import click


@click.group()
def main() -> None:
    """Turn game definitions into print-ready PDF sheets."""
