"""``record=`` on the remote transports: the generated client and server, over WebSocket and
over Streamable HTTP, each record a conversation (the server one file per connection), and
the traces are judged offline by ``python -m acp_v1.trace check`` with no failure; a fault
planted in one is caught at its frames."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import generated_dir

GENERATED = generated_dir()  # generated now into a temporary directory, importable

from acp_v1 import RequestCancelledError, models
from acp_v1.conformance.validate import Validator
from acp_v1.examples.echo_agent import EchoAgent
from acp_v1.remote import agent_app, connect_to_remote_agent
from acp_v1.trace.format import read_trace
from acp_v1.trace.judge import judge
from acp_v1.transports.endpoint import AcpEndpoint
from test_remote import Recorder, cancel_a_waiting_prompt, initialized, prompt, run, serving, ws

pytestmark = pytest.mark.slow  # a real server and two judge processes per profile


async def converse(target: str, record: Path) -> None:
    """A conversation with all the judge looks at: a streamed turn, a permission request
    answered, a prompt cancelled."""
    client = Recorder()
    async with connect_to_remote_agent(client, target, record=record) as conn:
        await initialized(conn)
        session = await conn.session_new(cwd=os.getcwd(), mcp_servers=[])
        done = await conn.session_prompt(session_id=session.session_id, prompt=prompt("hello world"))
        assert done.stop_reason == models.StopReason.END_TURN
        await conn.session_prompt(session_id=session.session_id, prompt=prompt("/permission"))
        assert client.permission_requests == 1
        await cancel_a_waiting_prompt(conn, client, session.session_id)


async def wait_closed(endpoint: AcpEndpoint) -> None:
    while endpoint.connections:
        await asyncio.sleep(0.02)


def check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "acp_v1.trace", "check", str(path)],
        env={**os.environ, "PYTHONPATH": str(GENERATED)},
        capture_output=True, text=True, timeout=120, check=False,
    )


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def sent(path: Path, sender: str) -> list[str]:
    return [r["data"] for r in lines(path)[1:] if r.get("from") == sender]


def plant_late_update(path: Path, out: Path) -> tuple[int, int]:
    """The trace with the first turn's last update moved after the turn's response: the
    frame numbers of the response and of the moved update."""
    records = lines(path)
    frames = records[1:-1]
    response = next(i for i, r in enumerate(frames)
                    if r["from"] == "agent" and '"stopReason"' in r["data"])
    update = max(i for i, r in enumerate(frames[:response]) if '"session/update"' in r["data"])
    frames.insert(response, frames.pop(update))
    for n, record in enumerate(frames, start=1):
        record["n"] = n
    out.write_text("".join(json.dumps(r) + "\n" for r in [records[0], *frames, records[-1]]))
    return response, response + 1  # after the move: the response one up, the update after it


@pytest.mark.parametrize("profile", ["websocket", "http"])
def test_a_remote_conversation_is_recorded_on_both_sides_and_judged_clean(
        profile: str, tmp_path: Path) -> None:
    # The server records one file per connection: into a directory (WebSocket run) or by a
    # path template (HTTP run).
    traces = tmp_path / "server"
    traces.mkdir()
    record = str(traces) if profile == "websocket" else str(traces / "conn-{n}.jsonl")
    client_trace = tmp_path / "client.jsonl"

    async def body() -> None:
        async with serving(record=record) as (url, endpoint):
            target = ws(url) if profile == "websocket" else url
            await converse(target, client_trace)
            async with connect_to_remote_agent(Recorder(), target) as conn:  # a second one
                await initialized(conn)
            await wait_closed(endpoint)

    run(body)
    files = sorted(traces.iterdir())
    assert len(files) == 2, files
    if profile == "http":
        assert [f.name for f in files] == ["conn-1.jsonl", "conn-2.jsonl"]
    else:
        assert all(f.name.startswith("acp-trace-") and f.name.endswith("-1.jsonl") is (i == 0)
                   for i, f in enumerate(files)), files
    server_trace = next(f for f in files if f.name.endswith("-1.jsonl"))
    header = lines(server_trace)[0]
    assert (header["kind"], header["recorder"], header["role"]) == ("acp-trace", "runtime", "agent")
    assert lines(client_trace)[0]["transport"] == {"websocket": "websocket", "http": "streamable-http"}[profile]
    assert lines(server_trace)[-1]["end"] is True
    # Both ends saw the same frames from each side, in the same order.
    for sender in ("client", "agent"):
        assert sent(server_trace, sender) == sent(client_trace, sender), sender
    assert sum('"session/update"' in f for f in sent(server_trace, "agent")) >= 4  # each a frame
    assert any('"session/request_permission"' in f for f in sent(server_trace, "agent"))

    judged = check(server_trace)  # the command line, once; the other two in this process
    assert judged.returncode == 0, judged.stdout[-3000:] + judged.stderr[-2000:]
    assert "FAIL" not in judged.stdout, judged.stdout
    print(server_trace.name, judged.stdout.strip().splitlines()[-1])  # the counts, with -s
    for trace in (client_trace, files[1]):
        verdicts = judge(read_trace(trace), Validator("acp_v1"))
        assert [v.req_id for v in verdicts if v.status == "fail"] == [], trace
        assert sum(v.status == "pass" for v in verdicts) >= 50, trace

    planted = tmp_path / "planted.jsonl"
    response, update = plant_late_update(server_trace, planted)
    caught = check(planted)
    assert caught.returncode == 1, caught.stdout[-3000:]
    assert "ACP-V1-PROMPT-UPDATES-BEFORE-RESPONSE" in caught.stdout
    assert f"frames {response}, {update}" in caught.stdout, caught.stdout[-3000:]


def test_what_the_server_makes_up_on_shutdown_is_not_recorded_as_the_clients(
        tmp_path: Path) -> None:
    """A prompt in flight when the server shuts down: the server cancels it by handing its
    agent a ``$/cancel_request`` the client never sent (not recorded), and the agent's
    -32800 answer goes to the client (recorded, on both ends)."""
    record = str(tmp_path / "conn-{n}.jsonl")
    client_trace = tmp_path / "client.jsonl"

    async def body() -> None:
        client = Recorder()
        async with serving(record=record, shutdown_grace=0.1) as (url, endpoint), \
                connect_to_remote_agent(client, ws(url), record=client_trace) as conn:
            await initialized(conn)
            session = await conn.session_new(cwd=os.getcwd(), mcp_servers=[])
            waiting = asyncio.ensure_future(
                conn.session_prompt(session_id=session.session_id, prompt=prompt("/wait")))
            while not client.chunks:
                await asyncio.sleep(0.01)
            await endpoint.aclose()  # the server's graceful shutdown, the prompt in flight
            with pytest.raises(RequestCancelledError):
                await waiting

    run(body)
    server_trace = tmp_path / "conn-1.jsonl"
    assert not any("$/cancel_request" in f for f in sent(server_trace, "client"))
    answer = json.loads(sent(server_trace, "agent")[-1])
    assert (answer["id"], answer["error"]["code"]) == (2, -32800), answer
    assert sent(client_trace, "agent") == sent(server_trace, "agent")
    assert sent(client_trace, "client") == sent(server_trace, "client")


def test_a_message_the_server_answers_itself_is_recorded_with_its_answer(tmp_path: Path) -> None:
    """A WebSocket request naming another live connection's session never reaches the agent:
    the server answers it; the request is in that connection's trace before its answer, and
    the trace judges clean (no answer to an id nobody sent)."""
    record = str(tmp_path / "conn-{n}.jsonl")

    async def body() -> None:
        async with serving(record=record) as (url, endpoint):
            async with connect_to_remote_agent(Recorder(), ws(url)) as first, \
                    connect_to_remote_agent(Recorder(), ws(url)) as second:
                await initialized(first)
                await initialized(second)
                held = await first.session_new(cwd=os.getcwd(), mcp_servers=[])
                with pytest.raises(Exception, match="(?i)not found"):
                    await second.session_prompt(session_id=held.session_id, prompt=prompt("hi"))
            await wait_closed(endpoint)

    run(body)
    trace = tmp_path / "conn-2.jsonl"
    asked = json.loads(sent(trace, "client")[-1])
    answer = json.loads(sent(trace, "agent")[-1])
    assert asked["method"] == "session/prompt" and answer["id"] == asked["id"], (asked, answer)
    judged = check(trace)
    assert judged.returncode == 0, judged.stdout[-3000:]


def test_a_server_refuses_a_record_path_every_connection_would_overwrite(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"not a directory and no \{n\}"):
        agent_app(EchoAgent, record=str(tmp_path / "one.jsonl"))
    assert not (tmp_path / "one.jsonl").exists()
