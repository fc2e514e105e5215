# Edit acpgen/shipped/runtime/runtime_tests/test_guards.py, not this file: acpgen generate writes it.
"""Outbound calls pass the capability guards: a refused call raises and sends nothing.

Copied verbatim into every generated project by acpgen.
"""

from __future__ import annotations

import pytest

from ._package import guards, models
from .helpers import (
    agent_and_raw_client,
    client_and_raw_agent,
    init_request,
    initialized_client,
    run,
)

req = pytest.mark.acp_requirement


def _new_session(cwd: str = "/tmp") -> models.NewSessionRequest:
    return models.NewSessionRequest.model_validate({"cwd": cwd, "mcpServers": []})


@req("ACP-V1-INIT-CLIENT-INITIALIZE-FIRST")
def test_the_client_sends_nothing_before_initialize() -> None:
    async def body() -> None:
        connection, agent = await client_and_raw_agent()
        with pytest.raises(guards.NotInitializedError):
            await connection.session_new(_new_session())
        await agent.nothing_within(0.2)

    run(body())


@req("ACP-V1-SETUP-CLIENT-NO-LOAD-WITHOUT-CAPABILITY")
def test_the_client_does_not_load_a_session_the_agent_cannot_load() -> None:
    async def body() -> None:
        load = models.LoadSessionRequest.model_validate(
            {"sessionId": "s1", "cwd": "/tmp", "mcpServers": []}
        )
        connection, agent = await initialized_client(agent_capabilities={"loadSession": False})
        with pytest.raises(guards.CapabilityError) as caught:
            await connection.session_load(load)
        assert caught.value.capability == "agentCapabilities.loadSession"
        await agent.nothing_within(0.2)
        # Advertised: the same call goes out.
        connection, agent = await initialized_client(agent_capabilities={"loadSession": True})
        call = connection.session_load(load)
        import asyncio

        task = asyncio.ensure_future(call)
        request = await agent.recv()
        assert request["method"] == "session/load"
        task.cancel()

    run(body())


@req("ACP-V1-SETUP-CWD-ABSOLUTE")
def test_the_client_refuses_a_relative_cwd() -> None:
    async def body() -> None:
        connection, agent = await initialized_client()
        with pytest.raises(guards.PathNotAbsoluteError):
            await connection.session_new(_new_session("relative/dir"))
        await agent.nothing_within(0.2)

    run(body())


def test_the_agent_does_not_read_files_the_client_cannot_serve() -> None:
    async def body() -> None:
        connection, peer, _agent = await agent_and_raw_client()
        await peer.send(init_request(1))
        await peer.recv()
        with pytest.raises(guards.CapabilityError):
            await connection.fs_read_text_file(
                models.ReadTextFileRequest.model_validate(
                    {"sessionId": "s1", "path": "/etc/hostname"}
                )
            )
        await peer.nothing_within(0.2)

    run(body())
