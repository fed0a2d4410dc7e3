"""The referee sees the table: a photo of printed cards -> what lies where (`referee look`).

OpenCV is an optional extra (`pnp-toolkit[camera]`), imported only here and only by `look`;
the referee never imports the generator: what a card looks like is read from the game's
definition (its marker element, as data), never from the code that printed it.
"""

from __future__ import annotations

from types import ModuleType

from referee.engine import RefereeError, Rules

INSTALL = "pip install 'pnp-toolkit[camera]'"


def opencv() -> ModuleType:
    """cv2, or a one-line error that says how to install it."""
    try:
        import cv2
    except ImportError:
        raise RefereeError(f"reading a photo needs OpenCV: {INSTALL}", "referee look") from None
    return cv2


def reads_markers(game: Rules) -> bool:
    """Whether a photo of the game's table is read by its cards' markers (its rules read
    them: Rules.photo); else only a symbol deck it names, by features, if any."""
    return type(game).photo is not Rules.photo
