"""The designer's page as a Starlette app: a few routes, one template, a script, a style sheet.

The page gets the build's state (pages, cards, warnings, errors) as JSON over server-sent
events, one message per rebuild, and asks for each image by build number, so an image never
changes under a URL and the browser may keep it (`see=`: as a colour-vision deficiency sees
it, another URL). Read-only: nothing here writes a file.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from generator.serve.live import LiveBuild
from pnp_shared.web import event_stream

HERE = Path(__file__).parent
KEEP = {"Cache-Control": "private, max-age=31536000, immutable"}  # one build's image never changes
FRESH = {"Cache-Control": "no-store"}


class Listener:
    """One open page's event stream: only the newest state waits for it, so a slow page
    skips the states it missed instead of queueing them."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.ready = asyncio.Event()
        self.text: str | None = None

    def offer(self, text: str) -> None:
        self.text = text
        self.ready.set()

    async def next(self) -> str | None:
        await self.ready.wait()
        self.ready.clear()
        text, self.text = self.text, None
        return text


class Hub:
    """Every open page's listener; `publish` may be called from the watcher's thread."""

    def __init__(self, live: LiveBuild):
        self.live = live
        self.listeners: set[Listener] = set()

    def publish(self) -> None:
        text = json.dumps(self.live.state())
        for listener in list(self.listeners):
            listener.loop.call_soon_threadsafe(listener.offer, text)


def create_app(live: LiveBuild, hub: Hub) -> Starlette:
    templates = Jinja2Templates(directory=HERE / "templates")

    async def index(request: Request) -> Response:
        return templates.TemplateResponse(request, "index.html", {"game": str(live.game)},
                                          headers=FRESH)

    async def state(request: Request) -> Response:
        return JSONResponse(live.state(), headers=FRESH)

    async def events(request: Request) -> Response:
        listener = Listener(asyncio.get_running_loop())
        listener.offer(json.dumps(live.state()))  # the page's first message: where things are
        hub.listeners.add(listener)

        async def stream():
            try:
                async for chunk in event_stream(request.is_disconnected, listener.next):
                    yield chunk
            finally:
                hub.listeners.discard(listener)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**FRESH, "X-Accel-Buffering": "no"})

    async def page_image(request: Request) -> Response:
        p = request.path_params
        see = _vision(request)
        if see is None:
            return _unseen()
        data = await run_in_threadpool(live.image, p["number"], "page", p["index"], "",
                                       _width(request), False, see)
        return _image(data, "image/jpeg")

    async def card_image(request: Request) -> Response:
        p = request.path_params
        if p["side"] not in ("front", "back"):
            return Response("no such side\n", 404, media_type="text/plain")
        see = _vision(request)
        if see is None:
            return _unseen()
        data = await run_in_threadpool(live.image, p["number"], "card", p["id"], p["side"],
                                       _width(request), "zoom" in request.query_params, see)
        return _image(data, "image/png")

    async def pdf(request: Request) -> Response:
        good = live.good
        if good is None or good.number != request.path_params["number"]:
            return Response("that build is gone: reload the page\n", 404, media_type="text/plain")
        return Response(good.pdf, media_type="application/pdf", headers=KEEP)

    return Starlette(routes=[
        Route("/", index),
        Route("/state", state),
        Route("/events", events),
        Route("/build/{number:int}/page/{index:int}.jpg", page_image),
        Route("/build/{number:int}/card/{id:int}/{side}.png", card_image),
        Route("/build/{number:int}/game.pdf", pdf),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ])


def _width(request: Request) -> int:
    try:
        return max(1, int(request.query_params.get("w", "800")))
    except ValueError:
        return 800


def _vision(request: Request) -> str | None:
    """The deficiency the page asks to see through ("" for normal vision), None if unknown."""
    from generator.access.vision import DEFICIENCIES

    see = request.query_params.get("see", "")
    return see if see in ("", *DEFICIENCIES) else None


def _unseen() -> Response:
    return Response("see: normal, protanopia, deuteranopia or tritanopia\n", 400,
                    media_type="text/plain")


def _image(data: bytes | None, media_type: str) -> Response:
    if data is None:
        return Response("that build or card is gone: the page asks again\n", 404,
                        media_type="text/plain")
    return Response(data, media_type=media_type, headers=KEEP)
