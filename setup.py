"""Only what pyproject.toml cannot say: find the code packages and add the bundled templates.

pyproject's own package finder cannot add templates/ under its installed name pnp_templates
beside the packages it finds, and a hand-written list forgets the next game folder.
"""

from setuptools import find_packages, setup

CODE = ["generator", "referee", "pnp_shared", "pnp_model"]

setup(packages=[*find_packages(include=[p + sfx for p in CODE for sfx in ("", ".*")]),
                "pnp_templates"])
