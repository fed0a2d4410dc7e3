"""The table page as a Starlette app: the page, its JSON, its event stream, its picture.

One reader (reader.py) polls the database in one worker thread; each change is rendered once
into one message that every open page receives through its event stream, so fifty pages cost
one read per move, and a page that goes away only ends its own stream (pnp_shared/web.py).
Imported only by `referee serve`.
"""

from __future__ import annotations

import asyncio
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import jinja2
import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pnp_shared.web import event_stream
from referee.seats.clock import Warner, span
from referee.table_page.reader import Reader

HERE = Path(__file__).parent
POLL = 0.1  # seconds between two looks at the database: well inside the page's second


class Hub:
    """The latest view and its rendering, and the pages waiting for the next one."""

    def __init__(self, reader: Reader):
        self.reader = reader
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="table-reader")
        self.templates = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                                            autoescape=True)
        self.templates.filters["clock"] = span  # a player's time on turn, as the page ticks it
        self.version = 0
        self.view: dict[str, Any] = {}
        self.message = ""
        self.changed = asyncio.Event()
        self._polling: asyncio.Task | None = None
        self.on_tick = None  # called with the view after each look (the clock's warnings)

    def _poll(self) -> tuple[dict[str, Any], str] | None:
        """In the worker thread: the new view and its message, or None when nothing changed."""
        if not self.reader.poll():
            return None
        view = self.reader.view
        html = self.templates.get_template("parts.html").render(view=view)
        return view, orjson.dumps({"event": view.get("event"), "match": view.get("match"),
                                   "html": html}).decode()

    async def refresh(self) -> None:
        found = await asyncio.get_running_loop().run_in_executor(self.pool, self._poll)
        if found is not None:
            self.view, self.message = found
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


def build(reader: Reader, seats: Any = None, limits: dict | None = None) -> Starlette:
    """The app; `seats` (referee/seats/page.py) adds the seat panel and the API, `limits` the
    clock's (seconds per turn and per player's game)."""
    hub = Hub(reader)
    if limits:
        hub.on_tick = Warner(limits)
    if seats is not None:
        seats.table.wake = hub.refresh  # a seat's move reaches the pages without the poll's wait

    async def page(request: Request) -> Response:
        await hub.start()
        headers = {"cache-control": "no-store"}
        seat_html = ""
        if seats is not None:
            found = seats.panel(request)
            if isinstance(found, Response):
                return found
            seat_html, cookie = found
            if cookie:
                headers["set-cookie"] = cookie
        html = hub.templates.get_template("table.html").render(view=hub.view, seat=seat_html,
                                                               limits=limits or {})
        return HTMLResponse(html, headers=headers)

    async def table_json(request: Request) -> Response:
        await hub.start()
        return Response(orjson.dumps(hub.view, option=orjson.OPT_INDENT_2),
                        media_type="application/json", headers={"cache-control": "no-store"})

    async def picture(request: Request) -> Response:
        await hub.start()
        found = hub.view.get("picture")
        if not found:
            return Response("this game draws no picture\n", 404, media_type="text/plain")
        return Response(found, media_type="image/svg+xml", headers={"cache-control": "no-store"})

    async def events(request: Request) -> Response:
        await hub.start()
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
        Route("/events", events),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        *(seats.routes() if seats is not None else ()),
    ])
