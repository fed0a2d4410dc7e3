"""The model both tools read: definitions (game.toml, card lists, art) into components.

The bottom layer: the standard library and pnp_shared only (openpyxl lazily, for workbooks);
no reportlab, Pillow, click, generator or referee.
"""
