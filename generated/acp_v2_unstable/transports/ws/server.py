# Edit acpgen/shipped/runtime/transports/ws/server.py, not this file: acpgen generate writes it.
"""The agent's WebSocket profile: ``GET`` with ``Upgrade: websocket`` on the endpoint's path,
one full-duplex connection per socket, one JSON-RPC message per text frame.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
What both profiles share (connections, sessions, checks, limits) is ``..endpoint``.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Hashable

from ...errors import ResourceNotFoundError
from ...framing import decode_frame, encode_message
from ..channel import Envelope, inspect_message
from ..endpoint import AcpEndpoint, RemoteConnection
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


class WebSocketConnection(RemoteConnection):
    """A connection on one accepted WebSocket: every frame goes out on it, in order."""

    socket = True

    def __init__(
        self, endpoint: AcpEndpoint, principal: Hashable, websocket: WebSocket | None = None
    ) -> None:
        self.websocket = websocket
        super().__init__(endpoint, principal)

    def offer(self, frame: bytes) -> bool:
        return False  # a socket send is awaited

    async def put(self, frame: bytes) -> None:
        if self.ended:
            raise ConnectionError("connection ended")
        envelope = inspect_message(decode_frame(frame))
        try:
            assert self.websocket is not None
            await self.websocket.send_text(frame.rstrip(b"\n").decode("utf-8"))
        except Exception as exc:  # the socket is gone, however the server says so
            raise ConnectionError("the WebSocket is closed") from exc
        self.sent(envelope)

    async def hang_up(self) -> None:
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
                decoded = decode_frame(frame)
            except (ValueError, RecursionError):
                decoded = None  # the engine answers -32700
            if not echoable(decoded):  # no id to answer it under: answered here, never run
                remote.usage.message(time.monotonic())
                remote.channel.heard(frame)
                await remote.channel.send(invalid_id_answer())
                continue
            envelope = inspect_message(decoded)
            if not remote.admit(envelope):
                remote.channel.heard(frame)
                await self._refuse(remote, envelope)
                continue
            remote.received(envelope)
            await remote.channel.feed(frame)

    async def _refuse(self, remote: WebSocketConnection, envelope: Envelope) -> None:
        """Another connection's session: answered as unknown, never passed to the agent."""
        if not envelope.is_request or envelope.key is None:
            return
        error = ResourceNotFoundError(data={"sessionId": envelope.session_id})
        response = {"jsonrpc": "2.0", "id": json.loads(envelope.key), "error": error.to_json()}
        await remote.channel.send(encode_message(response))
