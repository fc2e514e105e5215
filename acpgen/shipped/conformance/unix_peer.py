"""Talk to an agent listening on a Unix-domain socket (``unix:PATH``) as the kit talks to a child
process: newline-delimited JSON both ways, every frame kept in the transcript, the same bounds
on lines, frames and waits.

There is no process to start or stop: the agent runs already, and a run is one connection to
it (closing it is the agent's end of input). No library beyond asyncio is needed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping, Sequence

from .process import MAX_LINE, Peer, PeerClosed, PeerError, PeerTimeout
from .wire import Frame, Transcript, decode_line

__all__ = ["UnixPeer"]

SEND_TIMEOUT = 5.0  # seconds a write may wait for the agent to read (as a child's stdin)


class UnixPeer(Peer):
    """An agent at ``unix:PATH``."""

    def __init__(self, transcript: Transcript, url: str) -> None:
        super().__init__(transcript)
        self.url = url
        self._writer: asyncio.StreamWriter | None = None

    async def start(
        self,
        argv: Sequence[str] = (),
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.argv = [self.url]
        path = self.url.partition(":")[2]
        try:
            reader, self._writer = await asyncio.wait_for(
                asyncio.open_unix_connection(path, limit=MAX_LINE), SEND_TIMEOUT
            )
        except (OSError, TimeoutError) as exc:
            raise PeerError(f"cannot connect to {self.url}: {exc}") from None
        self._tasks = [asyncio.ensure_future(self.read_lines(reader, "closed the connection"))]

    async def send_raw(self, raw: bytes) -> Frame:
        """Write one line as is (it may be malformed on purpose); the frame is recorded."""
        frame = decode_line("out", raw, time.monotonic())
        self.transcript.frames.append(frame)
        if self._writer is None:
            raise PeerClosed("not connected")
        try:
            self._writer.write(raw)
            await asyncio.wait_for(self._writer.drain(), timeout=SEND_TIMEOUT)
        except (BrokenPipeError, ConnectionResetError):
            raise PeerClosed(self.describe_end("stopped reading the connection")) from None
        except TimeoutError:
            raise PeerTimeout(
                f"stopped reading the connection (full for {SEND_TIMEOUT:g} s)"
            ) from None
        return frame

    async def close(self) -> None:
        """Close the connection; the reader ends with it."""
        if self._writer is not None:
            with contextlib.suppress(OSError, RuntimeError):
                self._writer.close()
            with contextlib.suppress(OSError, RuntimeError, TimeoutError):
                await asyncio.wait_for(self._writer.wait_closed(), SEND_TIMEOUT)
        for task in self._tasks:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(task, timeout=SEND_TIMEOUT)
            task.cancel()
