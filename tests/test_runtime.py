"""The generated runtime over real stdio: the skeleton's echo agent as a subprocess, driven
with raw frames. Bad frames get the right JSON-RPC error (or a clean refusal) and the
connection keeps working; notifications are never answered; stdout carries only ACP.
"""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_skeleton_support import (
    RawProcessPeer,
    echo_agent_command,
    import_skeleton,
    run,
    skeleton_env,
)

MB = 1024 * 1024


def _error_code(reply: dict[str, Any]) -> int:
    assert reply["jsonrpc"] == "2.0"
    assert "result" not in reply, reply
    return int(reply["error"]["code"])


async def _start(skeleton: Path) -> tuple[RawProcessPeer, str]:
    peer = await RawProcessPeer.spawn(echo_agent_command(), skeleton_env(skeleton))
    await peer.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                     "params": {"protocolVersion": 1, "clientCapabilities": {}}})
    assert (await peer.recv())["result"]["protocolVersion"] == 1
    await peer.send({"jsonrpc": "2.0", "id": 1, "method": "session/new",
                     "params": {"cwd": "/tmp", "mcpServers": []}})
    session_id = (await peer.recv())["result"]["sessionId"]
    return peer, session_id


async def _prompt(peer: RawProcessPeer, session_id: str, request_id: Any, text: str) -> tuple[str, dict[str, Any]]:
    """Send a prompt; return the streamed text and the final response."""
    await peer.send({"jsonrpc": "2.0", "id": request_id, "method": "session/prompt",
                     "params": {"sessionId": session_id, "prompt": [{"type": "text", "text": text}]}})
    chunks: list[str] = []
    while True:
        message = await peer.recv()
        if message.get("method") == "session/update":
            assert "id" not in message
            chunks.append(message["params"]["update"]["content"]["text"])
            continue
        assert message["id"] == request_id, message
        return "".join(chunks), message


def test_bad_frames_get_errors_and_the_connection_keeps_working(skeleton: Path) -> None:
    async def body() -> None:
        peer, session_id = await _start(skeleton)
        # Malformed frame: parse error, null id.
        await peer.send_bytes(b'{"jsonrpc": "2.0", "id": 5, "method": \n')
        reply = await peer.recv()
        assert _error_code(reply) == -32700 and reply["id"] is None
        # Unknown method: method not found, the id echoed.
        await peer.send({"jsonrpc": "2.0", "id": "u1", "method": "session/teleport", "params": {}})
        reply = await peer.recv()
        assert _error_code(reply) == -32601 and reply["id"] == "u1"
        # Invalid params: a prompt whose content block is not a content block.
        await peer.send({"jsonrpc": "2.0", "id": 7, "method": "session/prompt",
                         "params": {"sessionId": session_id, "prompt": [{"type": "text"}]}})
        reply = await peer.recv()
        assert _error_code(reply) == -32602 and reply["id"] == 7
        # Not a request at all: invalid request.
        await peer.send({"jsonrpc": "2.0", "id": 8})
        reply = await peer.recv()
        assert _error_code(reply) == -32600 and reply["id"] == 8
        # Notifications (even unknown or invalid ones) are never answered: the next frame
        # on stdout is the answer to the next request.
        await peer.send({"jsonrpc": "2.0", "method": "no/such_notification", "params": {}})
        await peer.send({"jsonrpc": "2.0", "method": "session/cancel", "params": {}})
        text, response = await _prompt(peer, session_id, 9, "still here")
        assert text == "still here" and response["result"]["stopReason"] == "end_turn"
        assert await peer.close() == 0

    run(body())


@pytest.mark.slow
def test_ten_megabyte_lines(skeleton: Path) -> None:
    async def body() -> None:
        peer, session_id = await _start(skeleton)
        # A 10 MB prompt is within the default frame limit: echoed back whole.
        big = "x" * (10 * MB)
        text, response = await _prompt(peer, session_id, 10, big)
        assert text == big and response["result"]["stopReason"] == "end_turn"
        # 10 MB that is not JSON: a parse error with a null id.
        await peer.send_bytes(b"[" * (10 * MB) + b"\n")
        reply = await peer.recv()
        assert _error_code(reply) == -32700 and reply["id"] is None
        # A line over the limit (16 MiB) is discarded unread and refused, not buffered; its
        # id, read from the line's first bytes, is echoed so the sender's call can end.
        await peer.send({"jsonrpc": "2.0", "id": 11, "method": "session/prompt",
                         "params": {"sessionId": session_id,
                                    "prompt": [{"type": "text", "text": "y" * (17 * MB)}]}})
        reply = await peer.recv()
        assert _error_code(reply) == -32600 and reply["id"] == 11
        text, response = await _prompt(peer, session_id, 12, "after the flood")
        assert text == "after the flood" and response["result"]["stopReason"] == "end_turn"
        assert await peer.close() == 0

    run(body(), timeout=120)


# ---- fuzz: whatever arrives, every reply is a well-formed response and the link survives ----

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_METHODS = st.sampled_from(["initialize", "session/new", "session/prompt", "session/cancel",
                            "$/cancel_request", "nope", "rpc.x", "_ext"])
_MESSAGE = st.fixed_dictionaries(
    {"jsonrpc": st.sampled_from(["2.0", "1.0", 2]), "method": _METHODS | _JSON},
    optional={"id": _JSON, "params": _JSON, "result": _JSON, "error": _JSON},
)
_FRAME = (
    st.binary(max_size=64).map(lambda b: b.replace(b"\n", b" "))
    | _JSON.map(lambda v: json.dumps(v).encode())
    | _MESSAGE.map(lambda v: json.dumps(v).encode())
    | st.lists(_MESSAGE, max_size=3).map(lambda v: json.dumps(v).encode())
)


def _well_formed(reply: Any) -> None:
    for response in reply if isinstance(reply, list) else [reply]:
        assert response["jsonrpc"] == "2.0" and "id" in response, response
        assert ("result" in response) != ("error" in response), response
        if "error" in response:
            assert isinstance(response["error"]["code"], int)
            assert isinstance(response["error"]["message"], str)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frames=st.lists(_FRAME, min_size=1, max_size=8))
def test_fuzzed_frames_get_well_formed_replies_and_the_connection_survives(
    skeleton: Path, frames: list[bytes]
) -> None:
    import_skeleton(skeleton)
    from interop_sdk.connection import AgentSideConnection
    from interop_sdk.examples.echo_agent import EchoAgent

    async def body() -> None:
        left, right = socket.socketpair()
        agent_reader, agent_writer = await asyncio.open_connection(sock=left)
        reader, writer = await asyncio.open_connection(sock=right)
        connection = AgentSideConnection(EchoAgent(), agent_reader, agent_writer)
        connection.start()
        # Initialized first: before initialize the receive guards refuse everything else.
        init = {"jsonrpc": "2.0", "id": "fuzz-init", "method": "initialize",
                "params": {"protocolVersion": 1, "clientCapabilities": {}}}
        writer.write(json.dumps(init).encode() + b"\n")
        await writer.drain()
        assert "result" in json.loads(await asyncio.wait_for(reader.readline(), 60))
        for frame in frames:
            writer.write(frame + b"\n")
        marker = {"jsonrpc": "2.0", "id": "fuzz-end", "method": "session/new",
                  "params": {"cwd": "/tmp", "mcpServers": []}}
        writer.write(json.dumps(marker).encode() + b"\n")
        await writer.drain()
        while True:
            reply = json.loads(await asyncio.wait_for(reader.readline(), 60))
            if isinstance(reply, dict) and "method" in reply:
                continue  # the agent's own notifications / requests (echoed prompts)
            _well_formed(reply)
            if isinstance(reply, dict) and reply["id"] == "fuzz-end":
                assert reply["result"]["sessionId"].startswith("echo-")
                break
        writer.close()
        await connection.close()

    run(body(), timeout=30)
