# Edit templates/runtime/remote.py.jinja, not this file: acpgen generate writes it.
"""ACP over the network: Streamable HTTP and WebSocket on one ``/acp`` endpoint, both sides.

Typed entry points of the shipped ``transports/`` (``lazy_server.py``, ``dial.py``), which take the
connection class; this module passes the package's typed ones.

The transport is the RFD "Streamable HTTP & WebSocket Transport": a layer under the package's
one JSON-RPC engine, so agents and clients keep their typed interfaces, guards, cancellation
and ordering. Its libraries (starlette, hypercorn, websockets, httpx2) are the package's
optional ``remote`` extra: importing this module needs none of them; calling one of the
entry points below without them (for a client: entering the connection) raises
:class:`ImportError` naming the extra.

* :func:`run_remote_agent`: serve an agent factory on ``HOST:PORT`` until SIGTERM/SIGINT (the
  remote ``run_agent``);
* :func:`serve_agent`: a ready server (hypercorn) for an agent factory;
* :func:`agent_app`: the same endpoint as an ASGI application to mount in an existing app
  (:func:`serve_app` serves one such app, as :func:`serve_agent` does);
* :func:`connect_to_remote_agent`: a client connection to a URL (``ws://``/``wss://``:
  WebSocket; ``http://``/``https://``: Streamable HTTP over HTTP/2);
* :class:`ServerOptions`: the security options and limits (secure defaults).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

from acp_v1.connection import AgentSideConnection, ClientSideConnection
from acp_v1.interfaces import Agent, Client
from acp_v1.recording import Record
from acp_v1.rpc import DEFAULT_MAX_FRAME_BYTES
from acp_v1.transports import dial, lazy_server
from acp_v1.transports.options import ServerOptions

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = [
    "AgentFactory",
    "ServerOptions",
    "agent_app",
    "connect_to_remote_agent",
    "run_remote_agent",
    "serve_agent",
    "serve_app",
]

AgentFactory = Callable[[], Agent]  # one agent per connection (it is bound to it)


def agent_app(
    agent_factory: AgentFactory, options: ServerOptions | None = None, *, record: Record = None
) -> Starlette:
    """The endpoint as an ASGI application (starlette): mount it in an app of your own, or run
    it under any ASGI server. ``app.state.acp`` is its endpoint; when your app does not run
    this one's lifespan, call ``await app.state.acp.aclose()`` on shutdown. ``record``: a
    directory, or a path with ``{n}``, to write each connection's trace to (one file per
    connection, docs/traces.md)."""
    return lazy_server.agent_app(AgentSideConnection, agent_factory, options, record=record)


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
    (or the task is cancelled), then shut down gracefully.

    HTTP/1.1, HTTP/2 (cleartext with prior knowledge, or ALPN under TLS) and WebSocket,
    by hypercorn. ``certfile``/``keyfile`` turn on TLS. ``ready`` is called with the
    endpoint's URL once the socket listens. Loopback by default: another ``host`` is an
    explicit choice (then set ``options.token_check`` or TLS, or both). ``record``: as for
    :func:`agent_app`.
    """
    await lazy_server.serve_agent(
        AgentSideConnection,
        agent_factory,
        host=host,
        port=port,
        options=options,
        certfile=certfile,
        keyfile=keyfile,
        ready=ready,
        shutdown=shutdown,
        record=record,
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
    await lazy_server.serve_app(
        app,
        host=host,
        port=port,
        certfile=certfile,
        keyfile=keyfile,
        ready=ready,
        shutdown=shutdown,
    )


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
    await lazy_server.run_remote_agent(
        AgentSideConnection,
        agent_factory,
        listen,
        options=options,
        certfile=certfile,
        keyfile=keyfile,
    )


def connect_to_remote_agent(
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
) -> AbstractAsyncContextManager[ClientSideConnection]:
    """Connect ``client`` to the agent at ``url`` and yield the started connection.

    ``ws://``/``wss://`` speak WebSocket, ``http://``/``https://`` Streamable HTTP (HTTP/2:
    prior knowledge on ``http://``, ALPN on ``https://``). ``token`` is sent as
    ``Authorization: Bearer``; ``headers`` on every request; ``cookies`` (a dict you keep)
    holds the server's cookies, updated as they are set, so that a reconnect with the same
    dict comes back to the same server. ``verify``: TLS verification (``True``, a CA bundle
    path or an ``ssl.SSLContext``). ``record``: a file to write the connection's trace to
    (every frame both ways, docs/traces.md). On exit the connection ends (HTTP: ``DELETE``).
    Nothing reconnects by itself: when the connection drops, calls fail with
    ``ConnectionClosed``; connect again and resume the sessions with ``session/load``.
    """
    return dial.connect_to_remote_agent(
        ClientSideConnection,
        client,
        url,
        token=token,
        headers=headers,
        cookies=cookies,
        verify=verify,
        max_frame_bytes=max_frame_bytes,
        open_timeout=open_timeout,
        record=record,
    )
