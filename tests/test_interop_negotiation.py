"""v1 and v2 on one connection, with the official SDKs (docs/surfaces.md, "v1 and v2 on one
connection"). Opt-in: `pytest -m interop_negotiation tests/test_interop_negotiation.py` (it
installs the Python SDK 1.0.0rc3 into a venv of its own and the TypeScript SDK 2.4.0 with
`npm ci`; minutes).

* the generated router (``tests/negotiation_peers.py router``) serves the Python SDK
  1.0.0rc3's v1 client (``acp``) with v1 and its v2 client (``acp.experimental.v2``) with v2,
  and the TypeScript SDK 2.4.0's v1 client and ``/experimental/v2`` client likewise;
* the negotiating generated client (``acp_v2.versions.connect_to_agent_negotiating``) falls
  back to v1 with the Python SDK 0.12.1 echo agent (v1 only: ``tests/test_interop.py
  --official-agent``) and keeps v2 with the generated v2 echo agent.

The same with generated peers on both sides, in the default tier: tests/test_negotiation.py.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import ts_sdk
from conftest import generated_dir

pytestmark = [pytest.mark.slow, pytest.mark.interop_negotiation]

HERE = Path(__file__).resolve().parent
PEERS = HERE / "negotiation_peers.py"
RC3 = "agent-client-protocol==1.0.0rc3"  # the first release with acp.experimental.v2


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(generated_dir())
    return env


def router_command() -> list[str]:
    return [sys.executable, str(PEERS), "router"]


@pytest.fixture(scope="module")
def rc3_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with the official Python SDK 1.0.0rc3 (the suite's own venv pins 0.12.1)."""
    venv = tmp_path_factory.mktemp("rc3") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    done = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--pre", RC3],
                          capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        pytest.fail(f"pip install {RC3} failed:\n{done.stderr[-2000:]}")
    return venv / "bin" / "python"


def _report(args: list[str], cwd: Path | None = None) -> dict[str, Any]:
    done = subprocess.run(args, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_the_router_serves_the_python_sdk_rc3_clients(rc3_python: Path, version: str) -> None:
    report = _report([str(rc3_python), str(PEERS), "rc3", version, "--", *router_command()])
    assert report["protocolVersion"] == int(version[1])
    assert report["agent"] == f"acp_{version}-echo-agent"
    assert report["text"] == f"hello rc3 {version}"
    assert report["stopReason"] == ("end_turn" if version == "v1" else None)


def test_the_router_serves_the_typescript_v1_client() -> None:
    root = ts_sdk.install()
    report = _report([ts_sdk.node(), str(ts_sdk.CLIENT), "basic", "--", *router_command()], cwd=root)
    assert report["protocolVersion"] == 1 and report["agentName"] == "acp_v1-echo-agent"
    assert report["echo"] == {"stopReason": "end_turn", "text": "interop from the official TypeScript client",
                              "chunks": 6}
    assert report["permission"]["text"] == "permission: allow"
    assert report["wait"] == "cancelled" and report["agentExit"] == 0


def test_the_router_serves_the_typescript_v2_client() -> None:
    root = ts_sdk.install()
    report = _report([ts_sdk.node(), str(ts_sdk.CLIENT_SURFACES), "v2", "--", *router_command()], cwd=root)
    assert report["protocolVersion"] == 2 and report["agentName"] == "acp_v2-echo-agent"
    assert "".join(report["chunks"]) == "interop over the v2 draft"
    assert report["settled"] is True and report["agentExit"] == 0


def _negotiate(command: list[str]) -> tuple[int, str, str]:
    generated_dir()
    v1, v2 = importlib.import_module("acp_v1"), importlib.import_module("acp_v2")
    versions = importlib.import_module("acp_v2.versions")
    texts: list[str] = []

    class V1Client(v1.Client):  # type: ignore[misc,name-defined]
        async def session_update(self, params: Any) -> None:
            texts.append(getattr(params.update.content, "text", ""))

    class V2Client(v2.Client):  # type: ignore[misc,name-defined]
        async def session_update(self, params: Any) -> None:
            texts.append(getattr(params.update.content, "text", ""))

    ask = v2.models.InitializeRequest(protocol_version=2, info=v2.models.Implementation(name="neg", version="0"))

    async def body() -> tuple[int, str, str]:
        async with versions.connect_to_agent_negotiating(
                command, ask, v1=V1Client(), v2=V2Client(), env=_env()) as agreed:
            pkg = v1 if agreed.v1 is not None else v2
            conn = agreed.connection
            fields = {"mcp_servers": []} if agreed.v1 is not None else {}
            session = await conn.session_new(cwd="/tmp", **fields)
            await conn.session_prompt(session_id=session.session_id,
                                      prompt=[pkg.models.ContentBlockText(text="negotiated")])
            await asyncio.sleep(0.2)
            info = agreed.initialize_response
            name = (info.agent_info if agreed.v1 is not None else info.info).name
            return agreed.protocol_version, name, "".join(texts)

    result: tuple[int, str, str] = asyncio.run(asyncio.wait_for(body(), 60))
    return result


def test_the_negotiating_client_falls_back_to_v1_with_the_python_sdk_0_12_1_agent() -> None:
    version, _name, text = _negotiate([sys.executable, str(HERE / "test_interop.py"), "--official-agent"])
    assert version == 1 and "negotiated" in text


def test_the_negotiating_client_keeps_v2_with_the_generated_v2_agent() -> None:
    version, name, text = _negotiate([sys.executable, "-m", "acp_v2.examples.echo_agent"])
    assert (version, name, text) == (2, "acp_v2-echo-agent", "negotiated")
