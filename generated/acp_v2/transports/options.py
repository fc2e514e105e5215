# Edit acpgen/shipped/runtime/transports/options.py, not this file: acpgen generate writes it.
"""The remote server's options: who may connect, and the limits, each with a secure default.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass

from ..framing import DEFAULT_MAX_MESSAGE_BYTES

__all__ = ["DEFAULT_PATH", "ServerOptions", "TokenCheck"]

DEFAULT_PATH = "/acp"  # the RFD's one endpoint

# Given the bearer token of a request (None: the request has none), returns who it is (any
# hashable value, compared when a session is resumed) or None to refuse the request (401).
TokenCheck = Callable[[str | None], Awaitable[Hashable | None]]


@dataclass(frozen=True)
class ServerOptions:
    """Security options and limits of a remote ACP endpoint.

    Every limit is answered with its status (and the server keeps serving everyone else):
    a body over ``max_body_bytes`` is 413, a WebSocket message over ``max_frame_bytes``
    closes that socket with 1009, a connection past ``max_connections`` is 503, a stream past
    ``max_streams_per_connection`` is 429, an ``Origin`` not allowed is 403, a refused token
    401, a ``Host`` not allowed 421. A connection with no message either way for
    ``idle_timeout`` seconds is ended (its streams close) when no request is in flight, or
    when none of its streams is open (an HTTP client gone mid-request). The fairness limits
    (per peer, per principal), the early reclaim of unused connections, the end of an HTTP
    connection whose streams dropped, the body timeout and the partial-message budget are
    described field by field below and in docs/remote.md, "Limits".
    """

    path: str = DEFAULT_PATH
    # Origins allowed besides loopback ones (http://localhost:3000 ...); "*" allows any.
    # A request without Origin (not from a browser) is allowed: Origin guards against
    # web pages (DNS rebinding), not against programs, which the token hook is for.
    allowed_origins: frozenset[str] = frozenset()
    # Host names (the Host header or HTTP/2 :authority, without the port) allowed besides
    # loopback ones; "*" allows any. A request that reached a loopback address is refused
    # (421) when it names any other host: a page whose name was rebound to 127.0.0.1 (DNS
    # rebinding) names its own host. On another address, an empty set allows any name (the
    # server cannot know its public names): list them here to check them there too.
    allowed_hosts: frozenset[str] = frozenset()
    token_check: TokenCheck | None = None
    max_body_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    max_frame_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    max_connections: int = 1000
    # Fairness: the share of the connection slots one peer address (an IPv6 peer: its /64)
    # may hold, and the share one principal of the token hook may (none without a hook:
    # every client is then the same anonymous principal). Past it: 429 with Retry-After,
    # for that peer or principal only. None: no share (behind a proxy every client has the
    # proxy's address: set the proxy's own per-client limit instead). Requests whose body
    # is still being read count too: at most this many per peer at once.
    max_connections_per_peer: int | None = 100
    max_connections_per_principal: int | None = 100
    max_streams_per_connection: int = 32
    # Server-to-client messages waiting for a stream to carry them, per connection and
    # stream; past this the agent waits (backpressure), nothing is dropped.
    max_buffered_messages: int = 1024
    # Client-to-server messages not yet taken by the engine, per connection (HTTP: 429).
    max_queued_messages: int = 1024
    idle_timeout: float = 300.0
    # A connection that has not shown it is used within this many seconds of opening is
    # ended, its slot freed: over HTTP one that opened no stream and sent no second message
    # after initialize, over WebSocket one that sent no message.
    first_use_grace: float = 10.0
    # An HTTP connection whose streams have all dropped (after it had one) ends when none
    # is opened again and no message comes within this many seconds: its sessions can then
    # be resumed (session/load) on a new connection.
    stream_drop_grace: float = 10.0
    # A request body must arrive whole within this many seconds of its headers (408), and a
    # WebSocket message begun in fragments within as many (else its socket is closed).
    body_timeout: float = 30.0
    # The bytes of partial messages held at once across all connections: request bodies
    # being read and WebSocket messages still arriving in fragments; one peer holds one
    # largest message (max_body_bytes, max_frame_bytes) of it at most. Past either: 503 with
    # Retry-After (HTTP), or the socket closed with 1009 (WebSocket).
    max_partial_bytes: int = 64 * 1024 * 1024
    keepalive_interval: float = 15.0  # an SSE comment (HTTP) or a ping (WebSocket)
    initialize_timeout: float = 30.0  # the agent's time to answer initialize (HTTP: 504)
    # A session whose connection ended stays resumable (session/load) this long.
    session_ttl: float = 3600.0
    max_sessions: int = 100_000  # sessions remembered; the oldest detached ones go first
    # On shutdown, how long requests in flight may take before they are cancelled (-32800).
    shutdown_grace: float = 5.0
    # Set as a cookie on initialize and WebSocket upgrade (clients must return cookies,
    # RFD): a proxy can route a client back to this process by it. None: no cookie.
    instance_cookie: tuple[str, str] | None = None
    # When the last connection has closed, collect and give the allocator's free pages back
    # to the system (glibc's malloc_trim; see idle_release.py and docs/remote.md, "Memory").
    release_memory_when_idle: bool = True
