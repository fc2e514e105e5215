# Edit acpgen/shipped/runtime/runtime_tests/test_faults.py, not this file: acpgen generate writes it.
"""Fault injection: the example echo agent as a real process, driven over real pipes.

Copied verbatim into every generated project by acpgen.

A raw peer writes exact bytes (several messages in one write, malformed frames, oversized
lines, abrupt closes) to ``python -m <package>.examples.echo_agent`` and reads what comes
back. Every case checks the JSON-RPC error code, that exactly one response arrives for each
request, and that the agent keeps serving; every wait is bounded, so a hang fails the test
instead of stalling the run.
"""

from __future__ import annotations

import importlib
import json
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from ._package import LATEST_PROTOCOL_VERSION, PACKAGE
from .helpers import ended_turn, init_params, subprocess_env

req = pytest.mark.acp_requirement
MB = 1024 * 1024
# Seconds any single answer may take: a hang guard, not a speed test (an answer takes
# milliseconds; a loaded CI machine can take seconds just to start the agent).
WAIT = 60.0


class RawAgent:
    """The echo agent as a subprocess; a reader thread turns its stdout into a queue of lines."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", f"{PACKAGE}.examples.echo_agent"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=subprocess_env(),
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr: list[bytes] = []
        self._next = 0
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        try:
            for line in self.process.stdout:
                self.lines.put(line)
        except (ValueError, OSError):  # the test closed the pipe (a "killed" client)
            pass
        self.lines.put(None)

    def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        self.stderr.extend(self.process.stderr)

    def new_id(self) -> str:
        self._next += 1
        return f"t{self._next}"

    def send_bytes(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, *messages: Any) -> None:
        """All messages in a single write."""
        self.send_bytes(b"".join(json.dumps(m).encode("utf-8") + b"\n" for m in messages))

    def recv(self, timeout: float = WAIT) -> Any:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no message within {timeout}s") from None
        if line is None:
            raise AssertionError("the agent closed its stdout")
        line.decode("utf-8")  # strictly UTF-8 (ACP-V1-TRANSPORT-UTF8)
        return json.loads(line)

    def silent(self, seconds: float = 0.3) -> bool:
        try:
            line = self.lines.get(timeout=seconds)
        except queue.Empty:
            return True
        raise AssertionError(f"expected nothing, got {line!r:.300}")

    def responses(self, count: int) -> tuple[dict[Any, list[Any]], list[Any]]:
        """The next ``count`` responses by id, and the agent's messages seen meanwhile."""
        by_id: dict[Any, list[Any]] = {}
        others: list[Any] = []
        while sum(len(v) for v in by_id.values()) < count:
            message = self.recv()
            if isinstance(message, dict) and "method" in message:
                others.append(message)
            else:
                by_id.setdefault(message["id"], []).append(message)
        return by_id, others

    def call(self, method: str, params: Any) -> Any:
        request_id = self.new_id()
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        by_id, _ = self.responses(1)
        (reply,) = by_id[request_id]
        return reply

    def initialize(self) -> None:
        reply = self.call("initialize", init_params())
        assert reply["result"]["protocolVersion"] == LATEST_PROTOCOL_VERSION

    def new_session(self) -> str:
        return str(
            self.call("session/new", {"cwd": "/tmp", "mcpServers": []})["result"]["sessionId"]
        )

    def prompt(self, session_id: str, text: str) -> tuple[str, Any]:
        """The streamed text and the final response of one prompt."""
        request_id = self.new_id()
        self.send(prompt_request(request_id, session_id, text))
        by_id, updates = self.responses(1)
        return streamed(updates), by_id[request_id][0]

    def assert_serves(self, session_id: str) -> None:
        text, reply = self.prompt(session_id, "still serving")
        assert text == "still serving" and ended_turn(reply)

    def close(self, timeout: float = WAIT) -> int:
        if self.process.stdin is not None and not self.process.stdin.closed:
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"the agent did not exit within {timeout}s of EOF") from None

    def tracebacks(self) -> list[bytes]:
        return [line for line in self.stderr if b"Traceback" in line]


def prompt_request(request_id: Any, session_id: str, text: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "session/prompt",
        "params": {"sessionId": session_id, "prompt": [{"type": "text", "text": text}]},
    }


def new_session_request(request_id: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "session/new",
        "params": {"cwd": "/tmp", "mcpServers": []},
    }


def cancel_request(request_id: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": "$/cancel_request", "params": {"requestId": request_id}}


def streamed(updates: list[Any], session_id: str | None = None) -> str:
    return "".join(
        u["params"]["update"]["content"]["text"]
        for u in updates
        if u.get("method") == "session/update"
        and (session_id is None or u["params"]["sessionId"] == session_id)
    )


def error_code(reply: Any) -> int:
    assert reply["jsonrpc"] == "2.0" and "result" not in reply, reply
    return int(reply["error"]["code"])


@pytest.fixture(scope="module")
def shared() -> Iterator[tuple[RawAgent, str]]:
    """One initialized agent with a session for the cases that must leave it serving."""
    agent = RawAgent()
    agent.initialize()
    session_id = agent.new_session()
    yield agent, session_id
    assert agent.close() == 0
    assert agent.tracebacks() == []


# ---- exactly one response per request ----------------------------------------------------


@req("ACP-V1-CANCEL-REQUEST-MUST-RESPOND", "ACP-V1-JSONRPC-RESPONSE-REQUIRED")
def test_the_four_line_repro_answers_every_request() -> None:
    agent = RawAgent()
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init_params()}
    agent.send_bytes(
        json.dumps(initialize, separators=(",", ":")).encode() + b"\n"
        b'{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}\n'
        b'{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":2}}\n'
        b'{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}\n'
    )
    by_id, _ = agent.responses(3)
    assert sorted(by_id) == [1, 2, 3] and all(len(v) == 1 for v in by_id.values())
    second = by_id[2][0]
    assert "result" in second or error_code(second) == -32800
    assert agent.silent()
    assert agent.close() == 0


@req("ACP-V1-CANCEL-REQUEST-MUST-RESPOND")
def test_a_hundred_request_and_cancel_pairs_each_get_one_response(
    shared: tuple[RawAgent, str],
) -> None:
    agent, session_id = shared
    ids = [f"pair{i}" for i in range(100)]
    for request_id in ids:
        agent.send(new_session_request(request_id), cancel_request(request_id))
    by_id, _ = agent.responses(100)
    assert sorted(by_id) == sorted(ids)
    for replies in by_id.values():
        assert len(replies) == 1
        assert "result" in replies[0] or error_code(replies[0]) == -32800
    assert agent.silent()
    agent.assert_serves(session_id)


@req("ACP-V1-CANCEL-REQUEST-MUST-RESPOND")
def test_a_cancel_reaches_a_request_whose_id_is_reused_while_in_flight(
    shared: tuple[RawAgent, str],
) -> None:
    agent, session_id = shared
    other = agent.new_session()
    agent.send(prompt_request("dup", session_id, "/wait"))
    agent.send(prompt_request("dup", other, "quick"))
    by_id, _ = agent.responses(1)
    assert ended_turn(by_id["dup"][0])  # the quick one
    agent.send(cancel_request("dup"))
    by_id, _ = agent.responses(1)
    assert error_code(by_id["dup"][0]) == -32800  # the /wait one
    agent.assert_serves(session_id)


# ---- what a peer may send: the right error, and the agent keeps serving ---------------------


@req("ACP-V1-JSONRPC-RESPONSE-ID-ECHO", "ACP-V1-JSONRPC-ERROR-RESPONSE-CONTAINS-ERROR")
@pytest.mark.parametrize(
    "frame",
    [b'{"jsonrpc":"2.0","id":1,"method":', b"\xff\xfe{}", b"[" * 200_000, b'{"a":NaN}'],
    ids=["malformed-json", "invalid-utf8", "deep-nesting", "nan"],
)
def test_what_is_not_json_gets_a_parse_error(shared: tuple[RawAgent, str], frame: bytes) -> None:
    agent, session_id = shared
    agent.send_bytes(frame + b"\n")
    reply = agent.recv()
    assert error_code(reply) == -32700 and reply["id"] is None
    agent.assert_serves(session_id)


@req("ACP-V1-JSONRPC-VERSION-MEMBER", "ACP-V1-JSONRPC-PARAMS-STRUCTURED", "ACP-V1-JSONRPC-ID-TYPE")
@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ({"jsonrpc": "1.0", "id": "v", "method": "session/new", "params": {}}, ("v", -32600)),
        ({"id": "v2", "method": "session/new"}, ("v2", -32600)),
        ({"jsonrpc": "2.0", "id": "p", "method": "session/new", "params": "cwd"}, ("p", -32600)),
        ({"jsonrpc": "2.0", "id": "p2", "method": "session/new", "params": 5}, ("p2", -32600)),
        (
            {"jsonrpc": "2.0", "id": "p3", "method": "session/new", "params": ["/tmp"]},
            ("p3", -32602),
        ),
        ({"jsonrpc": "2.0", "id": True, "method": "session/new", "params": {}}, (None, -32600)),
        ({"jsonrpc": "2.0", "id": {"a": 1}, "method": "session/new", "params": {}}, (None, -32600)),
        ({"jsonrpc": "2.0", "id": [1], "method": "session/new", "params": {}}, (None, -32600)),
        ({"jsonrpc": "2.0", "id": "m", "method": "no/such_method", "params": {}}, ("m", -32601)),
        ("a string", (None, -32600)),
    ],
    ids=[
        "wrong-jsonrpc",
        "no-jsonrpc",
        "string-params",
        "number-params",
        "array-params",
        "boolean-id",
        "object-id",
        "array-id",
        "unknown-method",
        "not-an-object",
    ],
)
def test_what_is_not_a_valid_request_gets_its_error(
    shared: tuple[RawAgent, str], message: Any, answer: tuple[Any, int]
) -> None:
    agent, session_id = shared
    agent.send(message)
    reply = agent.recv()
    assert (reply["id"], error_code(reply)) == answer
    assert agent.silent()  # exactly one answer
    agent.assert_serves(session_id)


@req("ACP-V1-JSONRPC-ID-TYPE", "ACP-V1-JSONRPC-RESPONSE-SAME-ID")
@pytest.mark.parametrize(
    "request_id",
    [0, -1, 2**53, 1.5, "", "id with \u00e9", None],
    ids=["zero", "negative", "large", "fraction", "empty", "unicode", "null"],
)
def test_ids_of_every_json_type_are_echoed(shared: tuple[RawAgent, str], request_id: Any) -> None:
    agent, _ = shared
    agent.send(new_session_request(request_id))
    reply = agent.recv()
    assert reply["id"] == request_id and type(reply["id"]) is type(request_id)
    assert reply["result"]["sessionId"]


@req("ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION")
def test_responses_to_unknown_ids_are_dropped_unanswered(shared: tuple[RawAgent, str]) -> None:
    agent, session_id = shared
    agent.send(
        {"jsonrpc": "2.0", "id": 99999, "result": {}},
        {"jsonrpc": "2.0", "id": "nobody", "error": {"code": -32603, "message": "x"}},
    )
    assert agent.silent()
    agent.assert_serves(session_id)


@req("ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION")
def test_a_thousand_notifications_in_one_write_get_no_reply(shared: tuple[RawAgent, str]) -> None:
    agent, session_id = shared
    other = agent.new_session()
    notes = [{"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": other}}] * 500
    notes += [{"jsonrpc": "2.0", "method": "_x/ping", "params": {"n": i}} for i in range(500)]
    agent.send(*notes)
    agent.assert_serves(session_id)  # the next frame is the prompt's, nothing for the 1,000


@req("ACP-V1-TRANSPORT-STDIO-NEWLINE-DELIMITED")
def test_a_ten_megabyte_prompt_is_served(shared: tuple[RawAgent, str]) -> None:
    agent, session_id = shared
    big = "x" * (10 * MB)
    text, reply = agent.prompt(session_id, big)
    assert text == big and ended_turn(reply)


def test_a_line_over_the_limit_is_refused_with_its_id(shared: tuple[RawAgent, str]) -> None:
    agent, session_id = shared
    agent.send(prompt_request("huge", session_id, "y" * (17 * MB)))
    reply = agent.recv()
    assert reply["id"] == "huge" and error_code(reply) == -32600
    agent.assert_serves(session_id)


def test_a_response_without_result_or_error_fails_only_that_call(
    shared: tuple[RawAgent, str],
) -> None:
    agent, session_id = shared
    agent.send(prompt_request("perm", session_id, "/permission"))
    asked = agent.recv()
    assert asked["method"] == "session/request_permission"
    agent.send({"jsonrpc": "2.0", "id": asked["id"]})  # neither result nor error
    by_id, _ = agent.responses(1)
    assert list(by_id) == ["perm"] and len(by_id["perm"]) == 1  # no -32600 for asked["id"]
    agent.assert_serves(session_id)


@req("ACP-V1-TRANSPORT-UTF8")
def test_a_lone_surrogate_is_echoed_as_a_replacement_character(
    shared: tuple[RawAgent, str],
) -> None:
    agent, session_id = shared
    # JSON text may escape a lone surrogate (a truncated emoji); the reply stays UTF-8.
    agent.send_bytes(json.dumps(prompt_request("sur", session_id, "cut \ud83d")).encode() + b"\n")
    by_id, updates = agent.responses(1)
    assert ended_turn(by_id["sur"][0])
    assert streamed(updates) == "cut \ufffd"


def test_fifty_concurrent_sessions_keep_their_own_updates(shared: tuple[RawAgent, str]) -> None:
    agent, _ = shared
    agent.send(*(new_session_request(f"s{i}") for i in range(50)))
    by_id, _ = agent.responses(50)
    sessions = {i: by_id[f"s{i}"][0]["result"]["sessionId"] for i in range(50)}
    texts = {i: f"session {i} " + " ".join(f"w{i}.{k}" for k in range(20)) for i in range(50)}
    agent.send(*(prompt_request(f"q{i}", sessions[i], texts[i]) for i in range(50)))
    by_id, updates = agent.responses(50)
    for i in range(50):
        assert ended_turn(by_id[f"q{i}"][0])
        assert streamed(updates, sessions[i]) == texts[i]


# ---- the peer goes away ------------------------------------------------------------------


def test_requests_written_just_before_eof_are_still_answered() -> None:
    agent = RawAgent()
    agent.initialize()
    session_id = agent.new_session()
    agent.send(prompt_request("last", session_id, "written then closed"))
    assert agent.process.stdin is not None
    agent.process.stdin.close()
    by_id, updates = agent.responses(1)
    assert ended_turn(by_id["last"][0])
    assert streamed(updates) == "written then closed"
    assert agent.close() == 0 and agent.tracebacks() == []


def test_stdin_closed_mid_request_ends_the_agent_in_bounded_time() -> None:
    agent = RawAgent()
    agent.initialize()
    session_id = agent.new_session()
    agent.send(prompt_request("forever", session_id, "/wait"))
    assert agent.recv()["method"] == "session/update"
    assert agent.close(timeout=WAIT) == 0  # it ends, rather than waiting for the turn forever
    assert agent.tracebacks() == []


def test_a_client_killed_mid_stream_leaves_the_agent_exiting_cleanly() -> None:
    agent = RawAgent()
    agent.initialize()
    session_id = agent.new_session()
    agent.send(prompt_request("long", session_id, " ".join(["word"] * 20000)))
    assert agent.recv()["method"] == "session/update"
    # The client dies: both pipes close at once, with the agent still writing.
    assert agent.process.stdout is not None and agent.process.stdin is not None
    agent.process.stdout.close()
    assert agent.close(timeout=WAIT) == 0
    assert agent.tracebacks() == []


def test_a_call_to_an_agent_killed_mid_request_fails_with_connection_closed() -> None:
    import asyncio

    connection = importlib.import_module(f"{PACKAGE}.connection")
    errors = importlib.import_module(f"{PACKAGE}.errors")
    interfaces = importlib.import_module(f"{PACKAGE}.interfaces")
    models = importlib.import_module(f"{PACKAGE}.models")
    stdio = importlib.import_module(f"{PACKAGE}.transports.spawn")
    command = [sys.executable, "-m", f"{PACKAGE}.examples.echo_agent"]

    async def body() -> None:
        async with stdio.spawn_process(command, env=subprocess_env()) as (reader, writer, process):
            client = connection.ClientSideConnection(interfaces.Client(), reader, writer)
            client.start()
            await client.initialize(models.InitializeRequest.model_validate(init_params()))
            session = await client.session_new(
                models.NewSessionRequest.model_validate({"cwd": "/tmp", "mcpServers": []})
            )
            prompt = models.PromptRequest.model_validate(
                {"sessionId": session.session_id, "prompt": [{"type": "text", "text": "/wait"}]}
            )
            turn = asyncio.ensure_future(client.session_prompt(prompt))
            await asyncio.sleep(0.3)
            process.kill()
            with pytest.raises(errors.ConnectionClosed):
                await asyncio.wait_for(turn, WAIT)
            await client.close()

    asyncio.run(asyncio.wait_for(body(), 30))
