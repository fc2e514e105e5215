# Edit acpgen/shipped/runtime/transports/server.py, not this file: acpgen generate writes it.
"""The agent's remote server: both profiles (Streamable HTTP and WebSocket) on one path, as an
ASGI app (:func:`agent_app`, starlette) and as a ready server (:func:`serve_agent`, hypercorn).

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

Every entry point takes the connection class (``end``: the façade, ``remote.py``, passes the
package's typed ``AgentSideConnection``) and an agent factory (one agent per connection), as
``stdio.py`` takes the class: nothing here names a rendered module.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from ..recording import Record
from ..transport import End
from .endpoint import PARTIAL_SCOPE_KEY, AcpEndpoint, AgentFactory
from .extra import missing_extra
from .http.server import HttpProfile
from .hypercorn_guard import guard
from .options import ServerOptions
from .paths import not_found
from .quietlog import OneLine, exception_handler
from .security import is_loopback_host, quiet_header_logs
from .ws.server import WebSocketProfile

try:
    from hypercorn.asyncio.run import worker_serve
    from hypercorn.config import Config
    from hypercorn.utils import wrap_app
    from starlette.applications import Starlette
    from starlette.routing import Route, WebSocketRoute
except ImportError as exc:
    raise missing_extra(exc) from exc

__all__ = ["agent_app", "run_remote_agent", "serve_agent", "serve_app"]

logger = logging.getLogger(__name__)
# hypercorn's error log: its tracebacks (a client's doing, mostly) as rate-limited lines.
server_logger = logging.getLogger(f"{__name__}.http")
server_logger.addFilter(OneLine())
quiet_header_logs()  # no token or cookie in any log, at any level


def agent_app(
    end: Callable[..., End],
    agent_factory: AgentFactory,
    options: ServerOptions | None = None,
    *,
    record: Record = None,
) -> Starlette:
    """The endpoint as an ASGI application (starlette): mount it in an app of your own, or run
    it under any ASGI server. ``app.state.acp`` is its :class:`AcpEndpoint`; when your app
    does not run this one's lifespan, call ``await app.state.acp.aclose()`` on shutdown.
    ``record``: a directory, or a path with ``{n}``, to write each connection's trace to
    (one file per connection, docs/traces.md)."""
    endpoint = AcpEndpoint(end, agent_factory, options or ServerOptions(), record)
    path = endpoint.options.path
    app = Starlette(
        routes=[
            Route(path, HttpProfile(endpoint).handle, methods=["GET", "POST", "DELETE"]),
            WebSocketRoute(path, WebSocketProfile(endpoint).handle),
        ],
        lifespan=endpoint.lifespan,
    )
    app.router.default = not_found(endpoint.options)  # 404 naming the endpoint (paths.py)
    app.state.acp = endpoint
    return app


async def serve_agent(
    end: Callable[..., End],
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
    app = agent_app(end, agent_factory, options, record=record)
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
        errorlog=server_logger,  # one line per record, rate-limited (quietlog.py)
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

    endpoint: AcpEndpoint = app.state.acp

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        # No compression, WebSocket fragments charged to the budget, no send once a client
        # has gone (hypercorn_guard.py).
        send, charge = guard(scope, send, endpoint.partial_budget)
        if charge is not None:
            scope[PARTIAL_SCOPE_KEY] = charge  # the WebSocket profile's deadline reads it
        try:
            await app(scope, receive, send)
        finally:
            if charge is not None:
                charge.clear()

    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    # hypercorn's per-socket task failing on what a client sent: one line, rate-limited.
    loop.set_exception_handler(exception_handler(server_logger, previous))
    if ready is not None:
        ready(url)
    try:
        framework: Any = guarded  # the ASGI signature is looser than hypercorn's types
        await worker_serve(
            wrap_app(framework, 0, "asgi"), config, sockets=sockets, shutdown_trigger=trigger
        )
    finally:
        stop.set()
        await app.state.acp.aclose()  # also when cancelled: every connection ends
        loop.set_exception_handler(previous)


async def run_remote_agent(
    end: Callable[..., End],
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
            end,
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
