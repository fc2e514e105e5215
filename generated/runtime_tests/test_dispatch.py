# Edit acpgen/shipped/runtime/runtime_tests/test_dispatch.py, not this file: acpgen generate writes it.
"""What the engine does with a decoded message: receive guards, order per session with
bounded queues, and where a handler's errors go.

Copied verbatim into every generated project by acpgen (``acpgen/shipped/runtime/runtime_tests/test_dispatch.py``).
Progress is asserted by events and order, never by elapsed time.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest

from ._package import (
    Agent,
    Client,
    EchoAgent,
    connect_in_memory,
    errors,
    methods,
    models,
)
from .helpers import (
    agent_and_raw_client,
    initialized_client,
    run,
)

req = pytest.mark.acp_requirement
PERMISSION = "session/request_permission"


def _update(session_id: str, text: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {
            "sessionId": session_id,
            "update": {
                "sessionUpdate": "agent_message_chunk",
                "content": {"type": "text", "text": text},
            },
        },
    }


async def _until(condition: Any, what: str) -> None:
    """Wait for ``condition()`` as long as it takes: the test body's guard (``run``) bounds a
    hang, a loaded machine is slow, not wrong. ``what`` names it for whoever reads the code."""
    while not condition():
        await asyncio.sleep(0.005)


# ---- receive guards ---------------------------------------------------------------------


class Recording(Client):
    """A client whose file and terminal handlers record that they ran."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    async def fs_read_text_file(self, params: Any) -> Any:
        self.ran.append("fs/read_text_file")
        return models.ReadTextFileResponse.model_validate({"content": "secret"})


@req("ACP-V1-INIT-CLIENT-INITIALIZE-FIRST", "ACP-V1-SETUP-INIT-BEFORE-SESSION")
def test_a_request_before_initialize_is_refused_and_no_handler_runs() -> None:
    class Counting(Agent):
        created = 0

        async def session_new(self, params: Any) -> Any:
            Counting.created += 1
            return models.NewSessionResponse.model_validate({"sessionId": "s"})

    async def body() -> None:
        _, peer, _ = await agent_and_raw_client(Counting(), initialize=False)
        new = {"cwd": "/tmp", "mcpServers": []}
        await peer.send({"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": new})
        answer = await peer.recv()
        assert answer["id"] == 1 and answer["error"]["code"] == -32600, answer
        assert "initialize" in answer["error"]["data"]["reason"]
        assert Counting.created == 0

    run(body())


@req("ACP-V1-FS-AGENT-NO-CALL-WITHOUT-CAPABILITY")
def test_a_file_read_the_client_did_not_advertise_never_reaches_its_handler(
    caplog: pytest.LogCaptureFixture,
) -> None:
    if "fs/read_text_file" not in methods.METHODS:
        pytest.skip("this surface has no fs/read_text_file")
    read = {"sessionId": "s", "path": "/etc/passwd"}

    async def body() -> None:
        client = Recording()
        _, agent = await initialized_client(client, client_capabilities={})
        for request_id in (1, 2):
            await agent.send(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "method": "fs/read_text_file",
                    "params": read,
                }
            )
            answer = await agent.recv()
            assert answer["error"]["code"] == -32601, answer
            assert answer["error"]["data"]["capability"] == "clientCapabilities.fs.readTextFile"
        assert client.ran == []
        # The opt-out, per connection: the same request reaches the handler.
        client = Recording()
        _, agent = await initialized_client(
            client, client_capabilities={}, unsafe_accept_unadvertised=True
        )
        await agent.send({"jsonrpc": "2.0", "id": 3, "method": "fs/read_text_file", "params": read})
        assert (await agent.recv())["result"] == {"content": "secret"}
        assert client.ran == ["fs/read_text_file"]

    with caplog.at_level(logging.WARNING):
        run(body())
    refusals = [r for r in caplog.records if "refused fs/read_text_file" in r.getMessage()]
    assert len(refusals) == 1  # logged once per connection and kind, not per message


# ---- order per session, concurrency across sessions ----------------------------------------


class Sessions(Client):
    """Records each session's updates in arrival order; one session's handler blocks."""

    def __init__(self, slow: str) -> None:
        self.slow = slow
        self.gate = asyncio.Event()
        self.seen: dict[str, list[str]] = {}
        self.running: dict[str, int] = {}
        self.overlap = False

    async def session_update(self, params: Any) -> None:
        session_id = str(params.session_id)
        self.running[session_id] = self.running.get(session_id, 0) + 1
        self.overlap |= self.running[session_id] > 1  # one at a time per session
        try:
            if session_id == self.slow:
                await self.gate.wait()
            self.seen.setdefault(session_id, []).append(str(params.update.content.text))
        finally:
            self.running[session_id] -= 1


@req("ACP-V1-PROMPT-UPDATES-BEFORE-RESPONSE")
def test_a_blocked_session_stalls_only_itself_and_every_session_keeps_its_order() -> None:
    sessions = [f"s{i}" for i in range(20)]
    updates = 10

    async def body() -> None:
        client = Sessions(slow="s0")
        connection, agent = await initialized_client(client)
        prompts = {
            s: asyncio.ensure_future(
                connection.session_prompt(session_id=s, prompt=[models.ContentBlockText(text="go")])
            )
            for s in sessions
        }
        ids = {}
        for _ in sessions:
            request = await agent.recv()
            ids[request["params"]["sessionId"]] = request["id"]
        for n in range(updates):  # interleaved on the wire
            for s in sessions:
                await agent.send(_update(s, str(n)))
        for s in sessions:
            await agent.send({"jsonrpc": "2.0", "id": ids[s], "result": {"stopReason": "end_turn"}})
        fast = [prompts[s] for s in sessions[1:]]
        # All 19 answered while s0's handler is still blocked (the timeout: a hang guard).
        _, stalled = await asyncio.wait(fast, timeout=20)
        assert not stalled, "a blocked session stalled the others"
        for s in sessions[1:]:
            assert client.seen[s] == [str(n) for n in range(updates)]
        assert not prompts["s0"].done() and "s0" not in client.seen
        client.gate.set()
        assert str((await prompts["s0"]).stop_reason.value) == "end_turn"
        # Its response came after all of its updates, in order.
        assert client.seen["s0"] == [str(n) for n in range(updates)]
        assert not client.overlap

    run(body())


@pytest.mark.parametrize("bound", ["per-session", "bytes"])
def test_a_full_queue_pauses_reading_and_drops_nothing(bound: str) -> None:
    sent = 60
    frame = len(json.dumps(_update("s", "00")).encode()) + 1  # the longest update sent
    limits: dict[str, Any] = {
        "max_queued_per_session": 3,
        "max_queued_total": 100,
        "max_queued_bytes": 10**6,
    }
    connection: Any = None
    if bound == "bytes":
        limits.update(max_queued_per_session=100, max_queued_bytes=4 * frame)

    def full() -> bool:
        rpc = connection.rpc
        if bound == "bytes":
            return bool(rpc.queued_bytes >= limits["max_queued_bytes"])
        return bool(rpc.queued_notifications == limits["max_queued_per_session"])

    async def body() -> None:
        nonlocal connection
        client = Sessions(slow="s")
        connection, agent = await initialized_client(client, **limits)
        for n in range(sent):
            await agent.send(_update("s", f"{n:02d}"))
        await _until(full, "a full queue")
        held = (connection.rpc.queued_notifications, connection.rpc.queued_bytes)
        await asyncio.sleep(0.1)  # the reader had time to read on: it must not have
        assert (connection.rpc.queued_notifications, connection.rpc.queued_bytes) == held
        assert held[1] <= limits["max_queued_bytes"] + frame  # the bound, plus one frame
        client.gate.set()
        await _until(lambda: len(client.seen.get("s", ())) == sent, "every update")
        assert client.seen["s"] == [f"{n:02d}" for n in range(sent)]
        assert connection.rpc.queued_notifications == connection.rpc.queued_bytes == 0

    run(body())


# ---- handler errors stay where they belong -------------------------------------------------


@pytest.mark.parametrize("catch", [False, True], ids=["unhandled", "caught"])
def test_an_error_answer_to_a_nested_call_is_typed_and_never_passed_through(
    catch: bool,
) -> None:
    if PERMISSION not in methods.METHODS:
        pytest.skip(f"this surface has no {PERMISSION}")
    caught: list[BaseException] = []

    class Asking(Agent):
        async def session_prompt(self, params: Any) -> Any:
            try:
                await self.connection.session_request_permission(
                    session_id=params.session_id,
                    tool_call=models.ToolCallUpdate(tool_call_id="t", title="t"),
                    options=[],
                )
            except errors.RpcError as exc:
                caught.append(exc)
                if not catch:
                    raise
            return models.PromptResponse.model_validate({"stopReason": "end_turn"})

    async def body() -> None:
        _, client, _ = await agent_and_raw_client(Asking())
        prompt = {"sessionId": "s", "prompt": [{"type": "text", "text": "hi"}]}
        await client.send({"jsonrpc": "2.0", "id": 5, "method": "session/prompt", "params": prompt})
        asked = await client.recv()
        assert asked["method"] == PERMISSION
        error = {"code": -32601, "message": "Method not found"}
        await client.send({"jsonrpc": "2.0", "id": asked["id"], "error": error})
        answer = await client.recv()
        assert isinstance(caught[0], errors.MethodNotFoundError)  # typed, for the handler
        if catch:
            assert answer["result"] == {"stopReason": "end_turn"}
            return
        assert answer["error"]["code"] == -32603, answer  # never the client's -32601
        assert PERMISSION in answer["error"]["message"]
        assert "-32601" in answer["error"]["message"]

    run(body())


def test_the_echo_agent_ends_a_turn_whose_permission_request_is_refused() -> None:
    if PERMISSION not in methods.METHODS:
        pytest.skip(f"this surface has no {PERMISSION}")

    class NoPermissions(Client):  # request_permission not implemented: answered -32601
        def __init__(self) -> None:
            self.chunks: list[str] = []

        async def session_update(self, params: Any) -> None:
            self.chunks.append(str(getattr(params.update.content, "text", "")))

    async def body() -> None:
        client = NoPermissions()
        async with connect_in_memory(EchoAgent(), client) as (_agent_end, client_end):
            await client_end.initialize(protocol_version=1, client_capabilities=None)
            session = await client_end.session_new(cwd="/tmp", mcp_servers=[])
            response = await client_end.session_prompt(
                session_id=session.session_id,
                prompt=[models.ContentBlockText(text="/permission")],
            )
        assert str(response.stop_reason.value) == "end_turn"
        assert any("not granted (-32601" in chunk for chunk in client.chunks), client.chunks

    run(body())
