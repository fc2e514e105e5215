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
import json
from collections.abc import AsyncIterator, Callable
from typing import Any, Final, Protocol

from .framing import Oversized, decode_frame, read_frames

__all__ = [
    "NOTIFICATION",
    "NOT_SENT",
    "NO_ROUTE",
    "OTHER",
    "REQUEST",
    "RESPONSE",
    "SENT",
    "SENT_QUEUED",
    "End",
    "FrameTransport",
    "Inbound",
    "Route",
    "RoutedFrame",
    "RoutedTransport",
    "StreamTransport",
    "decode_inbound",
    "id_key",
    "route_of",
    "route_of_frame",
    "routed",
]

# What send_nowait did (ints, so that "not sent" is falsy and one call says it all: the
# engine's hot path makes no second call to ask whether a frame is still queued).
NOT_SENT: Final = 0
SENT: Final = 1
SENT_QUEUED: Final = 2  # taken whole, part of it still queued: send(b"") waits it out


class FrameTransport(Protocol):
    """What the engine needs of a transport. Frames are compact JSON ending in ``\\n``."""

    def frames(self, limit: int) -> AsyncIterator[bytes | Oversized | Inbound]:
        """Each received frame (without a trailing newline), or :class:`Oversized` for one
        longer than ``limit`` bytes, or an :class:`Inbound` the transport decoded already to
        route it; ends when the peer has closed its end."""
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


class RoutedTransport(FrameTransport, Protocol):
    """A transport that routes what it sends (a remote one: which stream, which session): it
    says so (``wants_routes``), and the engine hands it :class:`RoutedFrame` frames."""

    wants_routes: bool  # True


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


# -- the routing record ---------------------------------------------------------------------
#
# What a transport needs to know of a message to route it (its session, the request it answers,
# its kind), filled once per message where the message is already in hand: by the engine when
# it encodes a frame (:func:`routed`, its frames then carry their :class:`Route`), and, for a
# frame a transport receives, once by :func:`decode_inbound`, whose decoded message the engine
# takes as it is (no second decode). No transport decodes a frame to route it
# (``tests/test_transport_routing.py`` scans them).

REQUEST: Final = "request"
NOTIFICATION: Final = "notification"
RESPONSE: Final = "response"
OTHER: Final = "other"  # a batch, or no JSON-RPC message at all: routed to the connection


class Route:
    """The routing facts of one JSON-RPC message (None where it has no such member)."""

    __slots__ = ("failed", "id", "key", "kind", "method", "result_session_id", "session_id")

    def __init__(
        self,
        kind: str,
        method: str | None = None,
        id: Any = None,
        key: str | None = None,
        session_id: str | None = None,
        result_session_id: str | None = None,
        failed: bool = False,
    ) -> None:
        self.kind = kind
        self.method = method  # a request's or notification's
        self.id = id  # the id as the message has it (a request's, or the one a response answers)
        self.key = key  # that id as JSON text ("1" and 1 differ); None for a notification
        self.session_id = session_id  # params.sessionId
        self.result_session_id = result_session_id  # result.sessionId (session/new's answer)
        self.failed = failed  # an error response

    @property
    def is_request(self) -> bool:
        return self.kind == REQUEST

    @property
    def is_response(self) -> bool:
        return self.kind == RESPONSE

    def __repr__(self) -> str:
        return (
            f"Route({self.kind}, method={self.method!r}, key={self.key!r}, "
            f"session_id={self.session_id!r}, result_session_id={self.result_session_id!r}, "
            f"failed={self.failed})"
        )


NO_ROUTE: Final = Route(OTHER)


def _string_member(value: Any, name: str) -> str | None:
    member = value.get(name) if isinstance(value, dict) else None
    return member if isinstance(member, str) else None


def id_key(request_id: Any) -> str:
    """A request id as one key: its JSON text (``"1"`` and ``1`` differ, ``true`` and ``1``)."""
    return str(request_id) if type(request_id) is int else json.dumps(request_id)


def route_of(message: Any) -> Route:
    """The routing record of one message (a decoded one, or one about to be encoded)."""
    if not isinstance(message, dict):
        return NO_ROUTE
    method = message.get("method")
    has_id = "id" in message
    request_id = message.get("id")
    key = id_key(request_id) if has_id else None
    session_id = _string_member(message.get("params"), "sessionId")
    if isinstance(method, str):
        return Route(REQUEST if has_id else NOTIFICATION, method, request_id, key, session_id)
    if has_id and "method" not in message:
        result = _string_member(message.get("result"), "sessionId")
        return Route(RESPONSE, None, request_id, key, None, result, "error" in message)
    return Route(OTHER, None, request_id, key, session_id)


class RoutedFrame(bytes):
    """An encoded frame with the routing record of its message (``route``), as the engine
    hands it to a transport that asks for routes (:class:`RoutedTransport`)."""

    route: Route


def routed(frame: bytes, message: Any) -> RoutedFrame:
    """``frame`` (the encoding of ``message``) with its routing record."""
    out = RoutedFrame(frame)
    out.route = route_of(message)
    return out


def route_of_frame(frame: bytes) -> Route:
    """The record a :class:`RoutedFrame` carries (:data:`NO_ROUTE` for a bare frame: one the
    engine did not encode, such as ``b""``)."""
    return frame.route if isinstance(frame, RoutedFrame) else NO_ROUTE


class Inbound:
    """A frame a transport received, decoded once (:func:`decode_inbound`): its bytes (for the
    trace and the size limits), the message, and its routing record. The engine takes the
    message as it is."""

    __slots__ = ("frame", "message", "route")

    def __init__(self, frame: bytes, message: Any, route: Route) -> None:
        self.frame = frame
        self.message = message
        self.route = route


def decode_inbound(frame: bytes) -> Inbound:
    """Decode a received frame once; raises ``ValueError`` or ``RecursionError`` as
    :func:`~.framing.decode_frame` does (the transport then hands in the bytes: the engine
    answers them -32700)."""
    message = decode_frame(frame)
    return Inbound(frame, message, route_of(message))
