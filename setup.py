"""Only what pyproject.toml cannot say: find the code packages, add the bundled templates, and
build the optional compiled kernel of silhouette packing.

pyproject's own package finder cannot add templates/ under its installed name pnp_templates
beside the packages it finds, and a hand-written list forgets the next game folder.

The kernel (generator/layout/cells.c) is a top-level module, _pnp_cells, so that it is found
whichever copy of the packages is imported (the tests import the checkout's). It is optional:
where no C compiler is found, the install goes on and packing runs in Python, with the same
layouts.
"""

from setuptools import Extension, find_packages, setup

CODE = ["generator", "referee", "pnp_shared", "pnp_model"]

setup(packages=[*find_packages(include=[p + sfx for p in CODE for sfx in ("", ".*")]),
                "pnp_templates"],
      ext_modules=[Extension("_pnp_cells", ["generator/layout/cells.c"], optional=True)])
