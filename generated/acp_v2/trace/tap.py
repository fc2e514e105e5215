"""Recording a runtime connection from inside: the ``record=`` option of ``run_agent``,
``connect_to_agent`` and ``connect_to_client``.

The connection's streams are wrapped, not its engine: what the peer writes is read by a
pump that records it and feeds an ordinary :class:`asyncio.StreamReader` for the connection,
and what the connection writes is recorded as it is handed to the transport. The bytes on
the wire are the same with and without recording; the trace has the format of the proxy's
(:mod:`.format`), with ``"recorder": "runtime"`` in its header.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from typing import Literal

from .format import Sender, TraceWriter

__all__ = ["recorded_streams"]

CHUNK = 65536


class _RecordingWriter(asyncio.StreamWriter):
    """A stream writer on the same transport that records every byte before it is written."""

    def __init__(self, inner: asyncio.StreamWriter, trace: TraceWriter, sender: Sender) -> None:
        transport = inner.transport
        super().__init__(transport, transport.get_protocol(), None, asyncio.get_running_loop())
        self._trace = trace
        self._sender: Sender = sender

    def write(self, data: bytes | bytearray | memoryview) -> None:
        # The connection writes only through write() (whole frames): writelines() would
        # bypass the recording, and is never called.
        self._trace.feed(self._sender, bytes(data))
        super().write(data)


async def _pump(
    inner: asyncio.StreamReader, outer: asyncio.StreamReader, trace: TraceWriter, sender: Sender
) -> None:
    try:
        while data := await inner.read(CHUNK):
            trace.feed(sender, data)
            outer.feed_data(data)
    except (ConnectionError, OSError) as exc:
        outer.set_exception(exc)
        return
    finally:
        trace.finish(sender)
    outer.feed_eof()


@contextlib.asynccontextmanager
async def recorded_streams(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    path: str | os.PathLike[str],
    role: Literal["agent", "client"],
    limit: int,
) -> AsyncIterator[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """The pair to give a connection of ``role`` so that its traffic is recorded to ``path``."""
    peer: Sender = "client" if role == "agent" else "agent"
    trace = TraceWriter(path, {"recorder": "runtime", "role": role})
    outer = asyncio.StreamReader(limit=limit)
    pump = asyncio.get_running_loop().create_task(_pump(reader, outer, trace, peer))
    try:
        yield outer, _RecordingWriter(writer, trace, role)
    finally:
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pump
        trace.close()
