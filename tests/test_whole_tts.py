"""The Tabletop Simulator export of a whole game, checked against TTS's published save format:
the Knowledge Base's "Save File Format" page (kb.tabletopsimulator.com/custom-content/
save-file-format/: ObjectState's fields, CustomImageState, the object names) with the custom
image states of the current format (CustomToken: Thickness, MergeDistancePixels, StandUp,
Stackable; CustomTile: Type, Thickness, Stackable, Stretch), and the API's "Custom Game
Objects" page (api.tabletopsimulator.com/custom-game-objects/: Custom_Board, Custom_Token,
Custom_Tile; tile types 0 square, 1 hex, 2 circle; the Knowledge Base's custom tile page adds
3, rounded). Every object the export writes, bags' contents included, uses only those names."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import jsonschema
from click.testing import CliRunner
from PIL import Image

from generator.cli import main
from pnp_model.catalog import bundled

NUMBER = {"type": "number"}
IMAGE_STATE = {  # CustomImageState
    "type": "object", "additionalProperties": False, "required": ["ImageURL"],
    "properties": {
        "ImageURL": {"type": "string", "minLength": 1},
        "ImageSecondaryURL": {"type": "string"},
        "ImageScalar": NUMBER, "WidthScale": NUMBER,
        "CustomToken": {"type": "object", "additionalProperties": False,
                        "required": ["Thickness", "MergeDistancePixels", "StandUp", "Stackable"],
                        "properties": {"Thickness": NUMBER, "MergeDistancePixels": NUMBER,
                                       "StandUp": {"type": "boolean"},
                                       "Stackable": {"type": "boolean"}}},
        "CustomTile": {"type": "object", "additionalProperties": False,
                       "required": ["Type", "Thickness", "Stackable", "Stretch"],
                       "properties": {"Type": {"enum": [0, 1, 2, 3]}, "Thickness": NUMBER,
                                      "Stackable": {"type": "boolean"},
                                      "Stretch": {"type": "boolean"}}},
    },
}
OBJECT_STATE = {  # ObjectState: the fields a saved object of these kinds may carry
    "type": "object", "additionalProperties": False, "required": ["Name", "Transform"],
    "properties": {
        "Name": {"enum": ["Custom_Board", "Custom_Token", "Custom_Tile", "Bag", "DeckCustom",
                          "CardCustom", "Card"]},
        "Transform": {"type": "object", "additionalProperties": False,
                      "required": [f"{k}{a}" for k in ("pos", "rot", "scale") for a in "XYZ"],
                      "patternProperties": {"^(pos|rot|scale)[XYZ]$": NUMBER}},
        "Nickname": {"type": "string"}, "Description": {"type": "string"},
        "CustomImage": IMAGE_STATE,
        "ContainedObjects": {"type": "array", "items": {"$ref": "#/$defs/object"}},
        "DeckIDs": {"type": "array", "items": {"type": "integer"}},
        "CustomDeck": {"type": "object"}, "CardID": {"type": "integer"},
        "SidewaysCard": {"type": "boolean"}, "HideWhenFaceDown": {"type": "boolean"},
        "Hands": {"type": "boolean"},
    },
    "allOf": [  # the image state each custom object is made from
        {"if": {"properties": {"Name": {"const": "Custom_Token"}}},
         "then": {"required": ["CustomImage"], "properties": {"CustomImage": {
             "required": ["CustomToken"], "not": {"required": ["CustomTile"]}}}}},
        {"if": {"properties": {"Name": {"const": "Custom_Tile"}}},
         "then": {"required": ["CustomImage"], "properties": {"CustomImage": {
             "required": ["CustomTile"], "not": {"required": ["CustomToken"]}}}}},
        {"if": {"properties": {"Name": {"const": "Custom_Board"}}},
         "then": {"required": ["CustomImage"], "properties": {"CustomImage": {
             "not": {"anyOf": [{"required": ["CustomTile"]}, {"required": ["CustomToken"]}]}}}}},
    ],
}
SAVE = {"type": "object", "additionalProperties": False, "required": ["SaveName", "ObjectStates"],
        "properties": {"SaveName": {"type": "string"},
                       "ObjectStates": {"type": "array", "items": {"$ref": "#/$defs/object"}}},
        "$defs": {"object": OBJECT_STATE}}


def exported(game: Path | str, out: Path) -> dict:
    r = CliRunner().invoke(main, ["export", str(game), "--format", "tts", "--dpi", "30", "-o",
                                  str(out)])
    assert r.exit_code == 0, r.output
    return json.loads(next(out.glob("*.tts.json")).read_text())


def file_of(url: str) -> Path:
    path = Path(unquote(urlsplit(url).path))
    assert path.is_file(), url
    return path


def test_every_object_uses_the_published_names_and_fields(tmp_path):
    doc = exported("lighthouse", tmp_path)
    validator = jsonschema.Draft202012Validator(SAVE)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(doc)]
    assert errors == []
    names = [o["Name"] for o in doc["ObjectStates"]]
    assert names == ["Custom_Board", "DeckCustom", "DeckCustom", "Bag", "Bag"]


def test_two_sided_tokens_are_tiles_with_their_back_as_the_bottom_image(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(bundled()["lighthouse"], game)
    toml = game / "game.toml"
    toml.write_text(toml.read_text() + '\n[[component.tokens.back]]\ntype = "rect"\n'
                    'bleed = true\nfill = "#112233"\n')
    doc = exported(game, tmp_path / "out")
    jsonschema.validate(doc, SAVE)
    bag = next(o for o in doc["ObjectStates"] if o.get("Nickname") == "Tokens")
    assert bag["Name"] == "Bag"
    tokens = bag["ContainedObjects"]
    assert len(tokens) == 30 and {t["Name"] for t in tokens} == {"Custom_Tile"}
    for token in tokens:
        image = token["CustomImage"]
        assert image["CustomTile"]["Type"] == 2  # circle, as they are cut
        with Image.open(file_of(image["ImageSecondaryURL"])) as back:
            rgba = back.convert("RGBA")
            assert rgba.getpixel((back.width // 2, back.height // 2))[:3] == (0x11, 0x22, 0x33)
            assert rgba.getpixel((0, 0))[3] == 0  # round: clear past the circle
        file_of(image["ImageURL"])
    # the one-sided tiles stay tiles with no bottom image (TTS shows the top on both faces)
    tiles = next(o for o in doc["ObjectStates"] if o.get("Nickname") == "Terrain tiles")
    assert {t["CustomImage"]["ImageSecondaryURL"] for t in tiles["ContainedObjects"]} == {""}


def test_every_image_stays_within_4096_px_and_a_lowered_dpi_is_said_once(tmp_path):
    """At --dpi 300 the lighthouse board was a 5906×4134 PNG (TTS loads 4096 px a side at
    most), while the deck sheets were capped without a word: every image is capped, and one
    line on stderr says which dpi each component got."""
    out = tmp_path / "lh"
    r = CliRunner().invoke(main, ["export", "lighthouse", "--format", "tts", "--dpi", "300",
                                  "-o", str(out)])
    assert r.exit_code == 0, r.output
    sizes = {p.relative_to(out).as_posix(): Image.open(p).size for p in out.rglob("*.png")}
    assert max(max(s) for s in sizes.values()) <= 4096, sizes
    assert max(sizes["board/001-the-coast.png"]) > 4000  # lowered just enough, not to 150
    notes = [ln for ln in r.stderr.splitlines() if "lowered" in ln]
    assert len(notes) == 1 and "board at " in notes[0] and "voyages at " in notes[0], r.stderr
    assert notes[0].startswith("note: 300 dpi lowered so each TTS image stays within 4096 px")
    assert "lowered" not in r.stdout
