"""The reference pack `referee look` reads a photo against: each card's render and where its
symbols lie, as data files beside the exports (`pnp export --format look`).

Why data: the referee never imports the generator, yet must know what every printed card looks
like and which symbol sits where on it, to name the symbol two photographed cards share.
"""
