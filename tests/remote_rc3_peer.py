"""The official Python SDK 1.0.0rc3 as a remote peer (run by tests/test_remote_interop.py in a
venv of its own, where ``import acp`` is rc3).

``python remote_rc3_peer.py serve``: an echo agent written with rc3, served by rc3's ASGI app
(``acp.http.asgi.create_asgi_app``) under hypercorn on a free loopback port; prints its URL.
``python remote_rc3_peer.py client URL``: rc3's client (WebSocket for ``ws://``, Streamable
HTTP for ``http://``) drives the agent at URL through initialize, session/new, a streamed
prompt, a permission request, a cancel and the end of the connection; prints ``ok``.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import acp

WORDS = " ".join(f"w{i}" for i in range(50))


def text(value: str) -> Any:
    return acp.schema.TextContentBlock(text=value)


def said(value: str) -> Any:
    return acp.schema.AgentMessageChunk(content=text(value))


class Rc3EchoAgent:
    """The same commands as the generated echo agent: text is echoed word by word,
    ``/permission`` asks first, ``/wait`` waits for session/cancel."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.cancelled: dict[str, asyncio.Event] = {}

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> Any:
        return acp.InitializeResponse(
            protocol_version=min(protocol_version, acp.PROTOCOL_VERSION),
            agent_info=acp.schema.Implementation(name="rc3-echo-agent", version="1.0.0rc3"),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> Any:
        session_id = f"rc3-{len(self.cancelled)}"
        self.cancelled[session_id] = asyncio.Event()
        return acp.NewSessionResponse(session_id=session_id)

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        self.cancelled.setdefault(session_id, asyncio.Event()).set()

    async def prompt(self, prompt: list[Any], session_id: str, **kwargs: Any) -> Any:
        cancelled = self.cancelled.setdefault(session_id, asyncio.Event())
        cancelled.clear()
        text = "".join(getattr(block, "text", "") for block in prompt)
        say = self.conn.session_update
        if text == "/wait":
            await say(session_id=session_id, update=said("waiting"))
            await cancelled.wait()
            return acp.PromptResponse(stop_reason="cancelled")
        if text == "/permission":
            response = await self.conn.request_permission(
                session_id=session_id,
                tool_call=acp.schema.ToolCallUpdate(tool_call_id="rc3-call", title="Echo"),
                options=[acp.schema.PermissionOption(option_id="allow", name="Allow", kind="allow_once")],
            )
            outcome = response.outcome.outcome
            await say(session_id=session_id, update=said(f"outcome: {outcome}"))
            return acp.PromptResponse(stop_reason="cancelled" if outcome == "cancelled" else "end_turn")
        for i, word in enumerate(text.split(" ")):
            await say(session_id=session_id,
                      update=said(word if i == 0 else " " + word))
        return acp.PromptResponse(stop_reason="end_turn")


async def serve() -> None:
    from acp.http.asgi import create_asgi_app
    from hypercorn.asyncio.run import worker_serve
    from hypercorn.config import Config
    from hypercorn.utils import wrap_app

    app = create_asgi_app(Rc3EchoAgent)
    config = Config.from_mapping(bind=["127.0.0.1:0"], accesslog=None, graceful_timeout=1.0)
    sockets = config.create_sockets()
    for sock in sockets.insecure_sockets:
        sock.listen(config.backlog)
    port = sockets.insecure_sockets[0].getsockname()[1]
    print(f"http://127.0.0.1:{port}/acp", flush=True)
    await worker_serve(wrap_app(app, 0, "asgi"), config, sockets=sockets)


class RecordingClient:
    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.permissions = 0

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        text = getattr(getattr(update, "content", None), "text", None)
        if getattr(update, "session_update", None) == "agent_message_chunk" and text is not None:
            self.chunks.append(text)

    async def request_permission(self, options: list[Any], session_id: str, tool_call: Any,
                                 **kwargs: Any) -> Any:
        self.permissions += 1
        return acp.RequestPermissionResponse.model_validate(
            {"outcome": {"outcome": "selected", "optionId": options[0].option_id}})


async def client(url: str) -> None:
    if url.startswith("ws"):
        from acp.ws import create_websocket_stream

        transport = await create_websocket_stream(url)
    else:
        from acp.http import create_http_stream

        transport = create_http_stream(url)
    recorder = RecordingClient()
    conn = acp.ClientSideConnection(recorder, transport)
    try:
        init = await conn.initialize(protocol_version=acp.PROTOCOL_VERSION)
        assert init.protocol_version == 1, init
        session = (await conn.new_session(cwd="/tmp", mcp_servers=[])).session_id
        done = await conn.prompt(session_id=session, prompt=[text(WORDS)])
        assert done.stop_reason == "end_turn", done
        assert "".join(recorder.chunks) == WORDS, recorder.chunks
        recorder.chunks.clear()
        done = await conn.prompt(session_id=session, prompt=[text("/permission")])
        assert recorder.permissions == 1 and recorder.chunks == ["permission: allow"], recorder.chunks
        assert done.stop_reason == "end_turn", done
        recorder.chunks.clear()
        turn = asyncio.ensure_future(conn.prompt(session_id=session, prompt=[text("/wait")]))
        while not recorder.chunks:
            await asyncio.sleep(0.01)
        await conn.cancel(session_id=session)
        assert (await turn).stop_reason == "cancelled"
    finally:
        await conn.close()
    print("ok", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        asyncio.run(serve())
    else:
        asyncio.run(asyncio.wait_for(client(sys.argv[2]), 60))
