"""pnp: turn data definitions of game components into print-ready vector PDF sheets."""

__version__ = "0.1.0"
