"""Every size limit a user can meet, in one place (docs/reference/limits.md lists them).

Why limits at all: a definition or a match is often written by someone else, and an input past
these sizes is a mistake or an attack, not a game: a 1 MB workbook inflating to 1 GiB, an SVG
of 300,000 circles or a 20 MB title would take gigabytes and minutes before any error. Past a
limit the input is refused with one line naming it; bench/bench_limits.py measures the worst
input each limit lets through (no input file of 10 MB or less takes over 500 MB or 30 s).
Plain numbers only: the referee imports this module on every command.
"""

from __future__ import annotations

# --- pnp: definitions and card lists
MAX_DEFINITION_BYTES = 1_000_000  # game.toml: the largest bundled one is ~10 KB
MAX_TEXT_CHARS = 5_000  # characters of one text value of game.toml (a title, a text element)
MAX_TOML_DEPTH = 32  # tables and arrays nested in game.toml, a dotted key one level per part
# (the bundled games nest 5 deep; 5,000 parts exhausted Python's recursion)
MAX_TABLE_BYTES = 10_000_000  # a card list file (CSV or .xlsx) as stored
MAX_CELL_CHARS = 5_000  # characters of one cell (a CSV field, a workbook cell)
MAX_WORKBOOK_BYTES = 50_000_000  # an .xlsx unpacked (its ZIP entries' declared sizes)
MAX_SHEET_CELLS = 500_000  # cells of the sheet read (rows × columns), empty ones included
MAX_QTY = 10_000  # copies of one row: more is a typo, and would exhaust memory
MAX_CARDS = 20_000  # a whole deck: ~2,200 A4 sheets

# --- pnp: art
MAX_ART_PIXELS = 25_000_000  # one raster image a definition names (a card at 1200 dpi: 12 M)
MAX_SYMBOL_PIXELS = 10_000_000  # one raster symbol: cleaned and packed, it takes more memory
MAX_PIXELS = 60_000_000  # one preview or exported image (240 MB); more is a unit typo
MAX_SVG_BYTES = 5_000_000  # one SVG file
MAX_SVG_ELEMENTS = 5_000  # tags of one SVG (circles, paths, groups...)
MAX_SVG_NUMBERS = 200_000  # numbers of one SVG (coordinates of every path point included)
MAX_SVG_USES = 2_000  # <use> references one SVG expands, each counted as often as it is
# drawn: ten levels of ten nested <use> expand 10^9 (a "<use> bomb" of 2 KB); svglib copies
# each, 3,280 nested ones took 9 s of CPU
MAX_CARD_TEXT_CHARS = 10_000  # one text of one card, its {fields} filled in
MAX_INLINE_ICONS = 200  # :icon: in one text of one card

# --- referee: what players type and what is stored
MAX_NAME_CHARS = 40  # a player's name
MAX_REASON_CHARS = 500  # the reason of an adjust or a note
MAX_POINT_DIGITS = 9  # points of one score entry (scorepad) or correction (adjust): 999,999,999
MAX_DIGITS = 40  # no move, position or question of any game needs a longer number
MAX_TYPED_CHARS = {"move": 1_000, "question": 1_000, "position": 100_000}

# --- both: what the terminal shows
MAX_ERROR_CHARS = 600  # one error line, the value it quotes elided past this
