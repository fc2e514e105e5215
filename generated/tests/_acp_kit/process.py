# Edit acpgen/shipped/conformance/process.py, not this file: acpgen generate writes it.
"""Run the implementation under test as a child process and talk NDJSON with it.

The command runs in its own session (so in its own process group): closing a run kills the
whole group, grandchildren included, and reaps the child, whatever state it is in. Every read
has a deadline, every line and the number of lines are bounded, and what the child writes to
stderr is kept (bounded) for the failure message: a command that does not exist, exits at
once, writes garbage, never answers or floods gives an error, never a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Mapping, Sequence
from typing import Any

from .wire import Frame, Transcript, decode_line, encode

MAX_LINE = 8 * 1024 * 1024  # bytes in one frame before the peer counts as flooding
MAX_FRAMES = 20_000  # frames in one run before the peer counts as flooding
MAX_STDERR = 64 * 1024  # bytes of stderr kept for messages
EXIT_GRACE = 0.5  # seconds a child gets to exit by itself once its stdin is closed
TERM_GRACE = 1.0  # seconds between SIGTERM and SIGKILL


class PeerError(Exception):
    """The implementation under test broke the run; the message says how (one line)."""


class PeerTimeout(PeerError):
    pass


class PeerClosed(PeerError):
    pass


class Peer:
    """A child process spoken to over its stdin/stdout, every frame kept in a transcript."""

    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript
        self.argv: list[str] = []
        self._proc: asyncio.subprocess.Process | None = None
        self._frames: asyncio.Queue[Frame | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._stderr = bytearray()
        self._closed_reason: str | None = None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    async def start(
        self, argv: Sequence[str], cwd: str | None = None, env: Mapping[str, str] | None = None
    ) -> None:
        self.argv = list(argv)
        if not self.argv:
            raise PeerError("empty command")
        try:
            self._proc = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
                env=dict(env) if env is not None else None,
                start_new_session=True,
                limit=MAX_LINE,
            )
        except FileNotFoundError:
            raise PeerError(f"command not found: {self.argv[0]!r}") from None
        except PermissionError:
            raise PeerError(f"command not executable: {self.argv[0]!r}") from None
        except OSError as exc:
            raise PeerError(f"cannot start {self.argv[0]!r}: {exc.strerror}") from None
        self._tasks = [
            asyncio.ensure_future(self._read_stdout()),
            asyncio.ensure_future(self._read_stderr()),
        ]

    async def _read_stdout(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        await self.read_lines(self._proc.stdout, "closed its stdout")

    async def read_lines(self, reader: asyncio.StreamReader, end: str) -> None:
        """Every line ``reader`` gives, as frames, bounded; ``end``: what its end means."""
        count = 0
        try:
            while True:
                try:
                    raw = await reader.readuntil(b"\n")
                except asyncio.IncompleteReadError as exc:
                    if exc.partial:
                        self._push(decode_line("in", exc.partial, time.monotonic()))
                    self._closed_reason = end
                    break
                except asyncio.LimitOverrunError:
                    self._closed_reason = f"flooded: wrote a line longer than {MAX_LINE} bytes"
                    break
                count += 1
                if count > MAX_FRAMES:
                    self._closed_reason = f"flooded: wrote more than {MAX_FRAMES} lines"
                    break
                self._push(decode_line("in", raw, time.monotonic()))
        finally:
            await self._frames.put(None)

    def _push(self, frame: Frame) -> None:
        self.transcript.frames.append(frame)
        self._frames.put_nowait(frame)

    async def _read_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        while True:
            chunk = await self._proc.stderr.read(65536)
            if not chunk:
                return
            room = MAX_STDERR - len(self._stderr)
            if room > 0:
                self._stderr += chunk[:room]

    async def send(self, message: Any) -> Frame:
        return await self.send_raw(encode(message))

    async def send_raw(self, raw: bytes) -> Frame:
        """Write one line as is (it may be malformed on purpose); the frame is recorded."""
        frame = decode_line("out", raw, time.monotonic())
        self.transcript.frames.append(frame)
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise PeerClosed("not started")
        try:
            proc.stdin.write(raw)
            await asyncio.wait_for(proc.stdin.drain(), timeout=5.0)
        except (BrokenPipeError, ConnectionResetError):
            raise PeerClosed(self.describe_end("stopped reading its stdin")) from None
        except TimeoutError:
            raise PeerTimeout(
                "stopped reading its stdin (its input pipe stayed full for 5 s)"
            ) from None
        return frame

    async def next_frame(self, timeout: float) -> Frame:
        """The next frame the peer writes; PeerTimeout / PeerClosed otherwise."""
        try:
            frame = await asyncio.wait_for(self._frames.get(), timeout=max(timeout, 0.0))
        except TimeoutError:
            raise PeerTimeout(f"wrote nothing for {timeout:g} s") from None
        if frame is None:
            self._frames.put_nowait(None)  # every later read sees the end too
            raise PeerClosed(self.describe_end(self._closed_reason or "closed its stdout"))
        return frame

    def describe_end(self, what: str) -> str:
        """``what``, plus the exit status and the end of stderr when known."""
        parts = [what]
        proc = self._proc
        if proc is not None and proc.returncode is not None:
            parts.append(f"exit status {proc.returncode}")
        tail = self.stderr_tail()
        if tail:
            parts.append(f"stderr: {tail}")
        return "; ".join(parts)

    def stderr_tail(self, limit: int = 300) -> str:
        text = bytes(self._stderr).decode("utf-8", errors="backslashreplace").strip()
        text = " | ".join(line for line in text.splitlines() if line.strip())
        return text if len(text) <= limit else "..." + text[-limit:]

    async def close(self) -> None:
        """Close stdin, give the child a moment, then kill its whole group; always reaps."""
        proc = self._proc
        if proc is None:
            return
        if proc.stdin is not None and not proc.stdin.is_closing():
            with contextlib.suppress(OSError, RuntimeError):
                proc.stdin.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), timeout=EXIT_GRACE)
        # The leader may be gone while children it started still run: signal the group anyway.
        _signal_group(proc.pid, signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), timeout=TERM_GRACE)
        except TimeoutError:
            pass
        _signal_group(proc.pid, signal.SIGKILL)
        await proc.wait()
        for task in self._tasks:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(task, timeout=TERM_GRACE)
            task.cancel()
        # A pipe left unread (a flood stopped at the line limit) keeps the transport open
        # past its loop: closed here, or its finalizer complains once the loop is gone.
        transport = getattr(proc, "_transport", None)
        if transport is not None:
            transport.close()
        self.transcript.stderr = bytes(self._stderr)
        self.transcript.exit_code = proc.returncode


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
