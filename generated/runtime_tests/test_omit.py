# Edit acpgen/shipped/runtime/runtime_tests/test_omit.py, not this file: acpgen generate writes it.
"""Omit, don't fail: what the client cannot take is left out, the rest is sent.

Copied verbatim into every generated project by acpgen. An agent offering a boolean config
option, or a terminal auth method, to a client that did not advertise support answers with
the item left out (and a warning naming the requirement) instead of failing the request.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from ._package import Agent, models
from .helpers import agent_and_raw_client, run

req = pytest.mark.acp_requirement

OPTIONS = [
    {
        "id": "mode",
        "name": "Mode",
        "type": "select",
        "currentValue": "a",
        "options": [{"value": "a", "name": "A"}],
    },
    {"id": "fast", "name": "Fast", "type": "boolean", "currentValue": True},
]
AUTH = [{"id": "login", "name": "Log in", "type": "terminal"}, {"id": "key", "name": "API key"}]


class OfferingAgent(Agent):
    async def initialize(self, params: models.InitializeRequest) -> models.InitializeResponse:
        return models.InitializeResponse.model_validate(
            {"protocolVersion": params.protocol_version, "authMethods": AUTH}
        )

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        return models.NewSessionResponse.model_validate(
            {"sessionId": "s1", "configOptions": OPTIONS}
        )


async def _exchange(capabilities: dict[str, Any]) -> tuple[Any, Any]:
    _, peer, _ = await agent_and_raw_client(OfferingAgent())
    await peer.send(
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {"protocolVersion": 1, "clientCapabilities": capabilities},
        }
    )
    init = await peer.recv()
    await peer.send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "session/new",
            "params": {"cwd": "/tmp", "mcpServers": []},
        }
    )
    return init, await peer.recv()


@req(
    "ACP-V1-CONFIG-NO-BOOLEAN-WITHOUT-CAPABILITY",
    "ACP-V1-AUTH-AGENT-TERMINAL-METHOD-ONLY-WITH-CAPABILITY",
)
def test_unadvertised_items_are_left_out_and_the_rest_is_sent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING):
        init, session = run(_exchange({}))
    assert [m["id"] for m in init["result"]["authMethods"]] == ["key"]
    assert session["result"]["sessionId"] == "s1"
    assert [o["id"] for o in session["result"]["configOptions"]] == ["mode"]
    assert "ACP-V1-CONFIG-NO-BOOLEAN-WITHOUT-CAPABILITY" in caplog.text
    assert "ACP-V1-AUTH-AGENT-TERMINAL-METHOD-ONLY-WITH-CAPABILITY" in caplog.text


def test_advertised_items_are_sent() -> None:
    capabilities = {"auth": {"terminal": True}, "session": {"configOptions": {"boolean": {}}}}
    init, session = run(_exchange(capabilities))
    assert [m["id"] for m in init["result"]["authMethods"]] == ["login", "key"]
    assert [o["id"] for o in session["result"]["configOptions"]] == ["mode", "fast"]
