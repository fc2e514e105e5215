"""The initialize handshake: version negotiation on both sides (ACP-V1-INIT-*-VERSION).

Copied verbatim into every generated project by acpgen.
"""

from __future__ import annotations

import asyncio

import pytest

from ._package import (
    LATEST_PROTOCOL_VERSION,
    SUPPORTED_PROTOCOL_VERSIONS,
    ProtocolVersionError,
    models,
    negotiate_version,
)
from .helpers import ProbeAgent, agent_and_raw_client, client_and_raw_agent, init_request, run

req = pytest.mark.acp_requirement
UNSUPPORTED = max(SUPPORTED_PROTOCOL_VERSIONS) + 41


def test_negotiation_rule() -> None:
    for version in SUPPORTED_PROTOCOL_VERSIONS:
        assert negotiate_version(version) == version
    assert negotiate_version(UNSUPPORTED) == LATEST_PROTOCOL_VERSION
    assert negotiate_version(0) == LATEST_PROTOCOL_VERSION
    assert negotiate_version(3, frozenset({1, 2, 3})) == 3
    assert negotiate_version(9, frozenset({1, 2, 3})) == 3


@req("ACP-V1-INIT-AGENT-SAME-VERSION", "ACP-V1-INIT-AGENT-RESPONSE")
def test_the_agent_answers_the_requested_version_when_it_supports_it() -> None:
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client()
        await peer.send(init_request(LATEST_PROTOCOL_VERSION))
        reply = await peer.recv()
        assert reply["result"]["protocolVersion"] == LATEST_PROTOCOL_VERSION

    run(body())


@req("ACP-V1-INIT-AGENT-LATEST-VERSION")
@pytest.mark.parametrize("answered_by_application", [None, 0, UNSUPPORTED + 1])
def test_the_agent_answers_its_latest_version_otherwise(
    answered_by_application: int | None,
) -> None:
    # Whatever the application's initialize handler puts in the response, the runtime
    # answers the negotiated version.
    async def body() -> None:
        _, peer, _ = await agent_and_raw_client(
            ProbeAgent(answered_version=answered_by_application)
        )
        await peer.send(init_request(UNSUPPORTED))
        reply = await peer.recv()
        assert reply["result"]["protocolVersion"] == LATEST_PROTOCOL_VERSION

    run(body())


@req("ACP-V1-INIT-CLIENT-UNSUPPORTED-VERSION", "ACP-V1-INIT-VERSION-AGREEMENT")
def test_the_client_closes_the_connection_when_it_does_not_support_the_answered_version() -> None:
    async def body() -> None:
        connection, agent = await client_and_raw_agent()
        call = asyncio.ensure_future(
            connection.initialize(
                models.InitializeRequest.model_validate(
                    {"protocolVersion": LATEST_PROTOCOL_VERSION}
                )
            )
        )
        request = await agent.recv()
        await agent.send(
            {"jsonrpc": "2.0", "id": request["id"], "result": {"protocolVersion": UNSUPPORTED}}
        )
        with pytest.raises(ProtocolVersionError) as caught:
            await call
        assert caught.value.answered == UNSUPPORTED
        assert connection.rpc.closed
        assert await agent.at_eof()  # the agent sees the connection closed

    run(body())


@req("ACP-V1-INIT-REQUEST-LATEST-VERSION")
@pytest.mark.parametrize("passed", [0, UNSUPPORTED])
def test_the_client_always_asks_for_its_latest_version(passed: int) -> None:
    async def body() -> None:
        connection, agent = await client_and_raw_agent()
        call = asyncio.ensure_future(
            connection.initialize(
                models.InitializeRequest.model_validate({"protocolVersion": passed})
            )
        )
        request = await agent.recv()
        assert request["params"]["protocolVersion"] == LATEST_PROTOCOL_VERSION
        call.cancel()

    run(body())


@req("ACP-V1-INIT-REQUEST-LATEST-VERSION", "ACP-V1-INIT-VERSION-AGREEMENT")
def test_the_client_keeps_a_supported_answer_and_the_agent_capabilities() -> None:
    async def body() -> None:
        connection, agent = await client_and_raw_agent()
        call = asyncio.ensure_future(
            connection.initialize(
                models.InitializeRequest.model_validate(
                    {"protocolVersion": LATEST_PROTOCOL_VERSION}
                )
            )
        )
        request = await agent.recv()
        assert request["params"]["protocolVersion"] == LATEST_PROTOCOL_VERSION
        await agent.send(
            {
                "jsonrpc": "2.0",
                "id": request["id"],
                "result": {
                    "protocolVersion": LATEST_PROTOCOL_VERSION,
                    "agentCapabilities": {"loadSession": True},
                },
            }
        )
        response = await call
        assert response.protocol_version == LATEST_PROTOCOL_VERSION
        assert connection.protocol_version == LATEST_PROTOCOL_VERSION
        assert connection.agent_capabilities is not None
        assert connection.agent_capabilities.load_session is True
        assert not connection.rpc.closed

    run(body())
