"""The built-in symbol library: Font Awesome Free solid icons, by name and code point.

Pure data (no reportlab), so the referee reads the same symbol names the generator prints.
The curated list comes first, most recognisable objects first and near look-alikes left out,
so a small deck gets the clearest icons. Larger decks continue with the rest of the free solid
set, read from the fontawesomefree package's metadata when it is installed.
Icons: Font Awesome Free by Fonticons, Inc., CC BY 4.0; font files SIL OFL 1.1.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

ATTRIBUTION = "Icons: Font Awesome Free by Fonticons, Inc. (fontawesome.com), CC BY 4.0"

CURATED: tuple[tuple[str, int], ...] = (
    ("anchor", 0xf13d), ("apple-whole", 0xf5d1), ("bell", 0xf0f3), ("bicycle", 0xf206),
    ("bolt", 0xf0e7), ("bomb", 0xf1e2), ("bone", 0xf5d7), ("book", 0xf02d), ("bug", 0xf188),
    ("cake-candles", 0xf1fd), ("camera", 0xf030), ("car", 0xf1b9), ("carrot", 0xf787),
    ("cat", 0xf6be), ("chess-knight", 0xf441), ("clock", 0xf017), ("cloud", 0xf0c2),
    ("crow", 0xf520), ("crown", 0xf521), ("dove", 0xf4ba), ("dog", 0xf6d3), ("dragon", 0xf6d5),
    ("droplet", 0xf043), ("egg", 0xf7fb), ("feather", 0xf52d), ("fish", 0xf578), ("flag", 0xf024),
    ("frog", 0xf52e), ("gem", 0xf3a5), ("ghost", 0xf6e2), ("gift", 0xf06b), ("guitar", 0xf7a6),
    ("hammer", 0xf6e3), ("hat-wizard", 0xf6e8), ("heart", 0xf004), ("hippo", 0xf6ed),
    ("horse", 0xf6f0), ("house", 0xf015), ("ice-cream", 0xf810), ("key", 0xf084), ("leaf", 0xf06c),
    ("lemon", 0xf094), ("lightbulb", 0xf0eb), ("lock", 0xf023), ("magnet", 0xf076),
    ("moon", 0xf186), ("mug-hot", 0xf7b6), ("music", 0xf001), ("paw", 0xf1b0), ("pen", 0xf304),
    ("pepper-hot", 0xf816), ("plane", 0xf072), ("puzzle-piece", 0xf12e), ("rocket", 0xf135),
    ("scissors", 0xf0c4), ("seedling", 0xf4d8), ("shield-halved", 0xf3ed), ("ship", 0xf21a),
    ("snowflake", 0xf2dc), ("spider", 0xf717), ("star", 0xf005), ("sun", 0xf185), ("tree", 0xf1bb),
    ("trophy", 0xf091), ("truck", 0xf0d1), ("umbrella", 0xf0e9), ("user-astronaut", 0xf4fb),
    ("wrench", 0xf0ad), ("kiwi-bird", 0xf535), ("otter", 0xf700), ("worm", 0xe599),
    ("shrimp", 0xe448), ("cow", 0xf6c8), ("mosquito", 0xe52b), ("binoculars", 0xf1e5),
    ("compass", 0xf14e), ("dice", 0xf522), ("fire", 0xf06d), ("glasses", 0xf530),
    ("hourglass-half", 0xf252), ("igloo", 0xf7ae), ("landmark", 0xf66f), ("microphone", 0xf130),
    ("mitten", 0xf7b5), ("mountain", 0xf6fc), ("palette", 0xf53f), ("paperclip", 0xf0c6),
    ("pizza-slice", 0xf818), ("robot", 0xf544), ("ruler", 0xf545), ("shoe-prints", 0xf54b),
    ("skull", 0xf54c), ("socks", 0xf696), ("spoon", 0xf2e5), ("stopwatch", 0xf2f2),
    ("suitcase", 0xf0f2), ("tooth", 0xf5c9), ("tractor", 0xf722), ("tent", 0xe57d),
    ("wand-magic-sparkles", 0xe2ca), ("wine-glass", 0xf4e3), ("basketball", 0xf434),
    ("football", 0xf44e), ("chess-rook", 0xf447), ("cookie", 0xf563), ("candy-cane", 0xf786),
    ("burger", 0xf805), ("hotdog", 0xf80f), ("bacon", 0xf7e5), ("cheese", 0xf7ef),
    ("bread-slice", 0xf7ec), ("drum", 0xf569), ("headphones", 0xf025), ("bath", 0xf2cd),
    ("bed", 0xf236), ("couch", 0xf4b8), ("chair", 0xf6c0), ("door-open", 0xf52b), ("ring", 0xf70b),
    ("hat-cowboy", 0xf8c0), ("helicopter", 0xf533), ("sailboat", 0xe445), ("train", 0xf238),
    ("bus", 0xf207), ("motorcycle", 0xf21c), ("snowman", 0xf7d0), ("tornado", 0xf76f),
    ("rainbow", 0xf75b), ("volcano", 0xf770), ("clover", 0xe139), ("plant-wilt", 0xe5aa),
    ("diamond", 0xf219), ("circle", 0xf111), ("square", 0xf0c8), ("scroll", 0xf70e),
    ("shirt", 0xf553), ("graduation-cap", 0xf19d), ("user-secret", 0xf21b), ("baby", 0xf77c),
    ("person-skiing", 0xf7c9), ("person-swimming", 0xf5c4),
)


def package_dir():
    """The fontawesomefree static folder, or None when the package is not installed."""
    try:
        return files("fontawesomefree") / "static" / "fontawesomefree"
    except ModuleNotFoundError:
        return None


@cache
def library() -> tuple[tuple[str, int], ...]:
    """Every usable icon: the curated ones, then the other free solid icons sorted by name."""
    root = package_dir()
    if root is None:
        return CURATED
    try:
        meta = json.loads((root / "metadata" / "icons.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return CURATED
    known = {n for n, _ in CURATED}
    extra = sorted(
        (name, int(info["unicode"], 16))
        for name, info in meta.items()
        if name not in known and "solid" in info.get("free", ())
        and int(info["unicode"], 16) >= 0xE000  # private-use icons, not digits or letters
    )
    return CURATED + tuple(extra)


def names(count: int) -> list[str] | None:
    """The first `count` icon names, or None when the library is smaller than that."""
    if count <= len(CURATED):
        return [n for n, _ in CURATED[:count]]
    lib = library()
    return [n for n, _ in lib[:count]] if count <= len(lib) else None


_CURATED = dict(CURATED)


def codepoint(name: str) -> int | None:
    """The icon's code point in the solid font, or None when no icon has this name."""
    found = _CURATED.get(name)
    return found if found is not None else codepoints().get(name)


@cache
def codepoints() -> dict[str, int]:
    return dict(library())
