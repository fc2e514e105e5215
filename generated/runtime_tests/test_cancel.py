# Edit acpgen/shipped/runtime/runtime_tests/test_cancel.py, not this file: acpgen generate writes it.
"""session/cancel answers every pending session/request_permission of that session with
``cancelled`` (ACP-V1-PROMPT-CLIENT-RESPOND-PENDING-PERMISSIONS), and $/cancel_request reaches permission handlers too.

Copied verbatim into every generated project by acpgen.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ._package import Client, EchoAgent, connect_in_memory, models, rpc
from .helpers import initialized_client, run

req = pytest.mark.acp_requirement


class UndecidedClient(Client):
    """A user who never answers the permission dialog (until told to)."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.abandoned = 0
        self.answer = asyncio.Event()

    async def session_request_permission(
        self, params: models.RequestPermissionRequest
    ) -> models.RequestPermissionResponse:
        self.asked.append(str(params.session_id))
        try:
            await self.answer.wait()
        except asyncio.CancelledError:
            self.abandoned += 1
            raise
        return models.RequestPermissionResponse.model_validate(
            {"outcome": {"outcome": "selected", "optionId": "allow"}}
        )


def _permission(request_id: int, session_id: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "session/request_permission",
        "params": {
            "sessionId": session_id,
            "toolCall": {"toolCallId": f"call-{request_id}"},
            "options": [{"optionId": "allow", "name": "Allow", "kind": "allow_once"}],
        },
    }


@req("ACP-V1-PROMPT-CLIENT-RESPOND-PENDING-PERMISSIONS", "ACP-V1-PROMPT-CLIENT-CANCEL-MAY")
def test_session_cancel_answers_pending_permission_requests_of_that_session_with_cancelled() -> (
    None
):
    async def body() -> None:
        client = UndecidedClient()
        connection, agent = await initialized_client(client)
        for request_id, session in ((100, "s1"), (101, "s1"), (102, "s2")):
            await agent.send(_permission(request_id, session))
        while len(client.asked) < 3:
            await asyncio.sleep(0.01)
        await connection.session_cancel(
            models.CancelNotification.model_validate({"sessionId": "s1"})
        )
        cancel = await agent.recv()
        assert cancel == {
            "jsonrpc": "2.0",
            "method": "session/cancel",
            "params": {"sessionId": "s1"},
        }
        replies = {}
        for _ in range(2):
            reply = await agent.recv()
            replies[reply["id"]] = reply
        assert set(replies) == {100, 101}
        for reply in replies.values():
            assert reply["result"] == {"outcome": {"outcome": "cancelled"}}
        assert client.abandoned == 2
        # The other session's request stays pending until its user answers.
        await agent.nothing_within(0.2)
        client.answer.set()
        reply = await agent.recv()
        assert reply["id"] == 102
        assert reply["result"]["outcome"] == {"outcome": "selected", "optionId": "allow"}

    run(body())


@req("ACP-V1-CANCEL-REQUEST-MUST-RESPOND")
def test_cancel_request_from_the_agent_stops_a_permission_handler() -> None:
    async def body() -> None:
        client = UndecidedClient()
        _connection, agent = await initialized_client(client)
        await agent.send(_permission(200, "s9"))
        while not client.asked:
            await asyncio.sleep(0.01)
        await agent.send(
            {"jsonrpc": "2.0", "method": rpc.CANCEL_REQUEST_METHOD, "params": {"requestId": 200}}
        )
        reply = await agent.recv()
        assert reply["id"] == 200 and reply["error"]["code"] == rpc.REQUEST_CANCELLED
        assert client.abandoned == 1

    run(body())


def test_an_answered_permission_request_is_passed_through() -> None:
    async def body() -> None:
        client = UndecidedClient()
        client.answer.set()
        _connection, agent = await initialized_client(client)
        await agent.send(_permission(300, "s1"))
        reply = await agent.recv()
        assert reply == {
            "jsonrpc": "2.0",
            "id": 300,
            "result": {"outcome": {"outcome": "selected", "optionId": "allow"}},
        }

    run(body())


@req(
    "ACP-V1-PROMPT-CLIENT-RESPOND-PENDING-PERMISSIONS", "ACP-V1-PROMPT-AGENT-CANCELLED-STOP-REASON"
)
def test_end_to_end_the_agent_sees_the_cancelled_outcome_and_ends_the_turn() -> None:
    class Recording(EchoAgent):
        def __init__(self) -> None:
            super().__init__()
            self.outcomes: list[object] = []

        async def _permission_request(self, session_id: str) -> models.RequestPermissionResponse:
            response = await super()._permission_request(session_id)
            self.outcomes.append(response.outcome.outcome)
            return response

    async def body() -> None:
        agent, client = Recording(), UndecidedClient()
        async with connect_in_memory(agent, client) as (_agent_end, client_end):
            await client_end.initialize(
                models.InitializeRequest.model_validate({"protocolVersion": 1})
            )
            session = await client_end.session_new(
                models.NewSessionRequest.model_validate({"cwd": "/tmp", "mcpServers": []})
            )
            turn = asyncio.ensure_future(
                client_end.session_prompt(
                    models.PromptRequest.model_validate(
                        {
                            "sessionId": session.session_id,
                            "prompt": [{"type": "text", "text": "/permission"}],
                        }
                    )
                )
            )
            while not client.asked:
                await asyncio.sleep(0.01)
            await client_end.session_cancel(
                models.CancelNotification.model_validate({"sessionId": session.session_id})
            )
            response = await turn
            assert str(getattr(response.stop_reason, "value", response.stop_reason)) == "cancelled"
            assert agent.outcomes == ["cancelled"]  # answered by the client, not timed out
            assert client.abandoned == 1

    run(body())
