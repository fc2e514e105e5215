# Edit templates/runtime/launch.py.jinja, not this file: acpgen generate writes it.
"""Where a typed ACP connection runs: an agent on stdio, a spawned agent or client, both ends
in memory. Typed entry points of the shipped ``transports/``."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager

from acp_v2.connection import AgentSideConnection, ClientSideConnection
from acp_v2.interfaces import Agent, Client
from acp_v2.recording import Record
from acp_v2.rpc import DEFAULT_MAX_FRAME_BYTES
from acp_v2.transports.in_memory import pair_in_memory
from acp_v2.transports.spawn import spawn_peer
from acp_v2.transports.stdio import serve_stdio

__all__ = ["connect_in_memory", "connect_to_agent", "connect_to_client", "run_agent"]


async def run_agent(
    agent: Agent,
    *,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    trace: bool = False,
    record: Record = None,
) -> None:
    """Serve ``agent`` over this process' stdin/stdout until the client closes stdin; with
    ``record``, every frame both ways is also written to that trace file (docs/traces.md)."""
    await serve_stdio(
        AgentSideConnection, agent, max_frame_bytes=max_frame_bytes, trace=trace, record=record
    )


def connect_to_agent(
    client: Client,
    command: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    trace: bool = False,
    record: Record = None,
) -> AbstractAsyncContextManager[ClientSideConnection]:
    """Spawn the agent ``command`` (it speaks ACP on its stdin/stdout), serve ``client`` to it
    and yield the started connection. The process gets this process' environment unless
    ``env`` is given; on exit its stdin is closed and its process group stopped. With
    ``record``, every frame is also written to that trace file (docs/traces.md)."""
    return spawn_peer(
        ClientSideConnection,
        client,
        command,
        env=env,
        cwd=cwd,
        max_frame_bytes=max_frame_bytes,
        trace=trace,
        record=record,
        role="client",
    )


def connect_to_client(
    agent: Agent,
    command: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    trace: bool = False,
    record: Record = None,
) -> AbstractAsyncContextManager[AgentSideConnection]:
    """Spawn the client ``command`` (it speaks ACP on its stdin/stdout), serve ``agent`` to it
    and yield the started connection. The process gets this process' environment unless
    ``env`` is given; on exit its stdin is closed and its process group stopped. With
    ``record``, every frame is also written to that trace file (docs/traces.md)."""
    return spawn_peer(
        AgentSideConnection,
        agent,
        command,
        env=env,
        cwd=cwd,
        max_frame_bytes=max_frame_bytes,
        trace=trace,
        record=record,
        role="agent",
    )


def connect_in_memory(
    agent: Agent, client: Client, *, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES
) -> AbstractAsyncContextManager[tuple[AgentSideConnection, ClientSideConnection]]:
    """Both ends in this process, over a socket pair: for tests and embedding.

    The bytes still go through the full NDJSON framing, so what works here works on stdio.
    """
    return pair_in_memory(
        AgentSideConnection, ClientSideConnection, agent, client, max_frame_bytes=max_frame_bytes
    )
