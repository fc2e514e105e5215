# Edit acpgen/shipped/runtime/transports/lazy_server.py, not this file: acpgen generate writes it.
"""The agent's remote entry points as the façade calls them: each imports the server (and with
it the optional ``remote`` extra's libraries) only when it is called, so that importing the
façade's ``remote.py`` needs none of them, and a missing one is named in one line
(``extra.py``) by the call. (A client's ``dial.py`` needs no library itself: it imports the
profile of a URL's scheme when the URL is dialled.)

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
Each takes the connection class first (the façade passes the package's typed one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..transport import End

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["agent_app", "run_remote_agent", "serve_agent", "serve_app"]


def agent_app(
    end: Callable[..., End], agent_factory: Callable[[], Any], *args: Any, **kw: Any
) -> Starlette:
    """:func:`.server.agent_app`."""
    from .server import agent_app as app

    return app(end, agent_factory, *args, **kw)


async def serve_agent(end: Callable[..., End], agent_factory: Callable[[], Any], **kw: Any) -> None:
    """:func:`.server.serve_agent`."""
    from .server import serve_agent as serve

    await serve(end, agent_factory, **kw)


async def serve_app(app: Starlette, **kw: Any) -> None:
    """:func:`.server.serve_app`."""
    from .server import serve_app as serve

    await serve(app, **kw)


async def run_remote_agent(
    end: Callable[..., End], agent_factory: Callable[[], Any], listen: str, **kw: Any
) -> None:
    """:func:`.server.run_remote_agent`."""
    from .server import run_remote_agent as run

    await run(end, agent_factory, listen, **kw)
