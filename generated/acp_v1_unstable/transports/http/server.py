# Edit acpgen/shipped/runtime/transports/http/server.py, not this file: acpgen generate writes it.
"""The agent's Streamable HTTP profile: ``POST`` carries client messages, ``GET`` opens an SSE
stream, ``DELETE`` ends a connection.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

The routing follows the RFD: ``POST`` carries client messages (``initialize`` answered 200
with its JSON and ``Acp-Connection-Id``, everything else 202), ``GET`` opens the
connection-scoped SSE stream (``Acp-Connection-Id``) or a session's (also
``Acp-Session-Id``), ``DELETE`` ends a connection. What both profiles share (connections,
sessions, checks, limits) is ``..endpoint``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Hashable

from ...errors import InvalidRequestError, ParseError, RpcError
from ...transport import Inbound, Route, decode_inbound, route_of_frame
from ..channel import ATTACH_METHODS
from ..endpoint import (
    CONNECTION_HEADER,
    RETRY_AFTER,
    SESSION_HEADER,
    AcpEndpoint,
    RemoteConnection,
    peer_of,
    refusal,
)
from ..extra import missing_extra
from ..ids import echoable
from .bodies import BodyReader, after_body
from .sse import KEEPALIVE, encode_event

try:
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
except ImportError as exc:
    raise missing_extra(exc) from exc

__all__ = ["HttpConnection", "HttpProfile"]

_CLOSE = b""  # queued to end an SSE stream


def _rpc_refusal(error: RpcError) -> Response:
    """400 (the status stays the transport's rule) with the JSON-RPC error a pipe would carry:
    the message has no id the engine could answer it under, so the POST's body does."""
    body = {"jsonrpc": "2.0", "id": None, "error": error.to_json()}
    return JSONResponse(body, status_code=400)


class _Stream:
    """A queue of server-to-client frames and whether an SSE response is draining it."""

    __slots__ = ("listening", "queue")

    def __init__(self, capacity: int) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(capacity)
        self.listening = False


class HttpConnection(RemoteConnection):
    """A Streamable HTTP connection: its frames wait on SSE streams (the connection's, and one
    per session), the initialize answer goes in the POST's body."""

    def __init__(self, endpoint: AcpEndpoint, principal: Hashable) -> None:
        self.init_key: str | None = None
        self.init_response: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        capacity = endpoint.options.max_buffered_messages
        self.streams: dict[str | None, _Stream] = {None: _Stream(capacity)}
        super().__init__(endpoint, principal)

    def _route(self, frame: bytes) -> tuple[Route, _Stream | None]:
        route = route_of_frame(frame)  # filled by the engine as it encoded the frame
        if route.is_response and route.key == self.init_key and self.init_key is not None:
            return route, None  # the body of the initialize POST
        session_id = route.session_id
        if route.is_response and route.key is not None:
            method, session_id = self.answered(route)
            if method in ATTACH_METHODS:
                session_id = None  # the client may not have the session's stream yet
        # While a session is being loaded, its replay and the load's answer share the
        # connection's stream: one stream keeps them in order (updates before the answer).
        if session_id is not None and session_id in self.attaching:
            session_id = None
        # A session's stream exists once the session does here (session/new answered, a load
        # succeeded): its messages wait there, in order, until the client opens it.
        stream = self.streams.get(session_id) if session_id is not None else None
        return route, self.streams[None] if stream is None else stream

    def session_opened(self, session_id: str) -> None:
        if session_id not in self.streams:
            self.streams[session_id] = _Stream(self.endpoint.options.max_buffered_messages)

    def offer(self, frame: bytes) -> bool:
        route, stream = self._route(frame)
        if stream is None:
            self._answer_initialize(frame)
        else:
            try:
                stream.queue.put_nowait(frame)
            except asyncio.QueueFull:
                return False
        self.sent(route)
        return True

    async def put(self, frame: bytes) -> None:
        if self.ended:
            raise ConnectionError("connection ended")
        route, stream = self._route(frame)
        if stream is None:
            self._answer_initialize(frame)
        else:
            await stream.queue.put(frame)
        self.sent(route)

    def _answer_initialize(self, frame: bytes) -> None:
        if not self.init_response.done():
            self.init_response.set_result(frame)

    @property
    def unheard(self) -> bool:
        """No stream open (a client gone mid-request, whose answers would wait for it forever)."""
        return not any(s.listening for s in self.streams.values())

    def ending(self) -> None:
        for stream in self.streams.values():
            _close_stream(stream)


def _close_stream(stream: _Stream) -> None:
    while True:
        try:
            stream.queue.put_nowait(_CLOSE)
            return
        except asyncio.QueueFull:  # closing: the oldest undelivered frame makes room
            stream.queue.get_nowait()


class HttpProfile:
    """The ASGI handler of ``GET``, ``POST`` and ``DELETE`` on the endpoint's path."""

    def __init__(self, endpoint: AcpEndpoint) -> None:
        self.endpoint = endpoint
        self.options = endpoint.options
        self.bodies = BodyReader(
            endpoint.options, endpoint.partial_budget, endpoint.read_slots, endpoint.events
        )

    def _lookup(self, headers: object, principal: Hashable) -> HttpConnection | Response:
        found = self.endpoint.lookup(headers, principal)
        if isinstance(found, (Response, HttpConnection)):
            return found
        return refusal(404, "unknown Acp-Connection-Id")  # a WebSocket's: not this profile's

    async def handle(self, request: Request) -> Response:
        response = await self._handle(request)
        if response.status_code >= 400 and not self.bodies.done(request):
            return after_body(response, self.options)  # completed once its body is in
        return response

    async def _handle(self, request: Request) -> Response:
        principal, refused = await self.endpoint.screen(request.headers, request.scope)
        if refused is not None:
            return refused
        assert principal is not None
        if request.method == "POST":
            return await self._post(request, principal)
        if request.method == "GET":
            return await self._get(request, principal)
        found = self._lookup(request.headers, principal)  # DELETE
        if isinstance(found, Response):
            return found
        await self.endpoint.close(found)
        return Response(status_code=202)

    async def _post(self, request: Request, principal: Hashable) -> Response:
        content_type = request.headers.get("content-type", "")
        if content_type.split(";")[0].strip().lower() != "application/json":
            return refusal(415, "Content-Type must be application/json")
        body = await self.bodies.read(request, peer_of(request.scope))
        if isinstance(body, Response):
            return body
        try:
            inbound = decode_inbound(body)  # once: the engine takes the decoded message
        except (ValueError, RecursionError):
            return _rpc_refusal(ParseError())
        message = inbound.message
        if message == []:  # JSON-RPC 2.0: no batch but an invalid request, answered as one
            return _rpc_refusal(InvalidRequestError())
        if isinstance(message, list):
            return refusal(501, "batch requests are not supported")
        if not isinstance(message, dict) or not echoable(message):
            return _rpc_refusal(InvalidRequestError())  # no id to answer it under: not run
        route = inbound.route
        headers = request.headers
        opening = route.method == "initialize" and route.key is not None
        if opening and not headers.get(CONNECTION_HEADER):
            return await self._initialize(inbound, principal, request.scope)
        found = self._lookup(headers, principal)
        if isinstance(found, Response):
            return found
        return self._deliver(found, inbound, headers.get(SESSION_HEADER))

    def _deliver(
        self, remote: HttpConnection, inbound: Inbound, header_session: str | None
    ) -> Response:
        route = inbound.route
        session_id = route.session_id
        attaching = route.method in ATTACH_METHODS
        scoped = session_id is not None and route.method is not None and not attaching
        if scoped and header_session is None:
            return refusal(400, "missing Acp-Session-Id")
        if header_session is not None and session_id is not None and header_session != session_id:
            return refusal(400, "Acp-Session-Id differs from the message's sessionId")
        if (
            header_session is not None
            and not attaching
            and not self.endpoint.sessions.reachable(header_session, remote.id, remote.principal)
        ):
            return refusal(404, "unknown Acp-Session-Id")
        if not remote.admit(route):
            return refusal(404, "unknown Acp-Session-Id")
        if not remote.channel.feed_nowait(inbound):
            return refusal(429, "too many messages waiting", RETRY_AFTER)
        remote.received(route)
        return Response(status_code=202)

    async def _initialize(self, inbound: Inbound, principal: Hashable, scope: object) -> Response:
        opened = self.endpoint.open(HttpConnection, principal, scope)
        if isinstance(opened, Response):
            return opened
        remote = opened
        route = inbound.route
        remote.init_key = route.key
        remote.channel.feed_nowait(inbound)
        remote.received(route)
        try:
            frame = await asyncio.wait_for(
                asyncio.shield(remote.init_response), self.options.initialize_timeout
            )
        except TimeoutError:
            await self.endpoint.close(remote)
            return refusal(504, "the agent did not answer initialize in time")
        except BaseException:  # the client went away: so does the connection
            await self.endpoint.close(remote)
            raise
        remote.inflight.pop(route.key or "", None)
        headers = {"Acp-Connection-Id": remote.id, **self.endpoint.cookie_headers()}
        return Response(frame, media_type="application/json", headers=headers)

    async def _get(self, request: Request, principal: Hashable) -> Response:
        if "text/event-stream" not in request.headers.get("accept", ""):
            return refusal(406, "Accept must include text/event-stream")
        found = self._lookup(request.headers, principal)
        if isinstance(found, Response):
            return found
        remote = found
        session_id = request.headers.get(SESSION_HEADER)
        # Known and this connection's, or left by its principal: then it is this one's now.
        reachable = session_id is None or (
            self.endpoint.sessions.known(session_id)
            and self.endpoint.sessions.attach(session_id, remote.id, remote.principal)
        )
        if not reachable:
            return refusal(404, "unknown Acp-Session-Id")
        streams = sum(1 for s in remote.streams.values() if s.listening)
        if streams >= self.options.max_streams_per_connection:
            return refusal(429, "too many streams on this connection")
        stream = remote.streams.get(session_id)
        if stream is None:
            stream = remote.streams[session_id] = _Stream(self.options.max_buffered_messages)
        if stream.listening:
            return refusal(409, "this stream is already open")
        stream.listening = True
        remote.usage.stream_opened()
        remote.last_activity = time.monotonic()
        return StreamingResponse(
            self._events(remote, stream),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def _events(self, remote: HttpConnection, stream: _Stream) -> AsyncIterator[bytes]:
        queue = stream.queue
        keepalive = self.options.keepalive_interval
        try:
            while True:
                try:
                    frame = queue.get_nowait()
                except asyncio.QueueEmpty:
                    try:
                        frame = await asyncio.wait_for(queue.get(), keepalive)
                    except TimeoutError:
                        yield KEEPALIVE  # also how a reader that left is found: the write fails
                        continue
                if frame == _CLOSE:
                    return
                chunk = [encode_event(frame)]
                while not queue.empty() and len(chunk) < 64:  # what is ready goes at once
                    more = queue.get_nowait()
                    if more == _CLOSE:
                        yield b"".join(chunk)
                        return
                    chunk.append(encode_event(more))
                yield b"".join(chunk)
        finally:
            stream.listening = False
            remote.usage.stream_closed(time.monotonic())
