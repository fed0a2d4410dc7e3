"""Markers the generator prints (`pnp build --markers`, `[print] markers`): read back from the
rendered PDF with OpenCV's own ArUco detector, so the bits drawn are the dictionary's."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.programs import PNP

ROOT = Path(__file__).resolve().parents[1]


def _pages(pdf: Path, dpi: int = 200):
    import numpy as np
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        for page in doc:
            yield np.asarray(page.render(scale=dpi / 72).to_pil().convert("L"))
    finally:
        doc.close()


def _found(pdf: Path) -> list[int]:
    cv2 = pytest.importorskip("cv2")
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_1000))
    ids: list[int] = []
    for grey in _pages(pdf):
        _, found, _ = detector.detectMarkers(grey)
        ids += [] if found is None else [int(i) for i in found.ravel()]
    return sorted(ids)


def test_tripple_domino_with_markers_prints_each_tiles_own_code(tmp_path):
    """Each of the 56 tiles carries marker 100 + its card id (its game's range), readable by
    OpenCV from the printed page; without --markers no tile carries one."""
    out = tmp_path / "td.pdf"
    done = subprocess.run([PNP, "build", "tripple-domino", "--markers", "-o", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert _found(out) == list(range(101, 157))
    plain = tmp_path / "plain.pdf"
    subprocess.run([PNP, "build", "tripple-domino", "-o", str(plain)], check=True,
                   capture_output=True, timeout=300)
    assert _found(plain) == []


def test_the_print_table_asks_for_markers_and_the_flag_turns_them_off(tmp_path):
    folder = tmp_path / "td"
    shutil.copytree(ROOT / "templates" / "tripple-domino", folder)
    toml = folder / "game.toml"
    toml.write_text(toml.read_text().replace("[deck]", "[print]\nmarkers = true\n\n[deck]", 1))
    on, off = tmp_path / "on.pdf", tmp_path / "off.pdf"
    for args, out in (([], on), (["--no-markers"], off)):
        done = subprocess.run([PNP, "build", str(folder), *args, "-o", str(out)],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    assert len(_found(on)) == 56 and _found(off) == []


def test_a_design_without_room_for_a_marker_is_one_line_error(tmp_path):
    done = subprocess.run([PNP, "build", "dobble", "--markers", "-o", str(tmp_path / "d.pdf")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert done.stderr.startswith("error: dobble reserves no room for a marker"), done.stderr
    assert "(--markers)" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "d.pdf").exists()


def test_export_with_markers_writes_a_distinct_render_per_tile(tmp_path):
    import json

    done = subprocess.run([sys.executable, "-m", "generator", "export", "tripple-domino",
                           "--markers", "--dpi", "100", "-o", str(tmp_path), "--json"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    rows = json.loads((tmp_path / "manifest.json").read_text())
    assert len(rows) == 56


def test_duplicon_faces_carry_their_own_codes_and_every_back_the_same_one(tmp_path):
    """Each of the 96 type cards carries 400 + its card id (the turn reminders, never in the
    grid, none) and each of the 99 backs the one shared 400: a photo of a face-down card says
    a card lies there, never which."""
    out = tmp_path / "dup.pdf"
    done = subprocess.run([PNP, "build", "duplicon", "--markers", "-o", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    found = _found(out)
    assert [i for i in found if i != 400] == list(range(401, 497))
    assert found.count(400) == 99


def test_a_marker_on_the_back_without_a_shared_id_is_refused(tmp_path):
    """A back printing each card's own id would reveal every face-down card."""
    folder = tmp_path / "dup"
    shutil.copytree(ROOT / "templates" / "duplicon", folder)
    toml = folder / "game.toml"
    toml.write_text(toml.read_text().replace("shared = 400", "first = 400"))
    done = subprocess.run([PNP, "build", str(folder), "--markers", "-o", str(tmp_path / "d.pdf")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert done.stderr.startswith("error: a marker on the back needs a `shared` id"), done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "d.pdf").exists()
