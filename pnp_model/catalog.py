"""The bundled templates: folders with a game.toml that ship inside the package."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path


@cache
def bundled() -> dict[str, Path]:
    """Bundled template names mapped to their folders."""
    root = Path(str(files("pnp_templates")))
    return {p.parent.name: p.parent for p in sorted(root.glob("*/game.toml"))}
