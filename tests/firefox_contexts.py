"""Playwright-shaped browser contexts in Firefox, so one page scenario runs in both browsers.

Why: the seat tests need several phones at once, each with its own cookies (a seat's token is
kept in a cookie of the page's port), and Playwright cannot drive Debian's Firefox ESR
(tests/browser.py says why). Here each context is a window of the one Firefox, opened in a
container of its own (Firefox's userContextId: a cookie jar per container), and its page
answers the part of Playwright's sync Page the scenarios use: goto, fill, click, inner_text,
evaluate, wait_for_function, wait_for_selector, locator, screenshot. A click is a real mouse
press at the middle of the element (WebDriver's element click refuses SVG shapes in Firefox).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.browser import Firefox

# Chrome-scope script: a tab in container N in the current window, selected, the window's
# first tab closed, the window free to be as narrow as a phone.
_CONTAINER_TAB = """
const gBrowser = window.gBrowser;
const old = gBrowser.selectedTab;
const tab = gBrowser.addTab("about:blank", {
  userContextId: arguments[0],
  triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal()});
gBrowser.selectedTab = tab;
gBrowser.removeTab(old);
document.documentElement.style.minWidth = "0px";  // as tests/browser.py's Firefox does
"""


class Handle:
    """What wait_for_function gives back: the value, as Playwright's JSHandle.json_value."""

    def __init__(self, value):
        self.value = value

    def json_value(self):
        return self.value


class Locator:
    """The `index`-th element matching `selector` (None: the first, waited for)."""

    def __init__(self, page: FirefoxPage, selector: str, index: int | None = None):
        self.page, self.selector, self.index = page, selector, index

    def _pick(self) -> str:
        return f"document.querySelectorAll({json.dumps(self.selector)})[{self.index or 0}]"

    def all(self) -> list[Locator]:
        return [Locator(self.page, self.selector, i) for i in range(self.count())]

    def count(self) -> int:
        return self.page.js(f"return document.querySelectorAll({json.dumps(self.selector)})"
                            ".length")

    @property
    def first(self) -> Locator:
        return Locator(self.page, self.selector, 0)

    def click(self) -> None:
        self.page.wait_for_function(f"() => {self._pick()} !== undefined")
        self.page.tap(self._pick())

    def inner_text(self) -> str:
        self.page.wait_for_function(f"() => {self._pick()} !== undefined")
        return self.page.js(f"return {self._pick()}.innerText")


class FirefoxPage:
    """The one page of a context's window; every call first brings its window forward."""

    def __init__(self, owner: FirefoxBrowser, handle: str, viewport: dict):
        self.owner, self.firefox = owner, owner.firefox
        self.handle, self.viewport = handle, viewport

    def _here(self) -> Firefox:
        self.owner.show(self.handle)
        return self.firefox

    def js(self, script: str, *args):
        return self._here().js(script, *args)

    def goto(self, url: str) -> None:
        self._here().open(url, self.viewport)

    def evaluate(self, function: str):
        return self.js(f"return ({function})()")

    def wait_for_function(self, function: str, timeout: float = 30_000) -> Handle:
        end = time.monotonic() + timeout / 1000
        while True:
            got = self.evaluate(function)
            if got or time.monotonic() > end:
                assert got, f"not true within {timeout / 1000} s: {function}"
                return Handle(got)
            time.sleep(0.05)

    def wait_for_selector(self, selector: str, timeout: float = 30_000) -> None:
        self.wait_for_function(f"() => document.querySelector({json.dumps(selector)}) !== null",
                               timeout)

    def locator(self, selector: str) -> Locator:
        return Locator(self, selector)

    def inner_text(self, selector: str) -> str:
        return self.locator(selector).inner_text()

    def click(self, selector: str) -> None:
        self.locator(selector).click()

    def fill(self, selector: str, text: str) -> None:
        """Empty the field, then type `text` into it as keys."""
        self.wait_for_selector(selector)
        self.js(f"document.querySelector({json.dumps(selector)}).value = ''")
        self._here().type(selector, text)

    def tap(self, element: str) -> None:
        """A real mouse press at the middle of `element` (a JS expression), scrolled into view."""
        x, y = self.js(f"""const box = {element};
            box.scrollIntoView({{block: 'center'}});
            const r = box.getBoundingClientRect();
            return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];""")
        actions = self._here().marionette.actions
        actions.sequence("pointer", "mouse", {"pointerType": "mouse"}) \
            .pointer_move(x, y).pointer_down().pointer_up().perform()
        actions.release()

    def screenshot(self, path: str, full_page: bool = False) -> None:
        self._here().screenshot(Path(path), full=full_page)


class FirefoxContext:
    """A window of its own container: its own cookies, as a second phone has."""

    def __init__(self, owner: FirefoxBrowser, container: int, viewport: dict):
        m = owner.firefox.marionette
        before = set(m.window_handles)
        m.switch_to_window(m.open(type="window")["handle"])
        with m.using_context("chrome"):
            m.execute_script(_CONTAINER_TAB, script_args=[container])
        (self.handle,) = set(m.window_handles) - before
        owner.show(self.handle, again=True)
        self.owner, self.viewport = owner, viewport

    def new_page(self) -> FirefoxPage:
        return FirefoxPage(self.owner, self.handle, self.viewport)

    def close(self) -> None:
        m = self.owner.firefox.marionette
        self.owner.show(self.handle)
        m.close()
        self.owner.show(m.window_handles[0], again=True)


class FirefoxBrowser:
    """`new_context(viewport=...)` as Playwright's Browser has it, each in a new container."""

    def __init__(self, firefox: Firefox):
        self.firefox, self.containers = firefox, 0
        self.shown: str | None = None  # the window Marionette talks to: no round trip to ask

    def show(self, handle: str, again: bool = False) -> None:
        if again or handle != self.shown:
            self.firefox.marionette.switch_to_window(handle)
            self.shown = handle

    def new_context(self, viewport: dict) -> FirefoxContext:
        self.containers += 1
        return FirefoxContext(self, self.containers, viewport)

    def new_page(self, viewport: dict) -> FirefoxPage:
        return self.new_context(viewport).new_page()
