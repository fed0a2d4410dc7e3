"""A real browser for the page tests: Debian's Chromium driven by Playwright (the `browser`
fixture, registered once in conftest.py: one Playwright per session).

Playwright's own browser download cannot be reached here, so the system's Chromium is launched
through executable_path. Where no Chromium is installed the page tests are skipped, except in
CI (CI=true), where .ci/run installs it and a missing browser is a failure, not a skip.
"""

from __future__ import annotations

import os
import shutil

import pytest

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1920, "height": 1080}


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session; pages are opened by each test."""
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("no chromium on PATH: .ci/run installs Debian's chromium package")
        pytest.skip("no chromium on PATH (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True, args=FLAGS)
        yield b
        b.close()
