# Edit acpgen/shipped/runtime/transports/channel.py, not this file: acpgen generate writes it.
"""The remote side of the frame seam: frames handed in by a server or client, handed out to
an outbox. What a transport reads of a message to route it is the seam's routing record
(``..transport.Route``): on a frame going out, the one the engine filled as it encoded it; on
one coming in, the one ``decode_inbound`` filled as it decoded it for the engine.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol

from ..framing import Oversized
from ..recording import Sender, TraceWriter
from ..transport import NOT_SENT, SENT, Inbound

__all__ = ["ATTACH_METHODS", "MessageChannel", "Outbox"]

_SNIFF_BYTES = 64 * 1024  # as framing.py: what of an oversized frame is kept to find its id

# Methods whose sessionId names a session the connection takes up (not one it already
# has): no Acp-Session-Id is required for them, and their responses go on the
# connection-scoped stream (the client may not have the session's stream yet).
ATTACH_METHODS = frozenset({"session/load", "session/resume", "session/fork"})


class Outbox(Protocol):
    """Where the engine's outgoing frames go (an SSE stream's queue, a WebSocket). Each frame
    is a ``RoutedFrame``: ``route_of_frame(frame)`` says where it goes."""

    def offer(self, frame: bytes) -> bool:
        """Take the frame if that needs no waiting."""
        ...

    async def put(self, frame: bytes) -> None:
        """Take the frame, waiting for room (backpressure); ConnectionError once gone."""
        ...


class MessageChannel:
    """A :class:`~..transport.FrameTransport` fed frame by frame; ``on_close`` runs once when
    the engine closes it. With a ``trace`` (the ``record=`` option), every frame handed in is
    recorded as the peer's and every frame handed out as ``role``'s, before it goes. The
    engine routes what it sends here (``wants_routes``)."""

    wants_routes = True

    def __init__(
        self,
        outbox: Outbox,
        capacity: int,
        on_close: Callable[[], Awaitable[None]] | None = None,
        trace: TraceWriter | None = None,
        role: Sender = "client",
    ) -> None:
        self._outbox = outbox
        self._inbound: asyncio.Queue[bytes | Inbound | None] = asyncio.Queue(capacity)
        self._on_close = on_close
        self._closed = False
        self.trace = trace
        self._role: Sender = role
        self._peer: Sender = "agent" if role == "client" else "client"

    def heard(self, frame: bytes) -> None:
        """Record a frame the peer sent (done by feed; the transport calls it for a frame it
        answers itself, never handing it in)."""
        if self.trace is not None:
            self.trace.frame(self._peer, frame)

    def feed_nowait(self, frame: bytes | Inbound, *, heard: bool = True) -> bool:
        """Hand in one frame (decoded already, or bytes the engine decodes); False when the
        engine is that far behind (the caller refuses). ``heard=False``: a frame the
        transport makes up itself, not recorded as the peer's."""
        try:
            self._inbound.put_nowait(frame)
        except asyncio.QueueFull:
            return False
        if heard:
            self.heard(frame.frame if isinstance(frame, Inbound) else frame)
        return True

    async def feed(self, frame: bytes | Inbound) -> None:
        """Hand in one frame, waiting while the engine is behind."""
        await self._inbound.put(frame)
        self.heard(frame.frame if isinstance(frame, Inbound) else frame)

    def end(self) -> None:
        """No more frames will come: the engine sees the peer's end of input."""
        while True:
            try:
                self._inbound.put_nowait(None)
                return
            except asyncio.QueueFull:  # ending anyway: what was not yet read is dropped
                self._inbound.get_nowait()

    async def frames(self, limit: int) -> AsyncIterator[bytes | Oversized | Inbound]:
        while (frame := await self._inbound.get()) is not None:
            raw = frame.frame if isinstance(frame, Inbound) else frame
            yield frame if len(raw) <= limit else Oversized(raw[:_SNIFF_BYTES], limit)

    def _said(self, frame: bytes) -> None:
        if self.trace is not None:
            self.trace.frame(self._role, frame)

    def send_nowait(self, frame: bytes) -> int:
        # An outbox takes a frame whole or not at all: nothing is ever left queued. Recorded
        # right after offer() took it, with no await between: nothing can overtake it.
        if self._closed or not self._outbox.offer(frame):
            return NOT_SENT
        self._said(frame)
        return SENT

    async def send(self, frame: bytes) -> None:
        if self._closed:
            raise ConnectionError("connection closed")
        if frame:
            self._said(frame)
            await self._outbox.put(frame)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.end()
            if self._on_close is not None:
                await self._on_close()
