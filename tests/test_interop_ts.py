"""Interop with the official TypeScript SDK (``@agentclientprotocol/sdk``), both directions.

* The SDK's client (``tests/interop_ts/client.mjs``) drives the skeleton's example echo agent
  over stdio, one scenario per run, and reports what it saw as one JSON object.
* The skeleton's client drives an echo agent written with the SDK (``agent.mjs``).

The SDK is installed by :mod:`ts_sdk` (``npm ci`` from the committed lock).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import ts_sdk
from test_skeleton_support import (
    echo_agent_command,
    import_skeleton,
    run,
    shared_skeleton,
    skeleton_env,
)

LATEST = 1


@pytest.fixture(scope="module")
def skeleton(tmp_path_factory: pytest.TempPathFactory, inputs_dir: Path) -> Path:
    return shared_skeleton(tmp_path_factory, inputs_dir)


@pytest.fixture(scope="module")
def ts_root() -> Path:
    return ts_sdk.install()


def ts_client(skeleton: Path, scenario: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run one scenario of the SDK's client against the skeleton's echo agent."""
    full_env = skeleton_env(skeleton)
    full_env.update(env or {})
    done = subprocess.run(
        [ts_sdk.node(), str(ts_sdk.CLIENT), scenario, "--", *echo_agent_command()],
        cwd=ts_sdk.ROOT, env=full_env, capture_output=True, text=True, timeout=90, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert report.get("error") is None, (report, done.stderr[-3000:])
    assert report["protocolVersion"] == LATEST and report["agentName"].endswith("echo-agent")
    assert report["agentExit"] == 0, done.stderr[-3000:]
    return report


# ---- the SDK's client drives the skeleton's echo agent -----------------------------------


def test_the_ts_client_drives_the_echo_agent(skeleton: Path, ts_root: Path) -> None:
    report = ts_client(skeleton, "basic")
    text = "interop from the official TypeScript client"
    assert report["echo"] == {"stopReason": "end_turn", "text": text, "chunks": len(text.split())}
    assert report["permission"] == {"stopReason": "end_turn", "text": "permission: allow", "chunks": 1}
    assert report["wait"] == "cancelled"


def test_every_request_the_ts_client_aborts_is_answered(skeleton: Path, ts_root: Path) -> None:
    """ACP-V1-CANCELLATION: aborting sends $/cancel_request right after the request; each
    request still gets exactly one response (a result or -32800), none hangs."""
    report = ts_client(skeleton, "abort", {"ABORT_COUNT": "50"})
    assert report["other"] == []
    assert report["results"] + report["cancelled"] == 50


def test_a_truncated_emoji_from_the_ts_client_is_echoed(skeleton: Path, ts_root: Path) -> None:
    """JSON.stringify escapes a lone surrogate; the runtime answers it (replaced by U+FFFD)."""
    report = ts_client(skeleton, "surrogate")
    assert report["outcome"]["ok"], report
    assert report["outcome"]["result"]["stopReason"] == "end_turn"
    assert report["outcome"]["result"]["text"] == "truncated \ufffd"


# ---- the skeleton's client drives the SDK's agent ----------------------------------------


def test_the_skeleton_client_drives_the_ts_agent(skeleton: Path, ts_root: Path) -> None:
    import_skeleton(skeleton)
    from interop_sdk import models
    from interop_sdk.interfaces import Client
    from interop_sdk.launch import connect_to_agent

    class RecordingClient(Client):
        def __init__(self) -> None:
            self.chunks: list[str] = []

        async def session_update(self, params: models.SessionNotification) -> None:
            content = getattr(params.update, "content", None)
            if content is not None and getattr(content, "text", None) is not None:
                self.chunks.append(str(content.text))

        async def session_request_permission(self, params: models.RequestPermissionRequest) -> Any:
            return {"outcome": {"outcome": "selected", "optionId": "reject"}}

        async def fs_read_text_file(self, params: models.ReadTextFileRequest) -> Any:
            if str(params.path) == "/cut":  # a truncated emoji: a lone surrogate
                return {"content": "cut \ud83d"}
            return {"content": f"contents of {params.path}"}

    def prompt(session_id: str, text: str) -> Any:
        return models.PromptRequest.model_validate(
            {"sessionId": session_id, "prompt": [{"type": "text", "text": text}]})

    def stop(response: Any) -> str:
        return str(getattr(response.stop_reason, "value", response.stop_reason))

    async def body() -> None:
        client = RecordingClient()
        async with connect_to_agent(client, [ts_sdk.node(), str(ts_sdk.AGENT)]) as connection:
            init = await connection.initialize(models.InitializeRequest.model_validate(
                {"protocolVersion": LATEST, "clientCapabilities": {"fs": {"readTextFile": True}}}))
            assert init.protocol_version == LATEST and connection.protocol_version == LATEST
            session = await connection.session_new(
                models.NewSessionRequest.model_validate({"cwd": "/tmp", "mcpServers": []}))
            sid = str(session.session_id)
            text = "interop from the generated client"
            response = await connection.session_prompt(prompt(sid, text))
            assert stop(response) == "end_turn"
            assert "".join(client.chunks) == text and len(client.chunks) == len(text.split())
            client.chunks.clear()
            assert stop(await connection.session_prompt(prompt(sid, "/permission"))) == "end_turn"
            assert client.chunks == ["permission: reject"]
            client.chunks.clear()
            assert stop(await connection.session_prompt(prompt(sid, "/read /etc/motd"))) == "end_turn"
            assert client.chunks == ["contents of /etc/motd"]
            client.chunks.clear()
            # ACP-V1-TRANSPORT-UTF8: the answer is sent (the surrogate replaced), not lost.
            assert stop(await connection.session_prompt(prompt(sid, "/read /cut"))) == "end_turn"
            assert client.chunks == ["cut \ufffd"]
            client.chunks.clear()
            turn = asyncio.ensure_future(connection.session_prompt(prompt(sid, "/wait")))
            while not client.chunks:
                await asyncio.sleep(0.01)
            await connection.session_cancel(models.CancelNotification.model_validate({"sessionId": sid}))
            assert stop(await turn) == "cancelled"

    run(body())
