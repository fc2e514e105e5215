# Edit acpgen/shipped/runtime/transports/spawn.py, not this file: acpgen generate writes it.
"""The spawned peer: a client starts its agent (or an agent its client) as a process and
speaks ACP on the process' stdin/stdout.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
:func:`spawn_peer` takes the connection class (``launch.py``, rendered, passes the package's
typed one), so nothing here names a rendered module.

A spawned agent runs in a process group of its own, and the group is what is stopped: an
agent started through a launcher (a shell or node script running the real binary as its
child) leaves nothing behind when the client exits, normally or through an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Literal, TypeVar

from ..recording import Record, maybe_recorded
from ..transport import End

__all__ = ["spawn_peer", "spawn_process", "stop_process_group"]

logger = logging.getLogger(__name__)

_E = TypeVar("_E", bound=End)


@contextlib.asynccontextmanager
async def spawn_process(
    command: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    exit_grace: float = 5.0,
) -> AsyncIterator[tuple[asyncio.StreamReader, asyncio.StreamWriter, asyncio.subprocess.Process]]:
    """Start an agent process in a new process group; yield (its stdout, its stdin, the process).

    The agent's stderr is inherited: clients may capture, forward or ignore it. On exit
    (also on an error or cancellation), stdin is closed first (the agent sees EOF and may
    finish), then the process group is stopped: see :func:`stop_process_group`.
    """
    if not command:
        raise ValueError("no agent command given")
    # The agent's stdout is a pipe of our own, read by a plain read-pipe transport: asyncio's
    # subprocess transport hands each chunk on through one more loop turn (call_soon), which
    # on a small message is a measurable share of its cost.
    read_fd, write_fd = os.pipe()
    try:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=write_fd,
            env=env,
            cwd=cwd,
            process_group=0,
        )
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)  # the agent holds it now: its exit is our end of input
    loop = asyncio.get_running_loop()
    stdout = asyncio.StreamReader()
    try:
        pipe = os.fdopen(read_fd, "rb", 0)
    except BaseException:
        os.close(read_fd)
        raise
    reading = None
    assert process.stdin is not None
    try:
        reading, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(stdout), pipe
        )
        yield stdout, process.stdin, process
    finally:
        with contextlib.suppress(Exception):
            process.stdin.close()
        try:
            await stop_process_group(process, exit_grace)
        except BaseException:
            _signal_group(process.pid, signal.SIGKILL)  # interrupted: no waiting, no survivors
            raise
        finally:
            if reading is not None:
                reading.close()
            else:
                pipe.close()


async def stop_process_group(process: asyncio.subprocess.Process, grace: float = 5.0) -> None:
    """Wait up to ``grace`` seconds for the leader to exit, then SIGTERM its group, then SIGKILL.

    Also when the leader exited by itself: what it left running in its group (a launcher's
    child) is terminated too. The process' pipes are closed before returning, so nothing is
    left for the garbage collector to close after the event loop has ended.
    """
    pgid = process.pid  # process_group=0: the group id is the leader's pid
    if not await _leader_exited(process, grace):
        logger.info(
            "agent (pid %d) still running %.1fs after EOF: terminating its group", pgid, grace
        )
        _signal_group(pgid, signal.SIGTERM)
        if not await _leader_exited(process, grace):
            _signal_group(pgid, signal.SIGKILL)
            await _leader_exited(process, None)
    if _signal_group(pgid, signal.SIGTERM):  # survivors of the leader
        for _ in range(20):
            await asyncio.sleep(0.05)
            if not _signal_group(pgid, 0):
                break
        else:
            _signal_group(pgid, signal.SIGKILL)
    transport = getattr(process, "_transport", None)  # asyncio keeps it private
    if transport is not None:
        transport.close()


async def _leader_exited(process: asyncio.subprocess.Process, timeout: float | None) -> bool:
    """Whether the leader exited within ``timeout`` seconds (None: however long it takes).

    Not ``process.wait()``: on Python 3.11 that also waits until the pipes close, and a
    launcher's surviving child holds them open, so a leader that has long exited would cost
    the whole grace period. The exit status is set as soon as the child is reaped.
    """
    loop = asyncio.get_running_loop()
    deadline = None if timeout is None else loop.time() + timeout
    while process.returncode is None:
        if deadline is not None and loop.time() >= deadline:
            return False
        await asyncio.sleep(0.02)
    return True


def _signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to the group; False when no process of it is left."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:  # a member changed its credentials: not ours to stop
        return True
    return True


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
