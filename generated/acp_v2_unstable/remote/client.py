# Edit acpgen/shipped/runtime/remote/client.py, not this file: acpgen generate writes it.
"""A client's connection to a remote agent: WebSocket (``ws://``, ``wss://``) or Streamable
HTTP over HTTP/2 (``http://``, ``https://``), under the same engine and typed
:class:`~..connection.ClientSideConnection` as stdio.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/remote/``).

Cookies the server sets are kept and sent back for the connection's life (the RFD requires
it: a load balancer may route by them); pass the same ``cookies`` dict to the next
:func:`connect_to_remote_agent` to come back to the same server. Nothing reconnects by
itself: when the connection drops, calls fail with ``ConnectionClosed``, and the
application connects again and resumes its sessions with ``session/load``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any

from ..connection import ClientSideConnection
from ..framing import decode_frame
from ..interfaces import Client
from ..recording import Record, TraceWriter
from ..rpc import DEFAULT_MAX_FRAME_BYTES
from .channel import ATTACH_METHODS, MessageChannel, inspect_message
from .extra import missing_extra
from .security import quiet_header_logs

try:
    import httpx2
    from websockets.asyncio.client import ClientConnection
    from websockets.asyncio.client import connect as ws_connect
    from websockets.exceptions import WebSocketException
except ImportError as exc:
    raise missing_extra(exc) from exc

__all__ = ["RemoteRefused", "connect_to_remote_agent"]

quiet_header_logs()  # no token or cookie in any log, at any level

_QUEUE = 1024  # frames received and not yet taken by the engine (then the socket waits)
# Seconds an idle HTTP/2 connection is kept for the next POST: less than the servers' own
# keep-alive (the generated server's 5 s, hypercorn's default). httpcore2 does not notice
# that the server closed an idle HTTP/2 connection: a POST sent on it fails (WriteError).
_IDLE_CONNECTION = 1.0


class RemoteRefused(ConnectionError):
    """The server answered a request of the transport with an HTTP error status."""

    def __init__(self, status: int, what: str) -> None:
        super().__init__(f"HTTP {status} for {what}")
        self.status = status


def _headers(token: str | None, headers: dict[str, str] | None) -> dict[str, str]:
    merged = dict(headers or {})
    if token is not None:
        merged["Authorization"] = f"Bearer {token}"
    return merged


# -- WebSocket ---------------------------------------------------------------------------


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


def _keep_cookies(cookies: dict[str, str], set_cookie: list[str]) -> None:
    for line in set_cookie:
        jar: SimpleCookie = SimpleCookie()
        with contextlib.suppress(Exception):
            jar.load(line)
        cookies.update({name: morsel.value for name, morsel in jar.items()})


# -- Streamable HTTP -----------------------------------------------------------------------


class _HttpLink:
    """The engine's outbox as POSTs, and the SSE streams (GET) that feed it."""

    def __init__(
        self,
        url: str,
        http: Callable[[], httpx2.AsyncClient],
        headers: dict[str, str],
        limit: int,
    ) -> None:
        self.url = url
        # POSTs share one HTTP/2 connection; each SSE stream gets its own. httpcore2 hands its
        # connection's read lock to waiting streams in turn, and a quiet stream holding it
        # blocks in a socket read while another stream's frames, already read, wait for it:
        # two streams of one connection carrying data stalled until the next keepalive.
        # A POST's answer always comes, so POSTs may share; an SSE stream may not.
        self.connect = http
        self.http = http()
        self.headers = headers
        self.limit = limit
        self.connection_id: str | None = None
        self.channel: MessageChannel | None = None
        self._streams: dict[str | None, asyncio.Task[None]] = {}
        # The agent's requests that came on a session's stream, by id: the answer names that
        # session (Acp-Session-Id), as the RFD requires of a permission response.
        self._asked_in: dict[str, str] = {}
        self._closing = False

    def offer(self, frame: bytes) -> bool:
        return False  # a POST is awaited

    async def put(self, frame: bytes) -> None:
        try:
            await self._post(frame)
        except httpx2.HTTPError as exc:  # the network's failures, as the engine knows them
            raise ConnectionError(f"{type(exc).__name__}: {exc} ({self.url})") from exc

    async def _post(self, frame: bytes) -> None:
        envelope = inspect_message(decode_frame(frame))
        headers = {**self.headers, "Content-Type": "application/json"}
        if self.connection_id is None:
            if envelope.method != "initialize":
                raise ConnectionError("initialize first: it opens the HTTP connection")
            await self._initialize(frame, headers)
            return
        headers["Acp-Connection-Id"] = self.connection_id
        session_id = envelope.session_id
        if envelope.is_response and envelope.key is not None:
            session_id = self._asked_in.pop(envelope.key, None)
            if session_id is not None:
                headers["Acp-Session-Id"] = session_id
        elif session_id is not None and envelope.method is not None:
            if envelope.method not in ATTACH_METHODS:
                headers["Acp-Session-Id"] = session_id
            # The session's stream is open before its first message (the RFD's resume flow
            # opens it before session/load), so what the agent sends for it goes there.
            await self._open_stream(session_id, required=envelope.method not in ATTACH_METHODS)
        response = await self._send(frame, headers)
        if response.status_code not in (200, 202):
            raise RemoteRefused(response.status_code, f"POST {envelope.method or 'response'}")

    async def _send(self, frame: bytes, headers: dict[str, str]) -> httpx2.Response:
        try:
            return await self.http.post(self.url, content=frame, headers=headers)
        except httpx2.WriteError:
            # The request never left: the server had closed the pooled connection (its
            # keep-alive ran out while this side was busy and had not read the GOAWAY yet),
            # so it processed nothing of it. Sent once more, on a new connection; any other
            # failure (the request may have been processed) is the caller's.
            return await self.http.post(self.url, content=frame, headers=headers)

    async def _initialize(self, frame: bytes, headers: dict[str, str]) -> None:
        response = await self._send(frame, headers)
        connection_id = response.headers.get("acp-connection-id")
        if response.status_code != 200 or not connection_id:
            raise RemoteRefused(response.status_code, "initialize")
        self.connection_id = connection_id
        assert self.channel is not None
        await self.channel.feed(response.content)
        await self._open_stream(None, required=True)

    async def _open_stream(self, session_id: str | None, *, required: bool) -> None:
        if session_id in self._streams:
            return
        opened: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(self._listen(session_id, opened), name="acp-remote.sse")
        self._streams[session_id] = task
        status = await opened
        if status != 200:
            del self._streams[session_id]
            if required:
                raise RemoteRefused(status, "GET (SSE stream)")

    async def _listen(self, session_id: str | None, opened: asyncio.Future[int]) -> None:
        assert self.channel is not None and self.connection_id is not None
        headers = {**self.headers, "Accept": "text/event-stream"}
        headers["Acp-Connection-Id"] = self.connection_id
        if session_id is not None:
            headers["Acp-Session-Id"] = session_id
        try:
            try:
                await self._read_stream(session_id, headers, opened)
            except httpx2.TransportError:
                if opened.done():
                    raise
                # The new connection ended before any answer: a busy server's keep-alive ran
                # out before it read the request, so nothing was opened. A GET: once more.
                await self._read_stream(session_id, headers, opened)
        except (httpx2.HTTPError, httpx2.SSEError) as exc:
            if not opened.done():
                opened.set_exception(ConnectionError(f"GET (SSE stream) failed: {exc!r}"))
        finally:
            if not opened.done():
                opened.set_result(0)
            # The connection-scoped stream is the connection: its end ends the engine.
            if session_id is None and not self._closing:
                self.channel.end()

    async def _read_stream(
        self, session_id: str | None, headers: dict[str, str], opened: asyncio.Future[int]
    ) -> None:
        assert self.channel is not None
        http = self.connect()
        http.cookies.update(self.http.cookies)
        async with http, http.stream("GET", self.url, headers=headers) as response:
            opened.set_result(response.status_code)
            if response.status_code != 200:
                return
            async for event in httpx2.EventSource(response, max_event_size=self.limit):
                if event.data:
                    frame = event.data.encode("utf-8")
                    if session_id is not None:
                        self._note_request(frame, session_id)
                    await self.channel.feed(frame)

    def _note_request(self, frame: bytes, session_id: str) -> None:
        if b'"id"' not in frame or b'"method"' not in frame:
            return  # a notification (a session update) or a response: nothing to answer here
        try:
            envelope = inspect_message(decode_frame(frame))
        except (ValueError, RecursionError):
            return  # not JSON: the engine answers it
        if envelope.is_request and envelope.key is not None:
            self._asked_in[envelope.key] = session_id

    async def close(self) -> None:
        self._closing = True
        for task in self._streams.values():
            task.cancel()
        if self._streams:
            await asyncio.wait(self._streams.values(), timeout=2.0)
        if self.connection_id is not None:
            headers = {**self.headers, "Acp-Connection-Id": self.connection_id}
            with contextlib.suppress(httpx2.HTTPError):
                await self.http.delete(self.url, headers=headers)


def _ssl_context(verify: Any) -> ssl.SSLContext:
    """``verify`` as httpx2 takes it (a context, a CA bundle path, or False) for websockets."""
    if isinstance(verify, ssl.SSLContext):
        return verify
    if verify is False:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context
    return ssl.create_default_context(cafile=verify)


# -- the entry point --------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def connect_to_remote_agent(
    client: Client,
    url: str,
    *,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    cookies: dict[str, str] | None = None,
    verify: Any = True,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    open_timeout: float = 10.0,
    record: Record = None,
) -> AsyncIterator[ClientSideConnection]:
    """Connect ``client`` to the agent at ``url`` and yield the started connection.

    ``ws://``/``wss://`` speak WebSocket, ``http://``/``https://`` Streamable HTTP (HTTP/2:
    prior knowledge on ``http://``, ALPN on ``https://``). ``token`` is sent as
    ``Authorization: Bearer``; ``headers`` on every request; ``cookies`` (a dict you keep)
    holds the server's cookies, updated as they are set, so that a reconnect with the same
    dict comes back to the same server. ``verify``: TLS verification (``True``, a CA bundle
    path or an ``ssl.SSLContext``). ``record``: a file to write the connection's trace to
    (every frame both ways, docs/traces.md). On exit the connection ends (HTTP: ``DELETE``).
    """
    dial = _Dial(
        url,
        _headers(token, headers),
        cookies if cookies is not None else {},
        verify,
        max_frame_bytes,
        open_timeout,
    )
    scheme = url.partition(":")[0].lower()
    if scheme not in ("ws", "wss", "http", "https"):
        raise ValueError(f"not a ws://, wss://, http:// or https:// URL: {url!r}")
    websocket = scheme in ("ws", "wss")
    header = {"recorder": "runtime", "role": "client", "transport": _TRANSPORTS[websocket]}
    trace = None if record is None else TraceWriter(record, header)
    try:
        async with (_websocket if websocket else _streamable_http)(client, dial, trace) as side:
            yield side
    finally:
        if trace is not None:
            trace.close()


_TRANSPORTS = {True: "websocket", False: "streamable-http"}  # a trace header's "transport"


@dataclass(frozen=True)
class _Dial:
    """Where and how to connect: what both profiles take from connect_to_remote_agent."""

    url: str
    headers: dict[str, str]
    jar: dict[str, str]  # the caller's cookies, updated in place
    verify: Any
    limit: int
    open_timeout: float


@contextlib.asynccontextmanager
async def _websocket(
    client: Client, dial: _Dial, trace: TraceWriter | None
) -> AsyncIterator[ClientSideConnection]:
    headers = dial.headers
    if dial.jar:
        headers = {**headers, "Cookie": "; ".join(f"{k}={v}" for k, v in dial.jar.items())}
    options: dict[str, Any] = {}
    if dial.url.lower().startswith("wss:") and dial.verify is not True:
        options["ssl"] = _ssl_context(dial.verify)
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
        _keep_cookies(dial.jar, socket.response.headers.get_all("Set-Cookie"))
    link = _WebSocketLink(socket)
    channel = MessageChannel(link, _QUEUE, trace=trace)
    pump = asyncio.create_task(link.pump(channel), name="acp-remote.ws")
    try:
        async with _started(client, channel, link, dial.limit) as side:
            yield side
    finally:
        await asyncio.wait({pump}, timeout=2.0)


@contextlib.asynccontextmanager
async def _streamable_http(
    client: Client, dial: _Dial, trace: TraceWriter | None
) -> AsyncIterator[ClientSideConnection]:
    timeout = httpx2.Timeout(dial.open_timeout, read=None)  # SSE streams are quiet for long
    tls = dial.verify if dial.verify is True else _ssl_context(dial.verify)

    def http() -> httpx2.AsyncClient:
        return httpx2.AsyncClient(
            http1=False,
            http2=True,
            cookies=dial.jar,
            verify=tls,
            timeout=timeout,
            limits=httpx2.Limits(keepalive_expiry=_IDLE_CONNECTION),
        )

    link = _HttpLink(dial.url, http, dial.headers, dial.limit)
    link.channel = MessageChannel(link, _QUEUE, trace=trace)
    try:
        async with _started(client, link.channel, link, dial.limit) as side:
            yield side
    finally:
        dial.jar.update({name: value for name, value in link.http.cookies.items()})
        await link.http.aclose()


@contextlib.asynccontextmanager
async def _started(
    client: Client, channel: MessageChannel, link: _WebSocketLink | _HttpLink, limit: int
) -> AsyncIterator[ClientSideConnection]:
    """The typed connection on ``channel``, started; on exit closed, then its link."""
    side = ClientSideConnection(client, channel, None, max_frame_bytes=limit)
    side.start()
    try:
        yield side
    finally:
        await side.close()
        await link.close()
