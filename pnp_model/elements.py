"""The vocabulary of face and back layouts: which element kinds exist and what each accepts.

Parameter types: "x"/"y" are lengths (a % is of the card width/height), "len" a length
(% of the smaller side), "pt" a font size (a bare number is points), "text"/"color"/"file"
hold {field} placeholders filled per card, "num" a number, "fraction" a number from 0 to 1,
"bool" a flag, "list" a list, "condition" a when/unless test (pnp_model.conditions).
Every number, length or flag may also be a {field} template, resolved and checked per card
(pnp_model.percard).
The renderer has one drawing function per kind; a new kind is one entry here and one there.
"""

from __future__ import annotations

# markers = "without": drawn only when the build prints no fiducial markers (what a marker
# replaces, such as Tripple Domino's value text); "with": only when it does.
COMMON = {"when": "condition", "unless": "condition", "rotate": "num", "opacity": "fraction",
          "markers": "text"}
BOX = {"x": "x", "y": "y", "w": "x", "h": "y"}
STROKE = {"fill": "color", "stroke": "color", "stroke_width": "len"}

ELEMENTS: dict[str, dict[str, str]] = {
    # A filled/stroked rectangle; bleed = true extends it into the bleed (backgrounds).
    "rect": {**BOX, **STROKE, "radius": "len", "bleed": "bool"},
    "ellipse": {**BOX, **STROKE},
    "line": {"x": "x", "y": "y", "x2": "x", "y2": "y", "stroke": "color", "stroke_width": "len"},
    # Text anchored at (x, y) on its first baseline; w wraps it into lines centred or aligned
    # in w. With h it is a box whose top is y, the block placed by valign; fit = "shrink" makes
    # it smaller (down to min_size) until it fits (shrink = true: the same, in its own lines).
    # Rich text: **bold**, *italic*, <b>, <i>, <br>, \n and :icon: (generator/render/text.py).
    "text": {"text": "text", "x": "x", "y": "y", "w": "x", "h": "y", "size": "pt",
             "font": "text", "color": "color", "align": "text", "valign": "text",
             "leading": "pt", "shrink": "bool", "fit": "text", "min_size": "pt",
             "font_bold": "text", "font_italic": "text", "font_bold_italic": "text"},
    # A named vector shape (pnp_model.shapes) centred at (x, y), `size` across.
    "shape": {"name": "text", "x": "x", "y": "y", "size": "len", **STROKE},
    "image": {"file": "file", **BOX, "fit": "text"},
    # Domino pips for a value 0..9 (a numeral above 9) in the box.
    "pips": {"value": "text", **BOX, "color": "color"},
    # The symbols of a symbol deck (a card's `symbols`), packed without overlap in the card.
    # Image symbols are cleaned (background = "keep" turns that off) and packed by their ink;
    # min_size/max_size are fractions of the region's width, spread the largest/smallest ratio;
    # badge = "tint" draws each icon on a disc of a pale tint of its colour (render/badges.py).
    "symbols": {"x": "x", "y": "y", "w": "x", "h": "y", "seed": "num",
                "colors": "list", "rotate_symbols": "bool", "background": "text",
                "min_size": "num", "max_size": "num", "spread": "num", "badge": "text"},
    # The card's fiducial marker (ArUco 4x4, generator/markers), a square `size` across centred
    # at (x, y), printed only by a build with --markers; its id is `first` + the card's id, so
    # each game keeps its own id range and a reader needs no extra file. `shared` prints that one
    # id on every card instead: a back's marker must not tell which card is face down.
    "marker": {"x": "x", "y": "y", "size": "len", "first": "num", "shared": "num"},
}

# Parameters that take one of a few words, checked when the definition is read.
CHOICES = {"align": ("left", "center", "right"), "fit": ("contain", "stretch", "cover"),
           "background": ("remove", "keep"), "badge": ("none", "tint"),
           "markers": ("with", "without")}

# Choices of one element kind where the parameter name means something else elsewhere.
KIND_CHOICES = {("text", "fit"): ("shrink", "none"), ("text", "valign"): ("top", "middle", "bottom")}
