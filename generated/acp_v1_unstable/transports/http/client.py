# Edit acpgen/shipped/runtime/transports/http/client.py, not this file: acpgen generate writes it.
"""A client's Streamable HTTP profile (``http://``, ``https://``, over HTTP/2): messages go
out as POSTs, come in on SSE streams (the connection's, and one per session).

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
What every profile shares (the dial, cookies, TLS, the started end) is ``..dial``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from ...transport import End, Inbound, decode_inbound, route_of_frame
from ..channel import ATTACH_METHODS, MessageChannel
from ..dial import Dial, RemoteRefused, ssl_context, started
from ..extra import missing_extra
from ..security import quiet_header_logs

try:
    import httpx2
except ImportError as exc:
    raise missing_extra(exc) from exc

__all__ = ["TRANSPORT", "connect"]

quiet_header_logs()  # no token or cookie in any log, at any level

TRANSPORT = "streamable-http"  # a trace header's "transport"
_QUEUE = 1024  # frames received and not yet taken by the engine (then the socket waits)
# Seconds an idle HTTP/2 connection is kept for the next POST: less than the servers' own
# keep-alive (the generated server's 5 s, hypercorn's default). httpcore2 does not notice
# that the server closed an idle HTTP/2 connection: a POST sent on it fails (WriteError).
_IDLE_CONNECTION = 1.0

_E = TypeVar("_E", bound=End)


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
        route = route_of_frame(frame)  # filled by the engine as it encoded the frame
        headers = {**self.headers, "Content-Type": "application/json"}
        if self.connection_id is None:
            if route.method != "initialize":
                raise ConnectionError("initialize first: it opens the HTTP connection")
            await self._initialize(frame, headers)
            return
        headers["Acp-Connection-Id"] = self.connection_id
        session_id = route.session_id
        if route.is_response and route.key is not None:
            session_id = self._asked_in.pop(route.key, None)
            if session_id is not None:
                headers["Acp-Session-Id"] = session_id
        elif session_id is not None and route.method is not None:
            if route.method not in ATTACH_METHODS:
                headers["Acp-Session-Id"] = session_id
            # The session's stream is open before its first message (the RFD's resume flow
            # opens it before session/load), so what the agent sends for it goes there.
            await self._open_stream(session_id, required=route.method not in ATTACH_METHODS)
        response = await self._send(frame, headers)
        if response.status_code not in (200, 202):
            raise RemoteRefused(response.status_code, f"POST {route.method or 'response'}")

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
                        await self.channel.feed(self._note_request(frame, session_id))
                    else:
                        await self.channel.feed(frame)

    def _note_request(self, frame: bytes, session_id: str) -> bytes | Inbound:
        """A request the agent sent on a session's stream is answered naming that session:
        noted by its routing record (the frame decoded once, for the engine too)."""
        if b'"id"' not in frame or b'"method"' not in frame:
            return frame  # a notification (a session update) or a response: nothing to note
        try:
            inbound = decode_inbound(frame)
        except (ValueError, RecursionError):
            return frame  # not JSON: the engine answers it
        if inbound.route.is_request and inbound.route.key is not None:
            self._asked_in[inbound.route.key] = session_id
        return inbound

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


@contextlib.asynccontextmanager
async def connect(end: Callable[..., _E], client: Any, dial: Dial) -> AsyncIterator[_E]:
    """The connection end ``end`` makes, over Streamable HTTP (HTTP/2) to ``dial.url``."""
    timeout = httpx2.Timeout(dial.open_timeout, read=None)  # SSE streams are quiet for long
    tls = dial.verify if dial.verify is True else ssl_context(dial.verify)

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
    trace = dial.trace(TRANSPORT)
    link.channel = MessageChannel(link, _QUEUE, trace=trace)
    try:
        async with started(end, client, link.channel, link, dial.limit) as side:
            yield side
    finally:
        dial.jar.update({name: value for name, value in link.http.cookies.items()})
        await link.http.aclose()
        if trace is not None:
            trace.close()
