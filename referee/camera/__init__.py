"""The referee sees the table: a photo of printed cards -> what lies where (`referee look`).

OpenCV is an optional extra (`pnp-toolkit[camera]`), imported only here and only by `look`;
the referee never imports the generator: what a card looks like is read from the game's
definition (its marker element, as data), never from the code that printed it.
"""

from __future__ import annotations

from types import ModuleType

from referee.engine import RefereeError

INSTALL = "pip install 'pnp-toolkit[camera]'"


def opencv() -> ModuleType:
    """cv2, or a one-line error that says how to install it."""
    try:
        import cv2
    except ImportError:
        raise RefereeError(f"reading a photo needs OpenCV: {INSTALL}", "referee look") from None
    return cv2
