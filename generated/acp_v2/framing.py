# Edit acpgen/shipped/runtime/framing.py, not this file: acpgen generate writes it.
"""Newline-delimited JSON framing: one JSON-RPC message per line, UTF-8, size-limited.

Copied verbatim into every generated package by acpgen.

Encoding never drops a message (ACP-V1-TRANSPORT-UTF8): a lone UTF-16 surrogate in a string
(a truncated emoji, valid in JSON text as ``"\\ud83d"`` and so in a parsed message) cannot be
encoded as UTF-8, so it is **replaced by U+FFFD**, as the official TypeScript SDK's encoder
does, with a warning; a properly paired surrogate becomes its character. Replacing rather than
escaping keeps every frame acceptable to strict peers (serde_json refuses lone surrogate
escapes), and rather than refusing keeps the message. A value JSON cannot express at all (NaN,
an object of no JSON type) raises :class:`UnencodableMessage`.

Decoding reads frames of at most ``limit`` bytes; a longer line is discarded up to its
newline without being buffered, and only its first bytes are kept so that the receiver can
still answer the request it carried (see :func:`sniff_envelope`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from json import encoder as json_encoder
from typing import Any, Final

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "NOT_FOUND",
    "Oversized",
    "UnencodableMessage",
    "decode_frame",
    "encode_message",
    "read_frames",
    "sniff_envelope",
]

logger = logging.getLogger(__name__)

# Large enough for inline images and long prompts; a longer line is refused, not buffered.
DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024
_READ_CHUNK = 256 * 1024
_SNIFF_BYTES = 64 * 1024  # how much of an oversized line is kept to find its id


class UnencodableMessage(ValueError):
    """A message holds a value JSON cannot express (NaN, infinity, a non-JSON object)."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


# Built once: json.dumps and json.loads build a new encoder or decoder on every call that
# passes options, a measurable share of a small message's cost.
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
# The C encoder behind _ENCODER, also built once (JSONEncoder.encode builds it again on every
# call, through two Python frames). No cycle check: a cyclic value recurses until Python's
# limit (RecursionError), which is refused like any unencodable value.
_MAKE_ENCODER: Any = getattr(json_encoder, "c_make_encoder", None)  # None without _json
_C_ENCODE: Final = (
    None
    if _MAKE_ENCODER is None
    else _MAKE_ENCODER(
        None, _ENCODER.default, json_encoder.encode_basestring, None, ":", ",", False, False, False
    )
)


def encode_message(message: Any) -> bytes:
    """One message as one line: compact UTF-8 JSON (escapes keep newlines out of strings)."""
    try:
        text = _ENCODER.encode(message) if _C_ENCODE is None else "".join(_C_ENCODE(message, 0))
    except (TypeError, ValueError, RecursionError) as exc:
        raise UnencodableMessage(f"not JSON-encodable: {exc}"[:300]) from exc
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        # Pairs combine into their character; each lone surrogate becomes U+FFFD.
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        data = text.encode("utf-8")
        logger.warning("replaced lone UTF-16 surrogates by U+FFFD in an outgoing message")
    return data + b"\n"


_STRICT_DECODER: Final = json.JSONDecoder(parse_constant=_reject_constant)
# Its scanner (the C one; typeshed does not declare the attribute), called directly for the
# usual frame, a value from the first byte to the last; anything else (surrounding whitespace,
# extra data, no value) goes through the full decoder, which accepts it or says why not.
_Scanner = Callable[[str, int], tuple[Any, int]]
_SCAN: Final[_Scanner] = _STRICT_DECODER.scan_once  # type: ignore[attr-defined]


def decode_frame(frame: bytes) -> Any:
    """Parse one frame; ValueError (or RecursionError) for what is not UTF-8 JSON."""
    text = frame.decode("utf-8")
    try:
        value, end = _SCAN(text, 0)
        if end == len(text):
            return value
    except StopIteration:  # no value at the first byte
        pass
    return _STRICT_DECODER.decode(text)  # accepts what is left, or says why not


@dataclass(frozen=True)
class Oversized:
    """Yielded in place of a line longer than the limit: its size so far and first bytes."""

    prefix: bytes
    limit: int


async def read_frames(
    reader: asyncio.StreamReader, limit: int, idle: list[bool] | None = None
) -> AsyncIterator[bytes | Oversized]:
    """Yield each line (without its newline), or :class:`Oversized` for a refused one.

    ``idle[0]`` (when given) is True exactly while this waits for the reader with no part of
    a line held: then everything received so far has been yielded.
    """
    buffer = bytearray()
    discarding = False
    if idle is None:
        idle = [False]
    while True:
        idle[0] = not buffer and not discarding
        chunk = await reader.read(_READ_CHUNK)
        idle[0] = False
        if not chunk:
            if buffer and not discarding:
                yield bytes(buffer)
            return
        start = 0
        if not buffer and not discarding:
            # The usual case: the chunk starts a line (often it is one whole frame, or a run of
            # them): split at once, without copying through the buffer.
            lines = chunk.split(b"\n")
            tail = lines.pop()
            for line in lines:
                yield line if len(line) <= limit else Oversized(line[:_SNIFF_BYTES], limit)
            start = len(chunk) - len(tail)
        while True:
            newline = chunk.find(b"\n", start)
            end = len(chunk) if newline < 0 else newline
            if not discarding:
                buffer += chunk[start:end]
                if len(buffer) > limit:
                    prefix = bytes(buffer[:_SNIFF_BYTES])
                    buffer.clear()
                    discarding = True
                    yield Oversized(prefix, limit)
            if newline < 0:
                break
            if discarding:
                discarding = False
            else:
                yield bytes(buffer)
            buffer.clear()
            start = newline + 1


_DECODER = json.JSONDecoder()
NOT_FOUND: Final = object()  # sniff_envelope: the prefix shows no id


def sniff_envelope(prefix: bytes) -> tuple[Any, bool]:
    """From the first bytes of a message, its ``id`` (or a sentinel) and whether it has a method.

    Reads the top-level members in order while their values are scalars (peers write
    ``jsonrpc``, ``id`` and ``method`` first); stops at the first structured value. Returns
    ``(NOT_FOUND, False)`` when the prefix does not show them.
    """
    text = prefix.decode("utf-8", "ignore").lstrip()
    request_id: Any = NOT_FOUND
    has_method = False
    if not text.startswith("{"):
        return request_id, has_method
    at = 1
    try:
        while True:
            at = _skip_ws(text, at)
            key, at = _DECODER.raw_decode(text, at)
            at = _skip_ws(text, at)
            if not isinstance(key, str) or text[at] != ":":
                break
            at = _skip_ws(text, at + 1)
            if text[at] in "{[":
                break
            value, at = _DECODER.raw_decode(text, at)
            if key == "id":
                request_id = value
            elif key == "method":
                has_method = True
            at = _skip_ws(text, at)
            if text[at] != ",":
                break
            at += 1
    except (ValueError, IndexError):
        pass
    return request_id, has_method


def _skip_ws(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at
