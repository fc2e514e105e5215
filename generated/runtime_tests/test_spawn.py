# Edit acpgen/shipped/runtime/runtime_tests/test_spawn.py, not this file: acpgen generate writes it.
"""Process helpers: an agent serving a client process it spawned (``connect_to_client``).

Copied verbatim into every generated project by acpgen. The client process gets the caller's
environment by default, and the connection ends cleanly when the client exits.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
from typing import Any

import pytest

from ._package import PACKAGE, Agent, models, package
from .helpers import run, subprocess_env

# A client on its own stdio: initialize, one prompt carrying $ACP_SPAWN_MARK, then exit.
CLIENT = f"""
import asyncio, os
from {PACKAGE} import Client, models
from {PACKAGE}.connection import ClientSideConnection
from {PACKAGE}.transports.stdio import stdio_streams

async def main():
    reader, writer = await stdio_streams()
    async with ClientSideConnection(Client(), reader, writer) as conn:
        await conn.initialize(protocol_version=1)
        text = os.environ.get("ACP_SPAWN_MARK", "(unset)")
        await conn.session_prompt(session_id="s", prompt=[models.ContentBlockText(text=text)])

asyncio.run(main())
"""


class _Agent(Agent):
    def __init__(self) -> None:
        self.prompts: list[str] = []

    async def session_prompt(self, params: models.PromptRequest) -> models.PromptResponse:
        first = params.prompt[0]
        self.prompts.append(first.text if isinstance(first, models.ContentBlockText) else "")
        return models.PromptResponse(stop_reason=models.StopReason.END_TURN)


def test_an_agent_serves_a_client_process_with_the_callers_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in subprocess_env().items():
        monkeypatch.setenv(name, value)  # the package importable, through the default env
    monkeypatch.setenv("ACP_SPAWN_MARK", "from the caller")
    agent = _Agent()

    async def body() -> Any:
        command = [sys.executable, "-c", CLIENT]
        async with package.connect_to_client(agent, command) as connection:
            await connection.wait_closed()  # the client exits after its prompt: EOF
            return connection

    connection = run(body())
    assert agent.prompts == ["from the caller"]
    assert connection.rpc.closed


def test_a_leader_that_exited_is_not_waited_for_while_its_child_holds_the_pipes() -> None:
    # A launcher exits at once and leaves a child holding its stdout. The group is stopped as
    # soon as the leader is gone, not after the grace period (an hour here): Python 3.11's
    # Process.wait() would wait for the pipes, which only the stop itself closes.
    stdio = importlib.import_module(f"{PACKAGE}.transports.spawn")

    async def body() -> float:
        loop = asyncio.get_running_loop()
        command = ["sh", "-c", "sleep 3600 & echo started"]
        async with stdio.spawn_process(command, exit_grace=3600.0) as (reader, _writer, _proc):
            assert await reader.readline() == b"started\n"
            started = loop.time()
        return loop.time() - started

    assert run(body(), timeout=60) < 30
