# Edit acpgen/shipped/runtime/transports/lazy_server.py, not this file: acpgen generate writes it.
"""The agent's remote entry points as the façade calls them: each imports the server (and with
it the optional ``remote`` extra's libraries) only when it is called, so that importing the
façade's ``remote.py`` needs none of them, and a missing one is named in one line
(``extra.py``) by the call. (A client's ``dial.py`` needs no library itself: it imports the
profile of a URL's scheme when the URL is dialled.)

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
Each takes the connection class first (the façade passes the package's typed one); the
keyword settings are typed here once (:class:`ServeSettings` ...), for this module and the
façade alike, and documented on the functions of ``server.py``.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from ..recording import Record
from ..transport import End
from .options import ServerOptions

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = [
    "LISTENERS",
    "AppServeSettings",
    "ListenSettings",
    "ServeSettings",
    "agent_app",
    "run_remote_agent",
    "serve_agent",
    "serve_app",
]


# A listen address's scheme (``scheme:rest``) -> the module that serves it (relative to this
# package), which defines ``run_remote_agent(end, agent_factory, listen, **ListenSettings)``.
# Any other address is ``HOST:PORT``: Streamable HTTP and WebSocket, by ``server.py``.
LISTENERS: dict[str, str] = {"unix": ".unix"}


def listener(listen: str) -> str:
    """The module that serves ``listen`` (relative to this package)."""
    scheme, sep, _ = listen.partition(":")
    return LISTENERS.get(scheme.lower(), ".server") if sep else ".server"


class AppServeSettings(TypedDict, total=False):
    """Where and how :func:`serve_app` listens (``server.serve_app``)."""

    host: str  # "127.0.0.1"
    port: int  # 8000; 0: any free port
    certfile: str | None  # with keyfile: TLS
    keyfile: str | None
    ready: Callable[[str], object] | None  # called with the URL once the socket listens
    shutdown: Callable[[], Awaitable[object]] | None  # serving ends when it returns


class ServeSettings(AppServeSettings, total=False):
    """:class:`AppServeSettings`, and the endpoint's (``server.serve_agent``)."""

    options: ServerOptions | None  # the security options and limits
    record: Record  # a directory, or a path with {n}: one trace file per connection


class ListenSettings(TypedDict, total=False):
    """What :func:`run_remote_agent` takes besides the address (``server.run_remote_agent``)."""

    options: ServerOptions | None
    certfile: str | None
    keyfile: str | None


def agent_app(
    end: Callable[..., End],
    agent_factory: Callable[[], Any],
    options: ServerOptions | None = None,
    *,
    record: Record = None,
) -> Starlette:
    """:func:`.server.agent_app`."""
    from .server import agent_app as app

    return app(end, agent_factory, options, record=record)


async def serve_agent(
    end: Callable[..., End], agent_factory: Callable[[], Any], **settings: Unpack[ServeSettings]
) -> None:
    """:func:`.server.serve_agent`."""
    from .server import serve_agent as serve

    await serve(end, agent_factory, **settings)


async def serve_app(app: Starlette, **settings: Unpack[AppServeSettings]) -> None:
    """:func:`.server.serve_app`."""
    from .server import serve_app as serve

    await serve(app, **settings)


async def run_remote_agent(
    end: Callable[..., End],
    agent_factory: Callable[[], Any],
    listen: str,
    **settings: Unpack[ListenSettings],
) -> None:
    """:func:`.server.run_remote_agent`, or the listener's of the address' scheme
    (:data:`LISTENERS`)."""
    module = importlib.import_module(listener(listen), __package__)
    await module.run_remote_agent(end, agent_factory, listen, **settings)
