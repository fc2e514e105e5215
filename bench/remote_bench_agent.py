"""The agent bench/bench_remote.py serves: a prompt ``N`` streams N updates, then ends the turn.

A prompt ``N PAUSE OFFSET`` paces them: update k goes at OFFSET + k * PAUSE seconds after the
prompt arrived (``paced``), so the bench can offer the same load to servers of different
speeds and compare their latencies at it.

Each update's text is ``SEQ STAMP``: its place in the turn and ``time.monotonic_ns()`` when the
agent sent it (CLOCK_MONOTONIC is one clock for every process of the machine), so the load
client checks order and measures each update's latency. Two implementations of the same
behaviour, one line each on the wire:

* ``python remote_bench_agent.py generated [SESSION_TTL]`` (``PYTHONPATH`` holding
  ``generated/``): the generated ``acp_v1`` agent served by ``acp_v1.remote.serve_agent``,
  keeping ended connections' sessions resumable for SESSION_TTL seconds (the default's
  3600 unless given);
* ``python remote_bench_agent.py rc3`` (in a venv with the official Python SDK 1.0.0rc3): its
  agent served by its own ASGI app (``acp.http.asgi.create_asgi_app``) under hypercorn.

Both listen on a free loopback port and print their URL (``http://127.0.0.1:PORT/acp``).
On ``SIGUSR1`` either prints ``blocks N``: the memory blocks Python has allocated right now
(``sys.getallocatedblocks()`` after a collection), the live heap whatever the allocator keeps
mapped, so the bench tells objects kept from pages kept.
"""

from __future__ import annotations

import asyncio
import gc
import signal
import sys
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any


async def paced(text: str) -> AsyncIterator[int]:
    """The updates' places in the turn, each at its time (``N`` alone: all at once)."""
    count, *timing = text.split()
    pause, offset = (float(timing[0]), float(timing[1])) if timing else (0.0, 0.0)
    start = time.monotonic() + offset
    for seq in range(int(count)):
        if pause:
            await asyncio.sleep(max(0.0, start + seq * pause - time.monotonic()))
        yield seq


def print_live_blocks() -> None:
    gc.collect()
    print(f"blocks {sys.getallocatedblocks()}", flush=True)


def answer_probes() -> None:
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, print_live_blocks)


def generated(session_ttl: str | None = None) -> None:
    from acp_v1 import Agent, models
    from acp_v1.remote import ServerOptions, serve_agent

    class BenchAgent(Agent):
        agent_capabilities = models.AgentCapabilities()

        async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
            return models.NewSessionResponse(session_id=f"bench-{uuid.uuid4().hex}")

        async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
            block = params.prompt[0]
            text = block.text if isinstance(block, models.ContentBlockText) else "0"
            async for seq in paced(text):
                await self.connection.session_update(
                    session_id=params.session_id,
                    update=models.SessionUpdateAgentMessageChunk(
                        content=models.ContentBlockText(text=f"{seq} {time.monotonic_ns()}")
                    ),
                )
            return models.PromptResponse(stop_reason=models.StopReason.END_TURN)

    # One load client stands for every client here, as a proxy would: no per-peer share
    # (its 200 connections would be refused past the default 100).
    options = ServerOptions(max_connections=5000, max_connections_per_peer=None)
    if session_ttl is not None:
        options = ServerOptions(
            max_connections=5000, max_connections_per_peer=None, session_ttl=float(session_ttl)
        )

    async def serve() -> None:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        answer_probes()
        await serve_agent(
            BenchAgent, host="127.0.0.1", port=0, options=options,
            ready=lambda url: print(url, flush=True), shutdown=stop.wait,
        )

    asyncio.run(serve())


def rc3() -> None:
    import acp
    from acp.http.asgi import create_asgi_app
    from hypercorn.asyncio.run import worker_serve
    from hypercorn.config import Config
    from hypercorn.utils import wrap_app

    class BenchAgent:
        def __init__(self, conn: Any) -> None:
            self.conn = conn
            self.sessions = 0

        def on_connect(self, conn: Any) -> None:
            self.conn = conn

        async def initialize(self, protocol_version: int, **kwargs: Any) -> Any:
            return acp.InitializeResponse(protocol_version=min(protocol_version, acp.PROTOCOL_VERSION))

        async def new_session(self, cwd: str, **kwargs: Any) -> Any:
            self.sessions += 1
            return acp.NewSessionResponse(session_id=f"bench-{id(self)}-{self.sessions}")

        async def prompt(self, prompt: list[Any], session_id: str, **kwargs: Any) -> Any:
            async for seq in paced(getattr(prompt[0], "text", "0")):
                text = acp.schema.TextContentBlock(text=f"{seq} {time.monotonic_ns()}")
                await self.conn.session_update(
                    session_id=session_id, update=acp.schema.AgentMessageChunk(content=text)
                )
            return acp.PromptResponse(stop_reason="end_turn")

    async def serve() -> None:
        answer_probes()
        app = create_asgi_app(BenchAgent)
        config = Config.from_mapping(bind=["127.0.0.1:0"], accesslog=None, graceful_timeout=1.0)
        sockets = config.create_sockets()
        for sock in sockets.insecure_sockets:
            sock.listen(config.backlog)
        port = sockets.insecure_sockets[0].getsockname()[1]
        print(f"http://127.0.0.1:{port}/acp", flush=True)
        await worker_serve(wrap_app(app, 0, "asgi"), config, sockets=sockets)

    asyncio.run(serve())


if __name__ == "__main__":
    {"generated": generated, "rc3": rc3}[sys.argv[1]](*sys.argv[2:])
