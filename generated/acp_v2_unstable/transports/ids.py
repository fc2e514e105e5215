# Edit acpgen/shipped/runtime/transports/ids.py, not this file: acpgen generate writes it.
"""Which request ids a transport can answer under, and the answer for the others.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

JSON-RPC's id is a string, a number or null. A number JSON cannot carry back (``1e400``
parses as infinity), a boolean, an object or an array is no id: a request carrying one
cannot be answered under it, so it is never run (nothing would ever answer it: the engine
failed to encode the answer, and the transport kept waiting for it) and is answered once,
at once, with a null id and -32600, as JSON-RPC says for an invalid request. The engine
(``rpc.py``) applies the same rule on every transport; this is the transport's side, which
must not count such a request as in flight.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import InvalidRequestError
from ..framing import encode_message

__all__ = ["echoable", "invalid_id_answer"]


def echoable(message: Any) -> bool:
    """Whether a decoded message has no id, or one it can be answered under."""
    if not isinstance(message, dict) or "id" not in message:
        return True
    request_id = message["id"]
    if isinstance(request_id, bool):
        return False
    if isinstance(request_id, float):
        return math.isfinite(request_id)
    return request_id is None or isinstance(request_id, (str, int))


def invalid_id_answer() -> bytes:
    """The answer to a request whose id is no id: null id, -32600 (one line, encoded)."""
    error = InvalidRequestError(data={"reason": "invalid id"})
    return encode_message({"jsonrpc": "2.0", "id": None, "error": error.to_json()})
