"""pnp check: preflight findings measured from the drawn PDF, each naming card and figure."""

from __future__ import annotations

import io
import json

from click.testing import CliRunner
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.cli import main
from generator.preflight import unembedded_fonts
from generator.render.fonts import font


def findings(mini, extra: str = "") -> tuple[int, list[dict]]:
    toml = mini / "game.toml"
    toml.write_text(toml.read_text() + extra)
    r = CliRunner().invoke(main, ["check", str(mini), "--json"])
    return r.exit_code, json.loads(r.output)


ART = '\n[[face]]\ntype = "image"\nfile = "art/{name}"\nx = "20mm"\ny = "30mm"\nw = "20mm"\nh = "20mm"\n'


def art(mini, px: int, name: str = "art.png") -> str:
    """A px-square image on every face, 20 mm wide; the [[face]] to add."""
    (mini / "art").mkdir(exist_ok=True)
    Image.new("RGB", (px, px), "blue").save(mini / "art" / name)
    return ART.format(name=name)


def test_art_below_300_ppi_is_one_finding_naming_the_file_and_every_card(mini):
    """The same coarse art on every face was one line per face, without the file's name."""
    code, found = findings(mini, art(mini, 40))  # 40 px over 20 mm: 51 ppi
    ppi = [f for f in found if f["check"] == "ppi"]
    assert code == 1 and len(ppi) == 1
    assert ppi[0]["file"] == "art/art.png" and ppi[0]["cards"] == [1, 2, 3, 4, 5, 6]
    assert ppi[0]["name"] == "Alpha" and "prints at 51 ppi (below 300)" in ppi[0]["message"]
    r = CliRunner().invoke(main, ["check", str(mini)])
    lines = [line for line in r.output.splitlines() if "ppi" in line]
    assert lines == ["6 cards (#1, #2, #3, #4, #5, #6) front: art/art.png: image of 40×40 px "
                     "prints at 51 ppi (below 300)"]


def test_the_ppi_floor_follows_the_target_home_sheet_or_shop(mini, tmp_path):
    """Art at 277 ppi prints well at home: a home build --strict passes, a shop check and a
    --cmyk (shop) build --strict do not."""
    toml = mini / "game.toml"
    toml.write_text(toml.read_text() + art(mini, 218))  # 218 px over 20 mm: 277 ppi

    def pnp(*args):
        return CliRunner().invoke(main, [*args])

    home = pnp("build", str(mini), "--strict", "-o", str(tmp_path / "home.pdf"))
    assert home.exit_code == 0 and "warning" not in home.output, home.output
    shop = pnp("check", str(mini))
    assert shop.exit_code == 1 and "prints at 277 ppi (below 300)" in shop.output
    assert pnp("check", str(mini), "--target", "home").exit_code == 0
    cmyk = pnp("build", str(mini), "--cmyk", "--strict", "-o", str(tmp_path / "shop.pdf"))
    assert cmyk.exit_code == 1
    assert "art/art.png prints at 277 ppi on card #1 (Alpha); 300 ppi or more prints sharp " \
           "for a print shop" in cmyk.output
    # and art at 150 ppi is soft even at home
    toml.write_text(toml.read_text().replace("art/art.png", "art/small.png"))
    art(mini, 118, "small.png")  # 150 ppi
    low = pnp("build", str(mini), "--strict", "-o", str(tmp_path / "low.pdf"))
    assert low.exit_code == 1 and "200 ppi or more prints sharp on a home printer" in low.output


def test_tiny_text_and_text_in_the_safe_zone_are_found(mini):
    code, found = findings(mini, '\n[[back]]\ntype = "text"\ntext = "fine print"\n'
                                 'x = "1mm"\ny = "40mm"\nsize = 4\n')
    back = [f for f in found if f["side"] == "back"]
    assert code == 1
    assert {f["check"] for f in back} == {"text-size", "safe-zone"}
    assert any("'fine print' is 4.0 pt" in f["message"] for f in back)
    assert any("'fine print' is 1.0 mm from the trim (safe zone 3 mm)" in f["message"]
               for f in back)
    assert not [f for f in found if f["side"] == "front" and f["check"] != "font"]


def test_small_text_that_differs_on_every_card_is_one_line_counting_the_cards(mini, tmp_path):
    """A card number too small on every card was one line per card (duplicon: 99 lines of
    "card #n ... text '#n' is 5.0 pt"): the problem is one, and one line counts the cards,
    in `pnp check` and in a shop export's preflight lines; --json keeps every card."""
    toml = mini / "game.toml"
    toml.write_text(toml.read_text() + '\n[[face]]\ntype = "text"\ntext = "{name}"\n'
                    'x = "20mm"\ny = "45mm"\nsize = 4\n')
    r = CliRunner().invoke(main, ["check", str(mini)])
    tiny = [line for line in r.output.splitlines() if "is 4.0 pt" in line]
    assert r.exit_code == 1 and len(tiny) == 1, r.output
    assert tiny[0] == ("6 cards (#1, #2, #3, #4, #5, #6) front: texts 'Alpha', 'Beta', "
                       "'Gamma': each is 4.0 pt (below 6 pt)")
    _, found = findings(mini)
    assert [f["cards"] for f in found if f["check"] == "text-size"] == [[1, 2, 3, 4, 5, 6]]
    r = CliRunner().invoke(main, ["export", str(mini), "--shop", "printninja",
                                  "-o", str(tmp_path / "pn")])
    assert r.exit_code == 0, r.output
    said = [ln for ln in r.output.splitlines() if ln.startswith("preflight:")]
    assert [ln for ln in said if "4.0 pt" in ln] == [f"preflight: {tiny[0]}"]


def test_a_bundled_deck_numbering_each_card_small_is_one_line():
    r = CliRunner().invoke(main, ["check", "duplicon"])
    tiny = [line for line in r.output.splitlines() if "is 5.0 pt" in line]
    assert r.exit_code == 1 and len(tiny) == 1, r.output
    assert tiny[0].startswith("99 cards (#1, #2, #3, #4, #5, #6 and 93 more) front: texts "
                              "'#1', '#2', '#3' and 96 more: each is 5.0 pt")


def test_a_character_no_font_has_is_a_finding_and_an_export_warning(tmp_path):
    """An emoji in a card's name passed `pnp check` and every export without a word (only
    `pnp build` warned); the exported image showed an empty box where it was."""
    import shutil

    from pnp_model.catalog import bundled

    game = tmp_path / "e"
    shutil.copytree(bundled()["emberfall"], game)
    cards = game / "cards.csv"
    cards.write_text(cards.read_text().replace("\nCinder Drake,", "\nCinder Drake \U0001F409,", 1))
    said = ("card #6 (Cinder Drake \U0001F409) front: no font has the character "
            "'\U0001F409' (U+1F409)")
    r = CliRunner().invoke(main, ["check", str(game)])
    assert r.exit_code == 1 and said in r.output, r.output
    for args in (["--format", "png", "--dpi", "40"], ["--format", "tts", "--dpi", "40"],
                 ["--shop", "thegamecrafter"]):
        r = CliRunner().invoke(main, ["export", str(game), *args, "-o", str(tmp_path / args[1])])
        assert r.exit_code == 0, r.output
        assert said in r.stderr and said not in r.stdout, (args, r.stderr)
    # a deck without such a character is not warned about
    r = CliRunner().invoke(main, ["export", "emberfall", "--dpi", "40", "-o",
                                  str(tmp_path / "plain")])
    assert r.exit_code == 0 and "no font has" not in r.output


def test_safe_zone_comes_from_the_definition(mini):
    toml = mini / "game.toml"
    toml.write_text(toml.read_text().replace('[colors]', '[print]\nsafe = "0.5mm"\n\n[colors]'))
    _, found = findings(mini, '\n[[back]]\ntype = "text"\ntext = "edge"\nx = "1mm"\ny = "40mm"\n')
    assert not [f for f in found if f["check"] == "safe-zone"]


def test_fonts_without_an_embedded_program_are_named():
    def pdf(face: str) -> bytes:
        buf = io.BytesIO()
        c = Canvas(buf)
        c.setFont(face, 12)
        c.drawString(10, 10, "x")
        c.save()
        return buf.getvalue()

    assert "Courier" in unembedded_fonts(pdf("Courier"))
    assert "Courier" not in unembedded_fonts(pdf(font("sans")))


def test_a_whole_game_is_checked_component_by_component(tmp_path):
    """`pnp check lighthouse` refused a whole game ("this command takes one deck"), so a
    publisher could not preflight one before sending it: each component is checked now, and a
    finding names its component."""
    import shutil

    from pnp_model.catalog import bundled

    game = tmp_path / "lh"
    shutil.copytree(bundled()["lighthouse"], game)
    toml = game / "game.toml"
    toml.write_text(toml.read_text().replace('y = "12.5mm"\nsize = 8\n', 'y = "12.5mm"\nsize = 4\n'))
    r = CliRunner().invoke(main, ["check", str(game)])
    assert r.exit_code == 1, r.output
    tiny = [line for line in r.output.splitlines() if " is 4.0 pt" in line]
    assert tiny and all(line.startswith("tokens: ") for line in tiny), r.output
    for component in ("board", "voyages", "weather", "tokens", "tiles"):
        assert f"lh/{component}: " in r.output
    found = json.loads(CliRunner().invoke(main, ["check", str(game), "--json"]).output)
    assert {f["component"] for f in found} == {"tokens"}
    assert CliRunner().invoke(main, ["check", "lighthouse"]).exit_code == 0
