"""The WebSocket profile's outgoing queue (transports/ws/server.py): the engine hands frames
over without waiting for the socket, at most ``max_buffered_messages`` wait, a full queue
holds the sender back (nothing dropped, order kept), and a client gone mid-stream ends the
sender's calls instead of leaving them waiting."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from conftest import generated_dir

GENERATED = generated_dir()  # generated now into a temporary directory, importable

from acp_v1 import Agent, ConnectionClosed, models
from acp_v1.remote import connect_to_remote_agent
from acp_v1.transports.ws.server import WebSocketConnection
from test_remote import Recorder, _settled, _tasks, initialized, prompt, run, serving, ws
from websockets.asyncio.client import connect as ws_connect

pytestmark = pytest.mark.slow  # a real server on loopback (a second or two each)


class Streamer(Agent):
    """Streams ``N`` numbered chunks for a prompt whose text is ``N``; ``ended`` says how its
    last turn ended (unset while it runs)."""

    ended: asyncio.Future[str] | None = None

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        return models.NewSessionResponse(session_id="s1")

    async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
        first = params.prompt[0]
        count = int(first.text) if isinstance(first, models.ContentBlockText) else 0
        ended = Streamer.ended = asyncio.get_running_loop().create_future()
        try:
            for i in range(count):
                await self.connection.session_update(
                    session_id=params.session_id,
                    update=models.SessionUpdateAgentMessageChunk(
                        content=models.ContentBlockText(text=str(i))
                    ),
                )
        except (ConnectionClosed, asyncio.CancelledError) as exc:
            ended.set_result(type(exc).__name__)  # a failed send, or the engine's close
            raise
        ended.set_result("done")
        return models.PromptResponse(stop_reason=models.StopReason.END_TURN)


@pytest.mark.parametrize("capacity", [4, 1024])
def test_the_agent_waits_for_the_socket_only_when_the_queue_is_full(
    capacity: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below the queue's capacity a streaming handler never waits for the socket (every frame
    is taken by ``offer``); at it, the handler waits (``put``), the queue never holds more,
    and every update still arrives, once, in order, before the answer."""
    seen = {"waited": 0, "longest": 0}
    put, queue = WebSocketConnection.put, WebSocketConnection._queue

    async def counted_put(self: WebSocketConnection, frame: bytes) -> None:
        seen["waited"] += 1  # offer() refused: the queue was full
        await put(self, frame)

    def measured_queue(self: WebSocketConnection, frame: bytes) -> None:
        queue(self, frame)
        seen["longest"] = max(seen["longest"], len(self._outgoing))

    monkeypatch.setattr(WebSocketConnection, "put", counted_put)
    monkeypatch.setattr(WebSocketConnection, "_queue", measured_queue)

    async def body() -> None:
        async with serving(Streamer, max_buffered_messages=capacity) as (url, _endpoint):
            client = Recorder()
            async with connect_to_remote_agent(client, ws(url)) as conn:
                await initialized(conn)
                session = await conn.session_new(cwd="/", mcp_servers=[])
                done = await conn.session_prompt(session_id=session.session_id, prompt=prompt("300"))
                assert done.stop_reason == models.StopReason.END_TURN
                # The client's handler saw each before session/prompt returned.
                assert client.chunks == [str(i) for i in range(300)]

    run(body)
    if capacity < 300:
        assert seen["waited"] > 0, "the queue never filled: the backpressure path was not taken"
    else:
        assert seen["waited"] == 0, "a frame waited for the socket with room in the queue"
    assert seen["longest"] <= capacity


def test_a_client_gone_mid_stream_ends_the_agents_sends() -> None:
    async def body() -> None:
        async with serving(Streamer, max_buffered_messages=8) as (url, endpoint):
            baseline = _tasks()
            async with ws_connect(ws(url)) as socket:
                frames = [
                    {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                     "params": {"protocolVersion": 1, "clientCapabilities": {}}},
                    {"jsonrpc": "2.0", "id": 1, "method": "session/new",
                     "params": {"cwd": "/", "mcpServers": []}},
                ]
                for frame in frames:
                    await socket.send(json.dumps(frame))
                    json.loads(await socket.recv())
                await socket.send(json.dumps({
                    "jsonrpc": "2.0", "id": 2, "method": "session/prompt",
                    "params": {"sessionId": "s1",
                               "prompt": [{"type": "text", "text": "1000000"}]}}))
                got: Any = json.loads(await socket.recv())
                assert got["method"] == "session/update"
            # The socket is closed with the turn still streaming: the turn ends (its next send
            # fails, or the engine's close cancels it), and nothing of the connection is left
            # running.
            assert Streamer.ended is not None
            assert await Streamer.ended in ("ConnectionClosed", "CancelledError")
            assert endpoint.connections == {}
            assert await _settled(baseline) == baseline

    run(body)
