"""Where a typed ACP connection runs: an agent on stdio, a spawned agent, both ends in memory.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/launch.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import socket
from collections.abc import AsyncIterator, Sequence
from typing import Any, Literal

from .connection import AgentSideConnection, ClientSideConnection
from .interfaces import Agent, Client
from .rpc import DEFAULT_MAX_FRAME_BYTES
from .stdio import spawn_process, stdio_streams
from .trace.tap import recorded_streams

Record = str | os.PathLike[str] | None  # a trace file to record the connection to (docs/traces.md)

__all__ = ["connect_in_memory", "connect_to_agent", "connect_to_client", "run_agent"]


async def run_agent(
    agent: Agent,
    *,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    trace: bool = False,
    record: Record = None,
) -> None:
    """Serve ``agent`` over this process' stdin/stdout until the client closes stdin; with
    ``record``, every frame both ways is also written to that trace file."""
    stdio = await stdio_streams()
    limit = max_frame_bytes
    async with _recorded(*stdio, record, "agent", limit) as (reader, writer):
        connection = AgentSideConnection(agent, reader, writer, max_frame_bytes=limit, trace=trace)
        connection.start()
        try:
            await connection.wait_closed()
        finally:
            await connection.close()


@contextlib.asynccontextmanager
async def _recorded(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    record: Record,
    role: Literal["agent", "client"],
    limit: int,
) -> AsyncIterator[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """The streams as they are, or wrapped to record them when ``record`` names a file."""
    if record is None:
        yield reader, writer
        return
    async with recorded_streams(reader, writer, record, role, limit) as pair:
        yield pair


@contextlib.asynccontextmanager
async def connect_to_agent(
    client: Client,
    command: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    trace: bool = False,
    record: Record = None,
) -> AsyncIterator[ClientSideConnection]:
    """Spawn an agent (``command``) and yield a started connection to it. The process gets
    this process' environment unless ``env`` is given; on exit its stdin is closed and its
    process group stopped. With ``record``, every frame is also written to that trace file."""
    side = functools.partial(ClientSideConnection, max_frame_bytes=max_frame_bytes, trace=trace)
    async with _spawned(side, client, command, env, cwd, (record, "client")) as connection:
        yield connection


@contextlib.asynccontextmanager
async def connect_to_client(
    agent: Agent,
    command: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    trace: bool = False,
    record: Record = None,
) -> AsyncIterator[AgentSideConnection]:
    """Spawn a client (``command``, which speaks ACP on its stdin/stdout) and serve ``agent``
    to it; yield the started connection. The process gets this process' environment unless
    ``env`` is given; on exit its stdin is closed and its process group stopped. With
    ``record``, every frame is also written to that trace file."""
    side = functools.partial(AgentSideConnection, max_frame_bytes=max_frame_bytes, trace=trace)
    async with _spawned(side, agent, command, env, cwd, (record, "agent")) as connection:
        yield connection


@contextlib.asynccontextmanager
async def _spawned(
    side: Any,
    handler: Any,
    command: Sequence[str],
    env: dict[str, str] | None,
    cwd: str | None,
    record: tuple[Record, Literal["agent", "client"]],
) -> AsyncIterator[Any]:
    """``side(handler, reader, writer)`` on a process spawned from ``command``, started, and
    closed on exit before the process is stopped."""
    async with (
        spawn_process(command, env=env, cwd=cwd) as (stdout, stdin, _process),
        _recorded(stdout, stdin, *record, side.keywords["max_frame_bytes"]) as (reader, writer),
    ):
        connection = side(handler, reader, writer)
        connection.start()
        try:
            yield connection
        finally:
            await connection.close()


@contextlib.asynccontextmanager
async def connect_in_memory(
    agent: Agent, client: Client, *, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES
) -> AsyncIterator[tuple[AgentSideConnection, ClientSideConnection]]:
    """Both ends in this process, over a socket pair: for tests and embedding.

    The bytes still go through the full NDJSON framing, so what works here works on stdio.
    """
    left, right = socket.socketpair()
    agent_reader, agent_writer = await asyncio.open_connection(sock=left, limit=max_frame_bytes)
    client_reader, client_writer = await asyncio.open_connection(sock=right, limit=max_frame_bytes)
    limit = max_frame_bytes
    agent_end = AgentSideConnection(agent, agent_reader, agent_writer, max_frame_bytes=limit)
    client_end = ClientSideConnection(client, client_reader, client_writer, max_frame_bytes=limit)
    agent_end.start()
    client_end.start()
    try:
        yield agent_end, client_end
    finally:
        await client_end.close()
        await agent_end.close()
