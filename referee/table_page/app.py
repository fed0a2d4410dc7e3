"""The table page as a Starlette app: the page, its JSON, its event stream, its picture.

One reader (reader.py) polls the database in one worker thread; each change is rendered once
into one message that every open page receives through its event stream, so fifty pages cost
one read per move, and a page that goes away only ends its own stream (pnp_shared/web.py).
A page opened as ?match=N (a scratch match's link back to the real one) gets a reader of its
own for match N. Imported only by `referee serve`.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import jinja2
import markupsafe
import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pnp_shared.terminal import escape
from pnp_shared.web import event_stream
from referee.seats.clock import Warner, span
from referee.table_page.reader import Reader

HERE = Path(__file__).parent
POLL = 0.1  # seconds between two looks at the database: well inside the page's second


def templates() -> jinja2.Environment:
    """The page's templates: HTML escaped, and control characters and bidirectional overrides
    of stored text (a reason, a rejected move) written as `\\u202e`, as the terminal shows
    them, so none reverses or hides what follows on the page."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                             autoescape=True, finalize=_shown)
    env.filters["clock"] = span  # a player's time on turn, as the page ticks it
    return env


def _shown(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    shown = escape(value)
    return markupsafe.Markup(shown) if isinstance(value, markupsafe.Markup) else shown


class Hub:
    """The latest view and its rendering, and the pages waiting for the next one."""

    def __init__(self, reader: Reader, pinned: bool = False):
        self.reader = reader
        self.pinned = pinned  # opened as ?match=N: the page offers to follow the current one
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="table-reader")
        self.templates = templates()
        self.version = 0
        self.view: dict[str, Any] = {}
        self.message = ""
        self.style = ""  # the picture's style sheet, linked by the page (picture.css)
        self.changed = asyncio.Event()
        self._polling: asyncio.Task | None = None
        self.on_tick = None  # called with the view after each look (the clock's warnings)

    def _poll(self) -> tuple[dict[str, Any], str, str] | None:
        """In the worker thread: the new view, its message and its picture's style, or None
        when nothing changed."""
        if not self.reader.poll():
            return None
        view = self.reader.view
        style, _ = picture_style(view.get("picture"))
        html = self.render("parts.html", view)
        return view, orjson.dumps({"event": view.get("event"), "match": view.get("match"),
                                   "style": style_key(style), "html": html}).decode(), style

    def render(self, template: str, view: dict[str, Any], **more: Any) -> str:
        """The page's HTML of `view`, its picture without the inline style the CSP refuses."""
        style, picture = picture_style(view.get("picture"))
        return self.templates.get_template(template).render(
            view={**view, "picture": picture, "pinned": self.pinned}, style=style_key(style),
            **more)

    def stop(self) -> None:
        if self._polling is not None:
            self._polling.cancel()
        self.pool.submit(self.reader.close)
        self.pool.shutdown(wait=False)

    async def refresh(self) -> None:
        found = await asyncio.get_running_loop().run_in_executor(self.pool, self._poll)
        if found is not None:
            self.view, self.message, self.style = found
            self.version += 1
            changed, self.changed = self.changed, asyncio.Event()
            changed.set()  # wakes every waiting stream

    async def start(self) -> None:
        """Read the match now and keep watching (from the first request on)."""
        if self._polling is None:
            await self.refresh()
            self._polling = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(POLL)
            try:
                await self.refresh()
                if self.on_tick is not None:
                    self.on_tick(self.view)
            except Exception:  # noqa: BLE001 - a bug drawing one position: said, and the
                traceback.print_exc()  # page keeps following the next moves

    async def newer(self, seen: int) -> tuple[int, str]:
        while self.version == seen:
            await self.changed.wait()
        return self.version, self.message


def picture_style(picture: str | None) -> tuple[str, str | None]:
    """A picture's style sheet and the picture without it. The page's Content-Security-Policy
    runs no inline style, so the page links the sheet (picture.css) instead; `show --svg` and
    /picture.svg keep it inside, as a picture file must."""
    found = re.search(r"<style>(.*?)</style>", picture or "", re.S)
    if found is None:
        return "", picture
    return found.group(1), picture[:found.start()] + picture[found.end():]


def style_key(style: str) -> str:
    """A short name of a style sheet: the page fetches picture.css again when it changes."""
    return hashlib.sha256(style.encode()).hexdigest()[:12]


class Hubs:
    """The server's own match (the current one, or --match) and the matches pages asked for
    with ?match=N (a scratch match's page goes back to the real one so): one hub each, the
    MAX_PINNED latest kept."""

    MAX_PINNED = 8

    def __init__(self, reader: Reader):
        self.own = Hub(reader)
        self.pinned: dict[int, Hub] = {}

    async def get(self, request: Request) -> Hub:
        """The hub of the match the request names (started), or HTTPException 400/404."""
        from starlette.exceptions import HTTPException

        asked = request.query_params.get("match", "")
        if not asked or asked == str(self.own.reader.match_id):
            hub = self.own
        elif not (asked.isascii() and asked.isdigit() and len(asked) < 10):
            raise HTTPException(400, "?match= takes a match number")
        elif int(asked) in self.pinned:
            hub = self.pinned[int(asked)]
        else:
            if len(self.pinned) >= self.MAX_PINNED:
                self.pinned.pop(next(iter(self.pinned))).stop()
            reader = self.own.reader
            hub = self.pinned[int(asked)] = Hub(Reader(reader.path, int(asked)), pinned=True)
        await hub.start()
        return hub


def build(reader: Reader, seats: Any = None, limits: dict | None = None) -> Starlette:
    """The app; `seats` (referee/seats/page.py) adds the seat panel and the API, `limits` the
    clock's (seconds per turn and per player's game)."""
    hubs = Hubs(reader)
    if limits:
        hubs.own.on_tick = Warner(limits)
    if seats is not None:
        seats.table.wake = hubs.own.refresh  # a seat's move reaches the pages at once

    async def page(request: Request) -> Response:
        hub = await hubs.get(request)
        headers = {"cache-control": "no-store"}
        seat_html = ""
        if seats is not None:
            found = seats.panel(request)
            if isinstance(found, Response):
                return found
            seat_html, cookie = found
            if cookie:
                headers["set-cookie"] = cookie
        no_seats = seats is None and "seat" in request.query_params  # a seat link: say why
        html = hub.render("table.html", hub.view, seat=seat_html, limits=limits or {},
                          no_seats=no_seats)
        return HTMLResponse(html, headers=headers)

    async def table_json(request: Request) -> Response:
        hub = await hubs.get(request)
        return Response(orjson.dumps(hub.view, option=orjson.OPT_INDENT_2),
                        media_type="application/json", headers={"cache-control": "no-store"})

    async def picture(request: Request) -> Response:
        hub = await hubs.get(request)
        found = hub.view.get("picture")
        if not found:
            return Response("this game draws no picture\n", 404, media_type="text/plain")
        return Response(found, media_type="image/svg+xml", headers={"cache-control": "no-store"})

    async def picture_css(request: Request) -> Response:
        hub = await hubs.get(request)
        return Response(hub.style, media_type="text/css", headers={"cache-control": "no-store"})

    async def events(request: Request) -> Response:
        hub = await hubs.get(request)
        seen = 0  # a page that (re)connects gets the latest view at once

        async def next_event() -> str:
            nonlocal seen
            seen, message = await hub.newer(seen)
            return message

        return StreamingResponse(event_stream(request.is_disconnected, next_event),
                                 media_type="text/event-stream",
                                 headers={"cache-control": "no-store", "x-accel-buffering": "no"})

    return Starlette(routes=[
        Route("/", page),
        Route("/table.json", table_json),
        Route("/picture.svg", picture),
        Route("/picture.css", picture_css),
        Route("/events", events),
        *(seats.routes() if seats is not None else ()),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ])
