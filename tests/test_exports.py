"""pnp export: per-card PNGs, Tabletop Simulator decks, shop presets and CMYK PDFs, measured
from the written files (pixel sizes, pixel colours, PDF operators)."""

from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from generator.cli import main
from pnp_model.units import CARD_SIZES_MM

RED, GREEN, TEAM = (0xd6, 0x27, 0x28), (0, 255, 0), (0x12, 0x34, 0x56)


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def pixel(path: Path, xy=None):
    with Image.open(path) as im:
        im = im.convert("RGBA")
        return im.getpixel(xy or (im.width // 2, im.height // 2))


def near(rgb, want, tol=3) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(rgb, want, strict=False))


@pytest.mark.parametrize("size", sorted(CARD_SIZES_MM))
def test_every_named_size_is_exact_at_300_dpi_with_an_eighth_inch_bleed(mini, tmp_path, size):
    toml = mini / "game.toml"
    toml.write_text(toml.read_text().replace('size = "poker"', f'size = "{size}"'))
    out = tmp_path / "png"
    r = run("export", str(mini), "--bleed", "0.125in", "-o", str(out))
    assert r.exit_code == 0, r.output
    w_mm, h_mm = CARD_SIZES_MM[size]
    want = (round((w_mm / 25.4 + 0.25) * 300), round((h_mm / 25.4 + 0.25) * 300))
    with Image.open(out / "001-alpha.png") as im:
        assert im.size == want
        assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    if size == "poker":
        assert want == (825, 1125)


def test_each_distinct_face_once_with_copies_no_guides_and_a_shared_back(mini, tmp_path):
    out = tmp_path / "png"
    r = run("export", str(mini), "--dpi", "100", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.glob("*.png")) == [
        "001-alpha.png", "002-beta.png", "003-gamma.png", "back.png"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert [(m["name"], m["copies"], m["ids"]) for m in manifest] == [
        ("Alpha", 2, [1, 2]), ("Beta", 1, [3]), ("Gamma", 3, [4, 5, 6])]
    assert (out / "manifest.csv").read_text().splitlines()[1] == "1,Alpha,2,001-alpha.png,back.png"
    # A red face with black text and white corners: a grey pixel can only be the cut outline.
    with Image.open(out / "001-alpha.png") as im:
        colours = {c for _, c in im.convert("RGB").getcolors(1 << 20)}
    assert not [c for c in colours if max(c) - min(c) < 30 and 60 < c[0] < 220], "cut guide"
    assert near(pixel(out / "back.png"), TEAM)


def test_a_face_that_prints_its_copy_number_is_exported_per_copy(mini, tmp_path):
    toml = mini / "game.toml"
    toml.write_text(toml.read_text().replace('text = "{name}"', 'text = "{name} {copy}"'))
    out = tmp_path / "png"
    assert run("export", str(mini), "--dpi", "60", "-o", str(out)).exit_code == 0
    assert len(json.loads((out / "manifest.json").read_text())) == 6


def test_round_cards_have_a_transparent_background(mini, tmp_path):
    toml = mini / "game.toml"
    toml.write_text(toml.read_text().replace('size = "poker"', 'shape = "circle"\nsize = "60x60mm"'))
    out = tmp_path / "png"
    assert run("export", str(mini), "--dpi", "100", "-o", str(out)).exit_code == 0
    assert pixel(out / "001-alpha.png", (1, 1))[3] == 0
    assert pixel(out / "001-alpha.png")[:4] == (*RED, 255)


def test_tts_sheet_puts_each_card_in_its_cell_and_the_json_names_every_card(mini, tmp_path):
    out = tmp_path / "tts"
    r = run("export", str(mini), "--format", "tts", "--dpi", "60", "-o", str(out))
    assert r.exit_code == 0, r.output
    doc = json.loads((out / "mini.tts.json").read_text())
    deck = doc["ObjectStates"][0]
    assert deck["Name"] == "DeckCustom"
    sheet = deck["CustomDeck"]["1"]
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (4, 1)  # 3 faces + the hidden-card cell
    assert sheet["FaceURL"] == (out / "sheet-1.png").absolute().as_uri()
    assert deck["DeckIDs"] == [100, 100, 101, 102, 102, 102]
    assert [c["CardID"] for c in deck["ContainedObjects"]] == deck["DeckIDs"]
    assert [c["Nickname"] for c in deck["ContainedObjects"]][::2] == ["Alpha", "Beta", "Gamma"]
    with Image.open(out / "sheet-1.png") as im:
        cw, ch = im.width // 4, im.height
        centres = [im.convert("RGB").getpixel((cw * i + cw // 2, ch // 2)) for i in range(4)]
    assert near(centres[0], RED) and near(centres[1], GREEN) and near(centres[3], TEAM)


def test_tts_decks_over_69_faces_take_several_sheets(mini, tmp_path):
    (mini / "cards.csv").write_text("name,color\n" + "".join(f"c{i},red\n" for i in range(75)))
    toml = mini / "game.toml"
    toml.write_text(toml.read_text().replace('text = "{name}"', 'text = "{name} {id}"'))
    out = tmp_path / "tts"
    assert run("export", str(mini), "--format", "tts", "--dpi", "30", "-o", str(out)).exit_code == 0
    custom = json.loads((out / "mini.tts.json").read_text())["ObjectStates"][0]["CustomDeck"]
    assert {k: (v["NumWidth"], v["NumHeight"]) for k, v in custom.items()} == {
        "1": (10, 7), "2": (7, 1)}


def _content_ops(pdf: bytes) -> str:
    """Every content stream of a reportlab PDF (ASCII85 + Flate), decoded."""
    out = []
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        s = m.group(1).strip()
        try:
            if s.endswith(b"~>"):
                s = base64.a85decode(s[:-2].replace(b"\n", b""))
            out.append(zlib.decompress(s).decode("latin-1"))
        except (ValueError, zlib.error):
            continue
    return "\n".join(out)


def test_cmyk_pdf_sets_no_rgb_colour(mini, tmp_path):
    toml = mini / "game.toml"
    toml.write_text(toml.read_text().replace('team = "#123456"', 'team = "cmyk(60,40,40,100)"'))
    rgb, cmyk = tmp_path / "rgb.pdf", tmp_path / "cmyk.pdf"
    assert run("build", str(mini), "-o", str(rgb)).exit_code == 0
    assert run("build", str(mini), "--cmyk", "-o", str(cmyk)).exit_code == 0
    assert re.search(r"\s(rg|RG)\s", _content_ops(rgb.read_bytes()))
    ops = _content_ops(cmyk.read_bytes())
    assert not re.search(r"\s(rg|RG)\s", ops)
    assert "1 0 0 0 0 k" not in ops and re.search(r"\.6 \.4 \.4 1 k", ops)  # rich black kept


def test_a_shop_refuses_a_card_size_it_does_not_print(mini, tmp_path):
    toml = mini / "game.toml"
    toml.write_text(toml.read_text().replace('size = "poker"', 'size = "20x30mm"'))
    r = run("export", str(mini), "--shop", "thegamecrafter", "-o", str(tmp_path))
    assert r.exit_code == 2
    assert "poker 2.5×3.5 in" in r.output and "bridge" in r.output
    assert run("export", str(mini), "--shop", "nosuch").exit_code == 2


def test_game_crafter_poker_is_825_by_1125(mini, tmp_path):
    r = run("export", str(mini), "--shop", "thegamecrafter", "-o", str(tmp_path / "tgc"))
    assert r.exit_code == 0, r.output
    with Image.open(tmp_path / "tgc" / "001-alpha.png") as im:
        assert im.size == (825, 1125)


def test_drivethrucards_pdf_is_back_then_front_per_card_in_cmyk(mini, tmp_path):
    import pypdfium2 as pdfium

    r = run("export", str(mini), "--shop", "drivethrucards", "-o", str(tmp_path))
    assert r.exit_code == 0, r.output
    data = (tmp_path / "mini-drivethrucards.pdf").read_bytes()
    doc = pdfium.PdfDocument(data)
    assert len(doc) == 12
    assert doc[0].get_size() == pytest.approx((2.75 * 72, 3.75 * 72), abs=0.01)
    first, second = (doc[i].render(scale=0.2).to_pil().convert("RGB") for i in (0, 1))
    centre = (first.width // 2, first.height // 2)
    back, front = first.getpixel(centre), second.getpixel(centre)
    assert back[2] > back[0] + 50 and front[0] > front[1] + 100  # dark blue back, red face
    assert not re.search(r"\s(rg|RG)\s", _content_ops(data))


def _image_spaces(pdf: Path) -> list[str]:
    """The colour space of every image XObject the PDF draws (soft masks aside)."""
    import pikepdf

    with pikepdf.open(pdf) as doc:
        images = [o for o in doc.objects
                  if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        masks = {m.objgen for o in images if (m := o.get("/SMask")) is not None}
        return [str(o.get("/ColorSpace")) for o in images if o.objgen not in masks]


def test_cmyk_converts_raster_art_too(tmp_path):
    """Emberfall's two PNG landscapes were left in RGB beside CMYK vectors."""
    rgb, cmyk = tmp_path / "rgb.pdf", tmp_path / "cmyk.pdf"
    assert run("build", "emberfall", "-o", str(rgb)).exit_code == 0
    r = run("build", "emberfall", "--cmyk", "-o", str(cmyk))
    assert r.exit_code == 0, r.output
    assert "/DeviceRGB" in _image_spaces(rgb)
    spaces = _image_spaces(cmyk)
    assert spaces and set(spaces) == {"/DeviceCMYK"}, spaces
    # and the inks print the same picture: seen through the press profile, each CMYK image is
    # its RGB one (within the press's gamut and 8-bit rounding)
    flat = [[v for image in sorted(_images_as_rgb(p)) for v in image] for p in (cmyk, rgb)]
    assert flat[0] == pytest.approx(flat[1], abs=4)


def _images_as_rgb(pdf: Path) -> list[tuple[int, int, float, float, float]]:
    """Each image's size and mean R, G, B (a CMYK one as the press profile prints it)."""
    import numpy as np
    import pikepdf
    from pikepdf import PdfImage

    out = []
    with pikepdf.open(pdf) as doc:
        images = [o for o in doc.objects
                  if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        masks = {m.objgen for o in images if (m := o.get("/SMask")) is not None}
        for o in images:
            if o.objgen in masks:
                continue
            image = PdfImage(o).as_pil_image()
            if image.mode == "CMYK":
                from tests.inks import as_srgb

                image = as_srgb(image)
            px = np.asarray(image.convert("RGB"), dtype=float) / 255
            out.append((px.shape[1], px.shape[0], *(float(v) * 255 for v in px.reshape(-1, 3).mean(axis=0))))
    return out


def _interrupted_export(out: Path, tmp_path: Path) -> tuple[int, str]:
    """`pnp export duplicon --shop thegamecrafter` Ctrl-C'd once it has written some PNGs."""
    import os
    import signal
    import subprocess
    import sys
    import time

    repo = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(repo), "PNP_CACHE": str(tmp_path / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "generator", "export", "duplicon", "--shop",
                             "thegamecrafter", "--workers", "1", "-o", str(out)],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    there = set(out.glob("*.png"))  # a previous export's
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and proc.poll() is None:
            written = {*tmp_path.glob(f".{out.name}.*/*.png"), *out.glob("*.png")} - there
            if len(written) >= 5:  # mid-export
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the export ended before it could be interrupted"
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C, as a terminal sends it
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, err.strip()


def test_an_interrupted_export_leaves_no_partial_folder_and_keeps_the_previous_one(tmp_path):
    """Ctrl-C 2.5 s into a shop export left 30 of its 99 PNGs and no manifest, a folder that
    could be uploaded by mistake, and said `error: aborted` without naming the command."""
    fresh = tmp_path / "new"
    assert _interrupted_export(fresh, tmp_path) == (130, "error: aborted (pnp export)")
    assert not fresh.exists()
    previous = tmp_path / "old"
    r = CliRunner().invoke(main, ["export", "coda", "--dpi", "40", "-o", str(previous)])
    assert r.exit_code == 0, r.output
    before = {p.name: p.read_bytes() for p in previous.iterdir()}
    assert _interrupted_export(previous, tmp_path) == (130, "error: aborted (pnp export)")
    assert {p.name: p.read_bytes() for p in previous.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "cache") == ["old"]
