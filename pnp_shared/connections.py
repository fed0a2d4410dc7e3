"""Slow and greedy clients: time limits on a request's head and body, connections per address.

Why: uvicorn times out only an idle kept-alive connection, and any byte received resets it, so
a client sending one header line every few seconds held a connection for as long as it liked —
in `--lan` mode before the token was ever read. Here each request must arrive whole in time (its
head within `head` seconds of its first byte, its body within `body` seconds after that) or the
connection is closed, and one address holds at most `per_client` connections at once (an open
page holds one for its event stream; a browser opens at most six per server). The guard sits in
uvicorn's h11 protocol, the only place that sees a request before it is complete.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


@dataclass(frozen=True)
class Limits:
    head: float = 10.0  # seconds from a request's first byte to the end of its headers
    body: float = 30.0  # seconds from the end of the headers to the end of the body
    per_client: int = 64  # open connections from one address


def protocol(limits: Limits) -> type[H11Protocol]:
    """uvicorn's h11 protocol with `limits` enforced; one class (and count) per server."""
    open_from: Counter[str] = Counter()

    class Limited(H11Protocol):
        timer: asyncio.TimerHandle | None = None
        reading_head = True
        address = ""

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self.address = (self.client or ("",))[0]
            open_from[self.address] += 1
            if open_from[self.address] > limits.per_client:
                transport.close()  # before a byte is read: costs nothing but the accept
                return
            self.arm(limits.head, head=True)

        def connection_lost(self, exc) -> None:
            self.disarm()
            open_from[self.address] -= 1
            if open_from[self.address] <= 0:
                del open_from[self.address]
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self.timer is None and self.conn.their_state is h11.IDLE:
                self.arm(limits.head, head=True)  # the next request on a kept-alive connection
            super().data_received(data)
            state = self.conn.their_state
            if state is h11.SEND_BODY and self.reading_head:
                self.arm(limits.body, head=False)
            elif state is not h11.IDLE and state is not h11.SEND_BODY:
                self.disarm()  # the request is in (or the connection is ending)

        def arm(self, seconds: float, head: bool) -> None:
            self.disarm()
            self.reading_head = head
            self.timer = self.loop.call_later(seconds, self.too_slow)

        def disarm(self) -> None:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

        def too_slow(self) -> None:
            self.timer = None
            if not self.transport.is_closing():
                self.transport.close()

    return Limited
