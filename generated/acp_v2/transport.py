# Edit acpgen/shipped/runtime/transport.py, not this file: acpgen generate writes it.
"""How frames come in and go out: the seam between the JSON-RPC engine and a transport.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transport.py``).

The engine (``rpc.Connection``) reads and writes whole frames (one JSON-RPC message each)
through a :class:`FrameTransport`; what a frame is on the wire is the transport's business.
:class:`StreamTransport` is stdio's (and a socket's, a subprocess' pipes'): newline-delimited
JSON over an asyncio stream pair. The transports (``transports/``: stdio, a spawned peer, in
memory, Streamable HTTP, WebSocket) carry the same frames in their own wire form, and are
handed the connection class to run (:class:`End`), never importing the typed façade.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Final, Protocol

from .framing import Oversized, read_frames

__all__ = ["NOT_SENT", "SENT", "SENT_QUEUED", "End", "FrameTransport", "StreamTransport"]

# What send_nowait did (ints, so that "not sent" is falsy and one call says it all: the
# engine's hot path makes no second call to ask whether a frame is still queued).
NOT_SENT: Final = 0
SENT: Final = 1
SENT_QUEUED: Final = 2  # taken whole, part of it still queued: send(b"") waits it out


class FrameTransport(Protocol):
    """What the engine needs of a transport. Frames are compact JSON ending in ``\\n``."""

    def frames(self, limit: int) -> AsyncIterator[bytes | Oversized]:
        """Each received frame (without a trailing newline), or :class:`Oversized` for one
        longer than ``limit`` bytes; ends when the peer has closed its end."""
        ...

    def send_nowait(self, frame: bytes) -> int:
        """Send ``frame`` whole if that needs no waiting: :data:`SENT`, or
        :data:`SENT_QUEUED` when part of it still waits to go out; :data:`NOT_SENT`, having
        sent nothing, when it must wait its turn."""
        ...

    async def send(self, frame: bytes) -> None:
        """Send ``frame`` (``b""``: only wait until what was accepted is out). Raises
        ``ConnectionError`` or ``RuntimeError`` when the peer is gone."""
        ...

    async def close(self) -> None:
        """End this side: flush what can be flushed, then close."""
        ...


class End(Protocol):
    """A connection end (``sides.Side``) as a transport runs it: started, closed, awaited.
    Every entry point of ``transports/`` takes the class that makes one (the façade passes
    the package's typed ``AgentSideConnection`` or ``ClientSideConnection``)."""

    def start(self) -> None: ...

    async def close(self) -> None: ...

    async def wait_closed(self) -> None: ...


class StreamTransport:
    """Newline-delimited frames over an asyncio ``StreamReader``/``StreamWriter`` pair.

    With :meth:`take_frames_now`, whole frames that arrive while the reading side has nothing
    pending are handed over as they arrive, in the callback that received them: the read
    loop's task is not woken for them (a loop turn less per message).
    """

    __slots__ = ("_idle", "_pipe", "_reader", "_write", "_writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        # The writer's transport, and what writes a frame: the transport's own write when the
        # writer is a plain StreamWriter (whose write only calls it: a Python frame less per
        # frame sent), else the writer's (a recording writer records what it writes).
        self._pipe = writer.transport
        plain = type(writer) is asyncio.StreamWriter
        self._write = writer.transport.write if plain else writer.write
        self._idle = [False]  # read_frames waits with no part of a line held

    def frames(self, limit: int) -> AsyncIterator[bytes | Oversized]:
        return read_frames(self._reader, limit, self._idle)

    def take_frames_now(self, take: Callable[[bytes], bool], limit: int) -> None:
        """From now on, hand each whole frame of at most ``limit`` bytes to ``take`` as it
        arrives, while :meth:`frames` has nothing pending; ``take`` returns False for a frame
        it leaves to :meth:`frames` (which then gets that frame and everything after it, in
        order: an error to answer, a paused connection)."""
        reader = self._reader
        feed = reader.feed_data
        idle = self._idle

        def feed_data(data: bytes) -> None:
            if not idle[0]:
                feed(data)
                return
            end = data.rfind(b"\n") + 1  # whole frames: data[:end]; a line begun: the rest
            lines = data[: end - 1].split(b"\n") if end else []
            for at, line in enumerate(lines):
                if len(line) > limit or not take(line):
                    idle[0] = False  # the rest goes the reader's way, in order
                    feed(b"\n".join(lines[at:]) + data[end - 1 :])
                    return
            if end < len(data):
                idle[0] = False
                feed(data[end:])

        reader.feed_data = feed_data  # type: ignore[method-assign,assignment]

    def send_nowait(self, frame: bytes) -> int:
        transport = self._pipe
        if transport.is_closing() or transport.get_write_buffer_size():
            return NOT_SENT  # something is queued, or nothing can be: the caller waits its turn
        try:
            self._write(frame)  # whole: write() never splits a frame among others
        except (ConnectionError, RuntimeError):
            return NOT_SENT
        return SENT_QUEUED if transport.get_write_buffer_size() else SENT

    async def send(self, frame: bytes) -> None:
        if frame:
            self._writer.write(frame)
        await self._writer.drain()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            if self._writer.can_write_eof():
                self._writer.write_eof()
        with contextlib.suppress(Exception):
            self._writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer.wait_closed(), 2.0)
