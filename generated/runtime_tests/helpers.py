# Edit acpgen/shipped/runtime/runtime_tests/helpers.py, not this file: acpgen generate writes it.
"""Test helpers: in-process stream pairs and a raw JSON-RPC peer that can send anything.

Copied verbatim into every generated project by acpgen.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import socket
import sys
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from ._package import (
    LATEST_PROTOCOL_VERSION,
    PACKAGE,
    Agent,
    AgentSideConnection,
    Client,
    ClientSideConnection,
    RpcError,
    methods,
    models,
    package,
)

T = TypeVar("T")
LIMIT = 64 * 1024 * 1024
TIMEOUT = 60.0  # a hang guard for one test body, not a speed test (CI machines are loaded)


def run(coro: Awaitable[T], timeout: float = TIMEOUT) -> T:
    """Run one async test body with a deadline: a hang is a failure, not a stuck CI job."""

    async def bounded() -> T:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())


async def stream_pair() -> tuple[
    tuple[asyncio.StreamReader, asyncio.StreamWriter],
    tuple[asyncio.StreamReader, asyncio.StreamWriter],
]:
    left, right = socket.socketpair()
    a = await asyncio.open_connection(sock=left, limit=LIMIT)
    b = await asyncio.open_connection(sock=right, limit=LIMIT)
    return a, b


class RawPeer:
    """The far end of a connection, reading and writing raw frames."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    async def send(self, message: Any) -> None:
        await self.send_bytes(json.dumps(message).encode("utf-8") + b"\n")

    async def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def recv_line(self, timeout: float | None = None) -> bytes:
        """The next line; waited for as long as it takes unless ``timeout`` (the test body's
        guard in ``run`` bounds a hang: a loaded machine is slow, not wrong)."""
        line = await asyncio.wait_for(self.reader.readline(), timeout)
        if not line:
            raise EOFError("peer closed the connection")
        return line

    async def recv(self, timeout: float | None = None) -> Any:
        return json.loads(await self.recv_line(timeout))

    async def nothing_within(self, seconds: float) -> bool:
        try:
            line = await asyncio.wait_for(self.reader.readline(), seconds)
        except TimeoutError:
            return True
        raise AssertionError(f"expected no frame, got {line[:200]!r}")

    async def at_eof(self, timeout: float | None = None) -> bool:
        data = await asyncio.wait_for(self.reader.read(), timeout)
        return data == b""

    def close(self) -> None:
        self.writer.close()


def _wire_name(model: Any, name: str) -> str:
    field = model.model_fields[name]
    return str(field.serialization_alias or field.alias or name)


def init_params(version: int | None = None) -> dict[str, Any]:
    """The smallest ``initialize`` params this package's ``InitializeRequest`` takes, asking for
    ``version`` (its latest by default), by its declared wire names: v1's optional
    ``clientInfo`` is left out, v2's required ``info`` is given."""
    model = models.InitializeRequest
    params: dict[str, Any] = {_wire_name(model, "protocol_version"): LATEST_PROTOCOL_VERSION}
    if version is not None:
        params[_wire_name(model, "protocol_version")] = version
    for name, field in model.model_fields.items():
        if field.is_required() and name != "protocol_version":
            params[_wire_name(model, name)] = {"name": "runtime-tests", "version": "0"}
    return params


# Whether this package's PromptResponse declares a stop reason (v1) or ends a turn without
# one (v2): the tests check a turn's end by what the package declares.
STOP_REASON = "stop_reason" in models.PromptResponse.model_fields


def ended_turn(reply: Any) -> bool:
    """Whether ``reply`` (raw JSON) answers a prompt with a normally ended turn."""
    result = reply.get("result")
    if not isinstance(result, dict):
        return False
    return result.get("stopReason") == "end_turn" if STOP_REASON else "stopReason" not in result


def init_request(version: int, request_id: Any = 0) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "initialize",
        "params": {"protocolVersion": version, "clientCapabilities": {}},
    }


class ProbeAgent(Agent):
    """An agent whose ``session/new`` behaviour is chosen by the ``cwd`` it gets."""

    def __init__(self, answered_version: int | None = None) -> None:
        self.answered_version = answered_version
        self.release = asyncio.Event()
        self.started = asyncio.Event()
        self.handler_cancelled = asyncio.Event()
        self.cancelled_sessions: list[str] = []

    async def initialize(self, params: models.InitializeRequest) -> models.InitializeResponse:
        version = (
            self.answered_version if self.answered_version is not None else params.protocol_version
        )
        capabilities = getattr(self, capabilities_attribute())  # the class attribute
        return models.InitializeResponse.model_validate(
            {"protocolVersion": version, "agentCapabilities": capabilities}
        )

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        cwd = str(params.cwd)
        if cwd == "/block":
            self.started.set()
            await self.release.wait()
        elif cwd == "/forever":
            self.started.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                self.handler_cancelled.set()
                raise
        elif cwd == "/boom":
            raise RuntimeError("boom")
        elif cwd == "/auth":
            raise RpcError.auth_required()
        elif cwd == "/missing":
            raise RpcError.resource_not_found({"path": cwd})
        elif cwd == "/dict":
            return {"sessionId": "from-a-dict"}  # type: ignore[return-value]
        elif cwd == "/bad-dict":
            return {"session": "no sessionId"}  # type: ignore[return-value]
        return models.NewSessionResponse.model_validate({"sessionId": f"session{cwd}"})

    async def session_cancel(self, params: models.CancelNotification) -> None:
        self.cancelled_sessions.append(str(params.session_id))


def quiet_request() -> tuple[str, dict[str, Any]] | None:
    """A request the agent handles whose params need only a session ID and whose result may be
    empty (``session/close``, or whichever this package's table has), and those params: the
    runtime tests assume no method a surface may lack. None when the table has no such one."""
    for spec in methods.METHODS.values():
        if spec.side != "agent" or not spec.is_request or spec.wire == "initialize":
            continue
        params = {"sessionId": "s"}
        try:
            TypeAdapter(spec.params).validate_python(params)
            TypeAdapter(spec.result).validate_python({})
        except ValidationError:
            continue
        return spec.wire, params
    return None


def every_capability(root: str) -> dict[str, Any]:
    """``root`` ("agentCapabilities" or "clientCapabilities") with every capability the
    guards know advertised, as wire JSON: true for a flag, {} for an object."""
    advertised: dict[str, Any] = {}
    schema = importlib.import_module(package.__name__ + ".schema")
    for qualified, (kind, wire_path, _py_path) in sorted(schema.CAPABILITY_PATHS.items()):
        if not qualified.startswith(root + "."):
            continue
        node = advertised
        for step in wire_path[:-1]:
            node = node.setdefault(step, {})
        node.setdefault(wire_path[-1], True if kind == "boolean" else {})
    return advertised


def capabilities_attribute() -> str:
    """The name of the class attribute an ``Agent`` advertises its capabilities by (the
    Python name of ``agentCapabilities`` in the initialize response)."""
    fields = models.InitializeResponse.model_fields
    return next(n for n, f in fields.items() if f.serialization_alias == "agentCapabilities")


def advertising_everything(agent_class: type[Agent]) -> type[Agent]:
    """``agent_class`` advertising every agent capability the guards know."""
    capabilities = models.AgentCapabilities.model_validate(every_capability("agentCapabilities"))
    name = f"{agent_class.__name__}AdvertisingEverything"
    return type(name, (agent_class,), {capabilities_attribute(): capabilities})


def quiet_agent(wire: str) -> ProbeAgent:
    """A probe agent whose handler of ``wire`` returns ``None``: "nothing to say", sent as ``{}``
    (it advertises every capability: the method may be gated)."""

    async def nothing(self: ProbeAgent, params: object) -> None:
        return None

    quiet: type[ProbeAgent] = type(
        "QuietAgent",
        (advertising_everything(ProbeAgent),),
        {methods.METHODS[wire].py_name: nothing},
    )
    return quiet()


async def agent_and_raw_client(
    agent: Agent | None = None, *, initialize: bool = True, **options: Any
) -> tuple[AgentSideConnection, RawPeer, Any]:
    """An agent connection and a raw client, which has completed ``initialize`` (advertising
    no capability) unless ``initialize`` is False: before it the receive guards refuse the rest."""
    (ar, aw), (cr, cw) = await stream_pair()
    agent = agent or ProbeAgent()
    connection = AgentSideConnection(agent, ar, aw, **options)
    connection.start()
    peer = RawPeer(cr, cw)
    if initialize:
        await peer.send(init_request(LATEST_PROTOCOL_VERSION, "raw-init"))
        answer = await peer.recv()
        assert answer.get("id") == "raw-init" and "result" in answer, answer
    return connection, peer, agent


async def client_and_raw_agent(
    client: Client | None = None, **options: Any
) -> tuple[ClientSideConnection, RawPeer]:
    (cr, cw), (ar, aw) = await stream_pair()
    connection = ClientSideConnection(client or Client(), cr, cw, **options)
    connection.start()
    return connection, RawPeer(ar, aw)


async def initialized_client(
    client: Client | None = None,
    agent_capabilities: dict[str, Any] | None = None,
    client_capabilities: dict[str, Any] | None = None,
    **options: Any,
) -> tuple[ClientSideConnection, RawPeer]:
    """A client connection that completed ``initialize`` with a raw agent, advertising
    ``client_capabilities`` (by default every one: the raw agent may call what it likes)."""
    connection, agent = await client_and_raw_agent(client, **options)
    if client_capabilities is None:
        client_capabilities = every_capability("clientCapabilities")
    call = asyncio.ensure_future(
        connection.initialize(
            models.InitializeRequest.model_validate(
                {"protocolVersion": 1, "clientCapabilities": client_capabilities}
            )
        )
    )
    request = await agent.recv()
    await agent.send(
        {
            "jsonrpc": "2.0",
            "id": request["id"],
            "result": {
                "protocolVersion": request["params"]["protocolVersion"],
                "agentCapabilities": agent_capabilities or {},
            },
        }
    )
    await call
    return connection, agent


def subprocess_env() -> dict[str, str]:
    """The environment for ``python -m PACKAGE...``: the package importable as it is here."""
    env = dict(os.environ)
    root = str(Path(package.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env


def module_command(module: str) -> list[str]:
    return [sys.executable, "-m", f"{PACKAGE}.{module}"]
