"""The trace format (version 1), its writer and its reader.

A trace is UTF-8 JSON Lines. The first line is the header, ``{"format": 1, "kind":
"acp-trace", ...}``; every further line is one record:

* a frame: ``{"n": 1, "from": "client"|"agent", "t": 0.000123, "data": "<the line>"}``, or
  ``"b64"`` instead of ``"data"`` when the line is not UTF-8. The line is kept exactly as it
  crossed the wire, its newline included (the last line of a stream may have none), so the
  bytes of each direction are the concatenation of its frames. ``t`` is seconds on the
  recorder's monotonic clock since the header was written, when the line's last byte was seen.
* the end: ``{"end": true, "t": ..., "exit": <exit code or null>}``, written when the
  recording stops (absent when the recorder was killed).

The format is documented in docs/traces.md; readers refuse a newer ``format``.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "FORMAT_VERSION",
    "Sender",
    "Trace",
    "TraceError",
    "TraceFrame",
    "TraceWriter",
    "read_trace",
]

FORMAT_VERSION = 1
KIND = "acp-trace"
Sender = Literal["client", "agent"]
SENDERS: tuple[Sender, Sender] = ("client", "agent")


class TraceError(ValueError):
    """A file that is no readable trace: ``where`` is ``<file>:<line>``."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


@dataclass(frozen=True)
class TraceFrame:
    """One recorded line: its number in the trace (1-based), who sent it, when, its bytes."""

    number: int
    sender: Sender
    time: float
    raw: bytes


@dataclass
class Trace:
    header: dict[str, Any]
    frames: list[TraceFrame] = field(default_factory=list)
    end: dict[str, Any] | None = None  # the end record, None when the recording was cut off


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


def _record(where: str, text: bytes) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as exc:  # also UnicodeDecodeError
        raise TraceError(where, f"not a JSON line ({exc})") from None
    if not isinstance(value, dict):
        raise TraceError(where, "not a JSON object")
    return value


def _frame(where: str, record: dict[str, Any], number: int) -> TraceFrame:
    sender, elapsed = record.get("from"), record.get("t")
    if sender not in SENDERS:
        raise TraceError(where, f'"from" is {sender!r}, not "client" or "agent"')
    if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)):
        raise TraceError(where, '"t" is not a number')
    if isinstance(record.get("data"), str):
        raw = record["data"].encode("utf-8", errors="surrogatepass")
    elif isinstance(record.get("b64"), str):
        try:
            raw = base64.b64decode(record["b64"], validate=True)
        except ValueError:
            raise TraceError(where, '"b64" is not base64') from None
    else:
        raise TraceError(where, 'a frame needs "data" (a string) or "b64"')
    return TraceFrame(number, sender, float(elapsed), raw)


def read_trace(path: str | os.PathLike[str]) -> Trace:
    """Read and check a trace; :class:`TraceError` names the line of the first problem.

    Frames are numbered by their position (1-based), whatever their ``n`` says, so a trace
    cut by hand still reads."""
    name = os.fspath(path)
    try:
        lines = Path(name).read_bytes().splitlines()
    except OSError as exc:
        raise TraceError(name, exc.strerror or str(exc)) from None
    if not lines:
        raise TraceError(f"{name}:1", "empty file: no trace header")
    header = _record(f"{name}:1", lines[0])
    version = header.get("format")
    if header.get("kind") != KIND or isinstance(version, bool) or not isinstance(version, int):
        raise TraceError(f"{name}:1", f'not an ACP trace header (needs "kind": "{KIND}")')
    if version > FORMAT_VERSION:
        raise TraceError(
            f"{name}:1", f"trace format {version} is newer than this reader's ({FORMAT_VERSION})"
        )
    trace = Trace(header)
    for index, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        where = f"{name}:{index}"
        record = _record(where, text)
        if trace.end is not None:
            raise TraceError(where, "a record after the end record")
        if record.get("end") is True:
            trace.end = record
            continue
        trace.frames.append(_frame(where, record, len(trace.frames) + 1))
    return trace
