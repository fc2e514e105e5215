# Edit acpgen/shipped/runtime/transports/in_memory.py, not this file: acpgen generate writes it.
"""Both ends in this process, over a socket pair: for tests and embedding.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
:func:`pair_in_memory` takes both connection classes (``launch.py``, rendered, passes the
package's typed ones), so nothing here names a rendered module.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from ..transport import End

__all__ = ["pair_in_memory"]

_A = TypeVar("_A", bound=End)
_C = TypeVar("_C", bound=End)


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
