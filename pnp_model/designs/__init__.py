"""Combinatorial designs in pure Python: finite fields, projective planes, domino sets."""
