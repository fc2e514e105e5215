# Edit acpgen/shipped/runtime/runtime_tests/test_envelopes.py, not this file: acpgen generate writes it.
"""The envelopes ``methods.py`` exports and the engine's wire answers agree.

Copied verbatim into every generated project by acpgen. ``methods.parse_message`` (the typed
envelopes) and the engine (``rpc.py``, which checks frames itself) classify the same message
the same way: accepted, or refused with the same error class and code. The engine is more
lenient than the envelopes in three deliberate places, pinned below: a fractional id (JSON-RPC
says SHOULD NOT, the official SDKs accept it), unknown top-level members (ignored), and
unstructured params (-32600: the request object is invalid, ACP-V1-JSONRPC-PARAMS-STRUCTURED).
"""

from __future__ import annotations

from typing import Any

import pytest

from ._package import methods
from .helpers import agent_and_raw_client, run

NEW = {"cwd": "/tmp", "mcpServers": []}

AGREED: list[tuple[Any, int | None]] = [
    ({"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": NEW}, None),
    ({"jsonrpc": "2.0", "id": "a", "method": "initialize", "params": {"protocolVersion": 1}}, None),
    ({"jsonrpc": "2.0", "id": None, "method": "session/new", "params": NEW}, None),
    ({"jsonrpc": "1.0", "id": 2, "method": "session/new", "params": NEW}, -32600),
    ({"id": 3, "method": "session/new", "params": NEW}, -32600),
    ({"jsonrpc": "2.0", "id": True, "method": "session/new", "params": NEW}, -32600),
    ({"jsonrpc": "2.0", "id": 11, "method": 5}, -32600),
    ({"jsonrpc": "2.0", "id": 12}, -32600),
    ({"jsonrpc": "2.0", "id": 5, "method": "session/new", "params": ["/tmp"]}, -32602),
    ({"jsonrpc": "2.0", "id": 8, "method": "session/new", "params": {"cwd": "/tmp"}}, -32602),
    ({"jsonrpc": "2.0", "id": 9, "method": "session/new"}, -32602),
    ({"jsonrpc": "2.0", "id": 6, "method": "no/such", "params": {}}, -32601),
]

# (message, what the envelopes say, what the engine answers): deliberate differences.
LENIENT: list[tuple[Any, int | None, int | None]] = [
    ({"jsonrpc": "2.0", "id": 1.5, "method": "session/new", "params": NEW}, -32600, None),
    ({"jsonrpc": "2.0", "id": 13, "method": "session/new", "params": NEW, "x": 1}, -32600, None),
    ({"jsonrpc": "2.0", "id": 4, "method": "session/new", "params": "x"}, -32602, -32600),
]


def _envelopes(message: Any) -> int | None:
    try:
        methods.parse_message(message)
    except methods.JsonRpcError as exc:
        return exc.code
    return None


def _engine(message: Any) -> int | None:
    async def body() -> int | None:
        _, peer, _ = await agent_and_raw_client()
        await peer.send(message)
        reply = await peer.recv()
        assert reply["id"] == (message.get("id") if message.get("id") is not True else None)
        return reply["error"]["code"] if "error" in reply else None

    return run(body())


@pytest.mark.parametrize(("message", "code"), AGREED, ids=[str(i) for i in range(len(AGREED))])
def test_the_envelopes_and_the_engine_agree(message: Any, code: int | None) -> None:
    assert _envelopes(message) == code
    assert _engine(message) == code


@pytest.mark.parametrize(
    ("message", "envelopes", "engine"),
    LENIENT,
    ids=["fraction-id", "extra-member", "string-params"],
)
def test_where_the_engine_is_deliberately_more_lenient(
    message: Any, envelopes: int | None, engine: int | None
) -> None:
    assert _envelopes(message) == envelopes
    assert _engine(message) == engine
