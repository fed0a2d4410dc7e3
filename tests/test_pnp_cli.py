"""`pnp` as a user meets it: help, list, build, preview, new, calibrate, and one-line errors."""

import json

import pytest
from click.testing import CliRunner
from PIL import Image

from generator.cli import main


def run(*args, cwd=None):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_help_lists_the_commands():
    out = run("--help").output
    for command in ("build", "list", "preview", "new", "calibrate"):
        assert command in out


def test_list_shows_bundled_templates_as_json():
    rows = json.loads(run("list", "--json").output)
    names = {r["name"]: r for r in rows}
    assert names["decktet"]["cards"] == 36 and names["duplicon"]["cards"] == 99


def test_build_reports_pages_cards_and_path(tmp_path):
    out = tmp_path / "d.pdf"
    result = run("build", "coda", "--paper", "letter", "-o", str(out))
    assert result.exit_code == 0
    assert "26 cards on 2 pages" in result.output and str(out) in result.output
    assert out.read_bytes().startswith(b"%PDF")


def test_build_json(tmp_path):
    result = run("build", "decktet", "--part", "extended", "-o", str(tmp_path), "--json")
    data = json.loads(result.output)
    assert data[0]["cards"] == 9 and data[0]["path"].endswith("decktet.pdf")


def test_user_mistakes_are_one_line_with_exit_code_2(tmp_path, mini):
    (mini / "cards.csv").write_text("name,color,qty\nAlpha,red,x\n")
    for args in (["build", "nosuch"], ["build", str(mini)], ["build", "decktet", "--grid", "9x9"],
                 ["build", "decktet", "--bleed", "3xx"], ["preview", "decktet", "--card", "99"],
                 ["build"]):
        result = run(*args)
        assert result.exit_code == 2, args
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, result.output)


def test_preview_writes_a_png_of_one_card(tmp_path):
    out = tmp_path / "card.png"
    result = run("preview", "decktet", "--card", "14", "--dpi", "72", "-o", str(out))
    assert result.exit_code == 0
    image = Image.open(out)
    assert image.size == (180, 252)  # 63.5 x 88.9 mm at 72 dpi


def test_preview_page(tmp_path):
    out = tmp_path / "page.png"
    assert run("preview", "coda", "--page", "2", "--dpi", "30", "-o", str(out)).exit_code == 0
    assert Image.open(out).size[0] > 200


def test_new_copies_a_template_that_then_builds(tmp_path):
    target = tmp_path / "mygame"
    assert run("new", str(target), "--from", "coda").exit_code == 0
    assert (target / "game.toml").is_file() and (target / "cards.csv").is_file()
    result = run("build", str(target), "-o", str(tmp_path / "mine.pdf"))
    assert result.exit_code == 0 and "26 cards" in result.output
    again = run("new", str(target), "--from", "decktet")
    assert again.exit_code == 2 and "not empty" in again.output  # nothing overwritten
    inside = run("new", str(target / "copy"), "--from", str(target))
    assert inside.exit_code == 2 and "inside" in inside.output and not (target / "copy").exists()


def test_calibrate_writes_two_pages(tmp_path):
    import pypdfium2 as pdfium

    out = tmp_path / "cal.pdf"
    assert run("calibrate", "--paper", "letter", "-o", str(out)).exit_code == 0
    assert len(pdfium.PdfDocument(str(out))) == 2


def _one_error_line(result, *words):
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    for word in words:
        assert word in lines[0], (word, lines[0])


def test_option_mistakes_are_one_line_too(tmp_path):
    cases = [
        (["build", "decktet", "--grid", "abc"], ["pnp build --grid)"]),
        (["build", "decktet", "--grid", "0x3"], ["at least one column"]),
        (["build", "decktet", "--paper", "a9"], ["unknown paper 'a9'", "--paper"]),
        (["build", "decktet", "--bleed", "-3mm"], ["negative", "--bleed"]),
        (["build", "decktet", "--back-offset", "500mm,0"], ["more than 20 mm"]),
        (["build", "--all", "-o", str(tmp_path / "x.pdf")], ["give a folder"]),
        (["preview", "decktet", "--back"], ["add --card"]),
        (["preview", "decktet", "--page", "0", "-o", str(tmp_path / "p.png")], ["no page 0"]),
        (["plane", "--order", "997"], ["largest supported order is 127"]),
        (["plane", "--order", "2^100000"], ["far too large"]),
        (["nosuch"], ["unknown command 'nosuch'"]),
        (["verify", "decktet", "--pairs", "1"], ["no symbols to share", "--pairs"]),
        (["build", "tripple-domino", "--grid", "3x3"], ["--grid does not apply"]),
        (["build", "coda", "--single", "--grid", "3x3"], ["do not go together",
                                                          "(--single, --grid)"]),
    ]
    for args, words in cases:
        _one_error_line(run(*args), *words)
    assert not (tmp_path / "x.pdf").exists() and not (tmp_path / "p.png").exists()


def test_a_card_larger_than_the_paper_says_so(mini):
    text = (mini / "game.toml").read_text().replace('size = "poker"', 'size = "300x400mm"')
    (mini / "game.toml").write_text(text)
    _one_error_line(run("build", str(mini)), "300.0x400.0 mm card", "does not fit", "[deck].size")


@pytest.mark.parametrize("flags, named", [(["--paper", "60x80mm"], "(--paper)"),
                                          (["--paper", "a5", "--margin", "45mm"],
                                           "(--paper, --margin)"),
                                          (["--paper", "80x110mm", "--bleed", "20mm"],
                                           "(--paper, --bleed)")])
def test_a_card_too_large_for_the_paper_given_names_the_flags(mini, flags, named):
    """The deck's own size was blamed (game.toml [deck].size) for the paper the user asked
    for: the flags that made the room too small are named instead."""
    r = run("build", str(mini), *flags)
    _one_error_line(r, "does not fit")
    assert r.output.strip().endswith(named), r.output


def test_output_into_a_file_instead_of_a_folder(tmp_path):
    (tmp_path / "afile").write_text("keep")
    _one_error_line(run("build", "coda", "-o", str(tmp_path / "afile" / "c.pdf")),
                    "is a file, not a folder")
    _one_error_line(run("new", str(tmp_path / "afile"), "--from", "coda"), "is a file")
    assert (tmp_path / "afile").read_text() == "keep"


def test_bad_art_fails_without_touching_the_previous_pdf(tmp_path, mini):
    out = tmp_path / "mini.pdf"
    assert run("build", str(mini), "-o", str(out)).exit_code == 0
    before = out.read_bytes()
    text = (mini / "game.toml").read_text().replace(
        "[[back]]", '[[face]]\ntype = "image"\nfile = "art.png"\n\n[[face]]\ntype = "text"\n'
        'text = "x"\nfont = "my.ttf"\n\n[[back]]')
    (mini / "game.toml").write_text(text)
    (mini / "my.ttf").write_text("not a font")
    (mini / "art.png").write_text("not an image")
    _one_error_line(run("build", str(mini), "-o", str(out)), "cannot read image 'art.png'",
                    "card 1", "[[face]] #3")
    Image.new("RGB", (8, 8), "red").save(mini / "art.png")
    _one_error_line(run("build", str(mini), "-o", str(out)), "cannot use font my.ttf",
                    "[[face]] #4")
    assert out.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_verify_reports_a_malformed_csv_with_its_line(tmp_path):
    bad = tmp_path / "deck.csv"
    bad.write_text('a,b\n"c,d\n')
    _one_error_line(run("verify", str(bad)), "malformed CSV", "deck.csv:")


def test_a_column_added_to_the_header_alone_is_one_error_naming_it(tmp_path):
    """One extra header column made every line of emberfall "11 values and the header 12
    columns": eleven identical lines, none naming the header or the column."""
    game = tmp_path / "e"
    assert run("new", str(game), "--from", "emberfall").exit_code == 0
    cards = game / "cards.csv"
    lines = cards.read_text().split("\n")
    cards.write_text("\n".join([lines[0] + ",notes", *lines[1:]]))
    result = run("verify", str(game))
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    _one_error_line(result, "extra column 'notes'", "(cards.csv:1)")


def test_plane_json_flag():
    data = json.loads(run("plane", "--order", "2", "--json").output)
    assert data["cards"] == 7 and len(data["incidence"]) == 7


def test_the_triangle_template_builds_the_larger_set_its_comment_offers(tmp_path):
    game = tmp_path / "tri"
    assert run("new", str(game), "--from", "tripple-domino").exit_code == 0
    toml = game / "game.toml"
    toml.write_text(toml.read_text().replace("max = 5", "max = 6"))
    result = run("build", str(game), "-o", str(tmp_path / "tri.pdf"))
    assert result.exit_code == 0 and "84 cards" in result.output


def test_a_long_name_shrinks_onto_one_line_instead_of_over_the_rank(tmp_path):
    import pypdfium2 as pdfium

    out = tmp_path / "decktet.pdf"
    assert run("build", "decktet", "-o", str(out)).exit_code == 0
    doc = pdfium.PdfDocument(str(out))
    text = "".join(page.get_textpage().get_text_range() for page in doc)
    assert "Chance Meeting\r\n7" in text  # was "Chance\r\nMeeting" drawn over the rank 7


def test_two_games_of_one_name_are_not_written_over_each_other(tmp_path, mini):
    other = tmp_path / "elsewhere" / "mini"
    assert run("new", str(other), "--from", str(mini)).exit_code == 0
    result = run("build", str(mini), str(other), "-o", str(tmp_path / "out"))
    _one_error_line(result, "both be written to")
    assert not (tmp_path / "out").exists()
    twice = run("build", "coda", "coda", "-o", str(tmp_path / "out"))
    assert twice.exit_code == 0 and twice.output.count("coda:") == 1


def test_an_unwritable_output_is_one_line_and_leaves_no_temp_file(tmp_path, monkeypatch):
    import os

    out = tmp_path / "coda.pdf"
    out.write_bytes(b"the old PDF")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(os, "replace", refuse)
    _one_error_line(run("build", "coda", "-o", str(out)), f"cannot write {out}",
                    "Permission denied", "--output")
    assert out.read_bytes() == b"the old PDF" and [p.name for p in tmp_path.iterdir()] == ["coda.pdf"]


def test_several_games_build_at_once_to_the_same_bytes_and_report_in_order(tmp_path):
    """`pnp build --all` builds games side by side on the cores: each PDF must be the one a
    build of that game alone writes, and the report keeps the games' order and warnings."""
    import subprocess
    import sys

    games = ["dominoes", "coda", "emberfall"]
    together = subprocess.run([sys.executable, "-m", "generator", "build", *games, "-o",
                               str(tmp_path / "together")], capture_output=True, text=True)
    assert together.returncode == 0, together.stderr
    assert [line.split(":")[0] for line in together.stdout.splitlines()] == games
    assert "warning: dominoes: no room for crop marks" in together.stderr
    for game in games:
        alone = run("build", game, "-o", str(tmp_path / f"{game}.pdf"))
        assert alone.exit_code == 0, alone.output
        assert ((tmp_path / "together" / f"{game}.pdf").read_bytes()
                == (tmp_path / f"{game}.pdf").read_bytes()), game


def test_a_copy_of_dobble_verifies_after_the_user_changes_the_deck(tmp_path):
    """The template's [verify] table (count = 55, symbols = 57...) failed the user's own deck
    at once; the copy keeps it only as a commented example."""
    game = tmp_path / "mine"
    made = run("new", str(game), "--from", "dobble")
    assert made.exit_code == 0 and "[verify] table is commented out" in made.output
    toml = game / "game.toml"
    text = toml.read_text()
    assert "\n[verify]" not in text and "# [verify]" in text and "# count = 55" in text
    toml.write_text(text.replace("order = 7, cards = 55", "order = 5, cards = 31"))
    checked = run("verify", str(game))
    assert checked.exit_code == 0, checked.output
    built = run("build", str(game), "-o", str(tmp_path / "mine.pdf"))
    assert built.exit_code == 0 and "31 cards" in built.output


@pytest.mark.parametrize("paper", [[], ["--paper", "letter"]])
def test_single_pages_summary_names_the_page_size_printed(tmp_path, mini, paper):
    """`--single` prints each card on a page of its own size (with bleed); the summary named
    the paper (a4, or the --paper given), a size the PDF has nowhere."""
    import pypdfium2 as pdfium

    out = tmp_path / "single.pdf"
    r = run("build", str(mini), "--single", *paper, "-o", str(out))
    assert r.exit_code == 0, r.output
    page = [v / 72 * 25.4 for v in pdfium.PdfDocument(str(out))[0].get_size()]
    said = r.output.split(" pages (")[1].split(",")[0]
    assert said.endswith("mm"), said
    assert [abs(float(v) - mm) < 0.06
            for v, mm in zip(said[:-2].split("x"), page, strict=True)] == [True, True], said
