"""The runtime's fixed modules (``acpgen/shipped/runtime/``), unit-tested where they are written.

A :class:`~acpgen.shipped.runtime.rpc.Connection` over a socket pair, with a small dispatcher, driven
by a raw peer that writes exact bytes (several messages in one write, as real peers do).
Each test has a deadline: a hang is a failure.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

import pytest
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from acpgen.shipped.runtime import errors, framing, lenient, rpc
from acpgen.shipped.runtime.transports import spawn

T = TypeVar("T")


def run(coro: Awaitable[T], timeout: float = 20.0) -> T:
    async def bounded() -> T:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())


class Handlers:
    """``echo`` answers its params, ``block`` waits forever, ``fail`` raises what it is told."""

    def __init__(self) -> None:
        self.started: list[Any] = []
        self.notifications: list[tuple[str, Any]] = []
        self.release = asyncio.Event()

    async def handle_request(self, method: str, params: Any) -> Any:
        self.started.append(params)
        if method == "echo":
            return params
        if method == "block":
            await self.release.wait()
            return {"released": True}
        if method == "result":
            return "z" * params["repeat"] if "repeat" in params else params["value"]
        if method == "fail":
            kind = params["kind"]
            if kind == "invalid_params":
                raise errors.InvalidParamsError("bad cwd", {"field": "cwd"})
            if kind == "not_found":
                raise errors.MethodNotFoundError()
            if kind == "resource":
                raise errors.RpcError.resource_not_found({"path": "/x"})
            if kind == "custom":
                raise errors.RpcError(-31999, "custom")
            if kind == "cancel_itself":
                raise asyncio.CancelledError
            raise RuntimeError("boom")
        raise errors.MethodNotFoundError(data={"method": method})

    async def handle_notification(self, method: str, params: Any) -> None:
        self.notifications.append((method, params))


class Peer:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def write(self, *messages: Any) -> None:
        """All messages in one write (one read on the other side)."""
        self.writer.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
        await self.writer.drain()

    async def recv(self) -> Any:
        """The next frame, however long it takes (the run's guard bounds a hang)."""
        line = await self.reader.readline()
        assert line, "the connection closed"
        return json.loads(line)

    async def silent(self) -> bool:
        """Nothing more was sent: the next frame is the answer to an ``echo`` request sent
        now (an event, not a quiet window, which a loaded machine would stretch)."""
        marker = "acpgen-sync"
        await self.write(request(marker, "echo", {"sync": True}))
        line = await self.reader.readline()
        assert line, "the connection closed"
        got = json.loads(line)
        if got.get("id") != marker:
            raise AssertionError(f"expected nothing, got {line[:300]!r}")
        return True


async def connected(**options: Any) -> tuple[rpc.Connection, Peer, Handlers]:
    left, right = socket.socketpair()
    reader, writer = await asyncio.open_connection(sock=left, limit=64 * 1024 * 1024)
    peer_reader, peer_writer = await asyncio.open_connection(sock=right, limit=64 * 1024 * 1024)
    handlers = Handlers()
    connection = rpc.Connection(reader, writer, handlers, **options)
    connection.start()
    return connection, Peer(peer_reader, peer_writer), handlers


def request(request_id: Any, method: str, params: Any = None) -> dict[str, Any]:
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def cancel(request_id: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": "$/cancel_request", "params": {"requestId": request_id}}


async def responses(peer: Peer, count: int) -> dict[Any, list[dict[str, Any]]]:
    by_id: dict[Any, list[dict[str, Any]]] = {}
    for _ in range(count):
        message = await peer.recv()
        by_id.setdefault(message["id"], []).append(message)
    return by_id


# ---- exactly one response per request ----------------------------------------------------


@pytest.mark.acp_requirement(
    "ACP-V1-CANCEL-REQUEST-MUST-RESPOND", "ACP-V1-JSONRPC-RESPONSE-REQUIRED"
)
def test_a_request_cancelled_in_the_same_read_is_answered_request_cancelled() -> None:
    async def body() -> None:
        connection, peer, _ = await connected()
        await peer.write(
            request(1, "echo", {"n": 1}),
            request(2, "block", {}),
            cancel(2),
            request(3, "echo", {"n": 3}),
        )
        by_id = await responses(peer, 3)
        assert sorted(by_id) == [1, 2, 3] and all(len(v) == 1 for v in by_id.values())
        assert by_id[2][0]["error"]["code"] == errors.REQUEST_CANCELLED == -32800
        assert by_id[1][0]["result"] == {"n": 1} and by_id[3][0]["result"] == {"n": 3}
        assert await peer.silent()
        assert connection._inbound == {}  # nothing left behind for the cancelled id
        await connection.close()

    run(body())


@pytest.mark.acp_requirement("ACP-V1-CANCEL-REQUEST-MUST-RESPOND")
def test_a_hundred_request_and_cancel_pairs_in_single_writes_each_get_one_response() -> None:
    async def body() -> None:
        connection, peer, _ = await connected()
        for i in range(100):
            await peer.write(request(i, "echo" if i % 2 else "block", {"i": i}), cancel(i))
        by_id = await responses(peer, 100)
        assert sorted(by_id) == list(range(100))
        for i, answers in by_id.items():
            assert len(answers) == 1
            answer = answers[0]
            assert answer.get("result") == {"i": i} or answer["error"]["code"] == -32800, answer
        assert await peer.silent()
        await connection.close()

    run(body())


def test_a_cancel_reaches_every_request_in_flight_with_that_id() -> None:
    async def body() -> None:
        connection, peer, _ = await connected()
        await peer.write(request(7, "block", {}), request(7, "echo", {"second": True}))
        first = await peer.recv()
        assert first == {"jsonrpc": "2.0", "id": 7, "result": {"second": True}}
        await peer.write(cancel(7))
        assert (await peer.recv())["error"]["code"] == -32800
        assert connection._inbound == {}
        await connection.close()

    run(body())


def test_a_handler_that_cancels_itself_answers_request_cancelled() -> None:
    # ACP-V1-CANCEL-INTERNAL-SHOULD: the same -32800 as for $/cancel_request.
    async def body() -> None:
        connection, peer, _ = await connected()
        await peer.write(request(1, "fail", {"kind": "cancel_itself"}))
        assert (await peer.recv())["error"]["code"] == -32800
        await connection.close()

    run(body())


# ---- one error hierarchy, its codes on the wire ------------------------------------------


@pytest.mark.parametrize(
    ("kind", "code"),
    [
        ("invalid_params", -32602),
        ("not_found", -32601),
        ("resource", -32002),
        ("custom", -31999),
        ("boom", -32603),
    ],
)
def test_errors_raised_by_a_handler_are_answered_with_their_code(kind: str, code: int) -> None:
    async def body() -> None:
        connection, peer, _ = await connected()
        await peer.write(request("e", "fail", {"kind": kind}))
        reply = await peer.recv()
        assert reply["id"] == "e" and reply["error"]["code"] == code and "result" not in reply
        if kind == "invalid_params":
            assert reply["error"] == {
                "code": -32602,
                "message": "bad cwd",
                "data": {"field": "cwd"},
            }
        await connection.close()

    run(body())


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        (-32602, errors.InvalidParamsError),
        (-32601, errors.MethodNotFoundError),
        (-32800, errors.RequestCancelledError),
        (-32000, errors.AuthenticationRequiredError),
        (-31000, errors.RpcError),
    ],
)
def test_an_error_response_raises_the_class_of_its_code(
    code: int, kind: type[errors.RpcError]
) -> None:
    async def body() -> None:
        connection, peer, _ = await connected()
        call = asyncio.ensure_future(connection.request("x/y", {}))
        sent = await peer.recv()
        await peer.write(
            {"jsonrpc": "2.0", "id": sent["id"], "error": {"code": code, "message": "m", "data": 1}}
        )
        with pytest.raises(errors.RpcError) as caught:
            await call
        assert type(caught.value) is kind
        assert (caught.value.code, caught.value.message, caught.value.data) == (code, "m", 1)
        await connection.close()

    run(body())


@pytest.mark.slow
@pytest.mark.parametrize(
    "response",
    [
        {},
        {"result": 1, "error": {"code": 1, "message": "m"}},
        {"error": {"code": "1", "message": "m"}},
    ],
    ids=["neither", "both", "string-code"],
)
def test_an_unusable_response_fails_the_call_and_nothing_is_sent(response: dict[str, Any]) -> None:
    async def body() -> None:
        connection, peer, _ = await connected()
        call = asyncio.ensure_future(connection.request("x/y", {}))
        sent = await peer.recv()
        await peer.write({"jsonrpc": "2.0", "id": sent["id"], **response})
        with pytest.raises(errors.MalformedResponse):
            await call
        assert await peer.silent()
        assert connection._pending == {}
        await connection.close()

    run(body())


def test_pending_calls_fail_with_connection_closed() -> None:
    async def body() -> None:
        connection, peer, _ = await connected()
        call = asyncio.ensure_future(connection.request("x/y", {}))
        await peer.recv()
        peer.writer.close()
        with pytest.raises(errors.ConnectionClosed):
            await call
        with pytest.raises(errors.ConnectionClosed):
            await connection.request("x/y", {})
        await connection.close()

    run(body())


# ---- encoding never drops a message ------------------------------------------------------


@pytest.mark.acp_requirement("ACP-V1-TRANSPORT-UTF8")
def test_lone_surrogates_are_replaced_and_the_message_is_sent() -> None:
    async def body() -> None:
        connection, peer, _ = await connected()
        await peer.write(request(1, "echo", {"text": "cut \ud83d", "pair": "\ud83d\ude00"}))
        raw = await peer.reader.readline()
        raw.decode("utf-8")  # strict: valid UTF-8
        assert json.loads(raw)["result"] == {"text": "cut \ufffd", "pair": "\U0001f600"}
        await connection.notify("x/note", {"text": "\udc00"})
        assert (await peer.recv())["params"] == {"text": "\ufffd"}
        await connection.close()

    run(body())


def test_a_result_json_cannot_express_is_answered_internal_error() -> None:
    async def body() -> None:
        connection, peer, _ = await connected()
        await peer.write(request(1, "result", {"value": None}), request(2, "echo", {}))
        await responses(peer, 2)
        connection._dispatcher = Handlers()  # a handler returning NaN:

        async def nan(method: str, params: Any) -> Any:
            return float("nan")

        connection._dispatcher.handle_request = nan  # type: ignore[method-assign]
        await peer.write(request(3, "any"))
        reply = await peer.recv()
        assert reply["id"] == 3 and reply["error"]["code"] == -32603
        with pytest.raises(framing.UnencodableMessage):
            await connection.notify("x/nan", {"v": float("inf")})
        await connection.close()

    run(body())


# ---- size limits on both sides -----------------------------------------------------------


def test_an_outgoing_message_over_the_limit_raises_before_anything_is_written() -> None:
    async def body() -> None:
        connection, peer, _ = await connected(max_frame_bytes=1000)
        with pytest.raises(errors.MessageTooLarge) as caught:
            await connection.request("x/big", {"text": "y" * 2000})
        assert caught.value.limit == 1000 and caught.value.size > 2000
        with pytest.raises(errors.MessageTooLarge):
            await connection.notify("x/big", {"text": "y" * 2000})
        assert await peer.silent() and connection._pending == {}
        # The limit is the peer's and configurable apart from the receive limit.
        other, peer2, _ = await connected(max_frame_bytes=1000, max_send_bytes=5000)
        call = asyncio.ensure_future(other.request("x/big", {"text": "y" * 2000}))
        assert len((await peer2.recv())["params"]["text"]) == 2000
        call.cancel()
        await connection.close()
        await other.close()

    run(body())


def test_a_response_over_the_limit_is_answered_internal_error_with_its_id() -> None:
    async def body() -> None:
        connection, peer, _ = await connected(max_frame_bytes=1000)
        await peer.write(request(4, "result", {"repeat": 990}), request(5, "echo", {}))
        by_id = await responses(peer, 2)
        assert by_id[4][0]["error"]["code"] == -32603 and "result" not in by_id[4][0]
        assert by_id[5][0]["result"] == {}
        await connection.close()

    run(body())


@pytest.mark.parametrize(
    ("head", "answer"),
    [
        ('{"jsonrpc":"2.0","id":41,"method":"echo","params":{"t":"', 41),
        ('{"id": "s-1", "jsonrpc": "2.0", "method": "echo", "params": {"t": "', "s-1"),
        ('{"jsonrpc":"2.0","params":{"t":"', None),  # the id comes after the params: unseen
    ],
)
def test_an_incoming_request_over_the_limit_is_refused_with_its_id(head: str, answer: Any) -> None:
    async def body() -> None:
        connection, peer, handlers = await connected(max_frame_bytes=1000)
        peer.writer.write(head.encode() + b"x" * 5000 + b'"}, "id": 9}\n')
        reply = await peer.recv()
        assert reply["id"] == answer and reply["error"]["code"] == -32600
        await peer.write(request(6, "echo", {"after": True}))
        assert (await peer.recv())["result"] == {"after": True}
        assert len(handlers.started) == 1
        await connection.close()

    run(body())


def test_an_incoming_notification_over_the_limit_is_not_answered() -> None:
    async def body() -> None:
        connection, peer, handlers = await connected(max_frame_bytes=1000)
        peer.writer.write(
            b'{"jsonrpc":"2.0","method":"x/n","params":{"t":"' + b"x" * 5000 + b'"}}\n'
        )
        assert await peer.silent()
        assert handlers.notifications == []
        await connection.close()

    run(body())


def test_a_response_over_the_limit_fails_its_call() -> None:
    async def body() -> None:
        connection, peer, _ = await connected(max_frame_bytes=1000)
        call = asyncio.ensure_future(connection.request("x/y", {}))
        sent = await peer.recv()
        peer.writer.write(
            json.dumps({"jsonrpc": "2.0", "id": sent["id"], "result": "r" * 5000}).encode() + b"\n"
        )
        with pytest.raises(errors.MalformedResponse):
            await call
        assert await peer.silent()
        await connection.close()

    run(body())


# ---- batches ------------------------------------------------------------------------------


def test_a_batch_is_answered_as_one_array_with_each_requests_own_id() -> None:
    async def body() -> None:
        connection, peer, handlers = await connected()
        await peer.write(
            [
                request(1, "echo", {"a": 1}),
                {"jsonrpc": "2.0", "method": "x/n"},
                request("two", "fail", {"kind": "invalid_params"}),
                7,
            ]
        )
        reply = await peer.recv()
        assert isinstance(reply, list) and len(reply) == 3, reply  # nothing for the notification
        by_id = {json.dumps(r["id"]): r for r in reply}
        assert by_id["1"]["result"] == {"a": 1}
        assert by_id['"two"']["error"]["code"] == -32602
        assert by_id["null"]["error"]["code"] == -32600  # 7 is no message
        assert handlers.notifications == [("x/n", None)]
        assert await peer.silent()
        await connection.close()

    run(body())


def test_a_batch_waits_for_its_slowest_request_while_other_traffic_flows() -> None:
    async def body() -> None:
        connection, peer, handlers = await connected()
        await peer.write([request("slow", "block"), request("quick", "echo", {})])
        await peer.write(request("alone", "echo", {"b": 2}))
        assert (await peer.recv())["id"] == "alone"  # the batch does not hold up the line
        handlers.release.set()
        reply = await peer.recv()
        assert sorted(r["id"] for r in reply) == ["quick", "slow"]
        await connection.close()

    run(body())


@pytest.mark.parametrize(
    "batch",
    [
        [{"jsonrpc": "2.0", "method": "x/n"}, {"jsonrpc": "2.0", "method": "x/m"}],
        [{"jsonrpc": "2.0", "id": 99, "result": {}}],
    ],
)
def test_a_batch_of_notifications_or_responses_gets_no_reply(batch: list[Any]) -> None:
    async def body() -> None:
        connection, peer, _handlers = await connected()
        await peer.write(batch)
        assert await peer.silent()
        await connection.close()

    run(body())


def test_an_empty_batch_gets_one_invalid_request_with_a_null_id() -> None:
    async def body() -> None:
        connection, peer, _handlers = await connected()
        await peer.write([])
        reply = await peer.recv()
        assert reply["id"] is None and reply["error"]["code"] == -32600
        assert await peer.silent()
        await connection.close()

    run(body())


# ---- the stdio transport reaps the agent's whole process group -----------------------------


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is not running
        return stat.read().split(") ", 1)[1][0] != "Z"


@pytest.mark.slow
@pytest.mark.parametrize(
    "launcher",
    ["sleep 300 & echo $!; read line", "sleep 300 & echo $!; wait"],
    ids=["leader-exits-on-eof", "leader-ignores-eof"],
)
def test_spawn_process_leaves_no_process_of_the_group_behind(launcher: str) -> None:
    async def body() -> None:
        async with spawn.spawn_process(["sh", "-c", launcher], exit_grace=0.5) as (out, _, process):
            child = int(await out.readline())
            assert _alive(child) and os.getpgid(child) == process.pid
        assert process.returncode is not None
        deadline = time.monotonic() + 60  # a bound against a hang: reaping is slow under load
        while _alive(child) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not _alive(child)

    run(body())


@pytest.mark.slow
def test_spawn_process_stops_the_group_when_the_body_fails() -> None:
    async def body() -> None:
        with pytest.raises(RuntimeError):
            async with spawn.spawn_process(
                ["sh", "-c", "sleep 300 & echo $!; wait"], exit_grace=0.2
            ) as (out, _, p):
                child = int(await out.readline())
                raise RuntimeError("the client failed")
        assert not _alive(p.pid) and not _alive(child)

    run(body())


# ---- lenient decoding where marked ----------------------------------------------------------


# Each class lists its marked members (by wire name) as the generated models do.


class Item(BaseModel):
    name: str


class Inner(BaseModel):
    __acp_lenient__ = {"flag": (True, False, lenient.NO_DEFAULT)}

    flag: bool = False
    strict: int = 0


class Outer(BaseModel):
    __acp_lenient__ = {
        "inner": (True, False, lenient.NO_DEFAULT),
        "items": (False, True, lenient.NO_DEFAULT),
        "requiredItems": (True, True, []),
    }

    inner: Inner = Field(default_factory=Inner)
    items: list[Item] = Field(default_factory=list)
    required_items: list[Item] = Field(alias="requiredItems")
    exact: int = 0


def _lenient(data: Any) -> Outer:
    result: Outer = lenient.validate_lenient(TypeAdapter(Outer), Outer, data)
    return result


def test_lenient_decoding_repairs_only_marked_places() -> None:
    data = {
        "inner": {"flag": None, "strict": 3},
        "items": [{"name": "a"}, {"name": 1}, {"name": "b"}],
        "requiredItems": "not a list",
    }
    original = json.loads(json.dumps(data))
    value = _lenient(data)
    assert value.inner == Inner(flag=False, strict=3)  # innermost marked place: flag
    assert [i.name for i in value.items] == ["a", "b"]  # the invalid item dropped
    assert value.required_items == []  # a required member: the given default
    assert data == original  # the caller's value is not touched
    assert _lenient({"inner": {"strict": "x"}, "requiredItems": []}).inner == Inner()  # outer mark
    with pytest.raises(ValidationError):  # unmarked: still an error
        _lenient({"exact": "x", "requiredItems": []})


# ---- the files themselves --------------------------------------------------------------------


def test_sniff_envelope_reads_only_leading_scalar_members() -> None:
    sniff = framing.sniff_envelope
    assert sniff(b'{"jsonrpc":"2.0","id":3,"method":"m","params":{') == (3, True)
    assert sniff(b' {"method":"m","jsonrpc":"2.0","params":[1') == (framing.NOT_FOUND, True)
    assert sniff(b'{"params":{"id":5}, "id": 6') == (framing.NOT_FOUND, False)
    assert sniff(b'{"id":null,"result":"xx') == (None, False)
    assert sniff(b"[1,2") == (framing.NOT_FOUND, False)


@pytest.mark.parametrize("seed", range(4))
def test_read_frames_yields_the_same_frames_whatever_the_chunking(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines (blank, short, at the limit, over it) written in chunks cut anywhere: the frames
    are the lines, each over the limit an Oversized with its first bytes, whatever arrives
    whole in one read and whatever is split across reads."""
    import random

    rng = random.Random(seed)
    limit = 40
    monkeypatch.setattr(framing, "_SNIFF_BYTES", 16)  # as in use: less than the limit
    lines = [b"", b"x" * limit, b"y" * (limit + 1), b"z" * 200, b'{"id":1}', b"", b"w" * 39]
    lines += [bytes([97 + rng.randrange(26)]) * rng.randrange(90) for _ in range(60)]
    rng.shuffle(lines)
    stream = b"".join(line + b"\n" for line in lines) + b"tail-without-newline"
    expected: list[Any] = [
        line if len(line) <= limit else ("oversized", line[: framing._SNIFF_BYTES])
        for line in lines
    ] + [b"tail-without-newline"]

    async def frames() -> list[Any]:
        reader = asyncio.StreamReader()
        at = 0
        while at < len(stream):  # chunks of 1 to 120 bytes, each read separately
            size = rng.randrange(1, 120)
            reader.feed_data(stream[at : at + size])
            at += size
        reader.feed_eof()
        got: list[Any] = []
        original = reader.read

        async def one_chunk_per_read(n: int = -1) -> bytes:  # one fed chunk at a time at most
            return await original(min(n, rng.randrange(1, 120)))

        reader.read = one_chunk_per_read  # type: ignore[method-assign]
        async for frame in framing.read_frames(reader, limit):
            if isinstance(frame, framing.Oversized):
                got.append(("oversized", frame.prefix))
            else:
                got.append(frame)
        return got

    assert run(frames()) == expected


def test_frames_taken_as_they_arrive_keep_the_order_of_the_wire() -> None:
    """Whole frames are accepted in the callback that received them; a frame left to the read
    loop (a batch, a parse error) holds back everything after it, so notifications are still
    delivered in wire order and every error is answered; a frame split across reads too."""

    def note(n: int) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "method": "note", "params": {"sessionId": "s", "n": n}}

    async def body() -> None:
        connection, peer, handlers = await connected()
        async with connection:
            await asyncio.sleep(0.05)  # the read loop waits for data: frames are taken at once
            lines = [json.dumps(note(1)).encode(), json.dumps([note(2)]).encode()]
            lines += [json.dumps(note(3)).encode(), b"{not json", json.dumps(note(4)).encode()]
            lines.append(json.dumps(request(1, "echo", {"x": 1})).encode())
            peer.writer.write(b"\n".join(lines) + b"\n")
            await peer.writer.drain()
            await asyncio.sleep(0.05)
            begun = json.dumps(note(6)).encode() + b"\n"  # a frame split across two reads
            peer.writer.write(json.dumps(note(5)).encode() + b"\n" + begun[:20])
            await peer.writer.drain()
            await asyncio.sleep(0.05)
            peer.writer.write(begun[20:] + json.dumps(note(7)).encode() + b"\n")
            await peer.writer.drain()
            got = [await peer.recv(), await peer.recv()]
            assert {m["id"] for m in got} == {None, 1}
            assert [m.get("error", {}).get("code") for m in got if m["id"] is None] == [-32700]
            while len(handlers.notifications) < 7:
                await asyncio.sleep(0.01)
            assert [p["n"] for _, p in handlers.notifications] == [1, 2, 3, 4, 5, 6, 7]

    run(body())
