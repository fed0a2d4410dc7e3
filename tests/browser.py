"""Real browsers for the page tests: Debian's Chromium driven by Playwright (the `browser`
fixture) and Debian's Firefox ESR driven over Marionette (the `firefox` fixture), each
registered once in conftest.py and started once per session.

Playwright's own browser download cannot be reached here, so the system's Chromium is launched
through executable_path. Where a browser is not installed its page tests are skipped, except in
CI (CI=true), where .ci/run installs both and a missing browser is a failure, not a skip.
"""

from __future__ import annotations

import os
import shutil
import time
import warnings
from contextlib import contextmanager
from pathlib import Path

import pytest

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1920, "height": 1080}
# page.evaluate(OVERLAPS, selector): the texts among `selector` drawn over one another (their
# boxes cross), as pairs of texts.
OVERLAPS = """(selector) => {
  const texts = [...document.querySelectorAll(selector)];
  const boxes = texts.map((t) => t.getBoundingClientRect());
  const out = [];
  boxes.forEach((a, i) => boxes.forEach((b, j) => {
    if (i < j && a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1
        && b.top < a.bottom - 1) out.push([texts[i].textContent, texts[j].textContent]);
  }));
  return out;
}"""


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium per test module; pages are opened by each test. Not one for the
    session: Playwright's driver keeps a thread (asyncio's waitpid watcher) while it runs, and
    a build in a later module does not fork beside another thread (tests/test_parallel_build)."""
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


def firefox_path() -> str | None:
    return shutil.which("firefox-esr") or shutil.which("firefox")


class Firefox:
    """One tab of a real headless Firefox, driven over Marionette (Mozilla's own automation
    protocol, spoken by its Python client marionette-driver): Playwright cannot drive Debian's
    Firefox ESR (it lacks a WebDriver BiDi command Playwright sends for every new page), and
    geckodriver cannot be installed here."""

    def __init__(self, marionette):
        self.marionette = marionette
        with marionette.using_context("chrome"):
            # The browser window's own minimum width (500 px) would keep a phone's out of reach.
            marionette.execute_script("document.documentElement.style.minWidth = '0px'")

    def open(self, url: str, viewport: dict) -> None:
        """Show `url` with exactly `viewport` (width, height) of page in view."""
        m = self.marionette
        m.set_window_rect(width=viewport["width"], height=viewport["height"])
        bars = m.execute_script("return window.outerHeight - window.innerHeight")
        m.set_window_rect(width=viewport["width"], height=viewport["height"] + bars)
        m.navigate(url)
        shown = self.js("return {width: window.innerWidth, height: window.innerHeight}")
        assert shown == viewport, shown

    def js(self, script: str, *args):
        """Run `script` (a function body: it returns its result) in the page's own scope, where
        the page's globals are (Marionette's default sandbox would hide them)."""
        return self.marionette.execute_script(script, script_args=list(args), sandbox=None)

    def wait(self, script: str, *args, timeout: float = 30):
        """Wait until `script` returns something true (polled, as Playwright's wait_for_function
        does), and return it."""
        end = time.monotonic() + timeout
        while True:
            got = self.js(script, *args)
            if got or time.monotonic() > end:
                assert got, f"not true within {timeout} s: {script}"
                return got
            time.sleep(0.05)

    def click(self, selector: str) -> None:
        """A real click (WebDriver's: the element must be in view and not covered)."""
        self.marionette.find_element("css selector", selector).click()

    def type(self, selector: str, text: str) -> None:
        self.marionette.find_element("css selector", selector).send_keys(text)

    def press(self, *keys: str) -> None:
        """Keys pressed where the focus is, by their WebDriver names (ARROW_LEFT, ESCAPE...)."""
        from marionette_driver.keys import Keys

        self.marionette.get_active_element().send_keys("".join(getattr(Keys, k) for k in keys))

    @contextmanager
    def other_tab(self):
        """A second tab for the time of a `with` block, as a person opens another page beside."""
        m = self.marionette
        first = m.current_window_handle
        m.switch_to_window(m.open(type="tab")["handle"])
        try:
            yield
        finally:
            m.close()
            m.switch_to_window(first)

    def screenshot(self, path, full: bool = True) -> None:
        """The whole page as a PNG (full=False: only what is in view, as a dialog is seen;
        a whole-page capture draws sticky and top-layer parts where the view is scrolled to)."""
        Path(path).write_bytes(self.marionette.screenshot(format="binary", full=full))


@pytest.fixture(scope="module")
def firefox(tmp_path_factory):
    """One headless Firefox (Debian's firefox-esr) for the test module, skipped like `browser`
    where none is installed (a failure in CI, where .ci/run installs it). Not kept for the
    session: its client's threads would outlive the module, and a build forks its workers only
    when no other thread runs (tests/test_parallel_build.py saw none)."""
    path = firefox_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("no firefox-esr on PATH: .ci/run installs Debian's firefox-esr package")
        pytest.skip("no firefox-esr on PATH (apt-get install firefox-esr)")
    with warnings.catch_warnings():  # its helpers' own deprecations (telnetlib, distro)
        warnings.simplefilter("ignore", DeprecationWarning)
        from marionette_driver.marionette import Marionette

    folder = tmp_path_factory.mktemp("firefox")
    marionette = Marionette(bin=path, headless=True, port=0, workspace=str(folder),
                            gecko_log=str(folder / "gecko.log"))
    try:
        marionette.start_session()
        yield Firefox(marionette)
    finally:
        marionette.cleanup()
        marionette.instance = None  # its profile's folder goes now, not at interpreter exit
