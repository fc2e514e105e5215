"""Interop of the generated remote transports with the official Python SDK 1.0.0rc3, both ways,
each profile, and with the official TypeScript SDK 2.4.0's remote client (opt-in:
``pytest -m remote_interop tests/test_remote_interop.py``).

The suite's venv pins the SDK's 0.12.1 (tests/test_interop.py), so rc3 is installed, pinned,
into a venv this module makes (``pip install --pre 'agent-client-protocol[http]==1.0.0rc3'``,
from the package index). Its side runs as a process (tests/remote_rc3_peer.py): its echo
agent served by its own ASGI app, or its client driving the generated server. Each pairing
goes through initialize, session/new, a streamed prompt, a permission request, a cancel and
the end of the connection, and leaves no process behind.

The TypeScript SDK (installed as tests/interop_ts installs it, ``npm ci``) drives the
generated server with its ``/experimental/ws-client`` and ``/experimental/http-client``
(tests/interop_ts/remote.mjs; node 20 needs ``--experimental-websocket`` for its WebSocket),
and its ``/experimental/server`` serves its echo agent to the generated client
(tests/interop_ts/remote_agent.mjs: WebSocket through the SDK's node adapter and ``ws``,
HTTP/2 through glue of its own, since the SDK's adapter refuses HTTP/2; docs/remote.md).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import venv
from pathlib import Path

import pytest
import ts_sdk
from conftest import generated_dir

GENERATED = generated_dir()

from acp_v1 import PROTOCOL_VERSION, models
from acp_v1.examples.echo_agent import EchoAgent
from acp_v1.remote import ServerOptions, agent_app, connect_to_remote_agent, serve_app

pytestmark = [pytest.mark.remote_interop, pytest.mark.slow]

PEER = Path(__file__).with_name("remote_rc3_peer.py")
RC3 = ["agent-client-protocol[http]==1.0.0rc3", "hypercorn==0.18.0"]


@pytest.fixture(scope="module")
def rc3_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    home = tmp_path_factory.mktemp("rc3") / "venv"
    venv.create(home, with_pip=True)
    python = str(home / "bin" / "python")
    done = subprocess.run([python, "-m", "pip", "install", "-q", "--pre", *RC3],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return python


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def _drive_the_generated_server(profile: str, *peer_command: str) -> str:
    """Serve the generated echo agent, run the peer's client against it (the URL appended to
    ``peer_command``), and return what the peer printed once every connection has ended."""

    async def body() -> str:
        app = agent_app(EchoAgent, ServerOptions())
        ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        stop = asyncio.Event()
        server = asyncio.create_task(serve_app(app, port=0, ready=ready.set_result, shutdown=stop.wait))
        url = await ready
        target = url if profile == "http" else "ws" + url[4:]
        peer = await asyncio.create_subprocess_exec(
            *peer_command, target, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = await asyncio.wait_for(peer.communicate(), 90)
        finally:
            if peer.returncode is None:
                peer.kill()
                await peer.wait()
        assert peer.returncode == 0, err.decode()[-3000:]
        for _ in range(100):
            if not app.state.acp.connections:
                break
            await asyncio.sleep(0.05)
        assert app.state.acp.connections == {}
        stop.set()
        await asyncio.wait_for(server, 15)
        return out.decode()

    return asyncio.run(asyncio.wait_for(body(), 180))


@pytest.mark.parametrize("profile", ["ws", "http"])
def test_the_rc3_client_drives_the_generated_server(rc3_python: str, profile: str) -> None:
    assert _drive_the_generated_server(profile, rc3_python, str(PEER), "client").strip() == "ok"


@pytest.mark.parametrize("profile", ["ws", "http"])
def test_the_typescript_client_drives_the_generated_server(profile: str) -> None:
    root = ts_sdk.install()
    out = _drive_the_generated_server(
        profile, ts_sdk.node(), "--experimental-websocket", str(root / "remote.mjs"))
    report = json.loads(out)
    words = " ".join(f"w{i}" for i in range(50))
    assert report == {
        "protocolVersion": 1,
        "agentName": "acp_v1-echo-agent",
        "echo": {"stopReason": "end_turn", "text": words, "chunks": 50},
        "permission": {"stopReason": "end_turn", "text": "permission: allow", "chunks": 1},
        "wait": "cancelled",
    }


class _Recorder:
    def __init__(self) -> None:
        self.chunks: list[str] = []

    async def session_update(self, params: models.SessionNotification) -> None:
        content = getattr(params.update, "content", None)
        if isinstance(content, models.ContentBlockText):
            self.chunks.append(content.text)


def _drive_a_peer_server(profile: str, command: list[str], agent_name: str, answer: str) -> None:
    """Start the peer's server (``command`` prints its URL), run the generated client's scenario
    against it over ``profile``, stop the server; ``answer`` is what the agent says once the
    permission request is answered (the first option)."""
    from acp_v1 import Client

    class Recorder(_Recorder, Client):
        async def session_request_permission(
                self, params: models.RequestPermissionRequest) -> models.RequestPermissionResponse:
            return models.RequestPermissionResponse(
                outcome=models.RequestPermissionOutcomeSelected(option_id=params.options[0].option_id))

    async def body() -> None:
        peer = await asyncio.create_subprocess_exec(
            *command, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            assert peer.stdout is not None
            url = (await asyncio.wait_for(peer.stdout.readline(), 60)).decode().strip()
            target = url if profile == "http" else "ws" + url[4:]
            client = Recorder()
            before = asyncio.all_tasks()
            async with connect_to_remote_agent(client, target) as conn:
                init = await conn.initialize(protocol_version=PROTOCOL_VERSION,
                                             client_capabilities=models.ClientCapabilities())
                assert init.agent_info is not None and init.agent_info.name == agent_name
                session = (await conn.session_new(cwd="/tmp", mcp_servers=[])).session_id
                words = " ".join(f"w{i}" for i in range(50))
                done = await conn.session_prompt(session_id=session,
                                                 prompt=[models.ContentBlockText(text=words)])
                assert done.stop_reason == models.StopReason.END_TURN
                assert "".join(client.chunks) == words
                client.chunks.clear()
                done = await conn.session_prompt(session_id=session,
                                                 prompt=[models.ContentBlockText(text="/permission")])
                assert client.chunks == [answer]
                client.chunks.clear()
                turn = asyncio.ensure_future(conn.session_prompt(
                    session_id=session, prompt=[models.ContentBlockText(text="/wait")]))
                while not client.chunks:
                    await asyncio.sleep(0.01)
                await conn.session_cancel(session_id=session)
                assert (await turn).stop_reason == models.StopReason.CANCELLED
            # The connection's end leaves none of the client's tasks behind.
            assert asyncio.all_tasks() == before
        finally:
            if peer.returncode is None:
                peer.terminate()
            try:
                await asyncio.wait_for(peer.wait(), 10)
            except TimeoutError:
                peer.kill()
                await peer.wait()

    asyncio.run(asyncio.wait_for(body(), 180))


@pytest.mark.parametrize("profile", ["ws", "http"])
def test_the_generated_client_drives_the_rc3_server(rc3_python: str, profile: str) -> None:
    _drive_a_peer_server(profile, [rc3_python, str(PEER), "serve"], "rc3-echo-agent",
                         "outcome: selected")


@pytest.mark.parametrize("profile", ["ws", "http"])
def test_the_generated_client_drives_the_typescript_server(profile: str) -> None:
    root = ts_sdk.install()
    _drive_a_peer_server(profile, [ts_sdk.node(), str(root / "remote_agent.mjs")],
                         "ts-echo-agent", "permission: allow")


def test_the_typescript_sdks_node_adapter_refuses_http2() -> None:
    """The limit docs/remote.md names: the SDK's createNodeHttpHandler under node's http2
    answers every HTTP/2 request 500 (it copies the pseudo-headers into a fetch Headers)."""
    import httpx2

    root = ts_sdk.install()

    async def body() -> httpx2.Response:
        peer = await asyncio.create_subprocess_exec(
            ts_sdk.node(), str(root / "remote_agent.mjs"), "--sdk-h2-adapter",
            env=_env(), stdout=subprocess.PIPE)
        try:
            assert peer.stdout is not None
            url = (await asyncio.wait_for(peer.stdout.readline(), 60)).decode().strip()
            initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                          "params": {"protocolVersion": 1}}
            async with httpx2.AsyncClient(http1=False, http2=True, timeout=30) as http:
                return await http.post(url, json=initialize)
        finally:
            peer.terminate()
            await asyncio.wait_for(peer.wait(), 10)

    response = asyncio.run(asyncio.wait_for(body(), 120))
    assert (response.http_version, response.status_code) == ("HTTP/2", 500)
    assert response.text == 'Headers.set: ":method" is an invalid header name.'
