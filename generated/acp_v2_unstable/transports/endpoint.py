# Edit acpgen/shipped/runtime/transports/endpoint.py, not this file: acpgen generate writes it.
"""The agent's remote endpoint, what both profiles share: its connections and their sessions,
the checks every request passes, the limits, the idle reaper and the graceful shutdown.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

Each client connection gets its own agent (``agent_factory()``) on its own engine: the
connection class the endpoint is given (the façade passes the package's typed
``AgentSideConnection``) over a :class:`~.channel.MessageChannel`, exactly as on stdio. How
a connection's frames travel is its profile's: :class:`RemoteConnection` is subclassed by
``http/server.py`` (Streamable HTTP) and ``ws/server.py`` (WebSocket).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Hashable
from typing import Any, TypeVar

from ..errors import CANCEL_REQUEST_METHOD
from ..framing import encode_message
from ..recording import Record, TraceWriter, connection_trace_paths
from ..transport import End, Route
from .channel import ATTACH_METHODS, MessageChannel
from .extra import missing_extra
from .idle_release import IdleRelease
from .ledger import ByteBudget, Charge, Slot, SlotLedger
from .options import ServerOptions
from .quietlog import EventLog
from .security import (
    ANONYMOUS,
    host_allowed,
    new_connection_id,
    origin_allowed,
    peer_key,
    principal_of,
    quiet_header_logs,
)
from .sessions import SessionRegistry
from .usage import Usage

try:
    from starlette.responses import JSONResponse, Response
except ImportError as exc:
    raise missing_extra(exc) from exc

__all__ = [
    "CONNECTION_HEADER",
    "PARTIAL_SCOPE_KEY",
    "RETRY_AFTER",
    "SESSION_HEADER",
    "AcpEndpoint",
    "AgentFactory",
    "RemoteConnection",
    "peer_of",
    "refusal",
]

logger = logging.getLogger(__name__)
quiet_header_logs()  # no token or cookie in any log, at any level

AgentFactory = Callable[[], Any]  # one agent per connection (it is bound to it)

CONNECTION_HEADER = "acp-connection-id"
SESSION_HEADER = "acp-session-id"
RETRY_AFTER = {"Retry-After": "1"}  # on a refusal that a later try may pass (the limits)
# Where serve_app leaves a WebSocket's charge of the partial-message budget in its scope
# (hypercorn_guard.py): the reaper ends a socket whose message does not arrive whole.
PARTIAL_SCOPE_KEY = "acp.partial"


def refusal(status: int, reason: str, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"error": reason}, status_code=status, headers=headers)


def peer_of(scope: Any) -> Hashable | None:
    """What the per-peer shares count a request by (security.peer_key of its client)."""
    client = scope.get("client")
    return peer_key(str(client[0]) if client else None)


class RemoteConnection:
    """One client connection: its agent and engine, and what the transport tracks of it. A
    profile subclasses it with how frames go out (the :class:`~.channel.Outbox` methods
    ``offer`` and ``put``)."""

    socket = False  # whether the connection is one socket (WebSocket), for usage.py's rules

    def __init__(self, endpoint: AcpEndpoint, principal: Hashable) -> None:
        self.endpoint = endpoint
        self.id = new_connection_id()
        self.principal = principal
        self.slots: list[Slot] = []  # its share of its peer's and principal's (ledger.py)
        self.partial: Charge | None = None  # a WebSocket's message in fragments (its bytes)
        options = endpoint.options
        self.last_activity = time.monotonic()
        self.usage = Usage(self.last_activity, websocket=self.socket)
        self.inflight: dict[str, Route] = {}  # the client's requests not yet answered, by key
        self.attaching: dict[str, int] = {}  # session -> its session/load ... requests in flight
        self.ended = False
        self.trace = endpoint.new_trace()
        self.channel = MessageChannel(
            self, options.max_queued_messages, self._engine_closed, self.trace, "agent"
        )
        self.side: End = endpoint.end(
            endpoint.agent_factory(), self.channel, None, max_frame_bytes=options.max_frame_bytes
        )

    # -- outbound: the engine's frames (channel.Outbox), the profile's ------------------

    def offer(self, frame: bytes) -> bool:
        raise NotImplementedError

    async def put(self, frame: bytes) -> None:
        raise NotImplementedError

    # -- inbound: what the client may send -------------------------------------------

    def admit(self, route: Route) -> bool:
        """Whether the message may reach the agent: it names no session another connection
        holds. A session this connection takes up (session/load ...) is attached to it once
        the agent's answer is a success (:meth:`sent`): asking claims nothing."""
        session_id = route.session_id
        if session_id is None or route.method is None:
            return True
        registry = self.endpoint.sessions
        if route.method in ATTACH_METHODS:
            return registry.may_attach(session_id, self.id, self.principal)
        if registry.known(session_id):
            return registry.attach(session_id, self.id, self.principal)
        return True  # never seen here: the agent answers for it

    def received(self, route: Route) -> None:
        self.last_activity = time.monotonic()
        self.usage.message(self.last_activity)
        if route.is_request and route.key is not None and route.method is not None:
            self.inflight[route.key] = route
            if route.method in ATTACH_METHODS and route.session_id is not None:
                self.attaching[route.session_id] = self.attaching.get(route.session_id, 0) + 1

    def answered(self, route: Route) -> tuple[str, str | None]:
        """The method and session of the client's request a response (``route``) answers
        (``("", None)`` for none of them)."""
        asked = self.inflight.get(route.key or "") if route.is_response else None
        return ("", None) if asked is None else (asked.method or "", asked.session_id)

    def sent(self, route: Route) -> None:
        """The frame of ``route`` has gone out (or is queued to): the bookkeeping."""
        self.last_activity = time.monotonic()
        if not route.is_response or route.key is None:
            return
        method, session_id = self.answered(route)
        self.inflight.pop(route.key, None)
        if method in ATTACH_METHODS and session_id is not None:
            left = self.attaching.pop(session_id, 1) - 1
            if left:
                self.attaching[session_id] = left
            # The agent took the session up for this connection: it is this one's now (asking
            # claimed nothing, sessions.py); taken meanwhile by another, that one keeps it.
            registry = self.endpoint.sessions
            if not route.failed and registry.attach(session_id, self.id, self.principal):
                self.session_opened(session_id)
        created = route.result_session_id
        if created is not None and method in ("session/new", "session/fork"):
            self.endpoint.sessions.attach(created, self.id, self.principal)
            self.session_opened(created)

    def session_opened(self, session_id: str) -> None:
        """The session is this connection's now (created, or taken up): a profile with a
        stream per session opens its stream here."""

    @property
    def unheard(self) -> bool:
        """Whether nobody reads this connection (a client gone mid-request, whose answers
        would wait for it forever); the profile knows."""
        return False

    # -- the end ------------------------------------------------------------------------

    async def _engine_closed(self) -> None:
        self.end()

    def end(self) -> None:
        """Forget the connection: its sessions wait to be resumed, its streams close."""
        if self.ended:
            return
        self.ended = True
        self.endpoint.forget(self)
        for slot in self.slots:
            slot.release()
        if self.trace is not None:
            self.trace.close()
        self.ending()

    def ending(self) -> None:
        """The profile's part of :meth:`end` (close what carries frames out)."""

    async def hang_up(self) -> None:
        """The profile's goodbye to the client, once the engine has closed."""

    async def cancel_inflight(self) -> None:
        """Cancel what the client still waits for: each request gets its -32800 answer."""
        for route in list(self.inflight.values()):
            params = {"requestId": route.id}
            cancel = {"jsonrpc": "2.0", "method": CANCEL_REQUEST_METHOD, "params": params}
            self.channel.feed_nowait(encode_message(cancel).rstrip(b"\n"), heard=False)


_R = TypeVar("_R", bound=RemoteConnection)


class AcpEndpoint:
    """The state of one ``/acp`` endpoint: its connections, their sessions, its limits.
    ``end`` makes the engine's connection end of each client connection (called as
    ``end(agent_factory(), channel, None, max_frame_bytes=...)``)."""

    def __init__(
        self,
        end: Callable[..., End],
        agent_factory: AgentFactory,
        options: ServerOptions,
        record: Record = None,
    ) -> None:
        self.end = end
        self.agent_factory = agent_factory
        self.options = options
        self._trace_paths = None if record is None else connection_trace_paths(record)
        self.sessions = SessionRegistry(options.session_ttl, options.max_sessions)
        self.connections: dict[str, RemoteConnection] = {}
        self.events = EventLog(logger)  # the server's one-line, rate-limited events
        # Shares (ledger.py): connections per peer and per principal, request bodies in
        # reading per peer (http/bodies.py), the bytes of every partial message (http/bodies.py,
        # hypercorn_guard.py).
        self.peer_slots = SlotLedger(options.max_connections_per_peer)
        self.principal_slots = SlotLedger(options.max_connections_per_principal)
        self.read_slots = SlotLedger(options.max_connections_per_peer)
        # One peer holds at most one largest message's worth of partial bytes at once.
        largest = max(options.max_body_bytes, options.max_frame_bytes)
        self.partial_budget = ByteBudget(options.max_partial_bytes, largest)
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
        await asyncio.gather(*(self.close(r) for r in remotes), return_exceptions=True)

    async def close(self, remote: RemoteConnection) -> None:
        """End one connection: forgotten, its engine closed, its client told."""
        remote.end()
        await remote.side.close()
        await remote.hang_up()

    def forget(self, remote: RemoteConnection) -> None:
        self.connections.pop(remote.id, None)
        self.sessions.detach_all(remote.id)

    async def _reap_idle(self) -> None:
        """Every tick: end idle connections, forget sessions past their resumable time, and
        give memory back once the last connection has gone. The work is a method of its own
        so that no local of a tick (the last connection looked at) outlives it."""
        options = self.options
        graces = (
            options.idle_timeout,
            options.first_use_grace,
            options.stream_drop_grace,
            options.body_timeout,
        )
        period = max(0.05, min(*(grace / 4 for grace in graces), 5.0))
        while True:
            await asyncio.sleep(period)
            await self._reap_once()

    async def _reap_once(self) -> None:
        now = time.monotonic()
        horizon = now - self.options.idle_timeout
        for remote in list(self.connections.values()):
            reason = remote.usage.reclaim(now, self.options)  # not used, streams dropped
            idle = remote.last_activity < horizon and (not remote.inflight or remote.unheard)
            if reason is None and idle:
                reason = "ending an idle connection"
            since = remote.partial.since if remote.partial is not None else None
            if reason is None and since is not None and now - since >= self.options.body_timeout:
                reason = "ending a WebSocket whose message did not arrive whole (body_timeout)"
            if reason is not None:
                self.events.say(reason)
                await self.close(remote)
        self.sessions.expire()
        if self._idle_release is not None and self._idle_release.observe(len(self.connections)):
            logger.debug("idle: memory handed back to the system")

    # -- checks every request passes -----------------------------------------------------

    async def screen(self, headers: Any, scope: Any) -> tuple[Hashable | None, Response | None]:
        """Who the request is from, or the refusal (a wrong Host or Origin, a refused token)."""
        server = scope.get("server")  # the local address the request came in on
        if not host_allowed(headers.get("host"), str(server[0]) if server else None, self.options):
            return None, refusal(421, "Host not allowed: not a name of this server")
        if not origin_allowed(headers.get("origin"), self.options):
            return None, refusal(403, "origin not allowed")
        principal = await principal_of(headers.get("authorization"), self.options)
        if principal is None:
            challenge = {"WWW-Authenticate": "Bearer"}
            return None, refusal(401, "a valid bearer token is required", challenge)
        return principal, None

    def open(
        self, kind: Callable[[AcpEndpoint, Hashable], _R], principal: Hashable, scope: Any
    ) -> _R | Response:
        """A new connection of the profile ``kind``, started; or the refusal (the limits: the
        server's, then the share of the request's peer and of its principal)."""
        if self.closing:
            return refusal(503, "the server is shutting down")
        if len(self.connections) >= self.options.max_connections:
            return refusal(503, "too many connections", RETRY_AFTER)
        peer_slot = self.peer_slots.take(peer_of(scope))
        if peer_slot is None:
            self.events.say("refused a connection: its peer holds its share")
            return refusal(429, "too many connections from this address", RETRY_AFTER)
        mine = self.principal_slots.take(None if principal == ANONYMOUS else principal)
        if mine is None:
            peer_slot.release()
            self.events.say("refused a connection: its principal holds its share")
            return refusal(429, "too many connections for this principal", RETRY_AFTER)
        remote = kind(self, principal)
        remote.slots = [peer_slot, mine]
        self.connections[remote.id] = remote
        remote.side.start()
        return remote

    def lookup(self, headers: Any, principal: Hashable) -> RemoteConnection | Response:
        """The connection ``Acp-Connection-Id`` names, when it is the principal's."""
        connection_id = headers.get(CONNECTION_HEADER)
        if not connection_id:
            return refusal(400, "missing Acp-Connection-Id")
        remote = self.connections.get(connection_id)
        if remote is None or remote.principal != principal:
            return refusal(404, "unknown Acp-Connection-Id")
        return remote

    def cookie_headers(self) -> dict[str, str]:
        cookie = self.options.instance_cookie
        if cookie is None:
            return {}
        name, value = cookie
        return {"set-cookie": f"{name}={value}; Path=/; HttpOnly; SameSite=Strict"}
