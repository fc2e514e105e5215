# Edit acpgen/shipped/runtime/transports/ws/client.py, not this file: acpgen generate writes it.
"""A client's WebSocket profile (``ws://``, ``wss://``): one full-duplex socket, one JSON-RPC
message per text frame.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
What every profile shares (the dial, cookies, TLS, the started end) is ``..dial``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from ...transport import End
from ..channel import MessageChannel
from ..dial import Dial, keep_cookies, ssl_context, started
from ..extra import missing_extra

try:
    from websockets.asyncio.client import ClientConnection
    from websockets.asyncio.client import connect as ws_connect
    from websockets.exceptions import WebSocketException
except ImportError as exc:
    raise missing_extra(exc) from exc

__all__ = ["TRANSPORT", "connect"]

TRANSPORT = "websocket"  # a trace header's "transport"
_QUEUE = 1024  # frames received and not yet taken by the engine (then the socket waits)

_E = TypeVar("_E", bound=End)


class _WebSocketLink:
    """The engine's outbox on a WebSocket, and the pump that feeds it what arrives."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket

    def offer(self, frame: bytes) -> bool:
        return False  # a socket send is awaited

    async def put(self, frame: bytes) -> None:
        try:
            await self.socket.send(frame.rstrip(b"\n").decode("utf-8"))
        except WebSocketException as exc:
            raise ConnectionError(f"the WebSocket closed: {exc}") from exc

    async def pump(self, channel: MessageChannel) -> None:
        try:
            async for message in self.socket:
                if isinstance(message, str):  # binary frames are not ACP messages
                    await channel.feed(message.encode("utf-8"))
        except WebSocketException:
            pass
        finally:
            channel.end()

    async def close(self) -> None:
        await self.socket.close()


@contextlib.asynccontextmanager
async def connect(end: Callable[..., _E], client: Any, dial: Dial) -> AsyncIterator[_E]:
    """The connection end ``end`` makes, over a WebSocket to ``dial.url``, started."""
    headers = dial.headers
    if dial.jar:
        headers = {**headers, "Cookie": "; ".join(f"{k}={v}" for k, v in dial.jar.items())}
    options: dict[str, Any] = {}
    if dial.url.lower().startswith("wss:") and dial.verify is not True:
        options["ssl"] = ssl_context(dial.verify)
    try:
        socket = await ws_connect(
            dial.url,
            additional_headers=headers,
            max_size=dial.limit,
            open_timeout=dial.open_timeout,
            compression=None,
            **options,
        )
    except (WebSocketException, OSError, TimeoutError) as exc:
        raise ConnectionError(f"WebSocket to {dial.url} failed: {exc}") from exc
    if socket.response is not None:
        keep_cookies(dial.jar, socket.response.headers.get_all("Set-Cookie"))
    link = _WebSocketLink(socket)
    trace = dial.trace(TRANSPORT)
    channel = MessageChannel(link, _QUEUE, trace=trace)
    pump = asyncio.create_task(link.pump(channel), name="acp-remote.ws")
    try:
        async with started(end, client, channel, link, dial.limit) as side:
            yield side
    finally:
        await asyncio.wait({pump}, timeout=2.0)
        if trace is not None:
            trace.close()
