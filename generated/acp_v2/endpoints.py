# Edit acpgen/shipped/runtime/endpoints.py, not this file: acpgen generate writes it.
"""Where a connection end runs: on stdio, on a spawned process, or paired in memory.

The functions take the connection class (``launch.py``, rendered, passes the package's typed
``AgentSideConnection`` / ``ClientSideConnection``), so nothing here names a rendered module.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Literal, Protocol, TypeVar

from .recording import Record, maybe_recorded
from .stdio import spawn_process, stdio_streams

__all__ = ["End", "pair_in_memory", "serve_stdio", "spawn_peer"]


class End(Protocol):
    """A connection end (``sides.Side``): started, closed, awaited."""

    def start(self) -> None: ...

    async def close(self) -> None: ...

    async def wait_closed(self) -> None: ...


_E = TypeVar("_E", bound=End)
_A = TypeVar("_A", bound=End)
_C = TypeVar("_C", bound=End)


async def serve_stdio(
    end: Callable[..., End],
    handler: Any,
    *,
    max_frame_bytes: int,
    trace: bool,
    record: Record = None,
) -> None:
    """Serve ``handler`` over this process' stdin/stdout until the peer closes stdin; with
    ``record``, every frame both ways is also written to that trace file (docs/traces.md)."""
    stdio = await stdio_streams()
    async with maybe_recorded(*stdio, record, "agent", max_frame_bytes) as (reader, writer):
        connection = end(handler, reader, writer, max_frame_bytes=max_frame_bytes, trace=trace)
        connection.start()
        try:
            await connection.wait_closed()
        finally:
            await connection.close()


@contextlib.asynccontextmanager
async def spawn_peer(
    end: Callable[..., _E],
    handler: Any,
    command: Sequence[str],
    *,
    env: dict[str, str] | None,
    cwd: str | None,
    max_frame_bytes: int,
    trace: bool,
    record: Record = None,
    role: Literal["agent", "client"] = "client",
) -> AsyncIterator[_E]:
    """``end(handler, reader, writer)`` on a process spawned from ``command`` (this process'
    environment unless ``env`` is given), started, and closed on exit before the process
    (its stdin closed, its process group stopped). With ``record``, every frame is also
    written to that trace file, as seen by ``role`` (the end's side)."""
    async with (
        spawn_process(command, env=env, cwd=cwd) as (stdout, stdin, _process),
        maybe_recorded(stdout, stdin, record, role, max_frame_bytes) as (reader, writer),
    ):
        connection = end(handler, reader, writer, max_frame_bytes=max_frame_bytes, trace=trace)
        connection.start()
        try:
            yield connection
        finally:
            await connection.close()


@contextlib.asynccontextmanager
async def pair_in_memory(
    agent_end: Callable[..., _A],
    client_end: Callable[..., _C],
    agent: Any,
    client: Any,
    *,
    max_frame_bytes: int,
) -> AsyncIterator[tuple[_A, _C]]:
    """Both ends in this process, over a socket pair: for tests and embedding.

    The bytes still go through the full NDJSON framing, so what works here works on stdio.
    """
    left, right = socket.socketpair()
    agent_reader, agent_writer = await asyncio.open_connection(sock=left, limit=max_frame_bytes)
    client_reader, client_writer = await asyncio.open_connection(sock=right, limit=max_frame_bytes)
    limit = max_frame_bytes
    agent_side = agent_end(agent, agent_reader, agent_writer, max_frame_bytes=limit)
    client_side = client_end(client, client_reader, client_writer, max_frame_bytes=limit)
    agent_side.start()
    client_side.start()
    try:
        yield agent_side, client_side
    finally:
        await client_side.close()
        await agent_side.close()
