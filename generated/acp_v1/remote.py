# Edit templates/runtime/remote.py.jinja, not this file: acpgen generate writes it.
"""ACP over the network: Streamable HTTP and WebSocket on one ``/acp`` endpoint, both sides.

Typed entry points of the shipped ``transports/`` (``lazy_server.py``, ``dial.py``), which take the
connection class; this module passes the package's typed ones. Their keyword settings are
typed once, in the shipped ``TypedDict`` each names (``ServeSettings``, ``DialSettings``, ...).

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

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Unpack

from acp_v1.connection import AgentSideConnection, ClientSideConnection
from acp_v1.interfaces import Agent, Client
from acp_v1.recording import Record
from acp_v1.transports import dial, lazy_server
from acp_v1.transports.dial import DialSettings
from acp_v1.transports.lazy_server import AppServeSettings, ListenSettings, ServeSettings
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
    """The endpoint as an ASGI application: ``acp_v1.transports.server.agent_app``."""
    return lazy_server.agent_app(AgentSideConnection, agent_factory, options, record=record)


async def serve_agent(agent_factory: AgentFactory, **settings: Unpack[ServeSettings]) -> None:
    """Serve agents until ``shutdown()`` returns: ``acp_v1.transports.server.serve_agent``."""
    await lazy_server.serve_agent(AgentSideConnection, agent_factory, **settings)


async def serve_app(app: Starlette, **settings: Unpack[AppServeSettings]) -> None:
    """Serve an app of :func:`agent_app`: ``acp_v1.transports.server.serve_app``."""
    await lazy_server.serve_app(app, **settings)


async def run_remote_agent(
    agent_factory: AgentFactory, listen: str, **settings: Unpack[ListenSettings]
) -> None:
    """Serve agents on ``listen`` until SIGTERM or SIGINT (the remote ``run_agent``):
    ``acp_v1.transports.server.run_remote_agent``."""
    await lazy_server.run_remote_agent(AgentSideConnection, agent_factory, listen, **settings)


def connect_to_remote_agent(
    client: Client, url: str, **settings: Unpack[DialSettings]
) -> AbstractAsyncContextManager[ClientSideConnection]:
    """Connect ``client`` to the agent at ``url`` and yield the started connection:
    ``acp_v1.transports.dial.connect_to_remote_agent``."""
    return dial.connect_to_remote_agent(ClientSideConnection, client, url, **settings)
