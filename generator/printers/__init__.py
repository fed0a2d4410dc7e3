"""Printer profiles: what `pnp calibrate` measured about one printer (back offset, duplex edge,
unprintable margin), saved once in the user's config folder and applied to every build."""
