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
import markupsafe
import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pnp_shared.terminal import escape
from pnp_shared.web import event_stream
from referee.table_page.reader import Reader

HERE = Path(__file__).parent
POLL = 0.1  # seconds between two looks at the database: well inside the page's second


def templates() -> jinja2.Environment:
    """The page's templates: HTML escaped, and control characters and bidirectional overrides
    of stored text (a reason, a rejected move) written as `\\u202e`, as the terminal shows
    them, so none reverses or hides what follows on the page."""
    return jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                              autoescape=True, finalize=_shown)


def _shown(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    shown = escape(value)
    return markupsafe.Markup(shown) if isinstance(value, markupsafe.Markup) else shown


class Hub:
    """The latest view and its rendering, and the pages waiting for the next one."""

    def __init__(self, reader: Reader):
        self.reader = reader
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="table-reader")
        self.templates = templates()
        self.version = 0
        self.view: dict[str, Any] = {}
        self.message = ""
        self.changed = asyncio.Event()
        self._polling: asyncio.Task | None = None

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
            except Exception:  # noqa: BLE001 - a bug drawing one position: said, and the
                traceback.print_exc()  # page keeps following the next moves

    async def newer(self, seen: int) -> tuple[int, str]:
        while self.version == seen:
            await self.changed.wait()
        return self.version, self.message


def build(reader: Reader) -> Starlette:
    hub = Hub(reader)

    async def page(request: Request) -> Response:
        await hub.start()
        html = hub.templates.get_template("table.html").render(view=hub.view)
        return HTMLResponse(html, headers={"cache-control": "no-store"})

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
    ])
