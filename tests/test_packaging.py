"""The wheel must carry every package and the bundled templates (pip install ., not only -e)."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CODE = ("generator", "referee", "pnp_shared", "pnp_model")


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory) -> set[str]:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(out)],
                   check=True, capture_output=True)
    (whl,) = out.glob("*.whl")
    return set(zipfile.ZipFile(whl).namelist())


def test_the_wheel_carries_every_package_found_on_disk(wheel_names):
    """A new folder (a sixth game) is packaged with no list to edit."""
    on_disk = {init.relative_to(ROOT).as_posix() for top in CODE for init in (ROOT / top).rglob("__init__.py")
               if ".venv" not in init.parts}
    assert on_disk and on_disk <= wheel_names, f"not in the wheel: {sorted(on_disk - wheel_names)}"


def test_the_wheel_carries_every_template_file(wheel_names):
    on_disk = {"pnp_templates/" + p.relative_to(ROOT / "templates").as_posix()
               for p in (ROOT / "templates").rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert on_disk and on_disk <= wheel_names, f"not in the wheel: {sorted(on_disk - wheel_names)[:5]}"


def test_every_bundled_template_is_found_through_the_package():
    from pnp_model.catalog import bundled

    on_disk = {p.parent.name for p in (ROOT / "templates").glob("*/game.toml")}
    assert on_disk and set(bundled()) == on_disk


def test_the_wheel_carries_every_data_file_the_code_reads(wheel_names):
    """A file read from beside the code (marker codes, pages, the press profile) must install with
    it: `pip install .` without it fails only on the user's machine, never in an editable checkout."""
    tracked = subprocess.run(["git", "ls-files", *CODE], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    data = {p for p in tracked if not p.endswith(".py") and not p.endswith(".sh")}
    assert data and data <= wheel_names, f"not in the wheel: {sorted(data - wheel_names)}"
