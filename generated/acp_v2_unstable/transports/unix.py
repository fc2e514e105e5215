# Edit acpgen/shipped/runtime/transports/unix.py, not this file: acpgen generate writes it.
"""ACP over a Unix-domain socket, both sides: newline-delimited JSON-RPC (as on stdio) over a
stream socket at a path, ``unix:PATH``.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

An agent serves it with ``run_remote_agent(factory, "unix:PATH")`` (a row of
``lazy_server.LISTENERS``), a client dials it with ``connect_to_remote_agent(client,
"unix:PATH")`` (a row of ``dial.SCHEMES``): every accepted connection gets its own agent on its
own engine, over the seam's ``StreamTransport``, exactly as a spawned agent on its pipes. It
needs no library beyond asyncio. Who may connect is the file system's business: the socket is
made readable and writable by this user only (mode 0600), and a path where a live server
already listens is refused, never taken over (a stale socket file is replaced).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import stat
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from ..recording import maybe_recorded
from ..transport import End
from .dial import Dial
from .options import ServerOptions

__all__ = ["SCHEME", "connect", "run_remote_agent", "serve_unix", "socket_path"]

logger = logging.getLogger(__name__)

SCHEME = "unix"
_MODE = 0o600  # the socket file: this user only

_E = TypeVar("_E", bound=End)


def socket_path(address: str) -> str:
    """The path of ``unix:PATH`` (ValueError for anything else, or an empty path)."""
    scheme, sep, path = address.partition(":")
    if not sep or scheme.lower() != SCHEME or not path:
        raise ValueError(f"not {SCHEME}:PATH: {address!r}")
    return path


# -- the client -------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def connect(end: Callable[..., _E], client: Any, dial: Dial) -> AsyncIterator[_E]:
    """The connection end ``end`` makes, over the socket at ``dial.url`` (``unix:PATH``),
    started; on exit closed (the agent sees the end of its input)."""
    path = socket_path(dial.url)
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_unix_connection(path, limit=dial.limit), dial.open_timeout
        )
    except (OSError, TimeoutError) as exc:
        raise ConnectionError(f"{dial.url}: cannot connect: {exc}") from exc
    async with maybe_recorded(reader, writer, dial.record, "client", dial.limit) as (inp, out):
        side = end(client, inp, out, max_frame_bytes=dial.limit)
        side.start()
        try:
            yield side
        finally:
            await side.close()


# -- the agent's server -------------------------------------------------------------------------


def _take_path(path: str) -> None:
    """Make room for a new socket at ``path``: a stale socket file goes, anything else (a
    live server's socket, a file that is no socket) is refused with OSError."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise OSError(f"{path}: exists and is not a socket")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(path)
    except (ConnectionRefusedError, FileNotFoundError):
        os.unlink(path)  # nobody listens: a server that ended without cleaning up
        return
    finally:
        probe.close()
    raise OSError(f"{path}: a server already listens there")


async def serve_unix(
    end: Callable[..., End],
    agent_factory: Callable[[], Any],
    path: str,
    *,
    options: ServerOptions | None = None,
    ready: Callable[[str], object] | None = None,
    shutdown: Callable[[], Awaitable[object]] | None = None,
) -> None:
    """Serve agents on the socket at ``path`` until ``shutdown()`` returns (or the task is
    cancelled): each connection gets ``end(agent_factory(), reader, writer)``. ``ready`` is
    called with the address (``unix:PATH``) once the socket listens. Of ``options``, the
    frame limit and ``max_connections`` apply (a connection past it is closed at once). On
    the way out every connection is closed and the socket file removed."""
    options = options or ServerOptions()
    limit = options.max_frame_bytes
    sides: set[End] = set()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(sides) >= options.max_connections:
            logger.warning("refused a connection: %d are open", len(sides))
            writer.close()
            return
        side = end(agent_factory(), reader, writer, max_frame_bytes=limit)
        sides.add(side)
        side.start()
        try:
            await side.wait_closed()
        finally:
            sides.discard(side)
            await side.close()

    _take_path(path)
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    mask = os.umask(0o777 & ~_MODE)  # made 0600 as it is bound: never open to others
    try:
        listening.bind(path)
    except BaseException:
        listening.close()
        raise
    finally:
        os.umask(mask)
    server = await asyncio.start_unix_server(handle, sock=listening, limit=limit)
    try:
        if ready is not None:
            ready(f"{SCHEME}:{path}")
        if shutdown is None:
            await asyncio.Event().wait()  # until cancelled
        else:
            await shutdown()
    finally:
        server.close()
        await asyncio.gather(*(side.close() for side in list(sides)), return_exceptions=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(server.wait_closed(), 2.0)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


async def run_remote_agent(
    end: Callable[..., End],
    agent_factory: Callable[[], Any],
    listen: str,
    *,
    options: ServerOptions | None = None,
    certfile: str | None = None,
    keyfile: str | None = None,
) -> None:
    """Serve agents on ``listen`` (``unix:PATH``) until SIGTERM or SIGINT, as
    ``server.run_remote_agent`` does on ``HOST:PORT``: the address goes to stderr
    (``serving on unix:PATH``). TLS does not apply to a local socket (ValueError)."""
    path = socket_path(listen)
    if certfile is not None or keyfile is not None:
        raise ValueError(f"{listen}: TLS (certfile, keyfile) does not apply to a Unix socket")

    def ready(address: str) -> None:
        print(f"serving on {address}", file=sys.stderr, flush=True)

    stop = asyncio.Event()  # SIGTERM or SIGINT: every connection closed, the socket removed
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    try:
        await serve_unix(end, agent_factory, path, options=options, ready=ready, shutdown=stop.wait)
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)
