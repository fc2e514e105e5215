"""Recording a conversation: the trace file's writer and the ``record=`` option of the
runtime's entry points (``run_agent``, ``connect_to_agent``, ``connect_to_client``; remote:
``connect_to_remote_agent``, ``agent_app``, ``serve_agent``).

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/recording.py``).
The trace format (version 1) is documented in docs/traces.md and read by ``trace/format.py``;
the recorder proxy (``python -m <package>.trace record``) writes it with the same writer.

For a connection, its streams are wrapped, not its engine: what the peer writes is read by a
pump that records it and feeds an ordinary :class:`asyncio.StreamReader` for the connection,
and what the connection writes is recorded as it is handed to the transport (before it, so
the trace never shows an answer before what it answers). The bytes on the wire are the same
with and without recording. A transport that sees whole frames (the remote ones) records
each with :meth:`TraceWriter.frame` (``transports/channel.py``), a server one file per connection
(:func:`connection_trace_paths`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import threading
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any, Literal

__all__ = [
    "FORMAT_VERSION",
    "KIND",
    "SENDERS",
    "Record",
    "Sender",
    "TraceWriter",
    "connection_trace_paths",
    "maybe_recorded",
    "recorded_streams",
]

FORMAT_VERSION = 1
KIND = "acp-trace"
Sender = Literal["client", "agent"]
Record = str | os.PathLike[str] | None  # where to record a connection to, if anywhere
SENDERS: tuple[Sender, Sender] = ("client", "agent")


def frame_record(number: int, sender: Sender, elapsed: float, raw: bytes) -> dict[str, Any]:
    record: dict[str, Any] = {"n": number, "from": sender, "t": round(elapsed, 6)}
    try:
        record["data"] = raw.decode("utf-8")
    except UnicodeDecodeError:
        record["b64"] = base64.b64encode(raw).decode("ascii")
    return record


def _line(record: Mapping[str, Any]) -> bytes:
    # ensure_ascii=False keeps the file readable; the text is valid UTF-8 (decoded from it).
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


class _Splitter:
    """Cuts one direction's byte stream into lines, whatever the chunks it arrives in."""

    def __init__(self) -> None:
        self.pending = bytearray()

    def feed(self, data: bytes) -> Iterator[bytes]:
        start = 0
        while (end := data.find(b"\n", start)) != -1:
            if self.pending:
                self.pending += data[start : end + 1]
                yield bytes(self.pending)
                self.pending.clear()
            else:
                yield data[start : end + 1]
            start = end + 1
        self.pending += data[start:]

    def flush(self) -> bytes:
        rest = bytes(self.pending)
        self.pending.clear()
        return rest


class TraceWriter:
    """Writes one trace file. Thread-safe: the two directions of a proxy feed it from their
    own threads. Records are written as soon as their line is complete, whole lines in one
    ``write``, so a recorder that is killed leaves every earlier record whole."""

    def __init__(self, path: str | os.PathLike[str], header: Mapping[str, Any]) -> None:
        self._fd = os.open(os.fspath(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        self._lock = threading.Lock()
        self._start = time.monotonic()
        self._count = 0
        self._splitters = {sender: _Splitter() for sender in SENDERS}
        self._closed = False
        started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self._write({"format": FORMAT_VERSION, "kind": KIND, "started": started, **header})

    def _write(self, record: Mapping[str, Any]) -> None:
        self._write_bytes(_line(record))

    def _write_bytes(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]

    def feed(self, sender: Sender, data: bytes) -> None:
        """Bytes ``sender`` wrote, as they came: each completed line becomes a frame (the
        frames completed by one call are written together, in one ``write``)."""
        with self._lock:
            if self._closed:
                return
            elapsed = time.monotonic() - self._start
            records = []
            for line in self._splitters[sender].feed(data):
                self._count += 1
                records.append(_line(frame_record(self._count, sender, elapsed, line)))
            if records:
                self._write_bytes(b"".join(records))

    def frame(self, sender: Sender, raw: bytes) -> None:
        """One whole frame ``sender`` sent over a transport that delimits frames itself (a
        WebSocket message, an HTTP body, an SSE event): one record, even if the text holds a
        newline; a newline is appended when it ends without one, as a line on stdio would."""
        with self._lock:
            if not self._closed:
                self._frame(sender, raw if raw.endswith(b"\n") else raw + b"\n")

    def _frame(self, sender: Sender, raw: bytes) -> None:
        self._count += 1
        self._write(frame_record(self._count, sender, time.monotonic() - self._start, raw))

    def finish(self, sender: Sender) -> None:
        """``sender`` closed its stream: a last line without a newline becomes a frame."""
        with self._lock:
            rest = self._splitters[sender].flush()
            if rest and not self._closed:
                self._frame(sender, rest)

    def close(self, exit_code: int | None = None) -> None:
        """Write the end record (after what is left of both directions) and close the file."""
        for sender in SENDERS:
            self.finish(sender)
        with self._lock:
            if self._closed:
                return
            self._closed = True
            elapsed = round(time.monotonic() - self._start, 6)
            self._write({"end": True, "t": elapsed, "exit": exit_code})
            os.close(self._fd)


CHUNK = 65536
CONNECTION_PLACEHOLDER = "{n}"


def connection_trace_paths(record: str | os.PathLike[str]) -> Iterator[str]:
    """Where a server records its connections, one file each, numbered from 1 in the order
    they open: in a directory, ``acp-trace-<UTC start>-<pid>-<n>.jsonl``; or a path template
    in which ``{n}`` is replaced by the number. Anything else would have every connection
    overwrite the one file: :class:`ValueError` (at once, not at the first connection)."""
    where = os.fspath(record)
    if os.path.isdir(where):
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        name = f"acp-trace-{stamp}-{os.getpid()}-{CONNECTION_PLACEHOLDER}.jsonl"
        where = os.path.join(where, name)
    elif CONNECTION_PLACEHOLDER not in where:
        raise ValueError(
            f"record={where!r}: not a directory and no {CONNECTION_PLACEHOLDER} in it "
            "(a server records each connection to a file of its own)"
        )
    return (where.replace(CONNECTION_PLACEHOLDER, str(n)) for n in itertools.count(1))


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


@contextlib.asynccontextmanager
async def maybe_recorded(
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
