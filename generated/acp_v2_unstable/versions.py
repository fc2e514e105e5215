# Edit templates/versions/versions.py.jinja, not this file: acpgen generate writes it.
"""acp_v1_unstable and acp_v2_unstable on one connection: typed entry points of the shipped ``negotiation.py``.

Emitted because this output has both a v1 surface (``acp_v1_unstable``) and a v2 one (``acp_v2_unstable``):

* :class:`AgentProtocolRouter` serves each client with the agent of the version its
  ``initialize`` asks for (the latest, v2, when it asks for one neither serves), and
  :func:`run_router` serves it on stdio;
* :func:`connect_to_agent_negotiating` asks the agent for v2 and falls back to v1 when it
  answers 1: the result says which was agreed (``protocol_version``) and holds the typed
  connection of that version (``v1`` or ``v2``);
* :class:`ProtocolVersionError` is raised where neither version is answered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import acp_v1_unstable
from acp_v1_unstable.connection import AgentSideConnection as V1AgentSideConnection
from acp_v1_unstable.connection import ClientSideConnection as V1ClientSideConnection
from acp_v1_unstable.handshake import SUPPORTED_PROTOCOL_VERSIONS as V1_PROTOCOL_VERSIONS
from acp_v2_unstable import models
from acp_v2_unstable.connection import AgentSideConnection, ClientSideConnection
from acp_v2_unstable.handshake import SUPPORTED_PROTOCOL_VERSIONS, ProtocolVersionError
from acp_v2_unstable.interfaces import Agent, Client
from acp_v2_unstable.negotiation import (
    Negotiated,
    Offer,
    ProtocolRouter,
    Route,
    RoutedConnection,
    negotiate_in_memory,
    negotiate_spawned,
    serve_routed_stdio,
)
from acp_v2_unstable.rpc import DEFAULT_MAX_FRAME_BYTES
from acp_v2_unstable.sides import to_wire

__all__ = [
    "AgentProtocolRouter",
    "Negotiated",
    "ProtocolVersionError",
    "RoutedConnection",
    "connect_in_memory_negotiating",
    "connect_to_agent_negotiating",
    "run_router",
]


class AgentProtocolRouter(ProtocolRouter):
    """One agent implementation per protocol version on one connection: ``v1()`` makes the
    acp_v1_unstable agent serving a client that asks for version 1, ``v2()`` the acp_v2_unstable one.
    """

    def __init__(self, *, v1: Callable[[], acp_v1_unstable.Agent], v2: Callable[[], Agent]) -> None:
        super().__init__(
            Route(V1_PROTOCOL_VERSIONS, V1AgentSideConnection, v1),
            Route(SUPPORTED_PROTOCOL_VERSIONS, AgentSideConnection, v2),
        )


async def run_router(
    router: AgentProtocolRouter,
    *,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    trace: bool = False,
) -> None:
    """Serve ``router`` over this process' stdin/stdout until the client closes stdin."""
    await serve_routed_stdio(router, max_frame_bytes=max_frame_bytes, trace=trace)


def connect_to_agent_negotiating(
    command: Sequence[str],
    initialize: models.InitializeRequest,
    *,
    v1: acp_v1_unstable.Client,
    v2: Client,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    trace: bool = False,
) -> AbstractAsyncContextManager[Negotiated[V1ClientSideConnection, ClientSideConnection]]:
    """Spawn the agent ``command``, send ``initialize`` asking for v2, and yield what was
    agreed: ``v2`` served to a v2 answer, ``v1`` to a v1 one (the answer typed by its package
    as ``initialize_response``); ``ProtocolVersionError`` for any other answer."""
    return negotiate_spawned(
        command,
        to_wire(initialize, models.InitializeRequest),
        Offer(V1_PROTOCOL_VERSIONS, V1ClientSideConnection, v1),
        Offer(SUPPORTED_PROTOCOL_VERSIONS, ClientSideConnection, v2),
        env=env,
        cwd=cwd,
        max_frame_bytes=max_frame_bytes,
        trace=trace,
    )


def connect_in_memory_negotiating(
    serve: Callable[[Any, Any], Any],
    initialize: models.InitializeRequest,
    *,
    v1: acp_v1_unstable.Client,
    v2: Client,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
) -> AbstractAsyncContextManager[Negotiated[V1ClientSideConnection, ClientSideConnection]]:
    """As :func:`connect_to_agent_negotiating`, with the agent in this process over a socket
    pair: ``serve(reader, writer)`` starts its end (``AgentSideConnection(agent, reader,
    writer)`` of either package, or an :class:`AgentProtocolRouter`'s ``accept``)."""
    return negotiate_in_memory(
        serve,
        to_wire(initialize, models.InitializeRequest),
        Offer(V1_PROTOCOL_VERSIONS, V1ClientSideConnection, v1),
        Offer(SUPPORTED_PROTOCOL_VERSIONS, ClientSideConnection, v2),
        max_frame_bytes=max_frame_bytes,
    )
