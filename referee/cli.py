"""referee: the table-side command line (placeholder until the referee issue lands)."""

import click


@click.group()
def main() -> None:
    """Record moves, check them against the rules, keep scores, settle disputes."""
