# Edit acpgen/shipped/runtime/transports/http/sse.py, not this file: acpgen generate writes it.
"""Server-sent events as the Streamable HTTP profile sends them: one JSON-RPC message per event
(the client reads them with httpx2's ``EventSource``).

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).
Only ``data`` lines and comments are used (event ids and ``Last-Event-ID`` resumption are
v2 in the RFD).
"""

from __future__ import annotations

__all__ = ["KEEPALIVE", "encode_event"]

KEEPALIVE = b": keepalive\n\n"  # a comment: keeps proxies from timing out a quiet stream


def encode_event(frame: bytes) -> bytes:
    """One frame (compact JSON, which has no newline, with or without its trailing one)."""
    return b"data: " + frame.rstrip(b"\n") + b"\n\n"
