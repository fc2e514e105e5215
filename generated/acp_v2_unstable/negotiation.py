# Edit acpgen/shipped/runtime/negotiation.py, not this file: acpgen generate writes it.
"""One connection, two protocol versions: an agent router and a negotiating client.

The protocol's handshake (``initialize``): the client sends the latest version it supports;
the agent answers that version if it supports it, else its own latest; a client that does not
support the answer closes the connection. An implementation per version (the generated v1
and v2 packages) can meet on one connection through it:

* :class:`ProtocolRouter` (the agent side) reads the client's first frame, and when it is an
  ``initialize`` serves the connection with the implementation of the version asked for, or
  the latest one it has when it has none for that version (a first frame that is not an
  ``initialize``, or not JSON, goes to the latest too: the protocol puts ``initialize``
  first). Every byte, the first frame included, then reaches that version's own connection
  end unchanged, so a routed connection behaves exactly as a plain one of that version
  (guards, ordering, cancellation).
* :func:`negotiate` (the client side) sends one ``initialize`` asking for the latest version
  offered, reads the answer's version before validating it, and starts the client end of
  that version with the answer (``sides.ClientEnd.adopt_initialize``); an answer no offer
  supports raises ``handshake.ProtocolVersionError`` naming both versions.

Nothing here names a generated package: the connection classes and handlers come by
injection (each version's ``Offer`` or ``Route``), so the rendered façade that pairs two
packages (``negotiation.py`` of a v2 package, emitted only when the output has a v1 and a
v2 surface) is only signatures.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .errors import ConnectionClosed
from .handshake import ProtocolVersionError
from .rpc import DEFAULT_MAX_FRAME_BYTES, RpcError
from .transport import End
from .transports.spawn import spawn_process
from .transports.stdio import stdio_streams

__all__ = [
    "Negotiated",
    "Offer",
    "ProtocolRouter",
    "Route",
    "RoutedConnection",
    "negotiate",
    "negotiate_in_memory",
    "negotiate_spawned",
    "route_in_memory",
    "serve_routed_stdio",
]

_C = TypeVar("_C", bound=End)
_V1 = TypeVar("_V1")
_V2 = TypeVar("_V2")

_READ_CHUNK = 64 * 1024
_INITIALIZE_ID = 0  # the negotiating client's own request id: sent before any end exists


class _Reader(asyncio.StreamReader):
    """The bytes already read (``head``), then the rest of ``source``: what a connection end
    reads when a first frame had to be looked at before the end existed. The engine reads
    only with :meth:`read` (``framing.read_frames``), so nothing is copied or buffered.
    """

    def __init__(self, head: bytes, source: asyncio.StreamReader) -> None:
        super().__init__()
        self._head = head
        self._source = source

    async def read(self, n: int = -1) -> bytes:
        if self._head:
            taken = self._head if n < 0 else self._head[:n]
            self._head = self._head[len(taken) :]
            return taken
        return await self._source.read(n)

    def at_eof(self) -> bool:
        return not self._head and self._source.at_eof()


async def _first_frame(reader: asyncio.StreamReader, limit: int) -> tuple[bytes, bytes | None]:
    """(every byte read, the first line without its newline, or None when the stream ended or
    the line outgrew ``limit`` first: the engine then refuses it as it would any frame).
    """
    head = bytearray()
    while True:
        newline = head.find(b"\n")
        if 0 <= newline <= limit:
            return bytes(head), bytes(head[:newline])
        if newline > limit or len(head) > limit:
            return bytes(head), None
        chunk = await reader.read(_READ_CHUNK)
        if not chunk:
            return bytes(head), None
        head += chunk


def _asked_version(frame: bytes | None) -> int | None:
    """The ``protocolVersion`` of an ``initialize`` request, or None for any other frame."""
    if frame is None:
        return None
    try:
        message = json.loads(frame)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("method") != "initialize":
        return None
    params = message.get("params")
    version = params.get("protocolVersion") if isinstance(params, dict) else None
    return version if isinstance(version, int) and not isinstance(version, bool) else None


@dataclass(frozen=True)
class Route:
    """One version an agent serves: its connection class (a package's
    ``AgentSideConnection``), a factory of the agent serving one connection, and the versions
    that package supports (its ``SUPPORTED_PROTOCOL_VERSIONS``)."""

    versions: frozenset[int]
    end: Callable[..., End]
    agent: Callable[[], Any]


@dataclass(frozen=True)
class RoutedConnection:
    """A connection the router served: the version chosen and that version's started end."""

    protocol_version: int
    connection: Any


class ProtocolRouter:
    """Serves each connection with the agent of the version its ``initialize`` asks for."""

    def __init__(self, *routes: Route) -> None:
        if not routes:
            raise ValueError("a router needs at least one version to serve")
        self.routes: dict[int, Route] = {}
        for route in routes:
            for version in route.versions:
                if version in self.routes:
                    raise ValueError(f"protocol version {version} is served twice")
                self.routes[version] = route

    @property
    def supported_versions(self) -> frozenset[int]:
        return frozenset(self.routes)

    def choose(self, asked: int | None) -> int:
        """The version that serves a client asking for ``asked`` (None: no ``initialize``
        first): the one asked for when served, else the latest served (the protocol's rule).
        """
        return asked if asked in self.routes else max(self.routes)

    async def accept(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        trace: bool = False,
    ) -> RoutedConnection:
        """Read the first frame, start the chosen version's end on the streams (the frame
        replayed to it first) and return it."""
        head, frame = await _first_frame(reader, max_frame_bytes)
        version = self.choose(_asked_version(frame))
        route = self.routes[version]
        end = route.end(
            route.agent(),
            _Reader(head, reader),
            writer,
            max_frame_bytes=max_frame_bytes,
            trace=trace,
        )
        end.start()
        return RoutedConnection(version, end)


async def serve_routed_stdio(
    router: ProtocolRouter,
    *,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    trace: bool = False,
) -> None:
    """Serve one routed connection over this process' stdin/stdout until the peer closes it."""
    reader, writer = await stdio_streams()
    routed = await router.accept(reader, writer, max_frame_bytes=max_frame_bytes, trace=trace)
    try:
        await routed.connection.wait_closed()
    finally:
        await routed.connection.close()


@contextlib.asynccontextmanager
async def route_in_memory(
    router: ProtocolRouter,
    client_end: Callable[..., _C],
    client: Any,
    *,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
) -> AsyncIterator[tuple[asyncio.Task[RoutedConnection], _C]]:
    """A client end of one version and the router in this process, over a socket pair (full
    NDJSON framing): yields (the routing, done once the client's first frame arrived; the
    started client end)."""
    left, right = socket.socketpair()
    agent_reader, agent_writer = await asyncio.open_connection(sock=left, limit=max_frame_bytes)
    client_reader, client_writer = await asyncio.open_connection(sock=right, limit=max_frame_bytes)
    routing = asyncio.ensure_future(
        router.accept(agent_reader, agent_writer, max_frame_bytes=max_frame_bytes)
    )
    client_side = client_end(client, client_reader, client_writer, max_frame_bytes=max_frame_bytes)
    client_side.start()
    try:
        yield routing, client_side
    finally:
        await client_side.close()
        if not routing.done():
            routing.cancel()
        with contextlib.suppress(BaseException):
            routed = await routing
            await routed.connection.close()
        agent_writer.close()


@dataclass(frozen=True)
class Offer:
    """One version a client can speak: its connection class (a package's
    ``ClientSideConnection``), the client handler, and that package's versions."""

    versions: frozenset[int]
    end: Callable[..., Any]
    client: Any


@dataclass(frozen=True)
class Negotiated(Generic[_V1, _V2]):
    """What a negotiating client agreed: the version, and the started connection of exactly
    one of the two packages (``v1`` or ``v2``; the other is None), with the agent's answer
    typed by that package (``initialize_response``)."""

    protocol_version: int
    v1: _V1 | None
    v2: _V2 | None
    initialize_response: Any

    @property
    def connection(self) -> _V1 | _V2:
        """The agreed version's connection, whichever it is."""
        chosen = self.v2 if self.v2 is not None else self.v1
        assert chosen is not None  # exactly one is set (negotiate)
        return chosen


async def _answer(reader: asyncio.StreamReader, limit: int) -> tuple[dict[str, Any], bytes]:
    """The answer to the negotiating ``initialize``, and the bytes read after it (frames the
    agent sent meanwhile stay for the connection end, in order)."""
    before = bytearray()
    rest = b""
    while True:
        head, frame = await _first_frame(_Reader(rest, reader), limit)
        if frame is None:
            raise ConnectionClosed("the agent closed the connection before answering initialize")
        rest = head[len(frame) + 1 :]
        try:
            message = json.loads(frame)
        except ValueError:
            message = None
        if (
            isinstance(message, dict)
            and message.get("id") == _INITIALIZE_ID
            and "method" not in message
        ):
            return message, bytes(before) + rest
        before += frame + b"\n"


async def negotiate(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    initialize: dict[str, Any],
    v1: Offer,
    v2: Offer,
    *,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    trace: bool = False,
) -> Negotiated[Any, Any]:
    """Send ``initialize`` (wire params) asking for the latest version ``v2`` offers, then
    start the end of the version the agent answered. Raises ``ProtocolVersionError`` (the
    writer closed) when neither offer supports it, ``RpcError`` when the agent refused.
    """
    asked = max(v2.versions)
    params = {**initialize, "protocolVersion": asked}
    request = {
        "jsonrpc": "2.0",
        "id": _INITIALIZE_ID,
        "method": "initialize",
        "params": params,
    }
    writer.write(json.dumps(request, separators=(",", ":")).encode("utf-8") + b"\n")
    await writer.drain()
    message, rest = await _answer(reader, max_frame_bytes)
    if "error" in message:
        error = message["error"] if isinstance(message["error"], dict) else {}
        writer.close()
        raise RpcError(
            int(error.get("code", -32603)),
            str(error.get("message", "")),
            error.get("data"),
        )
    result = message.get("result")
    answered = result.get("protocolVersion") if isinstance(result, dict) else None
    offer = next((o for o in (v2, v1) if answered in o.versions), None)
    if offer is None or not isinstance(answered, int):
        writer.close()
        version = answered if isinstance(answered, int) else -1
        raise ProtocolVersionError(asked, version, v1.versions | v2.versions)
    end = offer.end(
        offer.client,
        _Reader(rest, reader),
        writer,
        max_frame_bytes=max_frame_bytes,
        trace=trace,
    )
    response = end.adopt_initialize(params, result)
    end.start()
    chosen_v2 = offer is v2
    return Negotiated(answered, None if chosen_v2 else end, end if chosen_v2 else None, response)


@contextlib.asynccontextmanager
async def negotiate_spawned(
    command: Sequence[str],
    initialize: dict[str, Any],
    v1: Offer,
    v2: Offer,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    trace: bool = False,
) -> AsyncIterator[Negotiated[Any, Any]]:
    """:func:`negotiate` with the agent ``command`` spawned (its stdin/stdout), closed on exit
    before the process is stopped."""
    environment = None if env is None else dict(env)
    async with spawn_process(command, env=environment, cwd=cwd) as (
        reader,
        writer,
        _process,
    ):
        agreed = await negotiate(
            reader,
            writer,
            initialize,
            v1,
            v2,
            max_frame_bytes=max_frame_bytes,
            trace=trace,
        )
        try:
            yield agreed
        finally:
            await agreed.connection.close()


@contextlib.asynccontextmanager
async def negotiate_in_memory(
    serve: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Any],
    initialize: dict[str, Any],
    v1: Offer,
    v2: Offer,
    *,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
) -> AsyncIterator[Negotiated[Any, Any]]:
    """:func:`negotiate` against an agent in this process, over a socket pair: ``serve(reader,
    writer)`` starts the agent's end (a package's ``AgentSideConnection`` or a router's
    ``accept``) and returns it, or an awaitable of it."""
    left, right = socket.socketpair()
    agent_reader, agent_writer = await asyncio.open_connection(sock=left, limit=max_frame_bytes)
    client_reader, client_writer = await asyncio.open_connection(sock=right, limit=max_frame_bytes)
    served = serve(agent_reader, agent_writer)
    serving = (
        asyncio.ensure_future(served)
        if asyncio.isfuture(served) or asyncio.iscoroutine(served)
        else None
    )
    agent_end = served if serving is None else None
    try:
        agreed = await negotiate(
            client_reader,
            client_writer,
            initialize,
            v1,
            v2,
            max_frame_bytes=max_frame_bytes,
        )
        try:
            yield agreed
        finally:
            await agreed.connection.close()
    finally:
        if serving is not None:
            with contextlib.suppress(BaseException):
                agent_end = await asyncio.wait_for(serving, 5)
        if agent_end is not None:
            end = agent_end.connection if isinstance(agent_end, RoutedConnection) else agent_end
            await end.close()
        agent_writer.close()
        client_writer.close()
