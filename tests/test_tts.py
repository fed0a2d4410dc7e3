"""pnp export --format tts, read from what it writes: the JSON against a schema of Tabletop
Simulator's saved-object fields (tests/tts_schema.json), per-card backs and card shapes checked
on the sheets' pixels, and the image URLs another player's TTS can load."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from PIL import Image

from generator.cli import main

SCHEMA = json.loads((Path(__file__).parent / "tts_schema.json").read_text())


def export(game: str, out: Path, *flags: str) -> dict:
    r = CliRunner().invoke(main, ["export", game, "--format", "tts", "--dpi", "30", "-o", str(out),
                                  *flags])
    assert r.exit_code == 0, r.output
    doc = json.loads(next(out.glob("*.tts.json")).read_text())
    jsonschema.validate(doc, SCHEMA)
    return doc["ObjectStates"][0]


def cell_pixel(sheet: Path, entry: dict, cell: int, at=(0.5, 0.5)):
    """The pixel at a relative place of a sheet's cell, RGBA."""
    with Image.open(sheet) as im:
        w, h = im.width // entry["NumWidth"], im.height // entry["NumHeight"]
        x, y = cell % entry["NumWidth"] * w, cell // entry["NumWidth"] * h
        return im.convert("RGBA").getpixel((int(x + at[0] * (w - 1)), int(y + at[1] * (h - 1))))


def test_the_schema_rejects_what_tts_cannot_load():
    """The schema is strict where it matters: an absolute path with .. or a bare path is not
    a URL another machine can load, and a sheet over 10×7 is not a TTS sheet."""
    entry = {"FaceURL": "https://example.com/g/sheet-1.png", "BackURL": "https://example.com/g/back.png",
             "NumWidth": 4, "NumHeight": 1, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
    card = {"Name": "CardCustom", "Transform": {k: 1.0 for k in (
        "posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")},
        "Nickname": "a", "Description": "", "CardID": 100, "CustomDeck": {"1": entry}}
    jsonschema.validate({"SaveName": "g", "ObjectStates": [card]}, SCHEMA)
    for bad in ({"FaceURL": "file:///home/u/out/../g/sheet-1.png"}, {"FaceURL": "/home/u/sheet-1.png"},
                {"NumWidth": 11}, {"Type": 7}):
        broken = card | {"CustomDeck": {"1": entry | bad}}
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"SaveName": "g", "ObjectStates": [broken]}, SCHEMA)


def test_coda_gets_per_card_backs_dark_and_light(tmp_path):
    """Coda's back colour is game information: 13 dark and 13 light backs, not one dark back."""
    deck = export("coda", tmp_path)
    (key, entry), = deck["CustomDeck"].items()
    assert entry["UniqueBack"] is True and entry["Type"] == 0  # 2 mm corners: rounded
    backs = tmp_path / Path(entry["BackURL"]).name
    with Image.open(tmp_path / "sheet-1.png") as faces, Image.open(backs) as back_sheet:
        assert faces.size == back_sheet.size
    shade = {}
    for card in deck["ContainedObjects"]:
        cell = card["CardID"] - int(key) * 100
        face = cell_pixel(tmp_path / "sheet-1.png", entry, cell, (0.1, 0.9))
        back = cell_pixel(backs, entry, cell, (0.1, 0.9))
        assert abs(sum(face[:3]) - sum(back[:3])) < 30, card["Nickname"]  # back = face colour
        shade[card["CardID"]] = "dark" if sum(back[:3]) < 3 * 128 else "light"
    assert sorted(shade.values()) == ["dark"] * 13 + ["light"] * 13


def shown_mm(folder: Path, deck: dict) -> tuple[float, float]:
    """The card's size on the table as TTS shows it: a card of scale 1 is a poker card's
    height (88.9 mm) tall and that height times its sheet cell's width/height wide, then the
    Transform scales each axis."""
    entry = deck["CustomDeck"]["1"]
    with Image.open(folder / Path(entry["FaceURL"]).name) as sheet:
        cell_w, cell_h = sheet.width / entry["NumWidth"], sheet.height / entry["NumHeight"]
    t = deck["Transform"]
    return 88.9 * cell_w / cell_h * t["scaleX"], 88.9 * t["scaleZ"]


@pytest.mark.parametrize(("game", "size_mm"), [("dominoes", (25, 50)), ("tripple-domino", (40, 34.64)),
                                               ("coda", (20, 30))])
def test_tts_shows_each_card_at_its_trim_size(tmp_path, game, size_mm):
    """TTS takes the aspect from the sheet image: the scale is one on both axes, or a domino
    shows 17.6 × 50 mm."""
    deck = export(game, tmp_path, "--dpi", "100")
    assert deck["Transform"]["scaleX"] == deck["Transform"]["scaleZ"]
    assert shown_mm(tmp_path, deck) == pytest.approx(size_mm, abs=0.4)  # whole-pixel cells


def test_a_deck_with_one_back_keeps_one_back_image(mini, tmp_path):
    deck = export(str(mini), tmp_path)
    assert {e["UniqueBack"] for e in deck["CustomDeck"].values()} == {False}
    assert {Path(e["BackURL"]).name for e in deck["CustomDeck"].values()} == {"back.png"}


@pytest.mark.parametrize(("game", "tts_type", "width_mm"), [("dobble", 4, 85),
                                                             ("dobble-connect", 3, 55.426)])
def test_round_and_hex_decks_use_tts_shapes_and_clear_corners(tmp_path, game, tts_type, width_mm):
    deck = export(game, tmp_path)
    entries = deck["CustomDeck"]
    assert {e["Type"] for e in entries.values()} == {tts_type}
    assert deck["Transform"]["scaleX"] == pytest.approx(width_mm / 63.5, abs=1e-3)
    assert deck["Transform"]["scaleZ"] == deck["Transform"]["scaleX"]
    entry = entries["1"]
    corner = cell_pixel(tmp_path / "sheet-1.png", entry, 0, (0.02, 0.02))
    centre = cell_pixel(tmp_path / "sheet-1.png", entry, 0)
    assert corner[3] == 0 and centre[3] == 255  # transparent outside the card, not white


def test_base_url_gives_urls_other_players_can_load(mini, tmp_path):
    deck = export(str(mini), tmp_path / "out", "--base-url", "https://example.com/my game/tts/")
    entry = deck["CustomDeck"]["1"]
    assert entry["FaceURL"] == "https://example.com/my%20game/tts/sheet-1.png"  # encoded
    assert entry["BackURL"] == "https://example.com/my%20game/tts/back.png"


def test_default_urls_are_normalised_file_urls(mini, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").mkdir()
    deck = export(str(mini), Path("a/../out"))
    face = deck["CustomDeck"]["1"]["FaceURL"]
    assert face == (tmp_path / "out" / "sheet-1.png").resolve().as_uri()
    assert "/../" not in face


def test_a_base_url_that_is_not_a_url_is_one_line_and_exit_2(mini, tmp_path):
    r = CliRunner().invoke(main, ["export", str(mini), "--format", "tts", "--base-url",
                                  "example.com/x", "-o", str(tmp_path / "o")])
    assert r.exit_code == 2
    assert "--base-url" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "o").exists() or not list((tmp_path / "o").iterdir())


def test_emberfall_keeps_its_two_back_designs(tmp_path):
    """Units and spells have their own backs: the back sheet shows two designs, cell by cell."""
    deck = export("emberfall", tmp_path)
    entry = deck["CustomDeck"]["1"]
    assert entry["UniqueBack"] is True
    backs = tmp_path / Path(entry["BackURL"]).name
    cells = {card["CardID"] - 100 for card in deck["ContainedObjects"]}
    with Image.open(backs) as im:
        im = im.convert("RGB")
        w, h = im.width // entry["NumWidth"], im.height // entry["NumHeight"]
        designs = {im.crop((c % entry["NumWidth"] * w, c // entry["NumWidth"] * h,
                            c % entry["NumWidth"] * w + w, c // entry["NumWidth"] * h + h)).tobytes()
                   for c in cells}
    assert len(designs) == 2


def test_a_dpi_lowered_to_fit_the_sheet_is_said_once_on_stderr(tmp_path, mini):
    """--dpi 1200 was silently lowered so the sheet fits 4096 px: the user saw their dpi
    ignored. The sheet still fits, and one line says the dpi it got."""
    r = CliRunner().invoke(main, ["export", str(mini), "--format", "tts", "--dpi", "1200",
                                  "-o", str(tmp_path / "t")])
    assert r.exit_code == 0, r.output
    sheet = Image.open(tmp_path / "t" / "sheet-1.png")
    assert max(sheet.size) <= 4096
    doc = json.loads(next((tmp_path / "t").glob("*.tts.json")).read_text())
    cols = doc["ObjectStates"][0]["CustomDeck"]["1"]["NumWidth"]
    used = round(sheet.size[0] / cols / (63.5 / 25.4))  # the pixels of a poker card's width
    notes = [ln for ln in r.stderr.splitlines() if "dpi lowered" in ln]
    assert notes == [f"note: 1200 dpi lowered so each TTS image stays within 4096 px a side: "
                     f"mini at {used} dpi"], r.stderr
