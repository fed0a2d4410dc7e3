"""Card text as designers write it, checked from the built PDF: text boxes that shrink to fit
or warn, rich text, inline icons and glyphs the card's font lacks (issue 14)."""

from __future__ import annotations

import ctypes
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from click.testing import CliRunner
from PIL import Image

from generator.cli import main
from tests import pdfgeom

MM = 72 / 25.4
CARD_H = 252.0  # poker, points; --single makes the page the card
BOX = {"x": 5, "y": 40, "w": 53.5, "h": 30}  # mm, from the card's top-left


def make_game(root: Path, rows: list[dict], text: dict | None = None, icons: str = "") -> Path:
    """A poker deck with one text element over the rules box; rows fill the CSV."""
    root.mkdir()
    el = {"x": f"{BOX['x']}mm", "y": f"{BOX['y']}mm", "w": f"{BOX['w']}mm",
          "h": f"{BOX['h']}mm", "size": 10, **(text or {})}
    lines = [f"{k} = {v!r}" if isinstance(v, str) else f"{k} = {str(v).lower()}"
             for k, v in el.items() if v is not None]
    toml = ['[deck]', 'file = "cards.csv"', 'size = "poker"', icons, '[[face]]', 'type = "text"',
            'text = "{rules}"', *[line.replace("'", '"') for line in lines]]
    (root / "game.toml").write_text("\n".join(toml) + "\n", encoding="utf-8")
    csv = ["name,rules"] + [f'{r["name"]},"{r["rules"]}"' for r in rows]
    (root / "cards.csv").write_text("\n".join(csv) + "\n", encoding="utf-8")
    return root


def build(game: Path, *extra: str):
    out = game.parent / "out.pdf"
    result = CliRunner().invoke(main, ["build", str(game), "--single", "--bleed", "0mm", "--no-marks", "-o",
                                       str(out), *extra], catch_exceptions=False)
    return result, out


def chars(pdf: Path, page: int = 0) -> list[dict]:
    """Every character pdfium reads on the page: text, box (points), font size and font."""
    doc = pdfium.PdfDocument(str(pdf))
    tp = doc[page].get_textpage()
    out = []
    buf = ctypes.create_string_buffer(256)
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if not ch.strip():
            continue
        pdfium_c.FPDFText_GetFontInfo(tp.raw, i, buf, 256, None)
        out.append({"ch": ch, "box": tp.get_charbox(i),
                    "size": pdfium_c.FPDFText_GetFontSize(tp.raw, i),
                    "font": buf.value.decode("latin-1")})
    return out


def box_points() -> tuple[float, float, float, float]:
    """The rules box in PDF coordinates: left, bottom, right, top."""
    left, top = BOX["x"] * MM, CARD_H - BOX["y"] * MM
    return left, top - BOX["h"] * MM, left + BOX["w"] * MM, top


LONG = ("When this card enters play each opponent discards a card at random and for each "
        "card discarded this way you may gain one coin or draw a card. ") * 3
ENDLESS = "and on " * 400


def test_long_rules_shrink_into_their_box_and_stay_readable(tmp_path):
    game = make_game(tmp_path / "g", [{"name": "Mana Leak", "rules": LONG}],
                     {"fit": "shrink"})
    result, out = build(game)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    found = chars(out)
    left, bottom, right, top = box_points()
    assert len(found) > 200
    for c in found:
        x0, y0, x1, y1 = c["box"]
        assert left - 0.5 <= x0 and x1 <= right + 0.5 and bottom - 0.5 <= y0 and y1 <= top + 0.5
    sizes = {round(c["size"], 1) for c in found}
    assert len(sizes) == 1 and 6 <= sizes.pop() < 10  # shrunk, one size, not below min_size


def test_text_that_does_not_fit_is_a_warning_naming_card_element_and_overflow(tmp_path):
    game = make_game(tmp_path / "g", [{"name": "Short", "rules": "Draw a card."},
                                      {"name": "Mana Leak", "rules": ENDLESS}],
                     {"fit": "shrink", "min_size": 7})
    result, out = build(game)
    assert result.exit_code == 0 and out.exists()
    warnings = [line for line in result.output.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, result.output
    w = warnings[0]
    for part in ("card #2 (Mana Leak)", "[[face]] #1 (text)", "overflows its box", "mm (",
                 "lines)", "min_size 7 pt"):
        assert part in w, w
    over_mm = float(w.split("by ")[1].split(" mm")[0])
    found = chars(out, 1)
    lowest = min(c["box"][1] for c in found)
    assert {round(c["size"]) for c in found} == {7}
    assert abs((box_points()[1] - lowest) / MM - over_mm) < 3  # the figure matches the ink


def test_strict_turns_warnings_into_exit_code_1(tmp_path):
    game = make_game(tmp_path / "g", [{"name": "Mana Leak", "rules": ENDLESS}])
    result, out = build(game, "--strict")
    assert result.exit_code == 1 and not out.exists()  # no card with a line cut off is printed
    assert "warning:" in result.output and "--strict" in result.output.splitlines()[-1]
    fine = make_game(tmp_path / "ok", [{"name": "Fine", "rules": "Draw a card."}])
    assert build(fine, "--strict")[0].exit_code == 0


def test_shrink_true_no_longer_squeezes_a_paragraph_onto_one_tiny_line(tmp_path):
    game = make_game(tmp_path / "g", [{"name": "Wordy", "rules": LONG}],
                     {"h": None, "shrink": True})
    result, out = build(game)
    assert result.exit_code == 0
    assert min(c["size"] for c in chars(out)) >= 6 - 0.01  # was 1.5 pt on one line
    assert "card #1 (Wordy)" in result.output and "give the element a box height h" in \
        result.output


@pytest.mark.parametrize("valign", ["top", "middle", "bottom"])
def test_valign_places_the_block_in_its_box(tmp_path, valign):
    game = make_game(tmp_path / "g", [{"name": "A", "rules": "Draw a card."}],
                     {"valign": valign})
    result, out = build(game)
    assert result.exit_code == 0, result.output
    found = chars(out)
    ink_top, ink_bottom = max(c["box"][3] for c in found), min(c["box"][1] for c in found)
    _, bottom, _, top = box_points()
    gap_top, gap_bottom = top - ink_top, ink_bottom - bottom
    if valign == "top":
        assert gap_top < 4 and gap_bottom > 60
    elif valign == "bottom":
        assert gap_bottom < 5 and gap_top > 60
    else:
        assert abs(gap_top - gap_bottom) < 4


def test_bold_italic_breaks_and_escapes_from_a_csv_cell(tmp_path):
    rules = (r"**Strong** then *soft*, <b>tag</b> <I>slant</I>.\nSecond<br>Third "
             "1 < 2 & 3 > 2 <script> 2 * 3")
    game = make_game(tmp_path / "g", [{"name": "A", "rules": rules}], {"h": None})
    result, out = build(game)
    assert result.exit_code == 0, result.output
    found = chars(out)
    text = "".join(c["ch"] for c in found)
    assert "1<2&3>2<script>2*3" in text and "**" not in text and "<b>" not in text
    font_of: dict[str, str] = {}
    for c in found:
        font_of.setdefault(c["ch"], c["font"])
    assert "Bold" in font_of["S"] and "Bold" in font_of["g"]  # Strong, tag
    assert "Oblique" in font_of["f"] and "Oblique" in font_of["l"]  # soft, slant
    assert "Bold" not in font_of["h"] and "Oblique" not in font_of["h"]  # then
    baseline: dict[str, float] = {}
    for c in found:  # the first S, c and T: of Strong, Second and Third
        baseline.setdefault(c["ch"], round(c["box"][1]))
    assert baseline["S"] > baseline["c"] > baseline["T"]  # Strong / Second / Third lines


def test_a_character_no_font_has_is_a_warning_naming_card_and_character(tmp_path):
    game = make_game(tmp_path / "g", [{"name": "Castle", "rules": "Defend ⛨ now"}],
                     {"h": None})
    result, _ = build(game)
    assert result.exit_code == 0
    assert "card #1 (Castle)" in result.output and "'⛨' (U+26E8)" in result.output


def test_the_fallback_font_draws_what_the_card_font_lacks(tmp_path):
    game = make_game(tmp_path / "g", [{"name": "Star", "rules": "Gain ★ → ① α Ж ⚡ ♥"}],
                     {"size": 30, "h": None})
    result, out = build(game)
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    assert b"DejaVuSans" in out.read_bytes()  # the fallback is embedded
    found = {c["ch"]: c for c in chars(out)}
    assert "DejaVu" in found["★"]["font"] and "Vera" in found["G"]["font"]
    # ink where the star is: a filled star, not an empty box outline
    dpi = 200
    im = pdfium.PdfDocument(str(out))[0].render(scale=dpi / 72).to_pil().convert("L")
    x0, y0, x1, y1 = found["★"]["box"]
    crop = im.crop((round(x0 * dpi / 72), round((CARD_H - y1) * dpi / 72),
                    round(x1 * dpi / 72), round((CARD_H - y0) * dpi / 72)))
    dark = sum(crop.histogram()[:128]) / (crop.width * crop.height)
    assert dark > 0.3, dark


def _icon_game(tmp_path: Path, rules: str) -> Path:
    root = tmp_path / "g"
    icons = ('[icons]\ncoin = "coin.png"\nheart = { shape = "heart", color = "#ff0000" }\n'
             'bolt = { icon = "bolt", color = "#00aa00" }\ndrop = "drop.svg"\n')
    make_game(root, [{"name": "Icons", "rules": rules}], {"size": 14}, icons)
    Image.new("RGB", (200, 200), (0, 0, 255)).save(root / "coin.png")
    (root / "drop.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="20" '
                                   'height="30"><rect width="20" height="30" fill="#ff8000"/>'
                                   '</svg>')
    return root


def _colour_boxes(png: Image.Image, rgb: tuple[int, int, int]) -> tuple[int, int, int, int]:
    mask = png.convert("RGB").point(lambda v: v)  # a copy
    px = mask.load()
    hits = [(x, y) for y in range(mask.height) for x in range(mask.width)
            if all(abs(px[x, y][i] - rgb[i]) < 40 for i in range(3))]
    assert hits, f"no {rgb} ink"
    xs, ys = [p[0] for p in hits], [p[1] for p in hits]
    return min(xs), min(ys), max(xs), max(ys)


def test_inline_icons_sit_in_the_line_sized_to_the_text(tmp_path):
    game = _icon_game(tmp_path, "Pay :coin: :heart: :bolt: :drop: now")
    result, out = build(game)
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    found = chars(out)
    text = "".join(c["ch"] for c in found)
    assert ":coin:" not in text and "Pay" in text and "now" in text
    dpi = 100
    im = pdfium.PdfDocument(str(out))[0].render(scale=dpi / 72).to_pil()
    line = [c for c in found if c["ch"] in "Pay"]
    line_top = CARD_H - max(c["box"][3] for c in line)  # from the page top, points
    line_bottom = CARD_H - min(c["box"][1] for c in line)
    pay_right = max(c["box"][2] for c in line)
    now_left = min(c["box"][0] for c in found if c["ch"] == "n")
    lefts = []
    for rgb in ((0, 0, 255), (255, 0, 0), (0, 170, 0), (255, 128, 0)):
        x0, y0, x1, y1 = (v * 72 / dpi for v in _colour_boxes(im, rgb))
        assert pay_right < x0 and x1 < now_left  # between the words, in the flow
        assert line_top - 6 < y0 and y1 < line_bottom + 6  # on the line
        assert 8 < y1 - y0 < 18  # about the 14 pt text size
        lefts.append(x0)
    assert lefts == sorted(lefts)  # in the order written
    fills = [f for s in pdfgeom.streams(out.read_bytes()) for f in pdfgeom.drawing(s).fills]
    assert any(f.color == (1, 0, 0) for f in fills)  # the heart is a vector path, not pixels


def test_an_unknown_icon_prints_as_written_with_a_warning(tmp_path):
    game = _icon_game(tmp_path, "Pay :coni: now")
    result, out = build(game)
    assert result.exit_code == 0
    assert "card #1 (Icons)" in result.output and ":coni:" in result.output
    assert ":coni:" in "".join(c["ch"] for c in chars(out))


@pytest.mark.parametrize("icons, expected", [
    ('[icons]\ncoin = "nope.png"', "missing icon file 'nope.png'"),
    ('[icons]\nx = { shape = "blob" }', "unknown shape 'blob'"),
    ('[icons]\nx = { icon = "no-such-icon" }', "no Font Awesome Free solid icon"),
    ('[icons]\nx = { shape = "heart", file = "a.png" }', "exactly one of file, shape or icon"),
    ('[icons]\nx = { shape = "heart", scale = 0 }', "scale must be"),
    ('[icons]\n"9x" = { shape = "heart" }', "must start with a letter"),
])
def test_bad_icons_are_one_line_errors_naming_the_entry(tmp_path, icons, expected):
    game = make_game(tmp_path / "g", [{"name": "A", "rules": "x"}], icons=icons)
    result, _ = build(game)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0] and "[icons]" in lines[0], result.output


@pytest.mark.parametrize("params, expected", [
    ({"fit": "squash"}, "fit must be one of shrink, none"),
    ({"valign": "center"}, "valign must be one of top, middle, bottom"),
    ({"w": None, "fit": "shrink"}, 'fit = "shrink" needs the width w'),
])
def test_bad_text_box_parameters_are_one_line_errors(tmp_path, params, expected):
    game = make_game(tmp_path / "g", [{"name": "A", "rules": "x"}], params)
    result, _ = build(game)
    assert result.exit_code == 2 and expected in result.output, result.output


def test_inline_icons_pass_preflight(tmp_path):
    """No stray font (reportlab's Helvetica from the SVG drawing) and no placeholder image."""
    game = _icon_game(tmp_path, "Pay :coin: :heart: :bolt: :drop: now")
    result = CliRunner().invoke(main, ["check", str(game)], catch_exceptions=False)
    assert result.exit_code == 0 and "no preflight finding" in result.output, result.output


def test_a_word_wider_than_the_box_is_a_warning(tmp_path):
    game = make_game(tmp_path / "g", [{"name": "Wide", "rules": "Supercalifragilistic" * 3}],
                     {"size": 12})
    result, _ = build(game)
    assert result.exit_code == 0
    line = next(x for x in result.output.splitlines() if x.startswith("warning:"))
    assert "card #1 (Wide)" in line and "mm wider than the box (w 53.5 mm)" in line


def _own_fonts(root: Path) -> None:
    import reportlab

    vera = Path(reportlab.__file__).parent / "fonts"
    (root / "mine.ttf").write_bytes((vera / "Vera.ttf").read_bytes())
    (root / "mine-bold.ttf").write_bytes((vera / "VeraBd.ttf").read_bytes())


def test_bold_in_an_own_font_takes_its_bold_file_or_warns(tmp_path):
    game = make_game(tmp_path / "g", [{"name": "Own", "rules": "plain **strong** plain"}],
                     {"h": None, "font": "mine.ttf"})
    _own_fonts(game)
    result, _ = build(game)
    assert result.exit_code == 0
    assert "card #1 (Own)" in result.output and "bold text in a font without that style" in \
        result.output and "font_bold" in result.output
    toml = game / "game.toml"
    toml.write_text(toml.read_text() + 'font_bold = "mine-bold.ttf"\n')
    result, out = build(game)
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    fonts_of = {c["ch"]: c["font"] for c in chars(out)}
    assert "Bold" in fonts_of["g"] and "Bold" not in fonts_of["p"]  # strong / plain


def test_rich_text_without_a_box_is_anchored_like_plain_text(tmp_path):
    game = make_game(tmp_path / "g", [{"name": "A", "rules": "**Title** ★"}],
                     {"h": None, "w": None, "x": "50%", "align": "center", "y": "20mm"})
    result, out = build(game)
    assert result.exit_code == 0, result.output
    found = chars(out)
    assert "*" not in "".join(c["ch"] for c in found)
    left, right = min(c["box"][0] for c in found), max(c["box"][2] for c in found)
    assert abs((left + right) / 2 - 90) < 2  # centred on x = 50 % of 180 pt
    baseline = min(c["box"][1] for c in found if c["ch"] == "T")
    assert abs(baseline - (CARD_H - 20 * MM)) < 0.6  # y is the baseline, as for plain text


def test_shrunk_lines_never_run_past_the_box(tmp_path):
    """reportlab may squeeze spaces to fit a word on a line, which runs a left-aligned line
    past w: such a line made shrinking fall to min_size with a false 'wider' warning."""
    import random

    rng = random.Random(7)
    words = "draw a card gain discard opponent spell creature attack block each turn".split()
    rows = [{"name": f"C{i}", "rules": " ".join(rng.choice(words) for _ in range(50))}
            for i in range(1, 21)]
    game = make_game(tmp_path / "g", rows, {"fit": "shrink", "h": "30mm"})
    result, out = build(game)
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    left, _, right, _ = box_points()
    for page in range(20):
        found = chars(out, page)
        assert max(c["box"][2] for c in found) <= right + 0.3
        assert min(c["size"] for c in found) > 6.5  # 50 words fit well above min_size


DRAKE = ("**Flying.** At the start of your turn, if you control another fire unit, Cinder "
         "Drake deals 2 damage to any target. It cannot be blocked by units with cost 2 or less, "
         "and spells your opponents cast cost 1 :heart: more while it is in play.")


def test_an_icon_that_wraps_moves_with_its_room(tmp_path):
    """Where a line breaks just before a vector icon, the icon starts the next line: it was
    once drawn at the end of the line above, the next line indented by its empty room."""
    game = _icon_game(tmp_path, DRAKE)
    toml = game / "game.toml"
    toml.write_text(toml.read_text().replace('w = "53.5mm"', 'w = "51.5mm"').replace(
        'h = "30mm"', 'h = "18.5mm"').replace("size = 14", 'size = 8.5\nfit = "shrink"\n'
                                               "min_size = 6.5"))
    result, out = build(game)
    assert result.exit_code == 0, result.output
    dpi = 144
    im = pdfium.PdfDocument(str(out))[0].render(scale=dpi / 72).to_pil()
    x0, y0, x1, y1 = (v * 72 / dpi for v in _colour_boxes(im, (255, 0, 0)))
    found = chars(out)
    text = "".join(c["ch"] for c in found)
    more, one = found[text.index("more")], found[text.index("cost1") + 4]
    left = box_points()[0]
    heart_baseline = CARD_H - y1 + (y1 - y0) * 0.1  # near the bottom of the heart's ink
    if abs(one["box"][1] - heart_baseline) < 4:  # the heart ends the line of "1"
        assert one["box"][2] < x0 and more["box"][0] < left + 1  # "more" starts the next
    else:  # the heart starts the next line, "more" right after it
        assert x0 < left + 2 and 0 < more["box"][0] - x1 < 5


def test_the_example_game_sets_its_rules_as_rich_text_that_fits(tmp_path):
    out = tmp_path / "emberfall.pdf"
    result = CliRunner().invoke(main, ["build", "emberfall", "--single", "--strict", "-o",
                                       str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output  # --strict: no text overflows, no lost glyph
    scout = chars(out, 0)  # card #1, Ember Scout: "**Haste.** *(It can attack ...)*"
    text = "".join(c["ch"] for c in scout)
    assert "**" not in text and "Haste." in text
    start = text.index("Haste.")
    assert all("Bold" in c["font"] for c in scout[start:start + 6])
    sellsword = "".join(c["ch"] for c in chars(out, 2 * 10))  # card #11: "Pay :coin:: ..."
    assert sellsword.count(":") == 1 and "coin" not in sellsword  # the icon, not its name


def test_valign_and_fit_may_come_from_a_column(tmp_path):
    root = make_game(tmp_path / "g", [{"name": "Up", "rules": "Draw."},
                                      {"name": "Down", "rules": "Draw."}],
                     {"valign": "{name}"})
    csv = (root / "cards.csv").read_text()
    (root / "cards.csv").write_text(csv.replace("name,rules", "name,rules,v")
                                    .replace('"Draw."\n', '"Draw.",top\n', 1)
                                    .replace('Down,"Draw."', 'Down,"Draw.",bottom'))
    toml = root / "game.toml"
    toml.write_text(toml.read_text().replace('valign = "{name}"', 'valign = "{v}"'))
    result, out = build(root)
    assert result.exit_code == 0, result.output
    top_of = [max(c["box"][3] for c in chars(out, page)) for page in (0, 1)]
    assert top_of[0] - top_of[1] > 50  # top of the box, then its bottom
    (root / "cards.csv").write_text((root / "cards.csv").read_text().replace("bottom", "centre"))
    result, _ = build(root)
    assert result.exit_code == 2 and "card #2 (Down)" in result.output and "valign" in \
        result.output


def test_every_bad_icon_is_named_in_one_run(tmp_path):
    icons = '[icons]\nheart = { shape = "hart" }\nbolt = { icon = "blot" }\ncoin = "nope.png"'
    game = make_game(tmp_path / "g", [{"name": "A", "rules": "x"}], {"valign": "centre"},
                     icons=icons)
    result, _ = build(game)
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    for entry in ("[icons].heart", "[icons].bolt", "[icons].coin", ".valign"):
        assert sum(entry in e for e in errors) == 1, result.output


def test_punctuation_stays_with_the_icon_it_follows(tmp_path):
    game = _icon_game(tmp_path, "Draw two cards and gain 2 :heart:.")
    toml = game / "game.toml"
    toml.write_text(toml.read_text().replace('w = "53.5mm"', 'w = "53mm"').replace(
        "size = 14", "size = 10"))
    result, out = build(game)
    assert result.exit_code == 0, result.output
    dpi = 144
    im = pdfium.PdfDocument(str(out))[0].render(scale=dpi / 72).to_pil()
    x0, y0, x1, y1 = (v * 72 / dpi for v in _colour_boxes(im, (255, 0, 0)))
    found = chars(out)
    dot = found[-1]
    assert dot["ch"] == "."
    assert 0 <= dot["box"][0] - x1 < 3  # right after the heart...
    assert y0 - 3 < CARD_H - dot["box"][1] < y1 + 3  # ...on its line, not alone below it


def test_watch_shows_a_rebuild_s_warnings(tmp_path):
    """A designer in `pnp watch` sees that the text they just lengthened no longer fits."""
    from tests.test_watch import Watch

    game = make_game(tmp_path / "g", [{"name": "Mana Leak", "rules": "Draw a card."}])
    w = Watch(game, "-o", tmp_path / "w.pdf", cwd=tmp_path)
    try:
        w.expect("out", "watching ")
        csv = game / "cards.csv"
        csv.write_text(csv.read_text().replace("Draw a card.", ENDLESS))
        line = w.expect("err", "warning: ")
        assert "card #1 (Mana Leak)" in line and "overflows its box" in line
    finally:
        assert w.stop() == 0


def test_preview_shows_the_warnings_of_the_cards_it_draws(tmp_path):
    game = make_game(tmp_path / "g", [{"name": "Fine", "rules": "Draw a card."},
                                      {"name": "Mana Leak", "rules": ENDLESS}])
    for card, warned in (("1", False), ("2", True)):
        result = CliRunner().invoke(main, ["preview", str(game), "--card", card, "--dpi", "30",
                                           "-o", str(tmp_path / f"{card}.png")])
        assert result.exit_code == 0, result.output
        assert ("warning: " in result.output) == warned, result.output
        assert ("card #2 (Mana Leak)" in result.output) == warned
