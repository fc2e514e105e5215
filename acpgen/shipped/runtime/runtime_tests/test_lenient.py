"""Lenient inbound decoding exactly where the schema marks it; strict everywhere else.

Copied verbatim into every generated project by acpgen. What the official SDKs accept from
a peer (a null capability, an invalid auth method among valid ones, an unknown tool kind),
the runtime accepts and delivers, repaired as the schema's ``x-deserialize-*`` markers say;
the models' ``model_validate_json`` reads the same bytes into the same object, and
construction stays strict.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from pydantic import ValidationError

from ._package import Client, errors, models
from .helpers import (
    agent_and_raw_client,
    client_and_raw_agent,
    init_request,
    initialized_client,
    run,
)


async def _initialize_with(result: dict[str, Any]) -> Any:
    connection, agent = await client_and_raw_agent()
    call = asyncio.ensure_future(
        connection.initialize(
            models.InitializeRequest.model_validate(
                {"protocolVersion": 1, "clientCapabilities": {}}
            )
        )
    )
    request = await agent.recv()
    await agent.send(
        {"jsonrpc": "2.0", "id": request["id"], "result": {"protocolVersion": 1, **result}}
    )
    return await call


@pytest.mark.parametrize(
    ("result", "check"),
    [
        (
            {"agentCapabilities": {"loadSession": None}},
            lambda r: r.agent_capabilities.load_session is False,
        ),
        (
            {"agentCapabilities": {"mcpCapabilities": {"sse": None, "http": True}}},
            lambda r: r.agent_capabilities.mcp_capabilities.http is True,
        ),
        ({"agentCapabilities": None}, lambda r: r.agent_capabilities.load_session is False),
        ({"authMethods": None}, lambda r: list(r.auth_methods) == []),
        (
            {"authMethods": [{"id": "a", "name": "A"}, {"id": 5}, {"id": "b", "name": "B"}]},
            lambda r: [str(m.id) for m in r.auth_methods] == ["a", "b"],
        ),
        ({"agentInfo": {"name": "no version"}}, lambda r: r.agent_info is None),
    ],
    ids=[
        "loadSession-null",
        "sse-null",
        "agentCapabilities-null",
        "authMethods-null",
        "invalid-auth-method",
        "agentInfo-without-version",
    ],
)
def test_marked_places_are_read_leniently_and_delivered(
    result: dict[str, Any], check: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        response = run(_initialize_with(result))
    assert check(response)
    assert "x-deserialize-" in caplog.text  # the repair is logged
    # The model reads the same bytes the same way.
    read = models.InitializeResponse.model_validate_json(
        json.dumps({"protocolVersion": 1, **result})
    )
    assert read == response and check(read)
    # Construction is strict: a marked member given an invalid value is an error.
    invalid: Any = [{"id": 5}]
    with pytest.raises(ValidationError):
        models.InitializeResponse(protocol_version=1, auth_methods=invalid)


def test_an_error_outside_a_marked_place_still_fails() -> None:
    # protocolVersion is not marked: an invalid one is a malformed response, not a default.
    async def body() -> None:
        connection, agent = await client_and_raw_agent()
        call = asyncio.ensure_future(
            connection.initialize(
                models.InitializeRequest.model_validate(
                    {"protocolVersion": 1, "clientCapabilities": {}}
                )
            )
        )
        request = await agent.recv()
        await agent.send(
            {"jsonrpc": "2.0", "id": request["id"], "result": {"protocolVersion": "one"}}
        )
        with pytest.raises(errors.MalformedResponse) as caught:
            await call
        assert caught.value.code == -32603

    run(body())


class Recorder(Client):
    def __init__(self) -> None:
        self.updates: list[Any] = []

    async def session_update(self, params: models.SessionNotification) -> None:
        self.updates.append(params.update)


@pytest.mark.parametrize("field", [{"kind": "teleport"}, {"status": "exploded"}])
def test_a_tool_call_update_with_an_unknown_kind_or_status_is_delivered(
    field: dict[str, str],
) -> None:
    update = {"sessionUpdate": "tool_call_update", "toolCallId": "t1", "title": "Run", **field}
    # kind and status are marked: the model reads the invalid value as absent, as the wire.
    read = models.SessionNotification.model_validate({"sessionId": "s", "update": update})
    assert not {"kind", "status"} & read.update.model_fields_set

    async def body() -> None:
        client = Recorder()
        connection, agent = await initialized_client(client)
        await agent.send(
            {
                "jsonrpc": "2.0",
                "method": "session/update",
                "params": {"sessionId": "s", "update": update},
            }
        )
        while not client.updates:
            await asyncio.sleep(0.01)
        assert len(client.updates) == 1 and str(client.updates[0].tool_call_id) == "t1"
        await connection.close()

    run(body())


def test_inbound_params_are_read_leniently_too() -> None:
    # InitializeRequest.clientCapabilities is marked: a null is read as the default.
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        request = init_request(1, "lenient")
        request["params"]["clientCapabilities"] = None
        await peer.send(request)
        reply = await peer.recv()
        assert reply["id"] == "lenient" and reply["result"]["protocolVersion"] == 1

    run(body())
