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


def test_art_below_300_ppi_names_the_card_and_the_ppi(mini):
    Image.new("RGB", (40, 40), "blue").save(mini / "art.png")  # 40 px over 20 mm: 51 ppi
    code, found = findings(mini, '\n[[face]]\ntype = "image"\nfile = "art.png"\n'
                                 'x = "20mm"\ny = "30mm"\nw = "20mm"\nh = "20mm"\n')
    ppi = [f for f in found if f["check"] == "ppi"]
    assert code == 1 and [f["card"] for f in ppi] == [1, 3, 4]  # one per distinct face
    assert ppi[0]["name"] == "Alpha" and "prints at 51 ppi" in ppi[0]["message"]


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
