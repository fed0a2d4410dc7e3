"""Accessibility checks of a deck: do the colours that tell cards apart still tell them apart
for a player with a colour-vision deficiency (colours.py)."""
