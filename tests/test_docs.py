"""The documentation cannot rot silently: the site builds with --strict (its gallery from the
bundled templates, its command reference from click), every ```sh example of the site and the
README runs and succeeds, the rules page carries every rule the referee cites, and the README
stays short and keeps the commands CI runs.

An example runs in a scratch folder of its page (the page's earlier examples ran there first,
in order, so a tutorial's steps build on each other), with this Python's scripts first on PATH
and a match database of its own. Examples that never end (serve, watch, shell) are ```text."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.programs import BIN, PNP, REFEREE

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md")) + [ROOT / "README.md"]
FENCE = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)


def examples(page: Path) -> list[tuple[int, str]]:
    """(line, script) of every ```sh block of a page."""
    text = page.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in FENCE.finditer(text)]


EXAMPLES = [(page, line, script) for page in PAGES for line, script in examples(page)]


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


# Before each example: the shell state the page's previous example left (its new variables, its
# exports, its folder); after it, this example's, saved whatever its exit code.
SESSION = r"""__state="$PWD/.example-shell"
__before=" $(compgen -v | tr '\n' ' ') "
if [ -f "$__state" ]; then . "$__state"; fi
__save() {
  { for __v in $(compgen -v); do
      case "$__before" in *" $__v "*) continue;; esac
      case "$__v" in __*|FUNCNAME|BASH*|PIPESTATUS) ;; *) declare -p "$__v";; esac
    done
    export -p | grep -v -E '^declare -x (BASH|SHLVL|PWD|OLDPWD|_)'
    printf 'cd %q\n' "$PWD"
  } > "$__state" 2>/dev/null || true
}
trap __save EXIT
"""


class Scratch:
    """One folder per page, where its examples run in order."""

    def __init__(self, root: Path):
        self.root = root
        self.done: dict[Path, int] = {}  # page -> examples already run

    def folder(self, page: Path) -> Path:
        path = self.root / _name(page).replace("/", "_")
        path.mkdir(exist_ok=True)
        return path

    def run(self, page: Path, script: str) -> subprocess.CompletedProcess:
        """Run one example as if typed into the terminal the page's earlier examples were typed
        into: their variables (`GUIDE=$(mktemp -d)`, `export REFEREE_DB=...`) and folder stay."""
        folder = self.folder(page)
        env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
               "REFEREE_DB": str(folder / "referee.sqlite3"), "NO_MKDOCS_2_WARNING": "1",
               "PNP_CONFIG": str(folder / "pnp-config")}  # its `pnp printer save` stays here
        env.pop("VIRTUAL_ENV", None)
        return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", SESSION + script],
                              cwd=folder, env=env, capture_output=True, text=True, timeout=900,
                              stdin=subprocess.DEVNULL)

    def run_upto(self, page: Path, line: int) -> None:
        """Run the page's examples before `line` not run yet, as the reader would have."""
        for i, (earlier, script) in enumerate(examples(page)):
            if earlier >= line:
                break
            if i >= self.done.get(page, 0):
                result = self.run(page, script)
                assert result.returncode == 0, (
                    f"{_name(page)}:{earlier} (run before line {line}) failed with exit code "
                    f"{result.returncode}:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
                self.done[page] = i + 1


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return Scratch(tmp_path_factory.mktemp("doc-examples"))


@pytest.mark.parametrize(("page", "line", "script"), EXAMPLES,
                         ids=[f"{_name(p)}:{line}" for p, line, _ in EXAMPLES])
def test_example_runs(scratch, page, line, script):
    scratch.run_upto(page, line)
    result = scratch.run(page, script)
    assert result.returncode == 0, (
        f"the example at {_name(page)}:{line} exits with code {result.returncode}:\n"
        f"{script}\n--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-3000:]}")
    scratch.done[page] = [ln for ln, _ in examples(page)].index(line) + 1


def test_the_docs_have_examples_to_run():
    """The runner finds the examples (a fence it missed would silently test nothing)."""
    pages = {_name(p) for p, _, _ in EXAMPLES}
    assert {"docs/tutorials/first-deck.md", "docs/reference/notation.md",
            "docs/tutorials/referee-a-match.md"} <= pages


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True,
        timeout=900)
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stderr[-4000:]}"
    return out


def _commands(program: str) -> list[str]:
    """The commands a program's --help lists."""
    text = subprocess.run([program, "--help"], capture_output=True, text=True, check=True).stdout
    listed = text.split("Commands:\n", 1)[1]
    return [line.split()[0] for line in listed.splitlines() if line.startswith("  ") and
            not line.startswith("   ")]


def test_command_reference_has_a_page_per_command(site):
    """mkdocs-click documents every command of both programs, those loaded only when run
    included, each on a page of its own that the overview links to (all of them on one page
    made it 23,000 px tall)."""
    overview = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    for program, prog in ((PNP, "pnp"), (REFEREE, "referee")):
        commands = _commands(program)
        assert len(commands) >= 10
        for command in commands:
            page = site / "reference" / "cli" / f"{prog}-{command}" / "index.html"
            assert page.exists(), f"no page for {prog} {command}"
            text = page.read_text(encoding="utf-8")
            assert f'id="{prog}-{command}"' in text
            # click's own help text: mkdocs-click's table style printed click 8.2's unset
            # default as "Sentinel.UNSET" for every option without one
            assert "Sentinel" not in text
            assert f'href="{prog}-{command}/"' in overview, f"the overview omits {prog} {command}"


@pytest.fixture(scope="module")
def served_site(site):
    """The built site over HTTP on the loopback (pages open as a reader's browser opens them)."""
    import functools
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    thread.join(timeout=10)


SAMPLE = ["", "tutorials/first-deck/", "reference/cli/", "reference/cli/pnp-build/", "gallery/",
          "guides/refereeing/"]


@pytest.mark.parametrize("path", SAMPLE)
@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_pages_fetch_nothing_from_elsewhere_and_fit_the_screen(browser, served_site, path,
                                                               viewport):
    """Material loads its font from Google unless told not to (offline, every page logged
    errors): a page of ours asks only its own site for anything, at a phone's width and a
    desktop's, and nothing is wider than the screen."""
    from tests.browser import DESKTOP, PHONE

    size = PHONE if viewport == "phone" else DESKTOP
    page = browser.new_page(viewport=size)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    try:
        page.goto(served_site + path, wait_until="networkidle", timeout=60000)
        width = page.evaluate("document.documentElement.scrollWidth")
        height = page.evaluate("document.documentElement.scrollHeight")
    finally:
        page.close()
    elsewhere = [u for u in asked if not u.startswith((served_site, "data:", "blob:"))]
    assert not elsewhere, f"{path} asked elsewhere for {elsewhere}"
    assert width <= size["width"], f"{path} is {width} px wide on a {size['width']} px screen"
    assert height < 20000, f"{path} is {height} px tall at {size['width']} px"


def test_gallery_shows_every_template_from_its_build(site):
    templates = [t["name"] for t in json.loads(
        subprocess.run([PNP, "list", "--json"], capture_output=True, text=True, check=True).stdout)]
    page = (site / "gallery" / "index.html").read_text(encoding="utf-8")
    from PIL import Image

    for game in templates:
        for kind in ("page", "card"):
            image = site / "gallery" / f"{game}-{kind}.png"
            assert f"{game}-{kind}.png" in page, f"the gallery page does not show {image.name}"
            with Image.open(image) as im:
                width, height = im.size
                colours = im.convert("RGB").getcolors(maxcolors=1 << 20)
            assert width > 50 and height > 50
            assert colours is None or len(colours) > 4, f"{image.name} is blank"


def test_examples_show_what_they_made(site):
    """A tutorial or guide shows beside an example what it made: each `<!-- result: FILE -->`
    line became a picture rendered from what the docs build's run of the page's examples left
    (docs/results.py), each `<!-- result: output -->` the text the example printed."""
    from PIL import Image

    pictures = 0
    for page in sorted(DOCS.rglob("*.md")):
        markers = re.findall(r"^<!-- result: (.+?) -->$", page.read_text("utf-8"), re.M)
        if not markers:
            continue
        built = site / page.relative_to(DOCS).with_suffix("") / "index.html"
        html = built.read_text(encoding="utf-8")
        assert "<!-- result:" not in html, f"{page.name}: a result was not made"
        shown = [re.search(r'src="([^"]+)"', tag).group(1)
                 for tag in re.findall(r"<img [^>]*>", html) if 'class="result"' in tag]
        assert len(shown) == sum(m.split()[0] != "output" for m in markers), page.name
        for src in shown:
            with Image.open((built.parent / src).resolve()) as im:
                colours = im.convert("RGB").getcolors(maxcolors=1 << 20)
                assert im.width > 100 and (colours is None or len(colours) > 4), src
        pictures += len(shown)
    assert pictures >= 7


def _game_sections(text: str) -> dict[str, str]:
    return {m.group(1): m.group(2) for m in
            re.finditer(r"^## \d\. ([^\n(]+?)\s*(?:\(|,|\n)(.*?)(?=^## |\Z)", text, re.S | re.M)}


def test_rules_page_carries_every_rule_the_referee_cites():
    """Every id `referee rule GAME` knows, with its text, is in that game's section of
    docs/reference/rules.md, the file the code cites."""
    sections = _game_sections((DOCS / "reference" / "rules.md").read_text(encoding="utf-8"))
    games = json.loads(subprocess.run([REFEREE, "games", "--json"], capture_output=True,
                                      text=True, check=True).stdout)
    names = [g["name"] for g in games]
    assert len(names) >= 6  # the five games and the score sheet
    for name in names:
        title = next((t for t in sections if t.lower().replace(" ", "-") == name), None)
        assert title, f"docs/reference/rules.md has no section for {name} (has {list(sections)})"
        rules = json.loads(subprocess.run([REFEREE, "rule", name, "--json"], capture_output=True,
                                          text=True, check=True).stdout)
        for rule in rules:
            row = f"| `{rule['id']}` | {rule['text'].replace('|', chr(92) + '|')} |"
            assert row in sections[title], (
                f"rule {rule['id']} of {name} is not in docs/reference/rules.md as the referee "
                f"cites it; its row in the section's table of ids would be:\n{row}")


def test_readme_is_short_and_keeps_the_commands_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    test_command = "python3 -m venv .venv && . .venv/bin/activate && pip install '.[test]' && pytest"
    assert test_command in readme
    assert test_command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ("python3 -m venv .venv && . .venv/bin/activate && pip install . && pnp build --all"
            in readme)
