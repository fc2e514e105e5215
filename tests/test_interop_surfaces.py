"""Interop per surface with the official TypeScript SDK 2.4.0 (docs/surfaces.md):

* the generated ``acp_v1_unstable`` client against an agent on the SDK's ``/unstable`` entry
  point (``tests/interop_ts/agent_unstable.mjs``): initialize, session/new, session/fork and
  an unstable SessionUpdate variant (``plan_removed``), typed on arrival; cancel;
* the generated ``acp_v2`` client against an agent on ``/experimental/v2``
  (``agent_v2.mjs``): initialize (v2's ``info``/``capabilities``), session/new, a prompt
  with streamed updates, cancel (the ``idle`` state update carries the stop reason);
* and the other way: the SDK's clients on those entry points (``client_surfaces.mjs``) drive
  agents written with the generated packages (``tests/surface_agents.py``).

The SDK bundles newer copies of the schemas than the pinned ones; these tests use what both
share (docs/surfaces.md names what differs). Skipped, saying so, where node is absent.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import Any

import pytest
import ts_sdk
from conftest import generated_dir

pytestmark = pytest.mark.slow


def _package(name: str) -> Any:
    generated_dir()
    return importlib.import_module(name)


def _run(coro: Any) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, 60)

    return asyncio.run(bounded())


def recording_client(acp: Any) -> Any:
    """A client of the generated package ``acp`` that keeps every session/update's update."""

    class RecordingClient(acp.Client):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            self.updates: list[Any] = []

        async def session_update(self, params: Any) -> None:
            self.updates.append(params.update)

    return RecordingClient()


def test_the_v1_unstable_client_forks_a_session_on_the_ts_unstable_agent() -> None:
    ts_sdk.install()
    acp = _package("acp_v1_unstable")
    models = acp.models

    async def body() -> None:
        client = recording_client(acp)
        async with acp.connect_to_agent(client, [ts_sdk.node(), str(ts_sdk.AGENT_V1_UNSTABLE)]) as conn:
            init = await conn.initialize(protocol_version=1, client_capabilities=models.ClientCapabilities())
            assert init.protocol_version == 1
            assert init.agent_info.name == "ts-unstable-agent"
            # Unstable members arrive typed, not as unknown extras.
            assert init.agent_capabilities.session_capabilities.fork is not None
            assert init.agent_capabilities.mcp_capabilities.acp is True
            session = await conn.session_new(cwd="/tmp", mcp_servers=[])
            forked = await conn.session_fork(session_id=session.session_id, cwd="/tmp")
            assert forked.session_id == f"{session.session_id}-fork"
            response = await conn.session_prompt(
                session_id=forked.session_id, prompt=[models.ContentBlockText(text="hello")])
            assert str(getattr(response.stop_reason, "value", response.stop_reason)) == "end_turn"
            removed, chunk = client.updates
            assert isinstance(removed, models.SessionUpdatePlanRemoved) and removed.plan_id == "plan-1"
            assert isinstance(chunk, models.SessionUpdateAgentMessageChunk)
            assert chunk.content.text == f"{forked.session_id}: hello"
            client.updates.clear()
            turn = asyncio.ensure_future(conn.session_prompt(
                session_id=session.session_id, prompt=[models.ContentBlockText(text="/wait")]))
            while len(client.updates) < 2:
                await asyncio.sleep(0.01)
            await conn.session_cancel(session_id=session.session_id)
            response = await turn
            assert str(getattr(response.stop_reason, "value", response.stop_reason)) == "cancelled"

    _run(body())


def test_the_v1_unstable_client_refuses_a_fork_the_agent_did_not_advertise() -> None:
    """The v1-unstable gates hold against a real peer: no fork without sessionCapabilities.fork
    (here: the stable TypeScript echo agent, which advertises nothing)."""
    ts_sdk.install()
    acp = _package("acp_v1_unstable")

    async def body() -> None:
        async with acp.connect_to_agent(acp.Client(), [ts_sdk.node(), str(ts_sdk.AGENT)]) as conn:
            await conn.initialize(protocol_version=1)
            session = await conn.session_new(cwd="/tmp", mcp_servers=[])
            with pytest.raises(acp.guards.CapabilityError):
                await conn.session_fork(session_id=session.session_id, cwd="/tmp")

    _run(body())


def test_the_v2_client_prompts_and_cancels_on_the_ts_v2_agent() -> None:
    ts_sdk.install()
    acp = _package("acp_v2")
    models = acp.models

    async def body() -> None:
        client = recording_client(acp)
        async with acp.connect_to_agent(client, [ts_sdk.node(), str(ts_sdk.AGENT_V2)]) as conn:
            init = await conn.initialize(
                protocol_version=2, info=models.Implementation(name="acpgen-v2-client", version="0"))
            assert init.protocol_version == 2 and conn.protocol_version == 2
            assert init.info.name == "ts-v2-agent"
            assert init.capabilities.session is not None
            session = await conn.session_new(cwd="/tmp")
            text = "interop over the v2 draft"
            await conn.session_prompt(session_id=session.session_id, prompt=[models.ContentBlockText(text=text)])
            chunks = [u for u in client.updates if isinstance(u, models.SessionUpdateAgentMessageChunk)]
            assert "".join(c.content.text for c in chunks) == text and len(chunks) == len(text.split())
            assert {c.message_id for c in chunks} == {"m-1"}
            client.updates.clear()
            turn = asyncio.ensure_future(conn.session_prompt(
                session_id=session.session_id, prompt=[models.ContentBlockText(text="/wait")]))
            while not client.updates:
                await asyncio.sleep(0.01)
            await conn.session_cancel(session_id=session.session_id)
            await turn
            state = client.updates[-1]
            assert state.state == "idle"
            assert str(getattr(state.stop_reason, "value", state.stop_reason)) == "cancelled"

    _run(body())


# ---- the SDK's clients drive agents written with the generated packages --------------------


def _ts_client(surface: str) -> dict[str, Any]:
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    ts_sdk.install()
    tree = generated_dir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACPGEN_")}
    env["PYTHONPATH"] = str(tree)
    agent = [sys.executable, str(Path(__file__).with_name("surface_agents.py")), surface]
    done = subprocess.run([ts_sdk.node(), str(ts_sdk.CLIENT_SURFACES), surface, "--", *agent],
                          cwd=ts_sdk.ROOT, env=env, capture_output=True, text=True, timeout=90, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert report.get("error") is None, (report, done.stderr[-3000:])
    assert report["agentExit"] == 0, done.stderr[-3000:]
    return report


def test_the_ts_unstable_client_forks_on_a_generated_v1_unstable_agent() -> None:
    report = _ts_client("v1-unstable")
    assert report["protocolVersion"] == 1 and report["agentName"] == "acpgen-unstable-agent"
    assert report["fork"] == {}  # sessionCapabilities.fork, as the generated agent advertised it
    assert report["forked"] == "py-0-fork"
    assert report["stopReason"] == "end_turn"
    assert report["updates"] == ["plan_removed", "agent_message_chunk"] and report["planId"] == "plan-1"
    assert report["text"] == "py-0-fork: hello"
    assert report["wait"] == "cancelled"


def test_the_ts_v2_client_prompts_and_cancels_on_a_generated_v2_agent() -> None:
    report = _ts_client("v2")
    assert report["protocolVersion"] == 2 and report["agentName"] == "acpgen-v2-agent"
    assert report["session"] == {}
    assert report["chunks"] == ["interop ", "over ", "the ", "v2 ", "draft"]
    assert report["messageIds"] == ["m-1"]
    assert report["settled"] is True
    assert report["last"] == {"sessionUpdate": "state_update", "state": "idle", "stopReason": "cancelled"}
