# Edit acpgen/shipped/conformance/wire.py, not this file: acpgen generate writes it.
"""What travelled on the wire: one frame per line, decoded as far as it goes.

The kit reads the peer's stdout (or, for a client, what the client wrote to the scripted
agent's stdin) line by line and keeps the raw bytes of every line, so a check can report
exactly what it saw: a line that is not UTF-8, not JSON, not an object, or a message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

Direction = Literal["in", "out"]  # in: from the implementation under test; out: from the kit

MAX_SHOWN = 160  # characters of a raw line quoted in a failure message


@dataclass(frozen=True)
class Frame:
    """One line on the wire, as sent (``out``) or received (``in``)."""

    direction: Direction
    raw: bytes
    time: float
    message: Any = None  # the decoded JSON value; None when ``problem`` is set
    problem: str | None = None  # why the line is not a JSON value
    number: int | None = None  # its frame number in a recorded trace (the trace judge's)

    @property
    def is_object(self) -> bool:
        return self.problem is None and isinstance(self.message, dict)

    @property
    def is_batch(self) -> bool:
        """A JSON array: a JSON-RPC batch (of requests and notifications, or of responses)."""
        return self.problem is None and isinstance(self.message, list)

    def parts(self) -> list[Frame]:
        """The messages on this line: itself, or one frame per object of a batch (same bytes)."""
        if self.is_batch:
            return [
                Frame(self.direction, self.raw, self.time, message=m, number=self.number)
                for m in self.message
                if isinstance(m, dict)
            ]
        return [self] if self.is_object else []

    def responses(self) -> list[Frame]:
        """The responses on this line, whether it holds one or a batch of them."""
        return [p for p in self.parts() if p.is_response]

    def get(self, key: str) -> Any:
        return self.message.get(key) if self.is_object else None

    @property
    def method(self) -> str | None:
        value = self.get("method")
        return value if isinstance(value, str) else None

    @property
    def is_request(self) -> bool:
        return self.is_object and "method" in self.message and "id" in self.message

    @property
    def is_notification(self) -> bool:
        return self.is_object and "method" in self.message and "id" not in self.message

    @property
    def is_response(self) -> bool:
        return self.is_object and "method" not in self.message

    def shown(self) -> str:
        """The raw line, shortened and printable, for a failure message (after its frame
        number in a recorded trace)."""
        text = self.raw.decode("utf-8", errors="backslashreplace").rstrip("\n")
        text = text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."
        return text if self.number is None else f"frame {self.number}: {text}"


def decode_line(direction: Direction, raw: bytes, time: float) -> Frame:
    """A frame for one line (its trailing newline, if any, included in ``raw``)."""
    body = raw[:-1] if raw.endswith(b"\n") else raw
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Frame(direction, raw, time, problem=f"not UTF-8 (byte {exc.start})")
    if body.endswith(b"\r"):
        text = text[:-1]
    try:
        value = json.loads(text)
    except ValueError as exc:
        return Frame(direction, raw, time, problem=f"not JSON ({exc})")
    return Frame(direction, raw, time, message=value)


def encode(message: Any) -> bytes:
    """One NDJSON line: compact JSON (never an embedded newline), UTF-8, ``\\n``."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


@dataclass
class Transcript:
    """Every frame of one run, in order, plus what the peer wrote to stderr and how it ended."""

    name: str
    frames: list[Frame] = field(default_factory=list)
    stderr: bytes = b""
    exit_code: int | None = None
    notes: dict[str, Any] = field(default_factory=dict)  # facts the scenario established

    def received(self) -> list[Frame]:
        return [f for f in self.frames if f.direction == "in"]

    def sent(self) -> list[Frame]:
        return [f for f in self.frames if f.direction == "out"]

    def requests(self, method: str, direction: Direction = "in") -> list[Frame]:
        return [
            f
            for f in self.frames
            if f.direction == direction and f.is_request and f.method == method
        ]

    def notifications(self, method: str, direction: Direction = "in") -> list[Frame]:
        return [
            f
            for f in self.frames
            if f.direction == direction and f.is_notification and f.method == method
        ]

    def response_to(self, request: Frame) -> Frame | None:
        """The response (in the other direction) that carries the request's id, alone or in
        a batch."""
        other: Direction = "out" if request.direction == "in" else "in"
        req_id = request.get("id")
        for frame in self.frames:
            if frame.direction != other or frame.time < request.time:
                continue
            for part in frame.parts():
                if part.is_response and "id" in part.message and _same_id(part.get("id"), req_id):
                    return part
        return None

    def request_for(self, response: Frame) -> Frame | None:
        """The request (in the other direction) a response answers, sent alone or in a batch."""
        other: Direction = "out" if response.direction == "in" else "in"
        if "id" not in (response.message if response.is_object else {}):
            return None
        for frame in self.frames:
            if frame.direction != other:
                continue
            for part in frame.parts():
                if part.is_request and _same_id(part.get("id"), response.get("id")):
                    return part
        return None


def _same_id(a: Any, b: Any) -> bool:
    # 1 and 1.0 and True compare equal in Python; JSON-RPC ids must match in type too.
    return type(a) is type(b) and a == b
