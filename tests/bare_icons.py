"""The Dobble template as it was before badges: bare icons packed by their shapes in a 77 mm
area (min_size 0.16, max_size 0.42), for the tests of that drawing (badge off)."""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
BARE_SYMBOLS = '''[[face]]
type = "symbols"
x = "4mm"
y = "4mm"
w = "77mm"
h = "77mm"
{badge}spread = 1.6
min_size = 0.16
max_size = 0.42

'''


def bare_dobble(root: Path, badge: str = "") -> Path:
    """A copy of templates/dobble whose symbols element draws bare icons (badge line as given:
    none by default, e.g. 'badge = "none"\\n')."""
    toml = (TEMPLATES / "dobble" / "game.toml").read_text()
    toml, found = re.subn(r'\[\[face\]\]\ntype = "symbols"\n.*?\n\n',
                          BARE_SYMBOLS.format(badge=badge), toml, flags=re.S)
    assert found == 1
    root.mkdir(parents=True, exist_ok=True)
    (root / "game.toml").write_text(toml)
    return root
