"""`pnp serve` shows the print as each colour-vision deficiency sees it: a selector re-renders
every page and card image through the simulation (issue 39 item 4), in a real Chromium.

The expected colours come from daltonlens directly, by the model published for each deficiency
(Viénot 1999 for protan and deutan, Brettel 1997 for tritan), not from the page's own code."""

from __future__ import annotations

import urllib.error
import urllib.request

import numpy as np
import pytest

from tests.browser import DESKTOP, PHONE
from tests.conftest import mini_game
from tests.test_pnp_serve import Served, loaded, opened, pixel

GREEN, BACK = (0, 255, 0), (0x12, 0x34, 0x56)  # card #3's front fill and every back (mini_game)


def seen_as(rgb: tuple[int, int, int], deficiency: str) -> tuple[int, ...]:
    from daltonlens import simulate as dl

    model, kind = {"protanopia": (dl.Simulator_Vienot1999, dl.Deficiency.PROTAN),
                   "deuteranopia": (dl.Simulator_Vienot1999, dl.Deficiency.DEUTAN),
                   "tritanopia": (dl.Simulator_Brettel1997, dl.Deficiency.TRITAN)}[deficiency]
    out = model().simulate_cvd(np.array([[rgb]], dtype=np.uint8), kind, severity=1.0)
    return tuple(int(v) for v in out[0, 0])


def close(got, want, tolerance: int = 2) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(got, want, strict=True))


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("vision")
    s = Served(mini_game(folder), "-o", folder / "mini.pdf", cwd=folder)
    yield s
    assert s.stop() == 0


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_cards_are_shown_as_each_deficiency_sees_them(browser, served, viewport,
                                                          tmp_path):
    page = opened(browser, served.url, viewport)
    page.evaluate("localStorage.clear()")
    page.locator('#card-list .card[data-id="3"]').click()
    for side in ("front", "back"):
        loaded(page, f'#zoom .side[data-side="{side}"] img')
    front, back = ('#zoom .side[data-side="front"] img', '#zoom .side[data-side="back"] img')
    assert pixel(page, front, 0.1, 0.9) == GREEN
    page.locator("#zoom-close").click()
    for see in ("protanopia", "deuteranopia", "tritanopia"):
        page.select_option("#vision", see)
        page.wait_for_function(f"""() => [...document.querySelectorAll('main img[data-kind]')]
            .every(img => img.src.includes('see={see}'))""", timeout=30000)
        assert page.locator("#vision-note").is_visible()
        assert see in page.locator("#vision-note").inner_text()
        page.locator('#card-list .card[data-id="3"]').click()
        for side in ("front", "back"):
            page.wait_for_function(f"""() => {{
                const img = document.querySelector('#zoom .side[data-side="{side}"] img');
                return img.src.includes('see={see}') && img.complete && img.naturalWidth > 0;
            }}""", timeout=30000)
        assert close(pixel(page, front, 0.1, 0.9), seen_as(GREEN, see)), see
        assert close(pixel(page, back, 0.1, 0.9), seen_as(BACK, see)), see
        assert see in page.locator('#zoom .side[data-side="front"] figcaption').inner_text()
        page.screenshot(path=str(tmp_path / f"{see}-{viewport['width']}.png"))
        page.locator("#zoom-close").click()
        page.locator("#page-1 img").scroll_into_view_if_needed()
        loaded(page, "#page-1 img")
        assert f"see={see}" in page.locator("#page-1 img").get_attribute("src")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(tmp_path / f"page-{viewport['width']}.png"), full_page=False)
    page.select_option("#vision", "")  # normal vision again: the print's own colours
    page.locator('#card-list .card[data-id="3"]').click()
    page.wait_for_function("""() => {
        const img = document.querySelector('#zoom .side[data-side="front"] img');
        return !img.src.includes('see=') && img.complete && img.naturalWidth > 0; }""",
                           timeout=30000)
    assert pixel(page, front, 0.1, 0.9) == GREEN
    assert page.locator("#vision-note").is_hidden()
    assert page.errors == []


def test_the_choice_is_kept_across_a_reload(browser, served):
    page = opened(browser, served.url)
    page.select_option("#vision", "tritanopia")
    page.reload()
    page.wait_for_function("() => window.pnpShown", timeout=60000)
    assert page.locator("#vision").input_value() == "tritanopia"
    assert "see=tritanopia" in page.locator("#card-list img").first.get_attribute("src")
    page.evaluate("localStorage.clear()")


def test_an_unknown_vision_is_refused_in_one_line(served):
    build = urllib.request.urlopen(served.local.rstrip("/") + "/state").read()
    import json

    number = json.loads(build)["manifest"]["build"]
    url = f"{served.local.rstrip('/')}/build/{number}/card/3/front.png?w=160&see=martian"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url)
    assert refused.value.code == 400
    assert refused.value.read().decode().count("\n") == 1
