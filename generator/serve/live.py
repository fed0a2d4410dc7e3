"""The build behind the designer's page: rebuilt on every save, kept while a save is broken.

Each good build writes the PDF where `pnp build` would (same options, same file) and keeps its
bytes; the page's images are rendered from those bytes by pdfium, so what the page shows is
what prints. A save that breaks the definition leaves the last good build in place and records
its one-line errors for the page to show.
"""

from __future__ import annotations

import io
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from generator.build import Options
from generator.serve.geometry import CARD_REF, card_boxes, outlines
from pnp_model.errors import PnpError
from pnp_shared.counts import plural

CACHED_IMAGES = 400  # rendered images kept for the current build (pages and cards, all sizes)
WARM = 24  # images drawn ahead for a new build: those the page asked for last, zoom first
WIDTHS = (160, 240, 320, 480, 640, 800, 1000, 1200, 1600, 2000)  # image widths served, px


def served_width(asked: int) -> int:
    """The smallest served width at least `asked` pixels, so sizes are few and cached."""
    return next((w for w in WIDTHS if w >= asked), WIDTHS[-1])


@dataclass
class Build:
    """A good build: its number, the PDF's bytes and what the page needs to show it."""

    number: int
    pdf: bytes
    manifest: dict
    doc: object = None  # the pdfium document of `pdf`, opened on first use
    images: OrderedDict = field(default_factory=OrderedDict)


class LiveBuild:
    """The game's latest good build, the errors of the latest attempt, and its images.

    pdfium is not thread-safe: every use of it holds `lock` (image requests are served from a
    thread pool; a PDF/X build flattens with pdfium too)."""

    def __init__(self, game: str | Path, opts: Options, output: Path | None):
        self.game, self.opts, self.output = game, opts, output
        self.good: Build | None = None
        self.errors: list[str] = []
        self.attempt = 0  # every rebuild, good or broken: the page's event counter
        self.when = ""
        self.lock = threading.Lock()
        # The first build's number is the time: a restarted server never reuses an image URL
        # that a browser keeps (images are cached for good, by build number).
        self.first = time.time_ns() // 1_000_000
        self.asked: OrderedDict = OrderedDict()  # images the page asked for, the zoom's first

    def rebuild(self, why: str = "start") -> None:
        """Load the definition afresh and build; on a mistake keep the last good build."""
        from contextlib import nullcontext

        from pnp_shared.oneline import error_lines

        start = time.perf_counter()
        try:
            with self.lock if self.opts.pdfx else nullcontext():
                pdf, manifest = self._build()
            with self.lock:
                self._close()
                number = self.good.number + 1 if self.good else self.first
                self.good = Build(number, pdf, {**manifest, "build": number})
            self.errors = []
        except PnpError as e:
            self.errors = error_lines(e)
        except Exception as e:  # a bug must not end the session: say it in one line
            self.errors = [f"error: unexpected {type(e).__name__}: {e}"]
        self.attempt += 1
        took = time.perf_counter() - start
        self.when = f"{time.strftime('%H:%M:%S')} after {why} ({took:.2f} s)"

    def state(self) -> dict:
        """What the page shows: the last good build's manifest, and errors if the last save
        broke it (the page then keeps showing the good build)."""
        return {"attempt": self.attempt, "errors": self.errors, "when": self.when,
                "manifest": self.good.manifest if self.good else None}

    def _build(self) -> tuple[bytes, dict]:
        from generator.build import build, plan, resolved
        from generator.naming import output_path, output_stem
        from pnp_model.game import load_game

        game = load_game(self.game)
        if game.whole:  # one PDF of several components (generator/serve/components.py)
            from generator.serve.components import build_whole

            return build_whole(game, self.opts, self.output, self.lock)
        deck = game.components[0].deck
        out = output_path(self.output, output_stem(deck), 1)
        sheet = plan(deck, self.opts)
        result = build(deck, out, self.opts, sheet=sheet)
        pdf = out.read_bytes()  # the file as written: the page shows what prints
        return pdf, manifest(deck, sheet, resolved(deck, self.opts), result)

    def _close(self) -> None:
        if self.good is not None and self.good.doc is not None:
            self.good.doc.close()

    def image(self, number: int, kind: str, index: int, side: str, width: int,
              zoomed: bool = False, see: str = "") -> bytes | None:
        """A page (`kind` "page", `index` from 0) or a card alone ("card", its id, "front" or
        "back") of build `number`, `width` pixels wide; None when that build or thing is gone.
        `zoomed`: the card the designer is looking at, drawn first after the next save.
        `see`: a deficiency of generator.access.vision, to show the print as it sees it."""
        key = (kind, index, side, served_width(width), see)
        with self.lock:
            self._asked(key, zoomed)
            good = self.good
            if good is None or good.number != number:
                return None
            return self._image(good, key)

    def _image(self, good: Build, key: tuple) -> bytes | None:
        if key in good.images:
            good.images.move_to_end(key)
            return good.images[key]
        data = _render(good, *key)
        if data is not None:
            good.images[key] = data
            while len(good.images) > CACHED_IMAGES:
                good.images.popitem(last=False)
        return data

    def _asked(self, key: tuple, zoomed: bool) -> None:
        self.asked.pop(key, None)
        self.asked[key] = zoomed
        if zoomed:  # the card looked at now goes first; an earlier zoom loses its place
            for other in [k for k, z in self.asked.items() if z and k[:2] != key[:2]]:
                self.asked[other] = False
            self.asked.move_to_end(key, last=False)
        while len(self.asked) > WARM:  # the oldest request that is not the zoom goes
            del self.asked[next(k for k, z in self.asked.items() if not z)]

    def warm(self) -> None:
        """Draw the images the page asked for last, for the new build, before the page asks
        again (the zoomed card first): a save's new card then waits on nothing but pdfium.
        Stops as soon as a newer build replaces this one."""
        with self.lock:
            good, keys = self.good, list(self.asked)
        for key in keys:
            with self.lock:
                if self.good is not good:
                    return
                self._image(good, key)


def _render(good: Build, kind: str, index: int, side: str, width: int,
            see: str = "") -> bytes | None:
    image = _rendered(good, kind, index, side, width)
    if image is None:
        return None
    if see:  # the print as a dichromat sees it: the same pixels, through the check's model
        from generator.access.vision import simulate_image

        image = simulate_image(image, see)
    return _encoded(image.convert("RGB"), "JPEG") if kind == "page" else _encoded(image, "PNG")


def _rendered(good: Build, kind: str, index: int, side: str, width: int):
    """The page or card side as pdfium draws it (a Pillow image), None when there is none."""
    import pypdfium2 as pdfium

    if good.doc is None:
        good.doc = pdfium.PdfDocument(good.pdf)
    if kind == "page":
        if not 0 <= index < len(good.doc):
            return None
        page = good.doc[index]
        return page.render(scale=width / page.get_width()).to_pil()
    card = next((c for c in good.manifest["cards"] if c["id"] == index), None)
    where = card and card.get(side)
    if not where:
        return None
    page = good.doc[where["page"]]
    pw, ph = page.get_size()
    x, y, w, h = where["crop"]  # points, from the top-left corner of the page
    image = page.render(scale=width / w, crop=(x, ph - y - h, pw - x - w, y)).to_pil()
    return image.rotate(180) if where["turn"] == 180 else image


def _encoded(image, fmt: str) -> bytes:
    buf = io.BytesIO()
    if fmt == "PNG":
        image.save(buf, format="PNG", compress_level=1)  # speed over size: it stays local
    else:
        image.save(buf, format="JPEG", quality=90)
    return buf.getvalue()


def manifest(deck, sheet, o: Options, result) -> dict:
    """Everything the page draws besides the images: pages and where each card lies on them,
    the cards (id, name, where its front and back are), the outlines for the overlays, and
    the build's warnings with the cards each one names."""
    pages, cards = card_boxes(deck, sheet)
    names = {c["id"]: c["name"] for c in cards}
    warnings = []
    for text in result.notes:
        named = [int(n) for found in CARD_REF.findall(text)
                 for n in re.findall(r"#(\d+)", found) if int(n) in names]
        warnings.append({"text": text, "cards": list(dict.fromkeys(named))})
    info = "".join(f", {k} {v}" for k, v in result.info.items())
    return {"title": deck.title, "game": deck.name, "path": str(result.path),
            "summary": (f"{plural(result.cards, 'card')} on {plural(result.pages, 'page')} "
                        f"({result.paper}{info})"),
            "pages": pages, "cards": cards, "warnings": warnings,
            "card": {"w": deck.width, "h": deck.height, "shape": deck.shape,
                     **outlines(deck, o.bleed)}}


def watch_and_rebuild(live: LiveBuild, changed: Callable[[], None], stop: threading.Event) -> None:
    """Rebuild after every save under the game's folder (not the PDF it writes) and call
    `changed`, until `stop` is set."""
    from generator.watch import Target, outputs_filter, watch_folder
    from pnp_model.definition import find

    root = find(live.game)
    keep = outputs_filter(root, Target(output=live.output))

    def rebuild(why: str) -> None:
        live.rebuild(why)
        changed()
        if not live.errors:
            threading.Thread(target=live.warm, name="pnp-serve-warm", daemon=True).start()

    watch_folder(root, keep, rebuild, stop)
