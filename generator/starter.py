"""`pnp new`: a new game folder, from the blank starter (a minimal game that builds, with
every key explained) or a copy of a template.

A designer starting from nothing gets a definition to edit rather than a bundled game to strip
down: two card types, a title, a cost, rules text and one back, each key with a comment.
"""

from __future__ import annotations

from pathlib import Path

from pnp_model.errors import PnpError
from pnp_shared.files import write_atomic

GAME_TOML = '''\
# A game for `pnp build`: this file says what the cards look like, cards.csv lists them.
# Lengths take units (mm, cm, in, pt; a bare number is mm) or % of the card; positions are
# from the top-left corner of the trimmed card. docs/reference/definition.md lists every key.

[game]
title = "My game"                  # shown by `pnp list`
description = "a new card game"    # one line for `pnp list`

[deck]
file = "cards.csv"                 # the card list: CSV (, ; or tab) or an .xlsx workbook
size = "poker"                     # poker, bridge, tarot, mini, euro, square, or e.g. 63x88mm
corner_radius = "3mm"              # drawn as a thin cut guide; 0mm for square corners

[print]                            # defaults; command-line options override them
paper = "a4"                       # a4 | letter
bleed = "0mm"                      # art past the cut line, e.g. 3mm for a print shop

[colors]                           # names usable wherever a colour is expected
paper = "#fbf8f1"
ink = "#222222"
action = "#2f6f9f"
creature = "#8f3f2f"

[icons]                            # :coin: in text: a shape, an icon or a PNG/JPG/SVG file
coin = { shape = "circle", color = "#e0b43a" }

# The score sheet for playtests (`referee new path/to/this-folder --players ana,bob`): remove
# the # in front of the lines below to keep score by category.
# [scoring]
# categories = ["coins", "wonders", "military"]  # the columns players score in
# rounds = 3                         # the game ends when round 3 closes; or: target = 50
# lowest_wins = false                # true: the lowest total wins
# tie_breaks = ["coins"]             # category totals that break a tie, in order
# players = "2-5"                    # how many may play
# [scoring.military]                 # checks of what a player scores in it in one round
# min = -6
# max = 18

# The face: elements drawn in order, each a [[face]] table. {column} takes the card's value
# from cards.csv, {id} its number.

[[face]]
type = "rect"                      # the background, into the bleed
bleed = true
fill = "paper"

[[face]]
type = "rect"                      # a band coloured by the card's type column
x = "0mm"
y = "0mm"
w = "100%"
h = "16mm"
bleed = true
fill = "{type}"

[[face]]
type = "text"
text = "{name}"
x = "5mm"
y = "11mm"                         # the baseline of the text
size = 14                          # points
font = "sans-bold"                 # sans, sans-bold, sans-italic, sans-bold-italic or a .ttf
color = "white"

[[face]]
type = "text"                      # drawn only when the card has a cost (when = non-empty)
when = "{cost}"
text = "{cost}"
x = "58mm"
y = "11mm"
size = 14
font = "sans-bold"
color = "white"
align = "right"

[[face]]
type = "text"                      # rules text: **bold**, *italic*, <br> or \\n, :icons:
text = "{text}"
x = "50%"
y = "22mm"                         # with h, y is the top of a text box
w = "53mm"                         # wraps the text into lines this wide
h = "50mm"                         # the box: text that does not fit is a build warning
size = 10
fit = "shrink"                     # smaller until it fits, never below min_size (6 pt)
valign = "middle"                  # top | middle | bottom of the box
color = "ink"
align = "center"

[[face]]
type = "text"
text = "{type} · #{id}"
x = "50%"
y = "83mm"
size = 7
color = "ink"
align = "center"

# The back: one design for every card ({column}s would make per-card backs).

[[back]]
type = "rect"
bleed = true
fill = "ink"

[[back]]
type = "text"
text = "My game"
x = "50%"
y = "50%"
size = 20
font = "sans-bold"
color = "paper"
align = "center"
'''

CARDS_CSV = '''\
name,type,cost,text,qty
Scout,creature,1,Look at the top card of the deck.,3
Guard,creature,2,**Guard.** Blocks one attack each round.,2
Ambush,action,1,Play when an opponent attacks: cancel the attack.,2
Treasure,action,,Draw two cards and gain 2 :coin:.,1
'''


def write_starter(directory: Path) -> None:
    """Write the blank starter's game.toml and cards.csv into `directory` (made if needed)."""
    write_atomic(directory / "game.toml", GAME_TOML.encode())
    write_atomic(directory / "cards.csv", CARDS_CSV.encode())


def starter_deck():
    """The blank starter loaded (a new game's poker cards): what `pnp calibrate` lays out
    when it is given no game."""
    import tempfile

    from pnp_model.definition import load

    with tempfile.TemporaryDirectory() as folder:
        write_starter(Path(folder))
        return load(folder)


def start_game(directory: Path, template: str | None) -> bool:
    """A new game folder: the blank starter (template None) or a copy of a template or game
    folder; refuses a folder that holds anything, a file in the way, or a copy into itself.
    True when the copy's [verify] table was commented out (see without_verify)."""
    import shutil

    from pnp_model.definition import find

    source = None if template is None else find(template)
    existing = next(p for p in (directory, *directory.absolute().parents) if p.exists())
    if not existing.is_dir():
        raise PnpError(f"{existing} is a file, not a folder; choose a new folder", str(directory))
    if existing == directory and any(directory.iterdir()):
        raise PnpError("the folder exists and is not empty; choose a new folder", str(directory))
    if source and directory.resolve().is_relative_to(source.resolve()):
        raise PnpError(f"the new folder is inside {template}; choose one outside it",
                       str(directory))
    try:
        if source is None:
            write_starter(directory)
        else:
            shutil.copytree(source, directory, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    except OSError as e:
        raise PnpError(f"cannot create {directory}: {e.strerror or e}", str(directory)) from None
    toml = directory / "game.toml"
    if source is None or not toml.is_file():
        return False
    text = toml.read_text(encoding="utf-8")
    kept = without_verify(text)
    if kept != text:
        write_atomic(toml, kept.encode("utf-8"))
    return kept != text


VERIFY_NOTE = ("# The template's [verify] table promised its own cards (their count, symbols...);\n"
               "# your deck will differ, so it is kept here as an example, commented out: write\n"
               "# what your deck promises and `pnp verify` checks it.\n")


def without_verify(toml: str) -> str:
    """The game.toml text with its [verify] table (and [verify.*] subtables) commented out:
    a copied template's promises about its own cards would fail on the user's first edit."""
    out, inside, noted = [], False, False
    for line in toml.splitlines(keepends=True):
        header = line.lstrip()
        if header.startswith("["):
            name = header.strip("[").split("]")[0].strip()
            inside = name == "verify" or name.startswith("verify.")
            if inside and not noted:
                out.append(VERIFY_NOTE)
                noted = True
        out.append("# " + line if inside and line.strip() else line)
    return "".join(out)
