"""The seam's routing record (``acpgen/shipped/runtime/transport.py``: ``Route``): the engine fills
it once per message, and it is the only way a transport learns where a frame goes.

* the record itself (``route_of``), on every kind of message;
* the engine hands a transport that asks for routes (``wants_routes``) each frame with the
  record of the message it encoded (a request, a notification, a response, an error answer),
  and takes a frame the transport decoded to route it (``Inbound``) without decoding it again;
* no module of ``transports/`` decodes a frame (an AST scan: no ``decode_frame``, no
  ``json.loads``), shown to fail on a decode planted into a copy.
"""

from __future__ import annotations

import ast
import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest

from acpgen.emit.shipped import SHIPPED_DIR
from acpgen.shipped.runtime import rpc
from acpgen.shipped.runtime.framing import encode_message
from acpgen.shipped.runtime.transport import (
    NO_ROUTE,
    NOTIFICATION,
    OTHER,
    REQUEST,
    RESPONSE,
    Inbound,
    Route,
    RoutedFrame,
    decode_inbound,
    route_of,
    route_of_frame,
)
from acpgen.shipped.runtime.transports.channel import MessageChannel

TRANSPORTS = SHIPPED_DIR / "runtime" / "transports"
# What decodes a frame: the framing's decoder and the json module's.
FRAME_DECODER = "decode_frame"
JSON_DECODERS = frozenset({"loads", "load", "JSONDecoder", "raw_decode"})


# -- no transport decodes a frame -------------------------------------------------------------


def decodes(root: Path) -> list[str]:
    """``file:line: what`` for every decode of a frame in the modules under ``root``: a call of
    ``decode_frame`` or of the json module's decoders (``json.loads`` ...), or an import of
    one of them (or of json at all)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        json_names = {"json"} | {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.Import)
                      for a in n.names if a.name == "json"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name) and func.id == FRAME_DECODER:
                    found.append(f"{where}:{node.lineno}: calls {func.id}")
                elif isinstance(func, ast.Attribute) and (
                    func.attr == FRAME_DECODER
                    or (func.attr in JSON_DECODERS and isinstance(func.value, ast.Name)
                        and func.value.id in json_names)
                ):
                    found.append(f"{where}:{node.lineno}: calls {func.attr}")
            elif isinstance(node, ast.ImportFrom):
                taken = {a.name for a in node.names} & {FRAME_DECODER}
                if taken or node.module == "json":
                    found.append(f"{where}:{node.lineno}: imports {sorted(taken) or node.module}")
            elif isinstance(node, ast.Import) and any(a.name == "json" for a in node.names):
                found.append(f"{where}:{node.lineno}: imports json")
    return found


def test_no_transport_decodes_a_frame_to_route_it() -> None:
    modules = sorted(p.relative_to(TRANSPORTS).as_posix() for p in TRANSPORTS.rglob("*.py"))
    assert {"http/server.py", "http/client.py", "ws/server.py", "ws/client.py"} <= set(modules)
    assert decodes(TRANSPORTS) == []


@pytest.mark.parametrize(
    ("module", "planted", "expected"),
    [
        ("http/server.py", "from ...framing import decode_frame", "imports ['decode_frame']"),
        ("ws/server.py", "x = decode_frame(b'{}')", "calls decode_frame"),
        ("endpoint.py", "import json", "imports json"),
        ("http/client.py", "y = json.loads('1')", "calls loads"),
        ("dial.py", "z = self.decode_frame(b'')", "calls decode_frame"),
        ("channel.py", "from json import dumps", "imports json"),
    ],
)
def test_the_decode_scan_fails_on_a_planted_decode(
    tmp_path: Path, module: str, planted: str, expected: str
) -> None:
    copy = tmp_path / "transports"
    shutil.copytree(TRANSPORTS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    path = copy / module
    path.write_text(path.read_text(encoding="utf-8") + "\n" + planted + "\n", encoding="utf-8")
    found = decodes(copy)
    assert found and all(f.startswith(module) for f in found), found
    assert any(expected in f for f in found), found


# -- the record ---------------------------------------------------------------------------------


def _facts(route: Route) -> tuple[Any, ...]:
    return (route.kind, route.method, route.id, route.key, route.session_id,
            route.result_session_id, route.failed)


@pytest.mark.parametrize(
    ("message", "facts"),
    [
        ({"jsonrpc": "2.0", "id": 7, "method": "session/prompt", "params": {"sessionId": "s1"}},
         (REQUEST, "session/prompt", 7, "7", "s1", None, False)),
        ({"jsonrpc": "2.0", "id": "7", "method": "initialize", "params": {}},
         (REQUEST, "initialize", "7", '"7"', None, None, False)),
        ({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s2", "update": {}}},
         (NOTIFICATION, "session/update", None, None, "s2", None, False)),
        ({"jsonrpc": "2.0", "id": 3, "result": {"sessionId": "new"}},
         (RESPONSE, None, 3, "3", None, "new", False)),
        ({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "x"}},
         (RESPONSE, None, None, "null", None, None, True)),
        ({"jsonrpc": "2.0", "id": 1, "method": "x", "params": {"sessionId": 5}},
         (REQUEST, "x", 1, "1", None, None, False)),  # a sessionId that is no string: none
        ([{"jsonrpc": "2.0", "id": 1, "method": "x"}], (OTHER, None, None, None, None, None, False)),
        ("not an object", (OTHER, None, None, None, None, None, False)),
    ],
)
def test_the_record_of_each_kind_of_message(message: Any, facts: tuple[Any, ...]) -> None:
    assert _facts(route_of(message)) == facts


def test_an_inbound_frame_is_decoded_once_with_its_record() -> None:
    frame = b'{"jsonrpc":"2.0","id":2,"method":"session/load","params":{"sessionId":"a"}}'
    inbound = decode_inbound(frame)
    assert inbound.frame is frame and inbound.message["params"] == {"sessionId": "a"}
    assert _facts(inbound.route) == (REQUEST, "session/load", 2, "2", "a", None, False)
    with pytest.raises(ValueError):
        decode_inbound(b"{not json")
    assert route_of_frame(b"{}") is NO_ROUTE  # a bare frame carries no record


# -- the engine fills it ----------------------------------------------------------------------


class _Outbox:
    """Where a MessageChannel's frames go: kept, with the record each came with."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.arrived = asyncio.Event()

    def offer(self, frame: bytes) -> bool:
        self.frames.append(frame)
        self.arrived.set()
        return True

    async def put(self, frame: bytes) -> None:
        self.offer(frame)

    async def next(self) -> bytes:
        while not self.frames:
            self.arrived.clear()
            await self.arrived.wait()
        return self.frames.pop(0)


class _Agent:
    """Answers session/new with a session id, anything else with an error."""

    def __init__(self) -> None:
        self.notified: list[tuple[str, Any]] = []
        self.heard = asyncio.Event()

    async def handle_request(self, method: str, params: Any) -> Any:
        if method == "session/new":
            return {"sessionId": "made-here"}
        raise rpc.RpcError(-32601, "Method not found")

    async def handle_notification(self, method: str, params: Any) -> None:
        self.notified.append((method, params))
        self.heard.set()


def _run(body: Any) -> None:
    asyncio.run(asyncio.wait_for(body(), 30))


def test_the_engine_hands_a_routed_transport_each_frame_with_its_record() -> None:
    async def body() -> None:
        outbox = _Outbox()
        channel = MessageChannel(outbox, 16)
        connection = rpc.Connection(channel, None, _Agent())
        connection.start()
        try:
            # What this side sends: a notification, a request.
            await connection.notify("session/update", {"sessionId": "s9", "update": {}})
            call = asyncio.ensure_future(connection.request("fs/read", {"sessionId": "s9"}))
            sent = [await outbox.next(), await outbox.next()]
            assert all(isinstance(f, RoutedFrame) for f in sent)
            assert _facts(route_of_frame(sent[0])) == (
                NOTIFICATION, "session/update", None, None, "s9", None, False)
            assert _facts(route_of_frame(sent[1])) == (REQUEST, "fs/read", 0, "0", "s9", None, False)
            # The peer's answer to it, handed in as bytes: the call returns.
            await channel.feed(b'{"jsonrpc":"2.0","id":0,"result":{"content":"x"}}')
            assert await call == {"content": "x"}
            # What this side answers: a result naming a session, and an error.
            await channel.feed(b'{"jsonrpc":"2.0","id":"a","method":"session/new","params":{}}')
            answer = await outbox.next()
            assert _facts(route_of_frame(answer)) == (RESPONSE, None, "a", '"a"', None, "made-here", False)
            await channel.feed(b'{"jsonrpc":"2.0","id":[1],"method":"nope"}')  # an invalid id
            refused = await outbox.next()
            assert _facts(route_of_frame(refused)) == (RESPONSE, None, None, "null", None, None, True)
            # The bytes are the message's encoding, record or not.
            assert bytes(answer) == encode_message(
                {"jsonrpc": "2.0", "id": "a", "result": {"sessionId": "made-here"}})
        finally:
            await connection.close()

    _run(body)


def test_the_engine_takes_an_inbound_frame_without_decoding_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decoded: list[bytes] = []
    original = rpc.decode_frame

    def counting(frame: bytes) -> Any:
        decoded.append(frame)
        return original(frame)

    monkeypatch.setattr(rpc, "decode_frame", counting)

    async def body() -> None:
        outbox = _Outbox()
        agent = _Agent()
        channel = MessageChannel(outbox, 16)
        connection = rpc.Connection(channel, None, agent)
        connection.start()
        try:
            request = decode_inbound(b'{"jsonrpc":"2.0","id":5,"method":"session/new","params":{}}')
            await channel.feed(request)
            answer = await outbox.next()
            assert _facts(route_of_frame(answer)) == (RESPONSE, None, 5, "5", None, "made-here", False)
            note = b'{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}'
            await channel.feed(decode_inbound(note))
            await agent.heard.wait()
            assert agent.notified == [("session/update", {"sessionId": "s"})]
            assert decoded == []  # both taken as decoded by the seam
            await channel.feed(b'{"jsonrpc":"2.0","id":6,"method":"session/new","params":{}}')
            await outbox.next()
            assert len(decoded) == 1  # bytes handed in are the engine's to decode, once
        finally:
            await connection.close()

    _run(body)


def test_an_oversized_inbound_frame_is_refused_as_an_oversized_line() -> None:
    async def body() -> None:
        outbox = _Outbox()
        channel = MessageChannel(outbox, 16)
        connection = rpc.Connection(channel, None, _Agent(), max_frame_bytes=64, max_send_bytes=4096)
        connection.start()
        try:
            big = {"jsonrpc": "2.0", "id": 9, "method": "session/new", "params": {"x": "y" * 100}}
            await channel.feed(Inbound(encode_message(big).rstrip(b"\n"), big, route_of(big)))
            refused = await outbox.next()
            route = route_of_frame(refused)
            assert route.failed and route.key == "9"
        finally:
            await connection.close()

    _run(body)
