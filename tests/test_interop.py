"""Interop with the official Python SDK (``agent-client-protocol`` 0.12.1, import ``acp``).

* The official client drives the skeleton's example echo agent over stdio: initialize,
  session/new, session/prompt with streamed session/update, session/cancel.
* The skeleton's client drives an agent written with the official package (this file, run
  as a script) the same way, including audit finding 5: cancelling a turn whose permission
  request is pending answers it ``cancelled``, so the official agent's turn can end.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

try:
    from test_skeleton_support import (
        echo_agent_command,
        import_skeleton,
        run,
        shared_skeleton,
        skeleton_env,
    )
except ImportError:  # run as the official agent's script: the helpers are not needed
    pass

LATEST = 1


@pytest.fixture(scope="module")
def skeleton(tmp_path_factory: pytest.TempPathFactory, inputs_dir: Path) -> Path:
    return shared_skeleton(tmp_path_factory, inputs_dir)


# ---- the official client drives the skeleton's echo agent ------------------------------------


class OfficialRecordingClient:
    """An ``acp.Client``: records message chunks; answers permissions with the first option."""

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.by_session: dict[str, list[str]] = {}

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        content = getattr(update, "content", None)
        text = getattr(content, "text", None)
        if getattr(update, "session_update", None) == "agent_message_chunk" and text is not None:
            self.chunks.append(text)
            self.by_session.setdefault(session_id, []).append(text)

    async def request_permission(self, options: list[Any], session_id: str, tool_call: Any, **kwargs: Any) -> Any:
        import acp

        return acp.RequestPermissionResponse.model_validate(
            {"outcome": {"outcome": "selected", "optionId": options[0].option_id}})


def test_the_official_client_drives_the_skeleton_echo_agent(skeleton: Path) -> None:
    import acp

    async def body() -> None:
        client = OfficialRecordingClient()
        command = echo_agent_command()
        env = {"PYTHONPATH": skeleton_env(skeleton)["PYTHONPATH"]}
        async with acp.spawn_agent_process(client, command[0], *command[1:], env=env) as (conn, _process):
            init = await conn.initialize(protocol_version=acp.PROTOCOL_VERSION,
                                         client_info=acp.schema.Implementation(name="official", version="0.12.1"))
            assert init.protocol_version == LATEST
            assert init.agent_info is not None and init.agent_info.name.endswith("echo-agent")
            session = await conn.new_session(cwd="/tmp", mcp_servers=[])
            text = "interop from the official client"
            response = await conn.prompt(session_id=session.session_id, prompt=[acp.text_block(text)])
            assert response.stop_reason == "end_turn"
            assert "".join(client.chunks) == text and len(client.chunks) == len(text.split())
            # A permission round trip, answered by the official client.
            client.chunks.clear()
            response = await conn.prompt(session_id=session.session_id, prompt=[acp.text_block("/permission")])
            assert response.stop_reason == "end_turn" and client.chunks == ["permission: allow"]
            # A turn that runs until the official client cancels it.
            client.chunks.clear()
            turn = asyncio.ensure_future(
                conn.prompt(session_id=session.session_id, prompt=[acp.text_block("/wait")]))
            while not client.chunks:
                await asyncio.sleep(0.01)
            await conn.cancel(session_id=session.session_id)
            assert (await turn).stop_reason == "cancelled"
            # Concurrent turns in two sessions: each session's updates stay its own.
            sessions = [await conn.new_session(cwd="/tmp", mcp_servers=[]) for _ in range(2)]
            texts = [f"session {i} says " + " ".join(["word"] * 20) for i in range(2)]
            results = await asyncio.gather(*(
                conn.prompt(session_id=s.session_id, prompt=[acp.text_block(t)])
                for s, t in zip(sessions, texts)))
            assert [r.stop_reason for r in results] == ["end_turn", "end_turn"]
            assert ["".join(client.by_session[s.session_id]) for s in sessions] == texts

    run(body())


def test_the_official_client_sees_version_negotiation(skeleton: Path) -> None:
    import acp

    async def body() -> None:
        command = echo_agent_command()
        env = {"PYTHONPATH": skeleton_env(skeleton)["PYTHONPATH"]}
        async with acp.spawn_agent_process(OfficialRecordingClient(), command[0], *command[1:], env=env) as (conn, _p):
            init = await conn.initialize(protocol_version=LATEST + 6)
            assert init.protocol_version == LATEST  # not the requested one: the agent's latest

    run(body())


# ---- the skeleton's client drives an agent written with the official package -----------------


def official_agent_main() -> None:
    """An echo agent on the official SDK: the same commands as the skeleton's example."""
    import acp

    class OfficialEchoAgent:
        def __init__(self) -> None:
            self.cancelled: dict[str, asyncio.Event] = {}

        def on_connect(self, conn: Any) -> None:
            self.conn = conn

        async def initialize(self, protocol_version: int, **kwargs: Any) -> Any:
            return acp.InitializeResponse(
                protocol_version=min(protocol_version, acp.PROTOCOL_VERSION),
                agent_info=acp.schema.Implementation(name="official-echo-agent", version="0.12.1"),
            )

        async def new_session(self, cwd: str, **kwargs: Any) -> Any:
            session_id = f"official-{len(self.cancelled)}"
            self.cancelled[session_id] = asyncio.Event()
            return acp.NewSessionResponse(session_id=session_id)

        async def cancel(self, session_id: str, **kwargs: Any) -> None:
            self.cancelled.setdefault(session_id, asyncio.Event()).set()

        async def prompt(self, prompt: list[Any], session_id: str, **kwargs: Any) -> Any:
            cancelled = self.cancelled.setdefault(session_id, asyncio.Event())
            cancelled.clear()
            text = "".join(getattr(block, "text", "") for block in prompt)
            if text == "/wait":
                await self.conn.session_update(session_id=session_id,
                                               update=acp.update_agent_message_text("waiting"))
                await cancelled.wait()
                return acp.PromptResponse(stop_reason="cancelled")
            if text == "/permission":
                response = await self.conn.request_permission(
                    session_id=session_id,
                    tool_call=acp.schema.ToolCallUpdate(tool_call_id="official-call", title="Echo"),
                    options=[acp.schema.PermissionOption(option_id="allow", name="Allow", kind="allow_once")],
                )
                outcome = response.outcome.outcome
                await self.conn.session_update(session_id=session_id,
                                               update=acp.update_agent_message_text(f"outcome: {outcome}"))
                return acp.PromptResponse(stop_reason="cancelled" if outcome == "cancelled" else "end_turn")
            for word in text.split(" "):
                await self.conn.session_update(session_id=session_id,
                                               update=acp.update_agent_message_text(word + " "))
            return acp.PromptResponse(stop_reason="end_turn")

    asyncio.run(acp.run_agent(OfficialEchoAgent()))


def _skeleton_client_classes() -> Any:
    from interop_sdk import models
    from interop_sdk.interfaces import Client

    class RecordingClient(Client):
        def __init__(self) -> None:
            self.chunks: list[str] = []
            self.asked = asyncio.Event()
            self.abandoned = asyncio.Event()

        async def session_update(self, params: models.SessionNotification) -> None:
            content = getattr(params.update, "content", None)
            if content is not None and getattr(content, "text", None) is not None:
                self.chunks.append(str(content.text))

        async def session_request_permission(self, params: models.RequestPermissionRequest) -> Any:
            self.asked.set()
            try:
                await asyncio.Event().wait()  # the user never decides
            except asyncio.CancelledError:
                self.abandoned.set()
                raise

    return models, RecordingClient


def test_the_skeleton_client_drives_an_official_agent(skeleton: Path) -> None:
    import_skeleton(skeleton)
    models, RecordingClient = _skeleton_client_classes()
    from interop_sdk.launch import connect_to_agent

    def prompt(session_id: str, text: str) -> Any:
        return models.PromptRequest.model_validate(
            {"sessionId": session_id, "prompt": [{"type": "text", "text": text}]})

    async def body() -> None:
        client = RecordingClient()
        command = [sys.executable, str(Path(__file__).resolve()), "--official-agent"]
        async with connect_to_agent(client, command) as connection:
            init = await connection.initialize(models.InitializeRequest.model_validate(
                {"protocolVersion": LATEST, "clientCapabilities": {}}))
            assert init.protocol_version == LATEST and connection.protocol_version == LATEST
            session = await connection.session_new(
                models.NewSessionRequest.model_validate({"cwd": "/tmp", "mcpServers": []}))
            sid = session.session_id
            text = "interop from the generated client"
            response = await connection.session_prompt(prompt(sid, text))
            assert str(getattr(response.stop_reason, "value", response.stop_reason)) == "end_turn"
            assert "".join(client.chunks) == text + " " and len(client.chunks) == len(text.split())
            # Audit finding 5: the official agent waits on a permission request; the
            # skeleton's client cancels the turn and answers the request `cancelled` itself.
            client.chunks.clear()
            turn = asyncio.ensure_future(connection.session_prompt(prompt(sid, "/permission")))
            await client.asked.wait()
            await connection.session_cancel(models.CancelNotification.model_validate({"sessionId": sid}))
            response = await turn
            assert str(getattr(response.stop_reason, "value", response.stop_reason)) == "cancelled"
            assert client.chunks == ["outcome: cancelled"]
            assert client.abandoned.is_set()
            # A turn that runs until cancelled.
            client.chunks.clear()
            turn = asyncio.ensure_future(connection.session_prompt(prompt(sid, "/wait")))
            while not client.chunks:
                await asyncio.sleep(0.01)
            await connection.session_cancel(models.CancelNotification.model_validate({"sessionId": sid}))
            response = await turn
            assert str(getattr(response.stop_reason, "value", response.stop_reason)) == "cancelled"

    run(body())


# ---- omit, don't fail: the official client on its default capabilities ---------------------


def offering_agent_main() -> None:
    """A skeleton agent offering a terminal auth method and a boolean config option."""
    from interop_sdk import models
    from interop_sdk.interfaces import Agent
    from interop_sdk.launch import run_agent

    class OfferingAgent(Agent):
        async def initialize(self, params: models.InitializeRequest) -> models.InitializeResponse:
            return models.InitializeResponse.model_validate({
                "protocolVersion": params.protocol_version,
                "authMethods": [{"id": "login", "name": "Log in", "type": "terminal"},
                                {"id": "key", "name": "API key"}]})

        async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
            return models.NewSessionResponse.model_validate({"sessionId": "offered", "configOptions": [
                {"id": "mode", "name": "Mode", "type": "select", "currentValue": "a",
                 "options": [{"value": "a", "name": "A"}]},
                {"id": "fast", "name": "Fast", "type": "boolean", "currentValue": True}]})

    asyncio.run(run_agent(OfferingAgent()))


def test_the_official_client_on_default_capabilities_gets_what_it_can_take(skeleton: Path) -> None:
    """ACP-V1-CONFIG-NO-BOOLEAN-WITHOUT-CAPABILITY, ACP-V1-AUTH-AGENT-TERMINAL-METHOD-ONLY-WITH-
    CAPABILITY: the boolean option and the terminal method are left out, not the whole answer."""
    import acp

    async def body() -> None:
        env = {"PYTHONPATH": skeleton_env(skeleton)["PYTHONPATH"]}
        command = [sys.executable, str(Path(__file__).resolve()), "--offering-agent"]
        async with acp.spawn_agent_process(OfficialRecordingClient(), *command, env=env) as (conn, _p):
            init = await conn.initialize(protocol_version=acp.PROTOCOL_VERSION)
            assert [m.id for m in init.auth_methods] == ["key"]
            session = await conn.new_session(cwd="/tmp", mcp_servers=[])
            assert session.session_id == "offered"
            assert [o.id for o in session.config_options] == ["mode"]

    run(body())


if __name__ == "__main__" and sys.argv[1:] == ["--official-agent"]:
    official_agent_main()
if __name__ == "__main__" and sys.argv[1:] == ["--offering-agent"]:
    offering_agent_main()
