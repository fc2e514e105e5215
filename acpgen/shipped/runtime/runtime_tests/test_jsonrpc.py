"""JSON-RPC 2.0 over newline-delimited JSON: framing, errors, ids, notifications, concurrency.

Copied verbatim into every generated project by acpgen.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from ._package import PACKAGE, Client, errors, models, rpc
from .helpers import (
    ProbeAgent,
    RawPeer,
    agent_and_raw_client,
    init_request,
    initialized_client,
    quiet_agent,
    quiet_request,
    run,
)

req = pytest.mark.acp_requirement


def _new(request_id: object, cwd: str = "/tmp") -> dict[str, object]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "session/new",
        "params": {"cwd": cwd, "mcpServers": []},
    }


def _assert_response(message: dict[str, object], request_id: object) -> None:
    assert message["jsonrpc"] == "2.0"
    assert message["id"] == request_id
    assert ("result" in message) != ("error" in message), message


async def _still_works(peer: RawPeer, request_id: object = "after") -> None:
    await peer.send(_new(request_id))
    reply = await peer.recv()
    _assert_response(reply, request_id)
    assert reply["result"]["sessionId"] == "session/tmp"


@req(
    "ACP-V1-JSONRPC-VERSION-MEMBER",
    "ACP-V1-JSONRPC-RESPONSE-SAME-ID",
    "ACP-V1-JSONRPC-RESPONSE-ID-ECHO",
    "ACP-V1-JSONRPC-RESULT-ON-SUCCESS",
    "ACP-V1-JSONRPC-RESULT-XOR-ERROR",
    "ACP-V1-JSONRPC-RESPONSE-REQUIRED",
)
@pytest.mark.parametrize("request_id", [0, 7, "abc", ""])
def test_a_request_gets_one_result_with_its_id(request_id: object) -> None:
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        await peer.send(init_request(1, request_id))
        reply = await peer.recv()
        _assert_response(reply, request_id)
        assert reply["result"]["protocolVersion"] == 1

    run(body())


@req(
    "ACP-V1-JSONRPC-RESPONSE-ID-ECHO",
    "ACP-V1-JSONRPC-ERROR-RESPONSE-CONTAINS-ERROR",
    "ACP-V1-JSONRPC-ERROR-CODE-INTEGER",
)
@pytest.mark.parametrize(
    "frame",
    [
        b'{"jsonrpc": "2.0", "id": 1, "method": "initialize"',
        b"not json",
        b"\xff\xfe{}",
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":NaN}}',
        b"[" * 100_000,
    ],
    ids=["truncated", "text", "not-utf8", "nan", "too-deep"],
)
def test_a_malformed_frame_gets_a_parse_error_with_null_id_and_the_connection_survives(
    frame: bytes,
) -> None:
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        await peer.send_bytes(frame + b"\n")
        reply = await peer.recv()
        _assert_response(reply, None)
        assert reply["error"]["code"] == rpc.PARSE_ERROR == -32700
        assert isinstance(reply["error"]["message"], str) and reply["error"]["message"]
        await _still_works(peer)

    run(body())


@req(
    "ACP-V1-JSONRPC-VERSION-MEMBER",
    "ACP-V1-JSONRPC-ID-TYPE",
    "ACP-V1-JSONRPC-PARAMS-STRUCTURED",
    "ACP-V1-JSONRPC-RESPONSE-ID-ECHO",
)
@pytest.mark.parametrize(
    ("message", "echoed"),
    [
        ("text", None),
        (42, None),
        ([], None),
        ({"jsonrpc": "1.0", "id": 3, "method": "initialize"}, 3),
        ({"id": 4, "method": "initialize"}, 4),
        ({"jsonrpc": "2.0", "id": 5, "method": 5}, 5),
        ({"jsonrpc": "2.0", "id": {"a": 1}, "method": "initialize"}, None),
        ({"jsonrpc": "2.0", "id": True, "method": "initialize"}, None),
        ({"jsonrpc": "2.0", "id": 6, "method": "session/new", "params": "cwd"}, 6),
        ({"jsonrpc": "2.0", "id": 8}, 8),
    ],
)
def test_an_invalid_request_gets_invalid_request(message: object, echoed: object) -> None:
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        await peer.send(message)
        reply = await peer.recv()
        _assert_response(reply, echoed)
        assert reply["error"]["code"] == rpc.INVALID_REQUEST == -32600
        await _still_works(peer)

    run(body())


@req("ACP-V1-JSONRPC-ERROR-RESPONSE-CONTAINS-ERROR", "ACP-V1-JSONRPC-RPC-PREFIX-RESERVED")
@pytest.mark.parametrize("method", ["no/such_method", "rpc.discover", "session/cancel"])
def test_an_unknown_method_gets_method_not_found(method: str) -> None:
    # session/cancel exists, but as a notification: called as a request it is not found.
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        await peer.send({"jsonrpc": "2.0", "id": "m", "method": method, "params": {}})
        reply = await peer.recv()
        _assert_response(reply, "m")
        assert reply["error"]["code"] == rpc.METHOD_NOT_FOUND == -32601
        await _still_works(peer)

    run(body())


@req("ACP-V1-JSONRPC-PARAM-NAMES-EXACT", "ACP-V1-JSONRPC-ERROR-MEMBER-ON-ERROR")
@pytest.mark.parametrize(
    "params",
    [{"cwd": 5, "mcpServers": []}, {"CWD": "/tmp", "mcpServers": []}, {"mcpServers": []}, [1, 2]],
    ids=["wrong-type", "wrong-case", "missing", "by-position"],
)
def test_invalid_params_get_invalid_params(params: object) -> None:
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        await peer.send({"jsonrpc": "2.0", "id": 9, "method": "session/new", "params": params})
        reply = await peer.recv()
        _assert_response(reply, 9)
        assert reply["error"]["code"] == rpc.INVALID_PARAMS == -32602
        assert "result" not in reply
        await _still_works(peer)

    run(body())


@req("ACP-V1-JSONRPC-PARAMS-MAY-BE-OMITTED")
@pytest.mark.parametrize("params", ["omitted", None])
def test_omitted_or_null_params_are_validated_as_an_empty_object(params: object) -> None:
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        message: dict[str, object] = {"jsonrpc": "2.0", "id": 15, "method": "initialize"}
        if params != "omitted":
            message["params"] = params
        await peer.send(message)
        reply = await peer.recv()
        _assert_response(reply, 15)
        assert reply["error"]["code"] == rpc.INVALID_PARAMS  # protocolVersion is required
        await _still_works(peer)

    run(body())


@req("ACP-V1-SCHEMA-ERROR-OBJECT")
@pytest.mark.parametrize(("cwd", "code"), [("/auth", -32000), ("/missing", -32002)])
def test_acp_errors_raised_by_a_handler_keep_their_codes(cwd: str, code: int) -> None:
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        await peer.send(_new(16, cwd))
        reply = await peer.recv()
        _assert_response(reply, 16)
        assert reply["error"]["code"] == code
        assert reply["error"]["message"] == rpc.ERROR_MESSAGES[code]
        await _still_works(peer)

    run(body())


def test_wire_shaped_results_are_validated_then_sent() -> None:
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        await peer.send(_new(17, "/dict"))
        assert (await peer.recv())["result"] == {"sessionId": "from-a-dict"}
        await peer.send(_new(18, "/bad-dict"))
        reply = await peer.recv()
        _assert_response(reply, 18)
        assert reply["error"]["code"] == rpc.INTERNAL_ERROR  # never an invalid result

    run(body())


def test_a_handler_with_nothing_to_say_is_answered_with_an_empty_result() -> None:
    # Whichever request of this package's table takes a session ID and may answer {}: the
    # runtime tests assume no method a surface may lack (session/set_mode is v1's only).
    quiet = quiet_request()
    if quiet is None:
        pytest.skip(f"{PACKAGE} has no request answered by an empty result")
    wire, params = quiet

    async def body() -> None:
        _, peer, _ = await agent_and_raw_client(quiet_agent(wire))
        await peer.send({"jsonrpc": "2.0", "id": 19, "method": wire, "params": params})
        assert (await peer.recv())["result"] == {}

    run(body())


def test_an_initialize_handler_may_answer_a_wire_shaped_dict() -> None:
    # The runtime's own work on initialize (version negotiation) runs on the validated model.
    class DictAgent(ProbeAgent):
        async def initialize(self, params: models.InitializeRequest) -> models.InitializeResponse:
            return {"protocolVersion": 7, "agentCapabilities": {}}  # type: ignore[return-value]

    async def body() -> None:
        _, peer, _ = await agent_and_raw_client(DictAgent())
        await peer.send(init_request(1, "dict-init"))
        reply = await peer.recv()
        _assert_response(reply, "dict-init")
        assert reply["result"]["protocolVersion"] == 1  # negotiated, not the handler's 7

    run(body())


def test_a_failing_handler_gets_internal_error() -> None:
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        await peer.send(_new(10, "/boom"))
        reply = await peer.recv()
        _assert_response(reply, 10)
        assert reply["error"]["code"] == rpc.INTERNAL_ERROR == -32603
        await _still_works(peer)

    run(body())


@req("ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION", "ACP-V1-JSONRPC-PARAMS-MAY-BE-OMITTED")
def test_notifications_never_get_a_reply() -> None:
    async def body() -> None:
        _, peer, agent = await agent_and_raw_client()
        await peer.send({"jsonrpc": "2.0", "method": "no/such_notification", "params": {}})
        await peer.send({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": 5}})
        await peer.send({"jsonrpc": "2.0", "method": "session/cancel"})
        await peer.send(
            {"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "s1"}}
        )
        await peer.nothing_within(0.3)
        await _still_works(peer, 11)
        assert agent.cancelled_sessions == ["s1"]

    run(body())


@req("ACP-V1-JSONRPC-RESPONSE-REQUIRED", "ACP-V1-JSONRPC-RESPONSE-SAME-ID")
def test_a_batch_of_requests_gets_one_array_with_each_requests_own_id() -> None:
    # JSON-RPC 2.0 batches: each element handled as if alone, the responses sent together.
    async def body() -> None:
        _, peer, agent = await agent_and_raw_client()
        notification = {"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "s"}}
        await peer.send([_new(1), notification, {"jsonrpc": "2.0", "id": "x", "method": "nope"}, 5])
        reply = await peer.recv()
        assert isinstance(reply, list) and len(reply) == 3, reply
        by_id = {json.dumps(r["id"]): r for r in reply}
        assert by_id["1"]["result"]["sessionId"] == "session/tmp"
        assert by_id['"x"']["error"]["code"] == rpc.METHOD_NOT_FOUND
        assert by_id["null"]["error"]["code"] == rpc.INVALID_REQUEST  # 5 is no message
        await peer.nothing_within(0.3)
        assert agent.cancelled_sessions == ["s"]
        await _still_works(peer)

    run(body())


@req("ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION")
def test_a_batch_of_notifications_gets_no_reply() -> None:
    async def body() -> None:
        _, peer, agent = await agent_and_raw_client()
        await peer.send(
            [
                {"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "s1"}},
                {"jsonrpc": "2.0", "method": "_vendor/notice", "params": {}},
            ]
        )
        await peer.nothing_within(0.3)
        assert agent.cancelled_sessions == ["s1"]
        await _still_works(peer)

    run(body())


@req("ACP-V1-JSONRPC-RESPONSE-ID-ECHO")
def test_an_empty_batch_gets_one_invalid_request_with_a_null_id() -> None:
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        await peer.send([])
        reply = await peer.recv()
        _assert_response(reply, None)
        assert reply["error"]["code"] == rpc.INVALID_REQUEST
        await peer.nothing_within(0.3)
        await _still_works(peer)

    run(body())


@req("ACP-V1-JSONRPC-RESPONSE-SAME-ID")
def test_requests_run_concurrently_and_answer_by_id() -> None:
    async def body() -> None:
        _, peer, agent = await agent_and_raw_client()
        await peer.send(_new("slow", "/block"))
        await agent.started.wait()
        await peer.send(_new("fast", "/fast"))
        first = await peer.recv()
        assert first["id"] == "fast"
        agent.release.set()
        second = await peer.recv()
        assert second["id"] == "slow" and second["result"]["sessionId"] == "session/block"

    run(body())


@req("ACP-V1-CANCEL-REQUEST-MUST-RESPOND", "ACP-V1-CANCEL-REQUEST-MAY-CANCEL-ACTIVITY")
def test_cancel_request_stops_the_handler_and_answers_request_cancelled() -> None:
    async def body() -> None:
        _, peer, agent = await agent_and_raw_client()
        await peer.send(_new(12, "/forever"))
        await agent.started.wait()
        await peer.send(
            {"jsonrpc": "2.0", "method": rpc.CANCEL_REQUEST_METHOD, "params": {"requestId": 12}}
        )
        reply = await peer.recv()
        _assert_response(reply, 12)
        assert reply["error"]["code"] == rpc.REQUEST_CANCELLED == -32800
        assert agent.handler_cancelled.is_set()
        # Cancelling an unknown or finished request is a no-op, not an error.
        await peer.send(
            {"jsonrpc": "2.0", "method": rpc.CANCEL_REQUEST_METHOD, "params": {"requestId": 12}}
        )
        await _still_works(peer)

    run(body())


@req("ACP-V1-TRANSPORT-STDIO-NEWLINE-DELIMITED")
def test_a_frame_over_the_limit_is_refused_and_the_connection_survives() -> None:
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client(max_frame_bytes=1024 * 1024)
        huge = _new(13)
        huge["params"] = {"cwd": "/" + "x" * (10 * 1024 * 1024), "mcpServers": []}  # a 10 MB line
        await peer.send(huge)
        reply = await peer.recv()
        _assert_response(reply, 13)  # the id is read from the line's first bytes
        assert reply["error"]["code"] == rpc.INVALID_REQUEST
        await _still_works(peer)

    run(body())


def test_a_10_mb_line_within_the_default_limit_is_served() -> None:
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        cwd = "/" + "y" * (10 * 1024 * 1024)
        await peer.send(_new(14, cwd))
        reply = await peer.recv()
        _assert_response(reply, 14)
        assert reply["result"]["sessionId"] == "session" + cwd
        await peer.send_bytes(b"{" + b"z" * (10 * 1024 * 1024) + b"\n")
        reply = await peer.recv()
        assert reply["error"]["code"] == rpc.PARSE_ERROR and reply["id"] is None
        await _still_works(peer)

    run(body())


@req(
    "ACP-V1-JSONRPC-ID-TYPE",
    "ACP-V1-JSONRPC-ID-NOT-NULL",
    "ACP-V1-JSONRPC-ID-NO-FRACTION",
    "ACP-V1-TRANSPORT-UTF8",
    "ACP-V1-TRANSPORT-STDIO-NEWLINE-DELIMITED",
)
def test_outbound_requests_are_single_utf8_lines_with_integer_ids() -> None:
    async def body() -> None:
        connection, agent = await initialized_client()
        calls = [
            asyncio.ensure_future(
                connection.session_new(
                    models.NewSessionRequest.model_validate(
                        {"cwd": f"/tmp/{name}\n\u00e9", "mcpServers": []}
                    )
                )
            )
            for name in ("a", "b")
        ]
        frames = [await agent.recv_line(), await agent.recv_line()]
        messages = [json.loads(frame.decode("utf-8")) for frame in frames]
        for frame, message in zip(frames, messages):
            assert frame.count(b"\n") == 1 and frame.endswith(b"\n")
            assert message["jsonrpc"] == "2.0" and isinstance(message["params"], dict)
            assert isinstance(message["id"], int) and not isinstance(message["id"], bool)
        assert len({m["id"] for m in messages}) == 2
        # Answer out of order: each caller still gets its own result.
        for message in reversed(messages):
            await agent.send(
                {
                    "jsonrpc": "2.0",
                    "id": message["id"],
                    "result": {"sessionId": message["params"]["cwd"]},
                }
            )
        results = [await call for call in calls]
        assert [r.session_id for r in results] == [m["params"]["cwd"] for m in messages]

    run(body())


def test_an_error_response_raises_rpc_error_with_its_code() -> None:
    async def body() -> None:
        connection, agent = await initialized_client()
        call = asyncio.ensure_future(
            connection.session_new(
                models.NewSessionRequest.model_validate({"cwd": "/tmp", "mcpServers": []})
            )
        )
        request = await agent.recv()
        await agent.send(
            {
                "jsonrpc": "2.0",
                "id": request["id"],
                "error": {"code": rpc.RESOURCE_NOT_FOUND, "message": "Resource not found"},
            }
        )
        with pytest.raises(rpc.RpcError) as caught:
            await call
        assert caught.value.code == -32002

    run(body())


def test_cancelling_an_outbound_call_sends_cancel_request() -> None:
    async def body() -> None:
        connection, agent = await initialized_client()
        call = asyncio.ensure_future(
            connection.session_new(
                models.NewSessionRequest.model_validate({"cwd": "/tmp", "mcpServers": []})
            )
        )
        request = await agent.recv()
        call.cancel()
        cancel = await agent.recv()
        assert cancel == {
            "jsonrpc": "2.0",
            "method": rpc.CANCEL_REQUEST_METHOD,
            "params": {"requestId": request["id"]},
        }

    run(body())


def test_pending_calls_fail_when_the_peer_goes_away() -> None:
    async def body() -> None:
        connection, agent = await initialized_client()
        call = asyncio.ensure_future(
            connection.session_new(
                models.NewSessionRequest.model_validate({"cwd": "/tmp", "mcpServers": []})
            )
        )
        await agent.recv()
        agent.close()
        with pytest.raises(rpc.ConnectionClosed):
            await call
        await connection.wait_closed()

    run(body())


@req("ACP-V1-JSONRPC-RPC-PREFIX-RESERVED")
def test_rpc_prefixed_method_names_are_never_sent() -> None:
    async def body() -> None:
        connection, _agent = await initialized_client(Client())
        with pytest.raises(ValueError):
            await connection.rpc.request("rpc.discover")

    run(body())


def test_a_17_mib_prompt_raises_message_too_large_and_nothing_is_written() -> None:
    async def body() -> None:
        connection, agent = await initialized_client()
        text = "y" * (17 * 1024 * 1024)
        prompt = models.PromptRequest.model_validate(
            {"sessionId": "s", "prompt": [{"type": "text", "text": text}]}
        )
        with pytest.raises(errors.MessageTooLarge) as caught:
            await connection.session_prompt(prompt)
        assert caught.value.limit == rpc.DEFAULT_MAX_FRAME_BYTES < caught.value.size
        await agent.nothing_within(0.3)
        assert connection.rpc._pending == {}

    run(body())


@req("ACP-V1-TRANSPORT-UTF8")
def test_a_lone_surrogate_in_a_file_read_answer_is_sent_replaced() -> None:
    class Reader(Client):
        async def fs_read_text_file(
            self, params: models.ReadTextFileRequest
        ) -> models.ReadTextFileResponse:
            return models.ReadTextFileResponse.model_validate({"content": "cut \ud83d"})

    async def body() -> None:
        _, agent = await initialized_client(Reader())
        await agent.send(
            {
                "jsonrpc": "2.0",
                "id": "r",
                "method": "fs/read_text_file",
                "params": {"sessionId": "s", "path": "/tmp/x"},
            }
        )
        raw = await agent.recv_line()
        raw.decode("utf-8")  # strict UTF-8
        assert json.loads(raw) == {"jsonrpc": "2.0", "id": "r", "result": {"content": "cut \ufffd"}}

    run(body())
