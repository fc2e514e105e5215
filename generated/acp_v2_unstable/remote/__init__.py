# Edit acpgen/shipped/runtime/remote/__init__.py, not this file: acpgen generate writes it.
"""ACP over the network: Streamable HTTP and WebSocket on one ``/acp`` endpoint, both sides.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/remote/``).

The transport is the RFD "Streamable HTTP & WebSocket Transport": a layer under the package's
one JSON-RPC engine, so agents and clients keep their typed interfaces, guards, cancellation
and ordering. Its libraries (starlette, hypercorn, websockets, httpx2) are the package's
optional ``remote`` extra: importing this module needs none of them, using one of the names
below without them raises :class:`ImportError` naming the extra.

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

import importlib
from typing import TYPE_CHECKING, Any

from .options import ServerOptions

__all__ = [
    "ServerOptions",
    "agent_app",
    "connect_to_remote_agent",
    "run_remote_agent",
    "serve_agent",
    "serve_app",
]

if TYPE_CHECKING:
    from .client import connect_to_remote_agent
    from .server import agent_app, run_remote_agent, serve_agent, serve_app

_LAZY = {
    "agent_app": "server",
    "run_remote_agent": "server",
    "serve_agent": "server",
    "serve_app": "server",
    "connect_to_remote_agent": "client",
}


def __getattr__(name: str) -> Any:
    # Imported on first use: a stdio user never loads (nor needs) the remote libraries.
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
