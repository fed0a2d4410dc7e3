"""Helpers both tools share: the one user-error type, folders, files, the CLI group, serving."""
