"""The remote transports (generated ``acp_v1.remote``), end to end and under attack.

The rules are the RFD "Streamable HTTP & WebSocket Transport", pinned with its provenance in
tests/data/rfds/; each status code asserted here is the one its routing section gives.
Every test runs a real server (hypercorn, on a free loopback port) and real clients (the
generated one, or raw httpx2/websockets requests for what a well-behaved client never sends),
under a hang guard.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import os
import re
import resource
import shutil
import subprocess
import sys
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx2
import pytest
import websockets
from conftest import generated_dir
from websockets.asyncio.client import connect as ws_connect

GENERATED = generated_dir()  # generated now into a temporary directory, importable

from acp_v1 import (
    PROTOCOL_VERSION,
    Client,
    RequestCancelledError,
    models,
)
from acp_v1.examples.echo_agent import EchoAgent, RemoteEchoAgent, Transcripts
from acp_v1.remote import (
    ServerOptions,
    agent_app,
    connect_to_remote_agent,
    serve_app,
)
from acp_v1.transports.endpoint import AcpEndpoint

RFD = Path(__file__).parent / "data" / "rfds" / "streamable-http-websocket-transport.mdx"
GUARD = 30.0  # seconds: no test waits longer for anything
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": 1, "clientCapabilities": {}}}
JSON = {"Content-Type": "application/json"}
SSE = {"Accept": "text/event-stream"}


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), GUARD))


@contextlib.asynccontextmanager
async def serving(factory: Callable[[], Any] = EchoAgent, record: str | None = None,
                  **options: Any) -> AsyncIterator[tuple[str, AcpEndpoint]]:
    """A server on a free loopback port: its http:// URL and its endpoint state."""
    app = agent_app(factory, ServerOptions(**options), record=record)
    url: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(serve_app(app, port=0, ready=url.set_result, shutdown=stop.wait))
    try:
        address = await url
        endpoint: AcpEndpoint = app.state.acp
        while endpoint._reaper is None:  # the lifespan has started: the server is all up
            await asyncio.sleep(0.01)
        yield address, endpoint
    finally:
        stop.set()
        await asyncio.wait_for(task, GUARD)


def ws(url: str) -> str:
    return "ws" + url[4:]


class Recorder(Client):
    """Keeps every streamed text chunk; answers a permission request with its first option."""

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.user_chunks: list[str] = []
        self.permission_requests = 0

    async def session_update(self, params: models.SessionNotification) -> None:
        update = params.update
        if isinstance(update, models.SessionUpdateAgentMessageChunk) and isinstance(
                update.content, models.ContentBlockText):
            self.chunks.append(update.content.text)
        if isinstance(update, models.SessionUpdateUserMessageChunk) and isinstance(
                update.content, models.ContentBlockText):
            self.user_chunks.append(update.content.text)

    async def session_request_permission(
            self, params: models.RequestPermissionRequest) -> models.RequestPermissionResponse:
        self.permission_requests += 1
        return models.RequestPermissionResponse(
            outcome=models.RequestPermissionOutcomeSelected(option_id=params.options[0].option_id))


async def initialized(conn: Any) -> None:
    await conn.initialize(protocol_version=PROTOCOL_VERSION,
                          client_capabilities=models.ClientCapabilities())


async def cancel_a_waiting_prompt(conn: Any, client: Recorder, session_id: str) -> None:
    """The echo agent's ``/wait`` turn, cancelled once it says it waits: it ends ``cancelled``."""
    waiting = asyncio.ensure_future(conn.session_prompt(session_id=session_id, prompt=prompt("/wait")))
    while client.chunks[-1] != "waiting for session/cancel":
        await asyncio.sleep(0.01)
    await conn.session_cancel(session_id=session_id)
    assert (await waiting).stop_reason == models.StopReason.CANCELLED


def prompt(text: str) -> list[Any]:
    return [models.ContentBlockText(text=text)]


def _tasks() -> int:
    return len(asyncio.all_tasks())


def _task_names() -> list[str]:
    names = []
    for task in asyncio.all_tasks():
        stack = task.get_stack(limit=1)
        names.append(stack[-1].f_code.co_qualname if stack else task.get_name())
    return sorted(names)


async def _settled(baseline: int, timeout: float | None = None) -> int:
    """The task count once it is back to ``baseline``: waited for as long as it takes (the
    run's guard bounds it), or, given a ``timeout``, what it is when that runs out (a warm-up
    that only lets things settle before counting)."""
    loop = asyncio.get_running_loop()
    deadline = None if timeout is None else loop.time() + timeout
    while _tasks() > baseline and (deadline is None or loop.time() < deadline):
        await asyncio.sleep(0.02)
    return _tasks()


# -- both profiles, end to end ---------------------------------------------------------------


@pytest.mark.slow  # a real server, two profiles, a cancel: about two seconds
@pytest.mark.parametrize("profile", ["websocket", "http"])
def test_the_generated_client_and_server_speak_each_profile_end_to_end(profile: str) -> None:
    async def body() -> None:
        baseline = _tasks()
        async with serving(keepalive_interval=0.5) as (url, endpoint):
            during = _tasks()
            target = ws(url) if profile == "websocket" else url
            client = Recorder()
            async with connect_to_remote_agent(client, target) as conn:
                await initialized(conn)
                assert len(endpoint.connections) == 1
                session = await conn.session_new(cwd=os.getcwd(), mcp_servers=[])
                words = " ".join(f"w{i}" for i in range(200))
                done = await conn.session_prompt(session_id=session.session_id, prompt=prompt(words))
                assert done.stop_reason == models.StopReason.END_TURN
                # Streamed, all before the response, in order, nothing lost or doubled.
                assert "".join(client.chunks) == words
                assert len(client.chunks) == 200
                allowed = await conn.session_prompt(session_id=session.session_id,
                                                    prompt=prompt("/permission"))
                assert client.permission_requests == 1
                assert client.chunks[-1] == "permission: allow"
                assert allowed.stop_reason == models.StopReason.END_TURN
                await cancel_a_waiting_prompt(conn, client, session.session_id)
            # The end of the connection: gone from the server, its tasks ended.
            while endpoint.connections:
                await asyncio.sleep(0.02)
            assert await _settled(during) <= during, _task_names()
        assert await _settled(baseline) <= baseline

    run(body)


def test_http2_streams_of_one_connection_never_wait_for_each_other() -> None:
    """Three sessions on one Streamable HTTP client: four SSE streams carrying data at once.
    With no keepalive to nudge them (an hour), a stream whose frames wait behind another's
    reader would stall here until the run's guard ends it."""
    async def body() -> None:
        async with serving(keepalive_interval=3600.0) as (url, _endpoint):
            client = Recorder()
            async with connect_to_remote_agent(client, url) as conn:
                await initialized(conn)
                sessions = [(await conn.session_new(cwd=os.getcwd(), mcp_servers=[])).session_id
                            for _ in range(3)]
                for round_ in range(2):
                    for session_id in sessions:
                        done = await conn.session_prompt(
                            session_id=session_id, prompt=prompt(f"{session_id} {round_}"))
                        assert done.stop_reason == models.StopReason.END_TURN
                assert client.chunks == [f"{word} " if i == 0 else word
                                         for round_ in range(2) for session_id in sessions
                                         for i, word in enumerate([session_id, str(round_)])]

    run(body)


@contextlib.asynccontextmanager
async def _forwarder(url: str, drop: set[int]) -> AsyncIterator[str]:
    """A TCP forwarder in front of ``url`` that closes the connections numbered in ``drop``
    (1 is the first) as soon as they open, as a busy server whose keep-alive ran out before it
    read the first request does; the others are passed through. Its URL."""
    host, port = url.split("//")[1].split("/")[0].split(":")
    opened = [0]

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        opened[0] += 1
        if opened[0] in drop:
            writer.close()
            return
        upstream_reader, upstream_writer = await asyncio.open_connection(host, int(port))
        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/acp"
    finally:
        server.close()


def test_an_sse_stream_whose_new_connection_is_closed_unread_is_opened_once_more() -> None:
    """Connection 1 carries the POSTs, 2 the connection's SSE stream, 3 the session's: the
    server closing 2 and then 3 before reading them (its keep-alive ran out under a burst of
    new connections) costs each stream one more GET, not the connection; a stream closed twice
    fails the call that needed it, in one line."""
    async def body() -> None:
        async with serving() as (url, _endpoint):
            async with _forwarder(url, drop={2, 4}) as front:
                client = Recorder()
                async with connect_to_remote_agent(client, front) as conn:
                    await initialized(conn)  # stream on 3 (2 closed)
                    session_id = (await conn.session_new(cwd="/", mcp_servers=[])).session_id
                    done = await conn.session_prompt(session_id=session_id, prompt=prompt("hi"))
                    assert done.stop_reason == models.StopReason.END_TURN and client.chunks
            async with _forwarder(url, drop={2, 3}) as front:
                with pytest.raises(ConnectionError, match=r"GET \(SSE stream\) failed"):
                    async with connect_to_remote_agent(Recorder(), front) as conn:
                        await initialized(conn)

    run(body)


@pytest.mark.slow  # waits out the server's keep-alive (5 s)
def test_a_post_on_a_connection_the_server_closed_is_sent_once_more_on_a_new_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The client's pool keeping an idle connection longer than the server's keep-alive (here
    made so: 60 s against 5 s) sends the next POST on a connection the server has closed: the
    write fails, nothing of it was read, and it goes once more on a new connection."""
    import acp_v1.transports.http.client as remote_client

    monkeypatch.setattr(remote_client, "_IDLE_CONNECTION", 60.0)

    async def body() -> None:
        async with serving() as (url, _endpoint), connect_to_remote_agent(Recorder(), url) as conn:
            await initialized(conn)
            await asyncio.sleep(5.5)
            await conn.session_new(cwd="/", mcp_servers=[])

    run(body)


class _PostLog:
    """ASGI middleware: every POST's headers and body, as the endpoint received them."""

    def __init__(self, app: Any, log: list[tuple[dict[str, str], bytes]]) -> None:
        self.app, self.log = app, log

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.app(scope, receive, send)
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        body = bytearray()

        async def logged() -> Any:
            message = await receive()
            body.extend(message.get("body", b""))
            if not message.get("more_body"):
                self.log.append((headers, bytes(body)))
            return message

        await self.app(scope, logged, send)


def test_the_http_client_names_the_session_on_its_answer_to_the_agents_request() -> None:
    """The RFD: ``Acp-Session-Id`` is required on every session-scoped POST, "permission
    responses" among them; the client knows the session from the stream the request came on
    (a response carries no sessionId). The official TypeScript server refuses it otherwise."""
    async def body() -> None:
        posts: list[tuple[dict[str, str], bytes]] = []
        app = agent_app(EchoAgent, ServerOptions())
        app.add_middleware(_PostLog, log=posts)
        url: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        stop = asyncio.Event()
        task = asyncio.create_task(serve_app(app, port=0, ready=url.set_result, shutdown=stop.wait))
        try:
            async with connect_to_remote_agent(Recorder(), await url) as conn:
                await initialized(conn)
                session = (await conn.session_new(cwd=os.getcwd(), mcp_servers=[])).session_id
                await conn.session_prompt(session_id=session, prompt=prompt("/permission"))
        finally:
            stop.set()
            await task
        answers = [headers for headers, sent in posts if "outcome" in json.loads(sent).get("result", {})]
        assert [headers.get("acp-session-id") for headers in answers] == [session]

    run(body)


def test_run_remote_agent_refuses_what_is_not_host_port_and_the_echo_agent_says_so_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    from acp_v1.examples.echo_agent import main
    from acp_v1.remote import run_remote_agent

    for listen in ("8765", "localhost:", "localhost:http"):
        with pytest.raises(ValueError, match="not HOST:PORT"):
            asyncio.run(run_remote_agent(EchoAgent, listen))
    assert main(["--listen", "localhost:http"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error: not HOST:PORT: 'localhost:http'" in err


@pytest.mark.slow  # a second interpreter serving
def test_the_echo_agent_listens_with_one_call_and_sigterm_ends_it_gracefully() -> None:
    """``--listen`` is ``run_remote_agent``: the URL on stderr, a client served over it, and
    SIGTERM a graceful end (exit 0) with the client's connection still open."""
    async def body() -> None:
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "acp_v1.examples.echo_agent", "--listen", "127.0.0.1:0",
            env={**os.environ, "PYTHONPATH": str(GENERATED)}, stderr=subprocess.PIPE)
        try:
            assert server.stderr is not None
            line = (await server.stderr.readline()).decode()
            url = re.search(r"serving on (http://\S+)", line)
            assert url is not None, line
            client = Recorder()
            async with connect_to_remote_agent(client, ws(url[1])) as conn:
                await initialized(conn)
                session = (await conn.session_new(cwd=os.getcwd(), mcp_servers=[])).session_id
                done = await conn.session_prompt(session_id=session, prompt=prompt("one call"))
                assert "".join(client.chunks) == "one call" and done.stop_reason == "end_turn"
                server.terminate()
                assert await server.wait() == 0
        finally:
            if server.returncode is None:
                server.kill()
                await server.wait()

    run(body)


# -- the RFD's status codes -----------------------------------------------------------------


def test_the_endpoint_answers_what_the_rfd_says_to_requests_outside_the_rules() -> None:
    async def body() -> None:
        async with serving() as (url, endpoint), httpx2.AsyncClient(http2=True) as http:
            # initialize: 200, JSON, Acp-Connection-Id (256 random bits, never the same).
            first = await http.post(url, json=INIT, headers=JSON)
            assert first.status_code == 200
            assert first.headers["content-type"].startswith("application/json")
            assert first.json()["result"]["protocolVersion"] == 1
            ids = {first.headers["acp-connection-id"]}
            for _ in range(3):
                ids.add((await http.post(url, json=INIT, headers=JSON)).headers["acp-connection-id"])
            assert len(ids) == 4 and all(len(i) >= 43 for i in ids)  # 32 bytes, base64url
            conn = {"Acp-Connection-Id": first.headers["acp-connection-id"]}
            new = {"jsonrpc": "2.0", "id": 1, "method": "session/new",
                   "params": {"cwd": "/", "mcpServers": []}}
            assert (await http.post(url, json=new, headers=JSON)).status_code == 400  # no id
            unknown = {**JSON, "Acp-Connection-Id": "not-a-connection"}
            assert (await http.post(url, json=new, headers=unknown)).status_code == 404
            assert (await http.post(url, content=b"{}", headers={"Content-Type": "text/plain"})
                    ).status_code == 415
            assert (await http.post(url, json=[new], headers={**JSON, **conn})).status_code == 501
            # Not JSON, or JSON but no message: 400, and the JSON-RPC error a pipe would carry.
            for body_, code, message in ((b"{nope", -32700, "Parse error"),
                                         (b"3", -32600, "Invalid request"),
                                         (b"[]", -32600, "Invalid request")):
                refused = await http.post(url, content=body_, headers={**JSON, **conn})
                assert refused.status_code == 400
                assert refused.headers["content-type"] == "application/json"
                assert refused.json() == {"jsonrpc": "2.0", "id": None,
                                          "error": {"code": code, "message": message}}
            assert (await http.get(url, headers=SSE)).status_code == 400  # no connection id
            assert (await http.get(url, headers={**SSE, "Acp-Connection-Id": "x"})).status_code == 404
            assert (await http.get(url, headers=conn)).status_code == 406  # no text/event-stream
            assert (await http.get(url, headers={**SSE, **conn, "Acp-Session-Id": "nope"})
                    ).status_code == 404
            prompt_message = {"jsonrpc": "2.0", "id": 2, "method": "session/prompt",
                              "params": {"sessionId": "s", "prompt": []}}
            assert (await http.post(url, json=prompt_message, headers={**JSON, **conn})
                    ).status_code == 400  # session-scoped without Acp-Session-Id
            async with http.stream("GET", url, headers={**SSE, **conn}) as stream:
                assert stream.status_code == 200
                # One reader per stream: a second GET of the same one is a conflict.
                assert (await http.get(url, headers={**SSE, **conn})).status_code == 409
            assert (await http.delete(url)).status_code == 400
            assert (await http.delete(url, headers=conn)).status_code == 202
            assert (await http.post(url, json=new, headers={**JSON, **conn})).status_code == 404
            assert len(endpoint.connections) == 3

    run(body)


def test_a_foreign_origin_is_refused_on_http_and_websocket_and_an_allowed_one_passes() -> None:
    async def body() -> None:
        async with serving(allowed_origins=frozenset({"https://editor.example"})) as (url, _), \
                httpx2.AsyncClient() as http:
            evil = {**JSON, "Origin": "http://evil.example"}
            assert (await http.post(url, json=INIT, headers=evil)).status_code == 403
            assert (await http.get(url, headers={**SSE, "Origin": "http://evil.example"})
                    ).status_code == 403
            with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
                await ws_connect(ws(url), origin="http://evil.example")  # type: ignore[arg-type]
            assert refused.value.response.status_code == 403
            for good in ("http://localhost:3000", "http://127.0.0.1:9", "https://editor.example"):
                answer = await http.post(url, json=INIT, headers={**JSON, "Origin": good})
                assert answer.status_code == 200, good
            async with ws_connect(ws(url), origin="http://localhost:3000") as socket:  # type: ignore[arg-type]
                assert socket.response is not None
                assert socket.response.headers["acp-connection-id"]

    run(body)


def test_each_message_goes_to_the_stream_the_rfd_names_in_order() -> None:
    """session/new's answer on the connection's stream; a prompt's updates and its answer on
    the session's, in the order sent."""

    async def events(http: httpx2.AsyncClient, url: str, headers: dict[str, str],
                     into: list[dict[str, Any]], opened: asyncio.Event) -> None:
        async with http.stream("GET", url, headers={**SSE, **headers}) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            opened.set()
            async for event in httpx2.EventSource(stream):
                into.append(json.loads(event.data))

    async def body() -> None:
        async with serving() as (url, _), httpx2.AsyncClient(http2=True, http1=False) as http:
            answer = await http.post(url, json=INIT, headers=JSON)
            assert answer.http_version == "HTTP/2"
            conn = {"Acp-Connection-Id": answer.headers["acp-connection-id"]}
            on_connection: list[dict[str, Any]] = []
            opened = asyncio.Event()
            readers = [asyncio.ensure_future(events(http, url, conn, on_connection, opened))]
            await opened.wait()
            new = {"jsonrpc": "2.0", "id": 1, "method": "session/new",
                   "params": {"cwd": "/", "mcpServers": []}}
            assert (await http.post(url, json=new, headers={**JSON, **conn})).status_code == 202
            while not on_connection:
                await asyncio.sleep(0.01)
            session = on_connection[0]["result"]["sessionId"]
            assert on_connection[0]["id"] == 1
            scoped = {**conn, "Acp-Session-Id": session}
            on_session: list[dict[str, Any]] = []
            opened = asyncio.Event()
            readers.append(asyncio.ensure_future(events(http, url, scoped, on_session, opened)))
            await opened.wait()
            words = " ".join(f"w{i}" for i in range(30))
            ask = {"jsonrpc": "2.0", "id": 2, "method": "session/prompt",
                   "params": {"sessionId": session, "prompt": [{"type": "text", "text": words}]}}
            assert (await http.post(url, json=ask, headers={**JSON, **scoped})).status_code == 202
            while not on_session or "id" not in on_session[-1]:
                await asyncio.sleep(0.01)
            *updates, done = on_session
            assert done == {"jsonrpc": "2.0", "id": 2, "result": {"stopReason": "end_turn"}}
            assert "".join(u["params"]["update"]["content"]["text"] for u in updates) == words
            assert all(u["method"] == "session/update" for u in updates)
            assert len(on_connection) == 1  # nothing of the session's on the connection's
            assert (await http.delete(url, headers=conn)).status_code == 202
            await asyncio.gather(*readers)  # both streams end with it

    run(body)


# -- isolation between connections ----------------------------------------------------------


def test_a_connection_never_reaches_another_connections_session() -> None:
    async def body() -> None:
        async with serving() as (url, _), httpx2.AsyncClient(http2=True) as http, \
                connect_to_remote_agent(Recorder(), url) as owner:
            await initialized(owner)
            session = (await owner.session_new(cwd="/", mcp_servers=[])).session_id
            other = (await http.post(url, json=INIT, headers=JSON)).headers["acp-connection-id"]
            theirs = {**JSON, "Acp-Connection-Id": other, "Acp-Session-Id": session}
            steal = {"jsonrpc": "2.0", "id": 5, "method": "session/prompt",
                     "params": {"sessionId": session, "prompt": []}}
            assert (await http.post(url, json=steal, headers=theirs)).status_code == 404
            assert (await http.get(url, headers={**SSE, **theirs})).status_code == 404
            load = {"jsonrpc": "2.0", "id": 6, "method": "session/load",
                    "params": {"sessionId": session, "cwd": "/", "mcpServers": []}}
            assert (await http.post(url, json=load, headers=theirs)).status_code == 404
            # Over WebSocket: answered as unknown (-32002), never passed to the agent.
            async with ws_connect(ws(url)) as socket:
                await socket.send(json.dumps(INIT))
                json.loads(await socket.recv())
                await socket.send(json.dumps(steal))
                answer = json.loads(await socket.recv())
                assert answer["id"] == 5 and answer["error"]["code"] == -32002
            # The owner is not disturbed.
            done = await owner.session_prompt(session_id=session, prompt=prompt("still mine"))
            assert done.stop_reason == models.StopReason.END_TURN

    run(body)


# -- limits -------------------------------------------------------------------------------------


def test_an_oversize_body_is_refused_and_the_server_serves_others() -> None:
    async def body() -> None:
        async with serving(max_body_bytes=4096) as (url, _), httpx2.AsyncClient() as http:
            huge = {**INIT, "params": {**INIT["params"], "_meta": {"x": "y" * 10_000}}}  # type: ignore[dict-item]
            assert (await http.post(url, json=huge, headers=JSON)).status_code == 413

            async def chunked() -> AsyncIterator[bytes]:  # no Content-Length: counted as read
                yield json.dumps(huge).encode()

            assert (await http.post(url, content=chunked(), headers=JSON)).status_code == 413
            client = Recorder()
            async with connect_to_remote_agent(client, url) as conn:
                await initialized(conn)
                session = await conn.session_new(cwd="/", mcp_servers=[])
                await conn.session_prompt(session_id=session.session_id, prompt=prompt("fine"))
            assert client.chunks == ["fine"]

    run(body)


def test_a_websocket_message_over_the_frame_limit_closes_that_socket_only() -> None:
    async def body() -> None:
        async with serving(max_frame_bytes=2048) as (url, _):
            async with ws_connect(ws(url)) as socket:
                await socket.send(json.dumps({**INIT, "params": {"x": "y" * 4096}}))
                with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                    await socket.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            async with connect_to_remote_agent(Recorder(), ws(url)) as conn:
                await initialized(conn)

    run(body)


def test_connections_and_streams_past_their_limits_are_refused() -> None:
    async def body() -> None:
        async with serving(max_connections=2, max_streams_per_connection=1) as (url, _), \
                httpx2.AsyncClient(http2=True) as http:
            first = (await http.post(url, json=INIT, headers=JSON)).headers["acp-connection-id"]
            assert (await http.post(url, json=INIT, headers=JSON)).status_code == 200
            assert (await http.post(url, json=INIT, headers=JSON)).status_code == 503
            with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
                await ws_connect(ws(url))
            assert refused.value.response.status_code == 503
            conn = {**SSE, "Acp-Connection-Id": first}
            async with http.stream("GET", url, headers=conn) as stream:
                assert stream.status_code == 200
                assert (await http.get(url, headers=conn)).status_code == 429

    run(body)


@pytest.mark.slow  # waits for the idle limit: a second and more
def test_idle_connections_and_their_streams_end_at_the_limit_and_quiet_streams_get_keepalives(
) -> None:
    async def body() -> None:
        async with serving(idle_timeout=1.5, keepalive_interval=0.1) as (url, endpoint), \
                httpx2.AsyncClient(http2=True) as http:
            connection_id = (await http.post(url, json=INIT, headers=JSON)).headers["acp-connection-id"]
            received = b""
            async with http.stream("GET", url, headers={**SSE, "Acp-Connection-Id": connection_id}
                                   ) as stream:
                async for chunk in stream.aiter_bytes():  # ends when the server ends it
                    received += chunk
            assert b": keepalive" in received
            assert endpoint.connections == {}
            async with ws_connect(ws(url)) as socket:
                with pytest.raises(websockets.exceptions.ConnectionClosed):
                    await socket.recv()  # nothing sent: closed when idle

    run(body)


@pytest.mark.slow  # waits for the idle limit
def test_an_http_client_gone_mid_request_is_ended_at_the_idle_limit() -> None:
    """Its prompt still runs (and would wait forever for a reader): once its streams are gone
    (its TCP connection closed), no message for the idle limit ends the connection all the
    same."""

    async def body() -> None:
        async with serving(idle_timeout=1.5, keepalive_interval=0.2) as (url, endpoint):
            http = httpx2.AsyncClient(http2=True, http1=False)
            answer = await http.post(url, json=INIT, headers=JSON)
            conn = {"Acp-Connection-Id": answer.headers["acp-connection-id"]}
            new = {"jsonrpc": "2.0", "id": 1, "method": "session/new",
                   "params": {"cwd": "/", "mcpServers": []}}
            async with http.stream("GET", url, headers={**SSE, **conn}) as stream:
                await http.post(url, json=new, headers={**JSON, **conn})
                async for event in httpx2.EventSource(stream):
                    session = json.loads(event.data)["result"]["sessionId"]
                    break
                wait = {"jsonrpc": "2.0", "id": 2, "method": "session/prompt", "params": {
                    "sessionId": session, "prompt": [{"type": "text", "text": "/wait"}]}}
                scoped = {**JSON, **conn, "Acp-Session-Id": session}
                assert (await http.post(url, json=wait, headers=scoped)).status_code == 202
                (remote,) = endpoint.connections.values()
                while not remote.inflight:  # the prompt runs
                    await asyncio.sleep(0.01)
                await http.aclose()  # the client is gone, its stream with it
            while endpoint.connections:  # ended at the idle limit, however late it comes
                await asyncio.sleep(0.05)

    run(body)


# -- the token hook, and what reaches the logs ---------------------------------------------------


def test_the_bearer_token_hook_decides_and_no_token_or_cookie_reaches_a_log(
        caplog: pytest.LogCaptureFixture) -> None:
    secret = "tok-" + "s3cr3t" * 4

    async def check(token: str | None) -> str | None:
        return "alice" if token == secret else None

    async def body() -> None:
        options = {"token_check": check, "instance_cookie": ("acp-instance", "cookie-value-42")}
        async with serving(**options) as (url, _), httpx2.AsyncClient() as http:
            refused = await http.post(url, json=INIT, headers=JSON)
            assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
            wrong = await http.post(url, json=INIT, headers={**JSON, "Authorization": "Bearer x"})
            assert wrong.status_code == 401
            cookies: dict[str, str] = {}
            async with connect_to_remote_agent(Recorder(), url, token=secret, cookies=cookies
                                               ) as conn:
                await initialized(conn)
                await conn.session_new(cwd="/", mcp_servers=[])
            assert cookies == {"acp-instance": "cookie-value-42"}  # kept for a reconnect
            async with connect_to_remote_agent(Recorder(), ws(url), token=secret) as conn:
                await initialized(conn)

    with caplog.at_level(logging.DEBUG):
        run(body)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert logged  # the server did log (at DEBUG); none of it holds a secret
    assert secret not in logged and "cookie-value-42" not in logged


# -- reliability ------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["websocket", "http"])
def test_a_session_outlives_its_connection_and_resumes_with_session_load(profile: str) -> None:
    transcripts: Transcripts = {}

    async def body() -> None:
        async with serving(lambda: RemoteEchoAgent(transcripts)) as (url, endpoint):
            target = ws(url) if profile == "websocket" else url
            async with connect_to_remote_agent(Recorder(), target) as first:
                await initialized(first)
                session = (await first.session_new(cwd="/", mcp_servers=[])).session_id
                await first.session_prompt(session_id=session, prompt=prompt("remember me"))
            later = Recorder()  # a new connection: explicit, as the client decides
            async with connect_to_remote_agent(later, target) as second:
                await initialized(second)
                await second.session_load(session_id=session, cwd="/", mcp_servers=[])
                assert later.user_chunks == ["remember me"]
                assert "".join(later.chunks) == "remember me"
                await second.session_prompt(session_id=session, prompt=prompt("again"))
                assert later.chunks[-1] == "again"
            assert endpoint.sessions.known(session)

    run(body)


def test_a_graceful_shutdown_cancels_what_is_in_flight_and_answers_it() -> None:
    async def body() -> None:
        client = Recorder()
        async with serving(shutdown_grace=0.2) as (url, endpoint), \
                connect_to_remote_agent(client, ws(url)) as conn:
            await initialized(conn)
            session = (await conn.session_new(cwd="/", mcp_servers=[])).session_id
            waiting = asyncio.ensure_future(
                conn.session_prompt(session_id=session, prompt=prompt("/wait")))
            while not client.chunks:
                await asyncio.sleep(0.01)
            closing = asyncio.ensure_future(endpoint.aclose())  # what serve_app does first
            with pytest.raises(RequestCancelledError):
                await waiting  # answered -32800 once the grace ran out, not left hanging
            await closing
            assert endpoint.connections == {}

    run(body)


# -- the rules are the RFD's ------------------------------------------------------------------

# (the RFD's words, the status its routing gives): each is asserted above.
ROUTING = [
    ("Unknown Acp-Connection-Id? → 404 Not Found", 404),
    ("No Acp-Connection-Id? → 400 Bad Request", 400),
    ("Has Acp-Session-Id unknown for this connection? → 404 Not Found", 404),
    ("Session-scoped request missing Acp-Session-Id? → 400 Bad Request", 400),
    ("Terminate connection and all associated sessions, return 202", 202),
    ("Batch JSON-RPC requests return 501", 501),
    ("POST `Content-Type` **MUST** be `application/json` (415 otherwise)", 415),
    ("GET `Accept` **MUST** include `text/event-stream` (406 otherwise)", 406),
]


def test_the_status_codes_asserted_here_are_the_pinned_rfds() -> None:
    data = RFD.read_bytes()
    pinned = re.search(r"`db16730d[0-9a-f]+`", (RFD.parent / "PROVENANCE.md").read_text())
    assert pinned and hashlib.sha256(data).hexdigest() == pinned.group(0).strip("`")
    text = data.decode("utf-8")
    for words, status in ROUTING:
        assert words in text and str(status) in words


# -- many connections --------------------------------------------------------------------------


async def _churn(url: str, count: int) -> None:
    """Open and drop ``count`` connections, each profile in turn, some mid-stream. A new HTTP/2
    connection every 50: hypercorn (h2) answers a long run of streams reset mid-response on one
    connection with GOAWAY, as a server should (the "rapid reset" attack)."""
    http = httpx2.AsyncClient(http2=True, http1=False)
    try:
        for i in range(count):
            if i % 50 == 49:
                await http.aclose()
                http = httpx2.AsyncClient(http2=True, http1=False)
            if i % 2:
                async with ws_connect(ws(url)) as socket:
                    await socket.send(json.dumps(INIT))
                    await socket.recv()
                continue
            answer = await http.post(url, json=INIT, headers=JSON)
            conn = {"Acp-Connection-Id": answer.headers["acp-connection-id"]}
            if i % 4 == 0:  # dropped without a DELETE, its stream open: the idle limit ends it
                async with http.stream("GET", url, headers={**SSE, **conn}) as stream:
                    assert stream.status_code == 200
            else:
                await http.delete(url, headers=conn)
    finally:
        await http.aclose()


def _descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def _memory_and_leftovers(count: int) -> None:
    async def body() -> None:
        # The idle limit ends the connections dropped with a stream open; long enough that a
        # loaded machine's slow handshake is not taken for idleness.
        async with serving(idle_timeout=1.0) as (url, endpoint):
            await _churn(url, 20)  # warm: imports, caches, pools
            await _settled(0, timeout=3.0)
            gc.collect()
            tasks, descriptors = _tasks(), _descriptors()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            await _churn(url, count)
            while endpoint.connections:  # the idle limit ends the dropped ones
                await asyncio.sleep(0.05)
            assert await _settled(tasks) <= tasks, _task_names()
            gc.collect()
            grown = tracemalloc.get_traced_memory()[0] - before
            tracemalloc.stop()
            assert _descriptors() <= descriptors
            # Nothing kept per connection (a logger per connection was, until observability.py
            # stopped registering them): what is left is caches and cancelled timers.
            print(f"{count} connections: {grown} bytes traced growth, "
                  f"max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss} kB")
            assert grown < 128 * 1024

    asyncio.run(asyncio.wait_for(body(), 60 + count / 20))


@pytest.mark.slow  # a few hundred connections: seconds
def test_hundreds_of_connections_opened_and_dropped_leave_no_tasks_descriptors_or_memory() -> None:
    _memory_and_leftovers(200)


@pytest.mark.remote_load
def test_ten_thousand_connections_opened_and_dropped_leave_nothing_behind() -> None:
    _memory_and_leftovers(10_000)


# -- the extra is optional ----------------------------------------------------------------------


@pytest.mark.slow  # two interpreters
def test_a_stdio_user_needs_no_remote_library_and_a_missing_one_is_named_in_one_line() -> None:
    blocked = ("starlette", "hypercorn", "websockets", "httpx2", "h2")
    script = f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ImportError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Block())
import acp_v1, acp_v1.remote
assert not [m for m in sys.modules if m.split(".")[0] in {blocked!r}], "imported"
from acp_v1.remote import agent_app, connect_to_remote_agent, serve_agent  # names, no library
try:
    agent_app(lambda: None)
except ImportError as exc:
    print(exc)
"""
    env = {**os.environ, "PYTHONPATH": str(GENERATED)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1
    assert "'remote'" in lines[0] and "[remote]" in lines[0]
    assert re.search(r"missing: (starlette|hypercorn)", lines[0])
    client = subprocess.run(
        [sys.executable, "-c", script.replace("import acp_v1, acp_v1.remote", "import acp_v1")
         .replace("    agent_app(lambda: None)", "    import acp_v1.examples.client as c; "
                  "sys.exit(c.main(['--url', 'ws://127.0.0.1:9/acp']))")
         .replace("from acp_v1.remote import agent_app, connect_to_remote_agent, serve_agent", "")],
        capture_output=True, text=True, env=env, timeout=60, check=False)
    assert client.returncode == 1
    assert client.stderr.count("\n") == 1 and "[remote]" in client.stderr


def test_the_import_proof_compiles_the_extras_modules_without_importing_them() -> None:
    """acpgen runs where the `remote` extra need not be installed: its import proof compiles
    a module with the extra's import guard (``raise missing_extra(exc)``) but does not import
    it, wherever it is (acpgen/output/proof.py)."""
    from acpgen.errors import AcpgenError
    from acpgen.output import proof

    guarded = (b"try:\n    import no_such_library_anywhere_32\n"
               b"except ImportError as exc:\n    raise missing_extra(exc) from exc\n")
    files = {"pkgx32/__init__.py": b"", "pkgx32/transports/__init__.py": b"",
             "pkgx32/transports/http/__init__.py": b"", "pkgx32/transports/any_name.py": guarded,
             "pkgx32/transports/http/server.py": guarded}
    proof.prove(files, "pkgx32")
    with pytest.raises(AcpgenError, match="compile"):
        proof.prove({**files, "pkgx32/transports/http/server.py": b"def (:\n"}, "pkgx32")
    missing = b"import no_such_library_anywhere_32\n"  # no guard: imported, and it fails
    with pytest.raises(AcpgenError, match="does not import"):
        proof.prove({**files, "pkgx32/other.py": missing}, "pkgx32")


# -- TLS ---------------------------------------------------------------------------------------------


@pytest.mark.slow  # a certificate made with openssl, a TLS server: a second or more
def test_tls_through_the_servers_standard_options_for_both_profiles(tmp_path: Path) -> None:
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed: it makes the test's self-signed certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)

    async def body() -> None:
        app = agent_app(EchoAgent, ServerOptions())
        ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        stop = asyncio.Event()
        task = asyncio.create_task(serve_app(app, port=0, certfile=str(cert), keyfile=str(key),
                                             ready=ready.set_result, shutdown=stop.wait))
        url = await ready
        assert url.startswith("https://127.0.0.1:")
        try:
            for target in (url, "wss" + url[5:]):
                client = Recorder()
                async with connect_to_remote_agent(client, target, verify=str(cert)) as conn:
                    await initialized(conn)
                    session = await conn.session_new(cwd="/", mcp_servers=[])
                    await conn.session_prompt(session_id=session.session_id,
                                              prompt=prompt("over TLS"))
                assert "".join(client.chunks) == "over TLS", target
            with pytest.raises(ConnectionError):  # an unknown certificate is refused
                async with connect_to_remote_agent(Recorder(), url) as conn:
                    await initialized(conn)
        finally:
            stop.set()
            await asyncio.wait_for(task, GUARD)

    run(body)
