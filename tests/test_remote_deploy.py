"""Past one process: two generated agent processes behind Debian's HAProxy with cookie affinity,
configured by the committed recipe (docs/deploy/haproxy.cfg, docs/remote.md).

Everything listens on 127.0.0.1. Each agent process names itself in its initialize answer and
in every update it sends (tests/support/deploy_node.py), so the test sees which process
answered each message: every session must stay on the process its connection reached; a
dropped connection (HAProxy's runtime API cuts it, as a network would) comes back, with its
cookie, to the same process, where ``session/load`` finds and replays the session. HAProxy is
installed from Debian's packages when missing and the test runs as root (else it skips).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PROJECT_ROOT, generated_dir

sys.path.insert(0, str(Path(__file__).parent / "support"))
from system_packages import ensure_command

GENERATED = generated_dir()  # generated now into a temporary directory, importable

from acp_v1 import PROTOCOL_VERSION, Client, ConnectionClosed, models
from acp_v1.remote import connect_to_remote_agent

pytestmark = pytest.mark.slow

CONFIG = PROJECT_ROOT / "docs" / "deploy" / "haproxy.cfg"
NODE = Path(__file__).parent / "support" / "deploy_node.py"
GUARD = 120.0  # seconds: a hang guard, no budget
CLIENTS = 8  # half WebSocket, half Streamable HTTP/2
SESSIONS = 2  # per client, either profile: streams of one HTTP/2 client never wait on each other


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_listening(port: int, proc: subprocess.Popen[Any], what: str) -> None:
    deadline = time.monotonic() + 120  # a guard against a hang: a loaded machine starts slowly
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"{what} exited ({proc.returncode})"
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} is not listening on {port}")


@contextlib.contextmanager
def processes() -> Iterator[list[subprocess.Popen[Any]]]:
    """Started processes, each in a group of its own, all stopped and reaped at the end."""
    started: list[subprocess.Popen[Any]] = []
    try:
        yield started
    finally:
        for proc in started:
            if proc.poll() is None:
                proc.terminate()
        for proc in started:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


class Recorder(Client):
    """Each session's streamed texts, in order."""

    def __init__(self) -> None:
        self.texts: dict[str, list[str]] = {}

    async def session_update(self, params: models.SessionNotification) -> None:
        content = getattr(params.update, "content", None)
        if isinstance(content, models.ContentBlockText):
            self.texts.setdefault(params.session_id, []).append(content.text)


def runtime_api(path: Path, command: str) -> str:
    """One command to HAProxy's runtime API (its stats socket)."""
    with socket.socket(socket.AF_UNIX) as api:
        api.settimeout(5)
        api.connect(str(path))
        api.sendall(command.encode() + b"\n")
        return b"".join(iter(lambda: api.recv(65536), b"")).decode()


async def node_of(conn: Any) -> str:
    answer = await conn.initialize(protocol_version=PROTOCOL_VERSION,
                                   client_capabilities=models.ClientCapabilities())
    assert answer.agent_info is not None
    return str(answer.agent_info.name)


def prompt(text: str) -> list[Any]:
    return [models.ContentBlockText(text=text)]


def test_sessions_stay_on_their_process_behind_haproxy_and_a_reconnect_comes_back(tmp_path: Path) -> None:
    haproxy = ensure_command("haproxy")
    front, ports = free_port(), {"node1": free_port(), "node2": free_port()}
    stats = tmp_path / "haproxy.sock"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(GENERATED)
    with processes() as started:
        for name, port in ports.items():
            started.append(subprocess.Popen([sys.executable, str(NODE), name, str(port)], env=env,
                                            stdout=subprocess.DEVNULL, start_new_session=True))
            wait_listening(port, started[-1], name)
        proxy_env = {**env, "ACP_BIND": f"127.0.0.1:{front}", "ACP_STATS": str(stats),
                     "ACP_NODE1": f"127.0.0.1:{ports['node1']}",
                     "ACP_NODE2": f"127.0.0.1:{ports['node2']}"}
        check = subprocess.run([haproxy, "-c", "-f", str(CONFIG)], env=proxy_env,
                               capture_output=True, text=True, timeout=30, check=False)
        assert check.returncode == 0, check.stderr  # the committed recipe is valid as it is
        started.append(subprocess.Popen([haproxy, "-db", "-f", str(CONFIG)], env=proxy_env,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                         start_new_session=True))
        wait_listening(front, started[-1], "haproxy")
        asyncio.run(asyncio.wait_for(_clients(f"127.0.0.1:{front}", stats), GUARD))


async def _clients(address: str, stats: Path) -> None:
    urls = [f"ws://{address}/acp" if i % 2 == 0 else f"http://{address}/acp" for i in range(CLIENTS)]
    jars: list[dict[str, str]] = [{} for _ in urls]
    recorders = [Recorder() for _ in urls]
    nodes: list[str] = [""] * CLIENTS
    sessions: list[list[str]] = [[] for _ in urls]
    dropped = asyncio.Event()  # HAProxy has cut node1's connections
    prompted: list[int] = []  # the clients done with their prompts

    async def client(i: int) -> None:
        async with connect_to_remote_agent(recorders[i], urls[i], cookies=jars[i]) as conn:
            nodes[i] = await node_of(conn)
            for j in range(SESSIONS):
                session = (await conn.session_new(cwd="/", mcp_servers=[])).session_id
                sessions[i].append(session)
                for k in range(3):
                    await conn.session_prompt(session_id=session, prompt=prompt(f"c{i} s{j} t{k}"))
            prompted.append(i)
            if nodes[i] != "node1":
                return
            await dropped.wait()  # the network drops: the next call fails, nothing retries
            with pytest.raises(ConnectionClosed):
                while True:  # until the drop is seen, however long that takes under load
                    await conn.session_prompt(session_id=sessions[i][0], prompt=prompt("lost"))
                    await asyncio.sleep(0.05)

    tasks = [asyncio.ensure_future(client(i)) for i in range(CLIENTS)]
    while len(prompted) < CLIENTS:
        assert not any(t.done() and t.exception() for t in tasks), [t.exception() for t in tasks if t.done()]
        await asyncio.sleep(0.05)
    assert set(nodes) == {"node1", "node2"}, nodes  # round robin spread the connections
    # Every update of every session came from the process its connection reached, in order.
    for i in range(CLIENTS):
        for j, session in enumerate(sessions[i]):
            texts = recorders[i].texts[session]
            expected = [f"[{nodes[i]}] {w}" for k in range(3) for w in (f"c{i} ", f"s{j} ", f"t{k}")]
            assert texts == expected, (i, j, texts)
    runtime_api(stats, "shutdown sessions server agents/node1")
    dropped.set()
    await asyncio.gather(*tasks)
    # Each client kept the cookie that names its process (the HTTP client's jar is handed
    # back when its connection ends).
    assert [jar.get("ACPNODE") for jar in jars] == nodes, jars

    # Each dropped client reconnects explicitly, with its cookies: back on node1, where its
    # sessions are (session/load on node2 would not find them), replayed, and still served.
    for i in (i for i, node in enumerate(nodes) if node == "node1"):
        again = Recorder()
        async with connect_to_remote_agent(again, urls[i], cookies=jars[i]) as conn:
            assert await node_of(conn) == "node1"
            for j, session in enumerate(sessions[i]):
                await conn.session_load(session_id=session, cwd="/", mcp_servers=[])
                await conn.session_prompt(session_id=session, prompt=prompt("back"))
                turns = [f"c{i} s{j} t{k}" for k in range(3)]
                replay = [text for turn in turns for text in (turn, f"[node1] {turn}")]
                # A "lost" prompt the process still got before the drop was seen is replayed too.
                got = again.texts[session]
                assert got[:len(replay)] == replay and got[-1] == "[node1] back", got
                assert set(got[len(replay):-1]) <= {"lost", "[node1] lost"}, got
