# Edit acpgen/shipped/runtime/transports/ws/server.py, not this file: acpgen generate writes it.
"""The agent's WebSocket profile: ``GET`` with ``Upgrade: websocket`` on the endpoint's path,
one full-duplex connection per socket, one JSON-RPC message per text frame.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
What both profiles share (connections, sessions, checks, limits) is ``..endpoint``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from collections.abc import Hashable

from ...errors import ResourceNotFoundError
from ...framing import encode_message
from ...transport import NO_ROUTE, Route, decode_inbound, route_of_frame, routed
from ..endpoint import PARTIAL_SCOPE_KEY, AcpEndpoint, RemoteConnection
from ..extra import missing_extra
from ..ids import echoable, invalid_id_answer

try:
    from starlette.responses import Response
    from starlette.websockets import WebSocket, WebSocketDisconnect
except ImportError as exc:
    raise missing_extra(exc) from exc

__all__ = ["WebSocketConnection", "WebSocketProfile"]

_WS_TOO_BIG = 1009  # RFC 6455: message too big
_WS_GOING_AWAY = 1001
_FLUSH_SECONDS = 2.0  # at the end, how long the frames still queued may take to go out


class WebSocketConnection(RemoteConnection):
    """A connection on one accepted WebSocket: every frame goes out on it, in order.

    The engine's frames wait in a queue of at most ``max_buffered_messages``, which one task
    per connection writes to the socket while it has any: a handler streaming updates hands
    each over without waiting for the socket (``offer``), many in one loop turn, as the HTTP
    profile's streams take them; once the queue is full it waits for room (``put``,
    backpressure: nothing is dropped)."""

    socket = True

    def __init__(
        self, endpoint: AcpEndpoint, principal: Hashable, websocket: WebSocket | None = None
    ) -> None:
        self.websocket = websocket
        self._outgoing: collections.deque[bytes] = collections.deque()
        self._capacity = endpoint.options.max_buffered_messages
        self._writer: asyncio.Task[None] | None = None
        self._room: asyncio.Future[None] | None = None  # set when the queue has room again
        self._broken = False  # a send failed: the socket is gone
        super().__init__(endpoint, principal)

    def offer(self, frame: bytes) -> bool:
        if self.ended or self._broken or len(self._outgoing) >= self._capacity:
            return False  # put() waits for room, or says the connection is gone
        self._queue(frame)
        return True

    async def put(self, frame: bytes) -> None:
        while not self.ended and not self._broken and len(self._outgoing) >= self._capacity:
            if self._room is None:
                self._room = asyncio.get_running_loop().create_future()
            await asyncio.shield(self._room)
        if self.ended or self._broken:
            raise ConnectionError("the WebSocket is closed" if self._broken else "connection ended")
        self._queue(frame)

    def _queue(self, frame: bytes) -> None:
        route = route_of_frame(frame)  # filled by the engine as it encoded the frame
        self._outgoing.append(frame)
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write_queued())
        self.sent(route)

    async def _write_queued(self) -> None:
        """Send the queued frames in order, until none is left (then the task ends)."""
        queue = self._outgoing
        try:
            while queue:
                frame = queue[0]
                try:
                    assert self.websocket is not None
                    await self.websocket.send_text(frame.rstrip(b"\n").decode("utf-8"))
                except Exception:  # noqa: BLE001  # the socket is gone, however the server says so
                    self._broken = True  # the receive loop sees the close and ends the rest
                    queue.clear()
                    break
                queue.popleft()
                room, self._room = self._room, None  # a put() waiting for room goes on
                if room is not None and not room.done():
                    room.set_result(None)
        finally:
            self._writer = None
            room, self._room = self._room, None
            if room is not None and not room.done():
                room.set_result(None)

    async def hang_up(self) -> None:
        writer = self._writer
        if writer is not None:  # what was queued before the end goes out first
            await asyncio.wait({writer}, timeout=_FLUSH_SECONDS)
            writer.cancel()
        if self.websocket is not None:
            with contextlib.suppress(Exception):
                await self.websocket.close(_WS_GOING_AWAY)


class WebSocketProfile:
    """The ASGI handler of a WebSocket upgrade on the endpoint's path."""

    def __init__(self, endpoint: AcpEndpoint) -> None:
        self.endpoint = endpoint
        self.options = endpoint.options

    async def handle(self, websocket: WebSocket) -> None:
        principal, refused = await self.endpoint.screen(websocket.headers, websocket.scope)
        opened: WebSocketConnection | Response | None = None
        if refused is None:
            assert principal is not None
            opened = self.endpoint.open(WebSocketConnection, principal, websocket.scope)
            if isinstance(opened, Response):
                refused = opened
        if refused is not None:
            await websocket.send_denial_response(refused)
            return
        remote = opened
        assert isinstance(remote, WebSocketConnection)
        remote.partial = websocket.scope.get(PARTIAL_SCOPE_KEY)  # serve_app's (hypercorn)
        headers = {"acp-connection-id": remote.id, **self.endpoint.cookie_headers()}
        await websocket.accept(headers=[(k.encode(), v.encode()) for k, v in headers.items()])
        remote.websocket = websocket
        try:
            await self._receive(remote, websocket)
        finally:
            await self.endpoint.close(remote)

    async def _receive(self, remote: WebSocketConnection, websocket: WebSocket) -> None:
        limit = self.options.max_frame_bytes
        while True:
            try:
                message = await websocket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                continue  # binary frames are ignored (RFD)
            frame = text.encode("utf-8")
            if len(frame) > limit:
                await websocket.close(_WS_TOO_BIG, f"message over {limit} bytes")
                return
            try:
                inbound = decode_inbound(frame)  # once: the engine takes the decoded message
            except (ValueError, RecursionError):
                remote.received(NO_ROUTE)
                await remote.channel.feed(frame)  # the engine answers -32700
                continue
            if not echoable(inbound.message):  # no id to answer it under: answered here, never run
                remote.usage.message(time.monotonic())
                remote.channel.heard(frame)
                await remote.channel.send(invalid_id_answer())
                continue
            route = inbound.route
            if not remote.admit(route):
                remote.channel.heard(frame)
                await self._refuse(remote, route)
                continue
            remote.received(route)
            await remote.channel.feed(inbound)

    async def _refuse(self, remote: WebSocketConnection, route: Route) -> None:
        """Another connection's session: answered as unknown, never passed to the agent."""
        if not route.is_request:
            return
        error = ResourceNotFoundError(data={"sessionId": route.session_id})
        response = {"jsonrpc": "2.0", "id": route.id, "error": error.to_json()}
        await remote.channel.send(routed(encode_message(response), response))
