# Edit acpgen/shipped/runtime/transports/stdio.py, not this file: acpgen generate writes it.
"""The stdio transport: an agent speaks ACP on this process' stdin/stdout.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
:func:`serve_stdio` takes the connection class (``launch.py``, rendered, passes the package's
typed ``AgentSideConnection``), so nothing here names a rendered module. The other end, a
client spawning the agent, is ``spawn.py``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import selectors
import stat
import sys
import threading
from collections.abc import Callable
from typing import Any

from ..recording import Record, maybe_recorded
from ..transport import End

__all__ = ["serve_stdio", "stdio_streams"]

logger = logging.getLogger(__name__)


async def stdio_streams() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """This process' stdin and stdout as an asyncio stream pair, for an agent.

    The agent must write nothing but ACP messages to stdout, so the protocol keeps a private
    duplicate of file descriptor 1 and descriptor 1 (and ``sys.stdout``) is pointed at
    stderr: a stray ``print`` becomes a log line instead of a corrupt frame.
    """
    loop = asyncio.get_running_loop()
    # A descriptor closed when Python started (``<&-``, ``>&-``) may since have been reused
    # (by the event loop's own epoll descriptor, say): Python then set sys.stdin/sys.stdout
    # to None, and the number is not ours to read, write or replace.
    stdin_kind = "closed" if sys.stdin is None else _kind(0)
    if sys.stdout is None:
        protocol_fd = os.open(os.devnull, os.O_WRONLY)  # answers go nowhere, as asked
    else:
        sys.stdout.flush()
        protocol_fd = os.dup(1)
        if sys.stderr is not None:
            os.dup2(2, 1)
            sys.stdout = sys.stderr
    reader = asyncio.StreamReader()
    if stdin_kind == "closed":  # ``<&-``: no input at all, which is the end of input
        reader.feed_eof()
    elif stdin_kind == "pollable":
        await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(0, "rb", 0)
        )
    else:  # a regular file (``< requests.jsonl``) or ``/dev/null``: the loop cannot poll it
        _copy_in_thread(
            0,
            lambda data: loop.call_soon_threadsafe(reader.feed_data, data),
            lambda: loop.call_soon_threadsafe(reader.feed_eof),
        )
    if _kind(protocol_fd) != "pollable":  # ``> responses.jsonl``: a pipe and a thread
        read_end, write_end = os.pipe()
        target = functools.partial(_write_all, protocol_fd)
        # Not a daemon: the interpreter waits for it, so every response reaches the file.
        _copy_in_thread(read_end, target, lambda: None, daemon=False)
        protocol_fd = write_end
    transport, flow = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(protocol_fd, "wb", 0)
    )
    # drain() then waits until each frame is in the pipe: nothing is lost at exit.
    transport.set_write_buffer_limits(high=0)
    writer = asyncio.StreamWriter(transport, flow, None, loop)
    return reader, writer


def _kind(fd: int) -> str:
    """``closed``, ``pollable`` (the event loop can watch it: a pipe, socket or terminal) or
    ``blocking`` (a regular file, or a device such as ``/dev/null`` that epoll refuses).

    Asked of the OS rather than guessed from the file type: asyncio would register a refused
    descriptor in a callback, log the ``PermissionError`` and never see end of input.
    """
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return "closed"
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)):
        return "blocking"
    probe = selectors.DefaultSelector()
    try:
        probe.register(fd, selectors.EVENT_READ)
    except (OSError, ValueError):
        return "blocking"
    finally:
        probe.close()
    return "pollable"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _copy_in_thread(
    fd: int, chunk: Callable[[bytes], object], end: Callable[[], object], *, daemon: bool = True
) -> None:
    def pump() -> None:
        try:
            while data := os.read(fd, 256 * 1024):
                chunk(data)
        except OSError:
            pass
        finally:
            end()

    threading.Thread(target=pump, name=f"stdio-fd{fd}", daemon=daemon).start()


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
