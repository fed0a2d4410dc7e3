"""The wheel must carry every package and the bundled templates (pip install ., not only -e)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_python_package_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("generator", "referee")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    assert "pnp_templates" in listed


def test_every_bundled_template_is_found_through_the_package():
    from generator.catalog import bundled

    on_disk = {p.parent.name for p in (ROOT / "templates").glob("*/game.toml")}
    assert on_disk and set(bundled()) == on_disk
