"""The trace format (version 1) and its reader (the writer is the runtime's ``recording.py``).

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..recording import FORMAT_VERSION, KIND, SENDERS, Sender

__all__ = ["Trace", "TraceError", "TraceFrame", "read_trace"]


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
