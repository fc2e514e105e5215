"""The agent's remote endpoint: Streamable HTTP and WebSocket on one path, as an ASGI app
(:func:`agent_app`, starlette) and as a ready server (:func:`serve_agent`, hypercorn).

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/remote/``).

Each client connection gets its own agent (``agent_factory()``) on its own engine
(``rpc.Connection`` over a :class:`~.channel.MessageChannel`), exactly as on stdio. The
routing follows the RFD: ``POST`` carries client messages (``initialize`` answered 200 with
its JSON and ``Acp-Connection-Id``, everything else 202), ``GET`` opens the connection-scoped
SSE stream (``Acp-Connection-Id``) or a session's (also ``Acp-Session-Id``), ``GET`` with
``Upgrade: websocket`` a full-duplex connection, ``DELETE`` ends a connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from typing import Any

from ..connection import AgentSideConnection
from ..errors import (
    CANCEL_REQUEST_METHOD,
    InvalidRequestError,
    ParseError,
    ResourceNotFoundError,
    RpcError,
)
from ..framing import decode_frame, encode_message
from ..interfaces import Agent
from ..recording import Record, TraceWriter, connection_trace_paths
from .channel import ATTACH_METHODS, Envelope, MessageChannel, inspect_message
from .extra import missing_extra
from .memory import IdleRelease
from .options import ServerOptions
from .security import (
    is_loopback_host,
    new_connection_id,
    origin_allowed,
    principal_of,
    quiet_header_logs,
)
from .sessions import SessionRegistry
from .sse import KEEPALIVE, encode_event

try:
    from hypercorn.asyncio.run import worker_serve
    from hypercorn.config import Config
    from hypercorn.utils import wrap_app
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect
except ImportError as exc:
    raise missing_extra(exc) from exc

__all__ = ["AcpEndpoint", "AgentFactory", "agent_app", "serve_agent", "serve_app"]

logger = logging.getLogger(__name__)
quiet_header_logs()  # no token or cookie in any log, at any level

AgentFactory = Callable[[], Agent]  # one agent per connection (it is bound to it)

CONNECTION_HEADER = "acp-connection-id"
SESSION_HEADER = "acp-session-id"
_CLOSE = b""  # queued to end an SSE stream
_WS_TOO_BIG = 1009  # RFC 6455: message too big
_WS_GOING_AWAY = 1001


def _refusal(status: int, reason: str, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"error": reason}, status_code=status, headers=headers)


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


class _Remote:
    """One client connection: its agent and engine, and what the transport tracks of it."""

    def __init__(self, endpoint: AcpEndpoint, principal: Hashable) -> None:
        self.endpoint = endpoint
        self.id = new_connection_id()
        self.principal = principal
        self.websocket: WebSocket | None = None  # set once a WebSocket is accepted
        options = endpoint.options
        self.last_activity = time.monotonic()
        self.inflight: dict[str, tuple[str, str | None]] = {}  # client request -> method, session
        self.attaching: dict[str, int] = {}  # session -> its session/load ... requests in flight
        self.ended = False
        self.init_key: str | None = None
        self.init_response: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.streams: dict[str | None, _Stream] = {None: _Stream(options.max_buffered_messages)}
        self.trace = endpoint.new_trace()
        self.channel = MessageChannel(
            self, options.max_queued_messages, self._engine_closed, self.trace, "agent"
        )
        self.side = AgentSideConnection(
            endpoint.agent_factory(), self.channel, None, max_frame_bytes=options.max_frame_bytes
        )

    # -- inbound: what the client may send -------------------------------------------

    def admit(self, envelope: Envelope) -> bool:
        """Whether the message may reach the agent: it names no session another connection
        holds. A session this connection takes up (session/load ...) is attached to it."""
        session_id = envelope.session_id
        if session_id is None or envelope.method is None:
            return True
        registry = self.endpoint.sessions
        if envelope.method in ATTACH_METHODS:
            return registry.attach(session_id, self.id, self.principal)
        if registry.known(session_id):
            return registry.attach(session_id, self.id, self.principal)
        return True  # never seen here: the agent answers for it

    def received(self, envelope: Envelope) -> None:
        self.last_activity = time.monotonic()
        if envelope.is_request and envelope.key is not None and envelope.method is not None:
            self.inflight[envelope.key] = (envelope.method, envelope.session_id)
            if envelope.method in ATTACH_METHODS and envelope.session_id is not None:
                self.attaching[envelope.session_id] = self.attaching.get(envelope.session_id, 0) + 1

    # -- outbound: the engine's frames (channel.Outbox) -------------------------------

    def _route(self, frame: bytes) -> tuple[Envelope, _Stream | None]:
        envelope = inspect_message(decode_frame(frame))
        if envelope.is_response and envelope.key == self.init_key and self.init_key is not None:
            return envelope, None  # the body of the initialize POST
        session_id = envelope.session_id
        if envelope.is_response and envelope.key is not None:
            method, session_id = self.inflight.get(envelope.key, ("", None))
            if method in ATTACH_METHODS:
                session_id = None  # the client may not have the session's stream yet
        # While a session is being loaded, its replay and the load's answer share the
        # connection's stream: one stream keeps them in order (updates before the answer).
        if session_id is not None and session_id in self.attaching:
            session_id = None
        # A session's stream exists once the session does here (session/new answered, a load
        # succeeded): its messages wait there, in order, until the client opens it.
        stream = self.streams.get(session_id) if session_id is not None else None
        return envelope, self.streams[None] if stream is None else stream

    def _sent(self, envelope: Envelope) -> None:
        self.last_activity = time.monotonic()
        if not envelope.is_response or envelope.key is None:
            return
        method, session_id = self.inflight.pop(envelope.key, ("", None))
        if method in ATTACH_METHODS and session_id is not None:
            left = self.attaching.pop(session_id, 1) - 1
            if left:
                self.attaching[session_id] = left
            if not envelope.failed:
                self._open_stream_of(session_id)
        created = envelope.result_session_id
        if created is not None and method in ("session/new", "session/fork"):
            self.endpoint.sessions.attach(created, self.id, self.principal)
            self._open_stream_of(created)

    def _open_stream_of(self, session_id: str) -> None:
        if session_id not in self.streams:
            self.streams[session_id] = _Stream(self.endpoint.options.max_buffered_messages)

    def offer(self, frame: bytes) -> bool:
        if self.websocket is not None:
            return False  # a socket send is awaited
        envelope, stream = self._route(frame)
        if stream is None:
            self._answer_initialize(frame)
        else:
            try:
                stream.queue.put_nowait(frame)
            except asyncio.QueueFull:
                return False
        self._sent(envelope)
        return True

    async def put(self, frame: bytes) -> None:
        if self.ended:
            raise ConnectionError("connection ended")
        if self.websocket is not None:
            envelope = inspect_message(decode_frame(frame))
            try:
                await self.websocket.send_text(frame.rstrip(b"\n").decode("utf-8"))
            except Exception as exc:  # the socket is gone, however the server says so
                raise ConnectionError("the WebSocket is closed") from exc
        else:
            envelope, stream = self._route(frame)
            if stream is None:
                self._answer_initialize(frame)
            else:
                await stream.queue.put(frame)
        self._sent(envelope)

    def _answer_initialize(self, frame: bytes) -> None:
        if not self.init_response.done():
            self.init_response.set_result(frame)

    @property
    def unheard(self) -> bool:
        """An HTTP connection nobody reads: no stream open (a client gone mid-request, whose
        answers would wait for it forever)."""
        return self.websocket is None and not any(s.listening for s in self.streams.values())

    # -- the end ------------------------------------------------------------------------

    async def _engine_closed(self) -> None:
        self.end()

    def end(self) -> None:
        """Forget the connection: its sessions wait to be resumed, its streams close."""
        if self.ended:
            return
        self.ended = True
        self.endpoint.forget(self)
        if self.trace is not None:
            self.trace.close()
        for stream in self.streams.values():
            _close_stream(stream)

    async def cancel_inflight(self) -> None:
        """Cancel what the client still waits for: each request gets its -32800 answer."""
        for key in list(self.inflight):
            cancel = {"jsonrpc": "2.0", "method": CANCEL_REQUEST_METHOD}
            cancel["params"] = {"requestId": json.loads(key)}  # type: ignore[assignment]
            self.channel.feed_nowait(encode_message(cancel).rstrip(b"\n"), heard=False)


def _close_stream(stream: _Stream) -> None:
    while True:
        try:
            stream.queue.put_nowait(_CLOSE)
            return
        except asyncio.QueueFull:  # closing: the oldest undelivered frame makes room
            stream.queue.get_nowait()


class AcpEndpoint:
    """The state of one ``/acp`` endpoint: its connections, their sessions, its limits."""

    def __init__(
        self, agent_factory: AgentFactory, options: ServerOptions, record: Record = None
    ) -> None:
        self.agent_factory = agent_factory
        self.options = options
        self._trace_paths = None if record is None else connection_trace_paths(record)
        self.sessions = SessionRegistry(options.session_ttl, options.max_sessions)
        self.connections: dict[str, _Remote] = {}
        self._reaper: asyncio.Task[None] | None = None
        self._idle_release = IdleRelease() if options.release_memory_when_idle else None
        self.closing = False

    def new_trace(self) -> TraceWriter | None:
        """The trace file of a connection opening now (``record=``), or None."""
        if self._trace_paths is None:
            return None
        header = {"recorder": "runtime", "role": "agent"}
        return TraceWriter(next(self._trace_paths), header)

    # -- lifecycle ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Any) -> AsyncIterator[None]:
        """The ASGI lifespan: the idle reaper runs while the app does; shutdown is graceful."""
        self._reaper = asyncio.create_task(self._reap_idle(), name="acp-remote.reaper")
        try:
            yield
        finally:
            await self.aclose()

    async def aclose(self) -> None:
        """Graceful shutdown: no new connections; requests in flight get ``shutdown_grace``
        seconds to be answered, then are cancelled (each answered -32800); then every
        connection ends."""
        self.closing = True
        if self._reaper is not None:
            self._reaper.cancel()
        remotes = list(self.connections.values())
        deadline = time.monotonic() + self.options.shutdown_grace
        while any(r.inflight for r in remotes) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        for remote in remotes:
            await remote.cancel_inflight()
        settle = time.monotonic() + 1.0
        while any(r.inflight for r in remotes) and time.monotonic() < settle:
            await asyncio.sleep(0.02)
        await asyncio.gather(*(self._close(r) for r in remotes), return_exceptions=True)

    async def _close(self, remote: _Remote) -> None:
        remote.end()
        await remote.side.close()
        if remote.websocket is not None:
            with contextlib.suppress(Exception):
                await remote.websocket.close(_WS_GOING_AWAY)

    def forget(self, remote: _Remote) -> None:
        self.connections.pop(remote.id, None)
        self.sessions.detach_all(remote.id)

    async def _reap_idle(self) -> None:
        """Every tick: end idle connections, forget sessions past their resumable time, and
        give memory back once the last connection has gone. The work is a method of its own
        so that no local of a tick (the last connection looked at) outlives it."""
        period = max(0.05, min(self.options.idle_timeout / 4, 5.0))
        while True:
            await asyncio.sleep(period)
            await self._reap_once()

    async def _reap_once(self) -> None:
        horizon = time.monotonic() - self.options.idle_timeout
        for remote in list(self.connections.values()):
            if remote.last_activity < horizon and (not remote.inflight or remote.unheard):
                logger.info("ending an idle connection")
                await self._close(remote)
        self.sessions.expire()
        if self._idle_release is not None and self._idle_release.observe(len(self.connections)):
            logger.debug("idle: memory handed back to the system")

    # -- checks every request passes -----------------------------------------------------

    async def _screen(self, headers: Any) -> tuple[Hashable | None, Response | None]:
        if not origin_allowed(headers.get("origin"), self.options):
            return None, _refusal(403, "origin not allowed")
        principal = await principal_of(headers.get("authorization"), self.options)
        if principal is None:
            challenge = {"WWW-Authenticate": "Bearer"}
            return None, _refusal(401, "a valid bearer token is required", challenge)
        return principal, None

    def _open(self, principal: Hashable) -> _Remote | Response:
        if self.closing:
            return _refusal(503, "the server is shutting down")
        if len(self.connections) >= self.options.max_connections:
            return _refusal(503, "too many connections", {"Retry-After": "1"})
        remote = _Remote(self, principal)
        self.connections[remote.id] = remote
        remote.side.start()
        return remote

    def _lookup(self, headers: Any, principal: Hashable) -> _Remote | Response:
        connection_id = headers.get(CONNECTION_HEADER)
        if not connection_id:
            return _refusal(400, "missing Acp-Connection-Id")
        remote = self.connections.get(connection_id)
        if remote is None or remote.principal != principal:
            return _refusal(404, "unknown Acp-Connection-Id")
        return remote

    def _cookie_headers(self) -> dict[str, str]:
        cookie = self.options.instance_cookie
        if cookie is None:
            return {}
        name, value = cookie
        return {"set-cookie": f"{name}={value}; Path=/; HttpOnly; SameSite=Strict"}

    # -- Streamable HTTP ------------------------------------------------------------------

    async def http(self, request: Request) -> Response:
        principal, refused = await self._screen(request.headers)
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
        await self._close(found)
        return Response(status_code=202)

    async def _read_body(self, request: Request) -> bytes | Response:
        limit = self.options.max_body_bytes
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            return _refusal(413, f"body over {limit} bytes")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                return _refusal(413, f"body over {limit} bytes")
        return bytes(body)

    async def _post(self, request: Request, principal: Hashable) -> Response:
        content_type = request.headers.get("content-type", "")
        if content_type.split(";")[0].strip().lower() != "application/json":
            return _refusal(415, "Content-Type must be application/json")
        body = await self._read_body(request)
        if isinstance(body, Response):
            return body
        try:
            message = decode_frame(body)
        except (ValueError, RecursionError):
            return _rpc_refusal(ParseError())
        if message == []:  # JSON-RPC 2.0: no batch but an invalid request, answered as one
            return _rpc_refusal(InvalidRequestError())
        if isinstance(message, list):
            return _refusal(501, "batch requests are not supported")
        envelope = inspect_message(message)
        if not isinstance(message, dict):
            return _rpc_refusal(InvalidRequestError())
        headers = request.headers
        opening = envelope.method == "initialize" and envelope.key is not None
        if opening and not headers.get(CONNECTION_HEADER):
            return await self._initialize(body, envelope, principal)
        found = self._lookup(headers, principal)
        if isinstance(found, Response):
            return found
        return self._deliver(found, body, envelope, headers.get(SESSION_HEADER))

    def _deliver(
        self, remote: _Remote, body: bytes, envelope: Envelope, header_session: str | None
    ) -> Response:
        session_id = envelope.session_id
        attaching = envelope.method in ATTACH_METHODS
        scoped = session_id is not None and envelope.method is not None and not attaching
        if scoped and header_session is None:
            return _refusal(400, "missing Acp-Session-Id")
        if header_session is not None and session_id is not None and header_session != session_id:
            return _refusal(400, "Acp-Session-Id differs from the message's sessionId")
        if (
            header_session is not None
            and not attaching
            and not self.sessions.reachable(header_session, remote.id, remote.principal)
        ):
            return _refusal(404, "unknown Acp-Session-Id")
        if not remote.admit(envelope):
            return _refusal(404, "unknown Acp-Session-Id")
        if not remote.channel.feed_nowait(body):
            return _refusal(429, "too many messages waiting", {"Retry-After": "1"})
        remote.received(envelope)
        return Response(status_code=202)

    async def _initialize(self, body: bytes, envelope: Envelope, principal: Hashable) -> Response:
        opened = self._open(principal)
        if isinstance(opened, Response):
            return opened
        remote = opened
        remote.init_key = envelope.key
        remote.channel.feed_nowait(body)
        remote.received(envelope)
        try:
            frame = await asyncio.wait_for(
                asyncio.shield(remote.init_response), self.options.initialize_timeout
            )
        except TimeoutError:
            await self._close(remote)
            return _refusal(504, "the agent did not answer initialize in time")
        except BaseException:  # the client went away: so does the connection
            await self._close(remote)
            raise
        remote.inflight.pop(envelope.key or "", None)
        headers = {"Acp-Connection-Id": remote.id, **self._cookie_headers()}
        return Response(frame, media_type="application/json", headers=headers)

    async def _get(self, request: Request, principal: Hashable) -> Response:
        if "text/event-stream" not in request.headers.get("accept", ""):
            return _refusal(406, "Accept must include text/event-stream")
        found = self._lookup(request.headers, principal)
        if isinstance(found, Response):
            return found
        remote = found
        session_id = request.headers.get(SESSION_HEADER)
        # Known and this connection's, or left by its principal: then it is this one's now.
        reachable = session_id is None or (
            self.sessions.known(session_id)
            and self.sessions.attach(session_id, remote.id, remote.principal)
        )
        if not reachable:
            return _refusal(404, "unknown Acp-Session-Id")
        streams = sum(1 for s in remote.streams.values() if s.listening)
        if streams >= self.options.max_streams_per_connection:
            return _refusal(429, "too many streams on this connection")
        stream = remote.streams.get(session_id)
        if stream is None:
            stream = remote.streams[session_id] = _Stream(self.options.max_buffered_messages)
        if stream.listening:
            return _refusal(409, "this stream is already open")
        stream.listening = True
        remote.last_activity = time.monotonic()
        return StreamingResponse(
            self._events(stream),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def _events(self, stream: _Stream) -> AsyncIterator[bytes]:
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

    # -- WebSocket --------------------------------------------------------------------------

    async def websocket(self, websocket: WebSocket) -> None:
        principal, refused = await self._screen(websocket.headers)
        if refused is None:
            assert principal is not None
            opened = self._open(principal)
            if isinstance(opened, Response):
                refused = opened
        if refused is not None:
            await websocket.send_denial_response(refused)
            return
        remote = opened
        assert isinstance(remote, _Remote)
        headers = {"acp-connection-id": remote.id, **self._cookie_headers()}
        await websocket.accept(headers=[(k.encode(), v.encode()) for k, v in headers.items()])
        remote.websocket = websocket
        try:
            await self._ws_receive(remote, websocket)
        finally:
            await self._close(remote)

    async def _ws_receive(self, remote: _Remote, websocket: WebSocket) -> None:
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
                envelope = inspect_message(decode_frame(frame))
            except (ValueError, RecursionError):
                envelope = Envelope(None, None, None, None)  # the engine answers -32700
            if not remote.admit(envelope):
                remote.channel.heard(frame)
                await self._ws_refuse(remote, envelope)
                continue
            remote.received(envelope)
            await remote.channel.feed(frame)

    async def _ws_refuse(self, remote: _Remote, envelope: Envelope) -> None:
        """Another connection's session: answered as unknown, never passed to the agent."""
        if not envelope.is_request or envelope.key is None:
            return
        error = ResourceNotFoundError(data={"sessionId": envelope.session_id})
        response = {"jsonrpc": "2.0", "id": json.loads(envelope.key), "error": error.to_json()}
        await remote.channel.send(encode_message(response))


def agent_app(
    agent_factory: AgentFactory, options: ServerOptions | None = None, *, record: Record = None
) -> Starlette:
    """The endpoint as an ASGI application (starlette): mount it in an app of your own, or run
    it under any ASGI server. ``app.state.acp`` is its :class:`AcpEndpoint`; when your app
    does not run this one's lifespan, call ``await app.state.acp.aclose()`` on shutdown.
    ``record``: a directory, or a path with ``{n}``, to write each connection's trace to
    (one file per connection, docs/traces.md)."""
    endpoint = AcpEndpoint(agent_factory, options or ServerOptions(), record)
    path = endpoint.options.path
    app = Starlette(
        routes=[
            Route(path, endpoint.http, methods=["GET", "POST", "DELETE"]),
            WebSocketRoute(path, endpoint.websocket),
        ],
        lifespan=endpoint.lifespan,
    )
    app.state.acp = endpoint
    return app


async def serve_agent(
    agent_factory: AgentFactory,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    options: ServerOptions | None = None,
    certfile: str | None = None,
    keyfile: str | None = None,
    ready: Callable[[str], object] | None = None,
    shutdown: Callable[[], Awaitable[object]] | None = None,
    record: Record = None,
) -> None:
    """Serve agents on ``host:port`` (port 0: any free port) until ``shutdown()`` returns
    (or the task is cancelled), then shut down gracefully (:meth:`AcpEndpoint.aclose`).

    HTTP/1.1, HTTP/2 (cleartext with prior knowledge, or ALPN under TLS) and WebSocket,
    by hypercorn. ``certfile``/``keyfile`` turn on TLS. ``ready`` is called with the
    endpoint's URL once the socket listens. Loopback by default: another ``host`` is an
    explicit choice (then set ``options.token_check`` or TLS, or both). ``record``: as for
    :func:`agent_app`.
    """
    app = agent_app(agent_factory, options, record=record)
    await serve_app(
        app,
        host=host,
        port=port,
        certfile=certfile,
        keyfile=keyfile,
        ready=ready,
        shutdown=shutdown,
    )


async def serve_app(
    app: Starlette,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    certfile: str | None = None,
    keyfile: str | None = None,
    ready: Callable[[str], object] | None = None,
    shutdown: Callable[[], Awaitable[object]] | None = None,
) -> None:
    """:func:`serve_agent` for an app made by :func:`agent_app` (``app.state.acp`` is its
    endpoint: its connections and sessions, for tests, metrics and deployments)."""
    options: ServerOptions = app.state.acp.options
    config = Config.from_mapping(
        bind=[f"[{host}]:{port}" if ":" in host else f"{host}:{port}"],
        certfile=certfile,
        keyfile=keyfile,
        websocket_max_message_size=options.max_frame_bytes,
        websocket_ping_interval=None,  # its ping task outlives a closed socket by an interval
        accesslog=None,  # an access log would hold ids; tokens and cookies are never logged
        errorlog=logger,
        # aclose() has already answered or cancelled every request and ended every stream
        # when hypercorn starts waiting: what is left are sockets on their way out.
        graceful_timeout=2.0,
        include_server_header=False,
        # A connection with no request open (its SSE streams are requests) closes after
        # this, a new one too when its first request is not read by then: under a burst of
        # new connections the server reads late, and 2 s dropped 80 of 1,400 SSE streams of
        # bench_remote.py's opening (hypercorn's own default, 5 s, dropped none). Clients
        # drop an idle connection sooner (the generated one after 1 s).
        keep_alive_timeout=5.0,
    )
    if not is_loopback_host(host) and options.token_check is None:
        logger.warning(
            "listening on %s without a token check: anyone who reaches it connects", host
        )
    sockets = config.create_sockets()
    for sock in (*sockets.secure_sockets, *sockets.insecure_sockets):
        sock.listen(config.backlog)  # now, so that ``ready`` means connectable
    bound = (sockets.secure_sockets or sockets.insecure_sockets)[0].getsockname()
    scheme = "https" if certfile else "http"
    shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
    url = f"{scheme}://{shown}:{bound[1]}{options.path}"
    stop = asyncio.Event()

    async def trigger() -> None:
        waiters: set[asyncio.Future[Any]] = {asyncio.ensure_future(stop.wait())}
        if shutdown is not None:
            waiters.add(asyncio.ensure_future(shutdown()))
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waiters:
                waiter.cancel()
        await app.state.acp.aclose()  # before hypercorn waits for the open streams to end

    if ready is not None:
        ready(url)
    try:
        framework: Any = app  # starlette's ASGI signature is looser than hypercorn's types
        await worker_serve(
            wrap_app(framework, 0, "asgi"), config, sockets=sockets, shutdown_trigger=trigger
        )
    finally:
        stop.set()
        await app.state.acp.aclose()  # also when cancelled: every connection ends


async def run_remote_agent(
    agent_factory: AgentFactory,
    listen: str,
    *,
    options: ServerOptions | None = None,
    certfile: str | None = None,
    keyfile: str | None = None,
) -> None:
    """Serve agents on ``listen`` (``HOST:PORT``; port 0: any free port) until SIGTERM or
    SIGINT, then shut down gracefully: the remote counterpart of ``run_agent`` (stdio), one
    call for a program's ``main``. The URL goes to stderr (``serving on URL``); a ``listen``
    that is not ``HOST:PORT`` raises ValueError."""
    host, _, port = listen.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"not HOST:PORT: {listen!r}")

    def ready(url: str) -> None:
        print(f"serving on {url} (WebSocket: ws{url[4:]})", file=sys.stderr, flush=True)

    stop = asyncio.Event()  # SIGTERM or SIGINT: a graceful shutdown (requests answered)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    try:
        await serve_agent(
            agent_factory,
            host=host.strip("[]"),
            port=int(port),
            options=options,
            certfile=certfile,
            keyfile=keyfile,
            ready=ready,
            shutdown=stop.wait,
        )
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)
