"""Cutting machines: registration marks per machine (machines.py) and the sheet's cut lines as
SVG and DXF files (files.py), in the coordinates of the printed sheet."""
