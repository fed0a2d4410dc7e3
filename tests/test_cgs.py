"""`pnp export --format cgs`: Card Game Simulator's custom-game folder, checked against CGS's
published specification, FinolDigital.Cgs.Json (github.com/finol-digital/FinolDigital.Cgs.Json:
schema/cgs.json, schema/AllCards.json and the README's folder structure). The checks below are
written from that specification: cgs.json's required `name` and the types of every property
the export writes, drawn from the schema's property list (no other key: the schema allows no
additional properties); AllCards.json an array of cards each with a unique string `id` (its
one required field); each card's image at sets/<set>/<id>.png, each back at backs/<id>.png and
each board at boards/<id>.png; decks in CGS's txt format `<Quantity> [<Card:Id>] <Card:Name>
(<Card:SetCode>)`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from PIL import Image

from generator.cli import main
from pnp_model.game import load_game

FLOAT2 = {"type": "object", "additionalProperties": False,
          "properties": {"x": {"type": "number"}, "y": {"type": "number"}}}
URL = {"type": "string", "pattern": r"^(https?|file)://\S+$"}
CGS = {  # the properties of schema/cgs.json that the export writes, with their types
    "type": "object", "additionalProperties": False, "required": ["name"],
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "autoUpdate": {"type": "integer"},
        "autoUpdateUrl": URL, "allCardsUrl": URL, "cardBackImageUrl": URL,
        "cardImageUrl": {"type": "string"},
        "cardImageFileType": {"type": "string"}, "cardBackImageFileType": {"type": "string"},
        "gameBoardImageFileType": {"type": "string"},
        "cardNameIsUnique": {"type": "boolean"},
        "deckFileType": {"enum": ["dec", "hsd", "lor", "txt", "ydk"]},
        "deckFileTxtId": {"enum": ["id", "set"]},
        "cardSize": FLOAT2,
        "setCodeDefault": {"type": "string"},
        "cardBackFaceImageUrls": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "properties": {"id": {"type": "string"}, "url": URL}}},
        "gameBoardUrls": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "properties": {"id": {"type": "string"}, "url": URL}}},
        "gameBoardCards": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "properties": {"card": {"type": "string"}, "boards": {"type": "array", "items": {
                "type": "object", "additionalProperties": False,
                "properties": {"id": {"type": "string"}, "offsetMin": FLOAT2,
                               "size": FLOAT2}}}}}},
        "deckUrls": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "properties": {"name": {"type": "string"}, "txt": {"type": "string"}, "url": URL,
                           "isAvailable": {"type": "boolean"}}}},
    },
}
ALL_CARDS = {"type": "array", "uniqueItems": True, "items": {
    "type": "object", "required": ["id"],
    "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                   "set": {"type": "string"},
                   "backs": {"type": "array", "items": {"type": "string"}}}}}
DECK_LINE = re.compile(r"^(\d+) \[([^\]]+)\] (.+) \(([^)]+)\)$")


def export(game: str, out: Path, *more: str) -> Path:
    r = CliRunner().invoke(main, ["export", game, "--format", "cgs", "--dpi", "40", "-o",
                                  str(out), *more])
    assert r.exit_code == 0, r.output
    folders = [p for p in out.iterdir() if p.is_dir()]
    assert len(folders) == 1, folders  # one game folder, to copy into CGS's games folder
    return folders[0]


def check_folder(root: Path) -> tuple[dict, list[dict], dict[str, dict[str, int]]]:
    """cgs.json and AllCards.json against the specification, every file they name present;
    returns them and the decks: deck name -> card id -> copies."""
    spec = json.loads((root / "cgs.json").read_text())
    jsonschema.validate(spec, CGS)
    cards = json.loads((root / "AllCards.json").read_text())
    jsonschema.validate(cards, ALL_CARDS)
    ids = [c["id"] for c in cards]
    assert len(ids) == len(set(ids))
    kind = spec.get("cardImageFileType", "png")
    for card in cards:
        with Image.open(root / "sets" / card.get("set", spec.get("setCodeDefault", ""))
                        / f"{card['id']}.{kind}") as im:
            assert im.width > 0
    backs = {b["id"] for b in spec.get("cardBackFaceImageUrls", [])}
    for card in cards:
        assert set(card.get("backs", [])) <= backs
    for b in backs:
        assert (root / "backs" / f"{b}.{spec.get('cardBackImageFileType', 'png')}").is_file()
    for b in spec.get("gameBoardUrls", []):
        assert (root / "boards" / f"{b['id']}.{spec.get('gameBoardImageFileType', 'png')}")\
            .is_file()
    decks = {}
    by_id = {c["id"]: c for c in cards}
    for path in (root / "decks").glob(f"*.{spec.get('deckFileType', 'txt')}"):
        decks[path.stem] = {}
        for line in path.read_text().splitlines():
            m = DECK_LINE.match(line)
            assert m, line
            qty, cid, name, set_code = m.groups()
            assert by_id[cid]["name"] == name and by_id[cid]["set"] == set_code
            decks[path.stem][cid] = int(qty)
    return spec, cards, decks


def test_a_whole_game_is_a_cgs_game_folder(tmp_path):
    root = export("lighthouse", tmp_path)
    assert root.name == "Lighthouse"
    spec, cards, decks = check_folder(root)
    game = load_game("lighthouse")
    assert spec["name"] == "Lighthouse"
    assert spec["cardSize"] == {"x": 2.5, "y": 3.5}  # the voyage cards: poker, in inches
    count = {c.title: len(c.deck.cards) for c in game.components if c.kind == "deck"}
    assert {name: sum(d.values()) for name, d in decks.items()} == count
    assert {c["set"] for c in cards} == {"voyages", "weather"}
    # each deck's own back; the board comes onto the table with the first deck
    assert {b["id"] for b in spec["cardBackFaceImageUrls"]} == {"voyages", "weather"}
    assert spec["gameBoardCards"][0]["boards"][0]["size"] == {"x": 19.685, "y": 13.7795}
    with Image.open(root / "boards" / "board.png") as board:
        assert abs(board.width / board.height - 500 / 350) < 0.01


def test_a_single_deck_is_a_cgs_game_folder(tmp_path):
    root = export("decktet", tmp_path)
    spec, cards, decks = check_folder(root)
    deck = load_game("decktet").components[0].deck
    # the cards a build prints: the deck's default parts (36 basic cards)
    assert sum(sum(d.values()) for d in decks.values()) == len(deck.select()) == 36
    assert spec["cardSize"]["x"] == pytest.approx(deck.width / 72, abs=1e-3)


def test_with_a_base_url_cgs_can_download_the_game(tmp_path):
    root = export("lighthouse", tmp_path, "--base-url", "https://example.com/games/lh/")
    spec, _, decks = check_folder(root)
    assert spec["autoUpdateUrl"] == "https://example.com/games/lh/cgs.json"
    assert spec["cardImageUrl"] == ("https://example.com/games/lh/sets/{cardSet}/{cardId}."
                                    "{cardImageFileType}")
    assert {d["url"] for d in spec["deckUrls"]} == {
        f"https://example.com/games/lh/decks/{name.replace(' ', '%20')}.txt" for name in decks}


def test_a_base_url_that_is_not_a_url_is_one_line(tmp_path):
    r = CliRunner().invoke(main, ["export", "lighthouse", "--format", "cgs", "--base-url",
                                  "nowhere", "-o", str(tmp_path)])
    assert r.exit_code == 2
    assert r.output.startswith("error: 'nowhere' is not a URL") and r.output.count("\n") == 1


@pytest.mark.parametrize("fmt", ["tts", "cgs"])
def test_a_base_url_with_a_query_or_fragment_is_refused(tmp_path, fmt):
    """The file names go at the end of the address: with `?sig=abc#x` a sheet's URL came out
    `https://b.example.com/coda?sig=abc/sheet-1.png` (the '#x' dropped), which loads nothing."""
    for url in ("https://b.example.com/coda?sig=abc", "https://b.example.com/coda#x"):
        r = CliRunner().invoke(main, ["export", "coda", "--format", fmt, "--base-url", url,
                                      "-o", str(tmp_path / fmt)])
        assert r.exit_code == 2, r.output
        assert r.output.startswith("error: ") and r.output.count("\n") == 1, r.output
        assert "(--base-url)" in r.output


def test_options_of_the_cut_sheet_are_refused_with_other_formats(tmp_path):
    """`--format cgs --cutter cricut --paper a3 --printer nosuch` exported and said nothing."""
    for fmt in ("cgs", "tts"):
        r = CliRunner().invoke(main, ["export", "lighthouse", "--format", fmt, "--cutter",
                                      "cricut", "-o", str(tmp_path / fmt)])
        assert r.exit_code == 2, r.output
        assert "--cutter: for --format cut" in r.output and r.output.count("\n") == 1, r.output
