"""`pnp build --single` pages for print shops carry bleed unless told otherwise, read from the PDF:
each page is the TrimBox plus the bleed on every side, 3 mm on A4 and 1/8 in on Letter."""

from __future__ import annotations

import json
import subprocess
import sys

import pypdfium2 as pdfium
import pytest

MM = 72 / 25.4


def single(tmp_path, *flags):
    out = tmp_path / "single.pdf"
    r = subprocess.run([sys.executable, "-m", "generator", "build", "coda", "--single",
                        "--no-backs", "-o", str(out), *flags], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    doc = pdfium.PdfDocument(str(out))
    page = doc[0]
    width, height = page.get_size()
    left, bottom, right, top = page.get_trimbox()
    doc.close()
    return r.stdout, (left, bottom, width - right, height - top)


@pytest.mark.parametrize("paper,bleed_mm", [("a4", 3.0), ("letter", 3.175)])
def test_single_pages_bleed_by_default(tmp_path, paper, bleed_mm):
    summary, margins = single(tmp_path, "--paper", paper)
    assert all(abs(m - bleed_mm * MM) < 0.01 for m in margins), [m / MM for m in margins]
    assert "1x1" not in summary and f"bleed {bleed_mm:g} mm" in summary


def test_a_bleed_given_is_kept_even_none(tmp_path):
    summary, margins = single(tmp_path, "--bleed", "0mm")
    assert margins == (0, 0, 0, 0)
    summary, margins = single(tmp_path, "--bleed", "5mm", "--json")
    assert all(abs(m - 5 * MM) < 0.01 for m in margins)
    assert json.loads(summary)[0]["bleed"] == "5 mm"
