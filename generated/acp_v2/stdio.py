# Edit acpgen/shipped/runtime/stdio.py, not this file: acpgen generate writes it.
"""The stdio transport: an agent speaks ACP on its stdin/stdout, a client spawns it.

Copied verbatim into every generated package by acpgen.

A spawned agent runs in a process group of its own, and the group is what is stopped: an
agent started through a launcher (a shell or node script running the real binary as its
child) leaves nothing behind when the client exits, normally or through an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import selectors
import signal
import stat
import sys
import threading
from collections.abc import AsyncIterator, Callable, Sequence

__all__ = ["spawn_process", "stdio_streams", "stop_process_group"]

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
