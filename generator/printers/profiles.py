"""Saved printer profiles, one JSON file in the user's config folder (platformdirs), or in
$PNP_CONFIG when set (tests, or a profile set kept with a project).

A profile holds only what belongs to the printer, never to a game: the back offset, the duplex
flip edge and the margin it cannot print. Options given on the command line win over it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from pnp_model.errors import PnpError
from pnp_model.units import MM
from pnp_shared import files

ENV = "PNP_CONFIG"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")
FIELDS = ("back_offset", "flip", "margin")


def config_file() -> Path:
    folder = os.environ.get(ENV)
    if folder:
        return Path(folder).expanduser() / "printers.json"
    import platformdirs

    return platformdirs.user_config_path("pnp", appauthor=False) / "printers.json"


def _read() -> dict:
    path = config_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"default": None, "printers": {}}
    except (OSError, ValueError) as e:
        raise PnpError(f"cannot read the printer profiles: {e}", str(path)) from None
    if not isinstance(data, dict) or not isinstance(data.get("printers"), dict):
        raise PnpError("the printer profiles file is damaged (no \"printers\" table); "
                       "remove it to start again", str(path))
    return data


def _write(data: dict) -> None:
    path = config_file()
    try:
        files.write_atomic(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode())
    except OSError as e:
        raise PnpError(f"cannot write the printer profiles: {e.strerror or e}", str(path)) from None


NO_PROFILE = "none"  # `--printer none`: no profile, not even the default


def _checked_name(name: str) -> str:
    if not NAME.match(name):
        raise PnpError(f"a printer name is letters, digits, '.', '_' and '-' (up to 64), not "
                       f"{name!r}", "NAME")
    if name.lower() == NO_PROFILE:
        raise PnpError(f"'{name}' is how --printer {NO_PROFILE} asks for no profile: give the "
                       "printer another name", "NAME")
    return name


def save(name: str, back_offset: tuple[float, float] | None, flip: str | None,
         margin: float | None, default: bool) -> dict:
    """Create or update a profile (points in, millimetres stored); the first one saved, or one
    saved with default, becomes the default. Returns the stored profile."""
    data = _read()
    profile = dict(data["printers"].get(_checked_name(name), {}))
    if back_offset is not None:
        profile["back_offset_mm"] = [round(v / MM, 3) for v in back_offset]
    if flip is not None:
        profile["flip"] = flip
    if margin is not None:
        profile["margin_mm"] = round(margin / MM, 3)
    data["printers"][name] = profile
    if default or not data.get("default"):
        data["default"] = name
    _write(data)
    return profile


def listed() -> tuple[str | None, dict[str, dict]]:
    data = _read()
    return data.get("default"), data["printers"]


def get(name: str) -> dict:
    default, printers = listed()
    if name not in printers:
        raise PnpError(f"no printer profile {name!r} (saved: {', '.join(printers) or 'none'}; "
                       "save one with `pnp printer save NAME`)", "--printer")
    return printers[name]


def remove(name: str) -> None:
    data = _read()
    if name not in data["printers"]:
        raise PnpError(f"no printer profile {name!r}", "NAME")
    del data["printers"][name]
    if data.get("default") == name:
        data["default"] = None
    _write(data)


def applied(name: str | None) -> tuple[str | None, dict]:
    """The profile a build uses: the one named (`none` for no profile), else the default;
    and its options for generator.build.Options (points)."""
    if name == NO_PROFILE:
        return None, {}
    name = name or listed()[0]
    if not name:
        return None, {}
    p = get(name)
    opts: dict = {}
    if "back_offset_mm" in p:
        opts["back_offset"] = tuple(v * MM for v in p["back_offset_mm"])
    if "flip" in p:
        opts["flip"] = p["flip"]
    if "margin_mm" in p:
        from generator.layout.margins import checked_margin

        where = f"printer profile {name}: margin"
        if not isinstance(p["margin_mm"], int | float) or p["margin_mm"] < 0:
            raise PnpError(f"a margin is a length in mm, not {p['margin_mm']!r}: save the "
                           f"profile again with --margin", where)
        opts["margin"] = checked_margin(p["margin_mm"] * MM, where)
    return name, opts


def with_profile(given: dict, keys: tuple[str, ...] = ("back_offset", "flip", "margin")) -> dict:
    """Options as given (None: not given), the printer profile's `keys` filling those not given
    (`printer`: its name, `none` or None for the default), and `from_printer`: the options the
    profile set, so that an error they cause names the profile, not a flag never typed."""
    name, profile = applied(given.get("printer"))
    taken = {k: v for k, v in profile.items() if k in keys and given.get(k) is None}
    return {**given, **taken, "printer": name, "from_printer": tuple(taken)}


def described(p: dict) -> str:
    parts = []
    if "back_offset_mm" in p:
        parts.append("back offset {:g}mm,{:g}mm".format(*p["back_offset_mm"]))
    if "flip" in p:
        parts.append(f"flip {p['flip']}")
    if "margin_mm" in p:
        parts.append(f"margin {p['margin_mm']:g}mm")
    return ", ".join(parts) or "no settings"
