"""A whole game in one PDF (templates/lighthouse), checked from the PDF itself: each component's
cards on the pages its contents page names, backs behind fronts per component, the board's
sheets sharing overlap bands of identical art that assemble to the board."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from markcheck import coloured, colours_of, placed
from pdfgeom import drawing, page_streams
from test_print_matrix import physical_turn

from generator.build import Options
from generator.cli import main
from generator.whole.build import build_game
from pnp_model.game import load_game

MM = 72 / 25.4
SEA = (0x2F / 255, 0x6F / 255, 0x8F / 255)
DPI = 100


def contents(pdf: pdfium.PdfDocument) -> dict[str, tuple[list[int], str, int]]:
    """The contents page read as a person reads it: component -> (its pages, how to print,
    its sheets)."""
    text = next(t for t in (page.get_textpage().get_text_range() for page in pdf)
                if "component" in t and "pieces" in t)  # after the rules pages, if any
    out = {}
    for m in re.finditer(r"^(\S+)\s+(deck|tokens|tiles|board)\s+\d+\s+\S+ mm\s+(\d+)\s+"
                         r"([\d, -]+?)\s+(one-sided|double-sided)\s*$", text, re.M):
        pages = []
        for spec in m.group(4).split(","):
            first, _, last = spec.strip().partition("-")
            pages += range(int(first), int(last or first) + 1)
        out[m.group(1)] = (pages, m.group(5), int(m.group(3)))
    return out


def boxes(content: bytes, card_colours: dict) -> dict[int, tuple[float, float, float, float]]:
    """Card id -> the box of its coloured rectangle on the page."""
    out = {}
    for f in drawing(content).fills:
        key = tuple(round(v, 2) for v in f.color)
        if key in card_colours and f.points:
            xs, ys = [p[0] for p in f.points], [p[1] for p in f.points]
            out[card_colours[key]] = (min(xs), min(ys), max(xs), max(ys))
    return out


def coloured_game(opts: Options, tmp_path, only: tuple[str, ...] = ()):
    """lighthouse with every card of every component a rectangle of a colour of its own."""
    game = load_game("lighthouse").only(only)
    comps, offset = [], 0
    for c in game.components:
        shifted = tuple(replace(card, id=card.id + offset) for card in c.deck.cards)
        deck = coloured(replace(c.deck, cards=shifted))  # colours unique over the whole game
        deck = replace(deck, back=deck.back if c.deck.has_backs else ())  # one-sided stay so
        comps.append(replace(c, deck=deck))
        offset += len(deck.cards)
    game = replace(game, components=tuple(comps))
    out = tmp_path / "lighthouse.pdf"
    build_game(game, out, opts)
    return game, out


@pytest.mark.parametrize("flip", ["long", "short"])
def test_every_component_is_where_the_contents_page_says_with_backs_behind_fronts(tmp_path, flip):
    game, out = coloured_game(Options(flip=flip), tmp_path)
    pdf = pdfium.PdfDocument(str(out))
    listed = contents(pdf)
    assert list(listed) == [c.name for c in game.components]
    streams = page_streams(out.read_bytes())
    assert len(streams) == len(pdf)
    assert listed["voyages"][1] == listed["weather"][1] == "double-sided"
    assert listed["tokens"][1] == listed["tiles"][1] == "one-sided"
    expected: dict[int, set[str]] = {}  # page -> the components the contents page puts there
    for name, (pages, _, _) in listed.items():
        for n in pages:
            expected.setdefault(n, set()).add(name)
    colours = {c.name: colours_of(c.deck) for c in game.components}
    for n, content in enumerate(streams, 1):
        there = {name for name, cs in colours.items() if placed(content, cs)}
        assert there <= expected.get(n, set()), f"page {n}: {there} not where the contents says"
    for c in game.components:
        if c.kind == "board":
            continue  # its sheets: test_the_board_sheets_share_bands_of_identical_art
        pages, how, _ = listed[c.name]
        seen = []
        for n in pages:
            found = placed(streams[n - 1], colours[c.name])
            assert found, f"{c.name}: page {n} holds none of its cards"
            if how == "one-sided" or (n - pages[0]) % 2 == 0:
                seen += found
                if how == "double-sided":
                    assert n % 2 == 1, f"{c.name}: a front on even page {n}: duplex misses"
                    backs = placed(streams[n], colours[c.name])
                    w, h = pdf[n - 1].get_size()
                    assert backs.keys() == found.keys()
                    for card, (fx, fy) in found.items():
                        ex, ey = physical_turn(fx, fy, w, h, flip)
                        bx, by = backs[card]
                        assert abs(bx - ex) < 0.1 * MM and abs(by - ey) < 0.1 * MM, (c.name, card)
        assert sorted(seen) == sorted(card.id for card in c.deck.cards), c.name


def test_small_one_sided_pieces_nest_in_free_room_and_save_sheets(tmp_path):
    only = ("voyages", "weather", "tokens", "tiles")
    (tmp_path / "apart").mkdir()
    game, apart = coloured_game(Options(nesting=False), tmp_path / "apart", only)
    _, nested = coloured_game(Options(), tmp_path, only)
    sheets = {}
    for name, out in (("apart", apart), ("nested", nested)):
        listed = contents(pdfium.PdfDocument(str(out)))
        sheets[name] = sum(sheets for _, _, sheets in listed.values())
    assert sheets["nested"] < sheets["apart"]  # 4 sheets of pieces instead of 5
    listed = contents(pdfium.PdfDocument(str(nested)))
    tokens = next(c for c in game.components if c.name == "tokens")
    assert listed["tokens"][2] == 0  # every token in other sheets' room
    streams = page_streams(nested.read_bytes())
    pdf = pdfium.PdfDocument(str(nested))
    colours = {c.name: colours_of(c.deck) for c in game.components}
    found = []
    for n in listed["tokens"][0]:
        mine = boxes(streams[n - 1], colours["tokens"])
        theirs = [b for name, cs in colours.items() if name != "tokens"
                  for b in boxes(streams[n - 1], cs).values()]
        assert theirs, f"page {n} is another component's sheet"
        w, h = pdf[n - 1].get_size()
        for box in mine.values():
            assert box[0] >= 6 * MM and box[1] >= 6 * MM and box[2] <= w - 6 * MM \
                and box[3] <= h - 6 * MM, "a token inside the printer margin"
            for other in theirs + [b for b in mine.values() if b is not box]:
                assert box[2] + 1 * MM <= other[0] or other[2] + 1 * MM <= box[0] or \
                    box[3] + 1 * MM <= other[1] or other[3] + 1 * MM <= box[1], \
                    f"page {n}: a token within 1 mm of another piece"
        found += mine
    assert sorted(found) == sorted(c.id for c in tokens.deck.cards)


def board_pages(out):
    pdf = pdfium.PdfDocument(str(out))
    pages = contents(pdf)["board"][0]
    streams = page_streams(out.read_bytes())
    sheets = []
    for n in pages:
        d = drawing(streams[n - 1])
        sea = [f for f in d.fills if np.allclose(f.color, SEA, atol=0.003) and len(f.points) == 4]
        xs, ys = [p[0] for p in sea[0].points], [p[1] for p in sea[0].points]
        origin, size = (min(xs), min(ys)), (max(xs) - min(xs), max(ys) - min(ys))
        crosses = _crosses(d.strokes)
        image = np.asarray(pdf[n - 1].render(scale=DPI / 72).to_pil().convert("RGB")).astype(int)
        sheets.append({"origin": origin, "size": size, "crosses": crosses, "image": image,
                       "height": pdf[n - 1].get_size()[1]})
    return sheets


def _crosses(strokes) -> list[tuple[float, float]]:
    """Centres of registration crosses: a 5 mm horizontal and vertical stroke sharing a middle."""
    horizontal = [((a[0] + b[0]) / 2, a[1]) for a, b in strokes
                  if abs(a[1] - b[1]) < 1e-6 and abs(abs(a[0] - b[0]) - 5 * MM) < 0.01]
    vertical = [(a[0], (a[1] + b[1]) / 2) for a, b in strokes
                if abs(a[0] - b[0]) < 1e-6 and abs(abs(a[1] - b[1]) - 5 * MM) < 0.01]
    return [c for c in horizontal if any(np.hypot(c[0] - v[0], c[1] - v[1]) < 0.01
                                         for v in vertical)]


def window(sheet) -> tuple[float, float, float, float]:
    """The part of the board a sheet shows, in board mm (x0, y0, x1, y1 from the board's
    bottom-left), measured from the render: the box of its sea-coloured pixels."""
    img = sheet["image"]
    sea = np.all(np.abs(img - np.array(SEA) * 255) < 12, axis=2)
    rows, cols = np.nonzero(sea)
    px = 72 / DPI  # points per pixel
    ox, oy = sheet["origin"]
    x0, x1 = cols.min() * px - ox, (cols.max() + 1) * px - ox
    y1, y0 = sheet["height"] - rows.min() * px - oy, sheet["height"] - (rows.max() + 1) * px - oy
    return x0 / MM, y0 / MM, x1 / MM, y1 / MM


def crop(sheet, box) -> np.ndarray:
    """The render's pixels over a box of the board (board mm)."""
    px = 72 / DPI
    ox, oy = sheet["origin"]
    x0, y0, x1, y1 = box
    c0, c1 = round((x0 * MM + ox) / px), round((x1 * MM + ox) / px)
    r0 = round((sheet["height"] - (y1 * MM + oy)) / px)
    r1 = round((sheet["height"] - (y0 * MM + oy)) / px)
    return sheet["image"][r0:r1, c0:c1]


def test_the_board_sheets_share_bands_of_identical_art_and_assemble_to_the_board(tmp_path):
    out = tmp_path / "lighthouse.pdf"
    r = CliRunner().invoke(main, ["build", "lighthouse", "--only", "board", "-o", str(out)])
    assert r.exit_code == 0, r.output
    sheets = board_pages(out)
    assert len(sheets) == 6  # 500 x 350 mm on A4: the fewest sheets that hold it with bands
    for s in sheets:  # drawn at full size
        assert abs(s["size"][0] - 500 * MM) < 0.01 and abs(s["size"][1] - 350 * MM) < 0.01
    windows = [window(s) for s in sheets]
    # the windows together cover the whole board
    assert min(w[0] for w in windows) < 0.5 and max(w[2] for w in windows) > 499.5
    assert min(w[1] for w in windows) < 0.5 and max(w[3] for w in windows) > 349.5
    bands = 0
    for i, a in enumerate(windows):
        for j, b in enumerate(windows[i + 1:], i + 1):
            box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
            if box[2] - box[0] <= 0 or box[3] - box[1] <= 0:
                continue
            if max(box[2] - box[0], box[3] - box[1]) < 50:
                continue  # diagonal neighbours share only the corner where bands cross
            bands += 1
            assert min(box[2] - box[0], box[3] - box[1]) > 9, "an overlap band narrower than 9 mm"
            inner = (box[0] + 0.5, box[1] + 0.5, box[2] - 0.5, box[3] - 0.5)
            pa, pb = crop(sheets[i], inner), crop(sheets[j], inner)
            n = min(pa.shape[0], pb.shape[0]), min(pa.shape[1], pb.shape[1])
            diff = np.abs(pa[:n[0], :n[1]] - pb[:n[0], :n[1]])
            assert diff.mean() < 4 and (diff.max(axis=2) > 80).mean() < 0.01, (i, j, diff.mean())
            # and the comparison can tell: the same band 2 mm off differs
            off = crop(sheets[j], (inner[0] + 2, inner[1] + 2, inner[2] + 2, inner[3] + 2))
            m = min(off.shape[0], n[0]), min(off.shape[1], n[1])
            assert np.abs(pa[:m[0], :m[1]] - off[:m[0], :m[1]]).mean() > 4 * diff.mean()
            # registration crosses in the band at the same board point on both sheets
            on_a = [(x - sheets[i]["origin"][0], y - sheets[i]["origin"][1])
                    for x, y in sheets[i]["crosses"]]
            on_b = [(x - sheets[j]["origin"][0], y - sheets[j]["origin"][1])
                    for x, y in sheets[j]["crosses"]]
            shared = [p for p in on_a if box[0] * MM <= p[0] <= box[2] * MM
                      and box[1] * MM <= p[1] <= box[3] * MM]
            assert len(shared) >= 2
            for p in shared:
                assert min(np.hypot(p[0] - q[0], p[1] - q[1]) for q in on_b) < 0.2 * MM
    assert bands == 7  # 3 x 2 sheets: 4 vertical bands and 3 horizontal ones


def test_a_board_at_a_shop_size_is_one_page_with_bleed(tmp_path):
    out = tmp_path / "board.pdf"
    r = CliRunner().invoke(main, ["build", "lighthouse", "--only", "board", "--single",
                                  "-o", str(out)])
    assert r.exit_code == 0, r.output
    pdf = pdfium.PdfDocument(str(out))
    assert len(pdf) == 3  # the rules, the contents page and the board
    w, h = pdf[2].get_size()
    assert abs(w - 506 * MM) < 0.01 and abs(h - 356 * MM) < 0.01  # 3 mm bleed on every side


def test_only_builds_the_named_components_and_an_unknown_one_is_named(tmp_path):
    out = tmp_path / "l.pdf"
    r = CliRunner().invoke(main, ["build", "lighthouse", "--only", "tokens,weather", "-o",
                                  str(out)])
    assert r.exit_code == 0, r.output
    assert list(contents(pdfium.PdfDocument(str(out)))) == ["weather", "tokens"]
    r = CliRunner().invoke(main, ["build", "lighthouse", "--only", "boats", "-o", str(out)])
    assert r.exit_code == 2
    assert r.output.strip().splitlines()[-1] == (
        "error: no component 'boats' in lighthouse (components: board, voyages, weather, "
        "tokens, tiles) (--only)")


def test_a_mistake_names_its_component(tmp_path):
    import shutil

    from pnp_model.catalog import bundled

    shutil.copytree(bundled()["lighthouse"], tmp_path / "g")
    toml = tmp_path / "g" / "game.toml"
    toml.write_text(toml.read_text().replace('size = "22x22mm"', 'size = "22xqmm"')
                    .replace('size = "mini"', 'size = "minni"'))
    r = CliRunner().invoke(main, ["build", str(tmp_path / "g")])
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert any("(game.toml [component.weather] [deck].size)" in line for line in lines)
    assert any("(game.toml [component.tokens] [deck].size)" in line for line in lines)
    assert "Traceback" not in r.output


def test_verify_checks_every_component(tmp_path):
    r = CliRunner().invoke(main, ["verify", "lighthouse"])
    assert r.exit_code == 0, r.output
    for title in ("Board", "Voyage cards", "Weather cards", "Tokens", "Terrain tiles"):
        assert f"Lighthouse · {title}: OK" in r.output


# Tabletop Simulator's own objects for pieces, as its saved objects have them (the fields of a
# Custom_Tile as @typed-tabletop-simulator's forge/tile.js writes them; a token's CustomToken
# and a board's CustomImage alike)
PIECE = {
    "type": "object",
    "required": ["Name", "Transform", "Nickname", "Description", "CustomImage"],
    "properties": {
        "Name": {"enum": ["Custom_Token", "Custom_Tile", "Custom_Board"]},
        "CustomImage": {
            "type": "object",
            "required": ["ImageURL", "ImageSecondaryURL", "ImageScalar", "WidthScale"],
            "properties": {
                "ImageURL": {"type": "string", "pattern": r"^file:///\S+\.png$"},
                "CustomToken": {"type": "object", "required": ["Thickness",
                                "MergeDistancePixels", "StandUp", "Stackable"]},
                "CustomTile": {"type": "object", "required": ["Type", "Thickness",
                               "Stackable", "Stretch"],
                               "properties": {"Type": {"enum": [0, 1, 2, 3]}}},
            },
        },
    },
}


def test_tabletop_simulator_gets_every_component_in_one_saved_object(tmp_path):
    import json
    from pathlib import Path
    from urllib.parse import unquote, urlsplit

    import jsonschema
    from PIL import Image
    from test_tts import SCHEMA

    r = CliRunner().invoke(main, ["export", "lighthouse", "--format", "tts", "--dpi", "30",
                                  "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / "lighthouse.tts.json").read_text())
    objects = {o["Nickname"]: o for o in doc["ObjectStates"]}
    assert [o["Name"] for o in doc["ObjectStates"]] == ["Custom_Board", "DeckCustom",
                                                         "DeckCustom", "Bag", "Bag"]

    def file_of(url: str) -> Path:
        path = Path(unquote(urlsplit(url).path))
        assert path.is_file(), url
        return path

    for deck in ("Lighthouse · Voyage cards", "Lighthouse · Weather cards"):
        jsonschema.validate({"SaveName": "x", "ObjectStates": [objects[deck]]}, SCHEMA)
        for entry in objects[deck]["CustomDeck"].values():
            file_of(entry["FaceURL"]), file_of(entry["BackURL"])
    assert len(objects["Lighthouse · Voyage cards"]["DeckIDs"]) == 16
    board = objects["Board"]
    jsonschema.validate(board, PIECE)
    with Image.open(file_of(board["CustomImage"]["ImageURL"])) as im:
        assert abs(im.width / im.height - 500 / 350) < 0.01
    tokens, tiles = objects["Tokens"]["ContainedObjects"], objects["Terrain tiles"]["ContainedObjects"]
    assert len(tokens) == 30 and {t["Name"] for t in tokens} == {"Custom_Token"}
    assert len(tiles) == 16 and {t["Name"] for t in tiles} == {"Custom_Tile"}
    assert sorted({t["Nickname"] for t in tokens}) == ["Cargo", "Lit", "Oil"]
    for piece in tokens + tiles:
        jsonschema.validate(piece, PIECE)
    with Image.open(file_of(tokens[0]["CustomImage"]["ImageURL"])) as im:
        rgba = im.convert("RGBA")  # a round token: TTS cuts it to the opaque pixels
        assert rgba.getpixel((0, 0))[3] == 0 and rgba.getpixel((im.width // 2, 2))[3] == 255


def test_the_designers_pages_come_first(tmp_path):
    out = tmp_path / "l.pdf"
    r = CliRunner().invoke(main, ["build", "lighthouse", "-o", str(out)])
    assert r.exit_code == 0, r.output
    pdf = pdfium.PdfDocument(str(out))
    first = pdf[0].render(scale=30 / 72).to_pil().convert("L")
    assert "Lighthouse" not in pdf[0].get_textpage().get_text_range()  # an image, not text
    assert first.getextrema()[0] < 60  # the rules' dark text is drawn
    listed = contents(pdf)
    assert "Page 1: the rules; this contents page is page 2." in \
        pdf[1].get_textpage().get_text_range()
    assert listed["board"][0] == list(range(3, 9))


def test_a_mistake_in_the_shared_print_table_is_one_line_at_that_table(tmp_path):
    """Every component inherits the game's [print]: one misspelt paper there was five lines,
    each at a component's [print] the file does not have. A mistake in a component's own
    [print] still names that component."""
    import shutil

    from pnp_model.catalog import bundled

    shutil.copytree(bundled()["lighthouse"], tmp_path / "g")
    toml = tmp_path / "g" / "game.toml"
    text = toml.read_text()
    toml.write_text(text.replace('paper = "a4"', 'paper = "a44"', 1))
    r = CliRunner().invoke(main, ["build", str(tmp_path / "g")])
    assert r.exit_code == 2
    assert r.output.count("error:") == 1, r.output
    assert r.output.startswith("error: unknown paper 'a44'")
    assert r.output.rstrip().endswith("(game.toml [print].paper)"), r.output
    toml.write_text(text.replace('[component.tokens.print]\ngutter = "2mm"',
                                 '[component.tokens.print]\ngutter = "2mm"\npaper = "b99"'))
    r = CliRunner().invoke(main, ["build", str(tmp_path / "g")])
    assert r.exit_code == 2 and r.output.count("error:") == 1, r.output
    assert r.output.rstrip().endswith("(game.toml [component.tokens] [print].paper)"), r.output


def test_a_board_that_fits_one_sheet_mentions_no_glue(tmp_path):
    """On paper the board fits, nothing is glued: neither the printed summary nor the PDF's
    contents page speaks of glue bands (they did: '1x1 sheets, glue over 10 mm bands')."""
    out = tmp_path / "b.pdf"
    r = CliRunner().invoke(main, ["build", "lighthouse", "--paper", "600x400mm", "--only",
                                  "board", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "board (board): 1 x 500x350 mm, 1 sheet" in r.output
    assert "glue" not in r.output, r.output
    text = "".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(str(out)))
    assert "board" in text and "glue" not in text, text
    # split over A4 sheets, the glue bands are still said
    r = CliRunner().invoke(main, ["build", "lighthouse", "--only", "board", "-o", str(out)])
    assert r.exit_code == 0 and "glue over 10 mm bands" in r.output, r.output
    text = "".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(str(out)))
    assert "glue over 10 mm bands" in text
