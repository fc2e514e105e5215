"""The receive guards, gate by gate, in every generated package (acpgen/shipped/runtime/sides.py).

The cases are generated from each package's own gate data (rendered from its
``schema/capabilities*.toml``), so a new gate is covered without a new line here. For every
gate a raw peer, speaking JSON on a socket, sends the gated method or content to a real
connection of the receiving side:

* the receiver advertised everything *but* the gate's capability: its handler is not called,
  and a request is answered with the documented code (-32601 for a whole method, -32602 for
  content; ``_Side.admit``); a result the peer answers breaking a gate fails the call;
* the receiver advertised everything: the handler is called (the call returns).

And before ``initialize`` every method but the exempt ones is refused (-32600), on both sides.
A planted fault (one gate dropped from the guards' rules) must make a case fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import socket
import sys
import typing
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pydantic
import pytest
from conftest import generated_dir

GENERATED = generated_dir()  # generated now into a temporary directory, importable
PACKAGES = ("acp_v1", "acp_v1_unstable", "acp_v2", "acp_v2_unstable")
TERMINAL_ID, AGENT_ID = "term-login", "agent-login"
TIMEOUT = 20.0  # a hang guard, not a speed test


def _checks() -> ModuleType:
    """The requirement tests' value builder (``valid_value``), from the generated tests."""
    sys.path.insert(0, str(GENERATED / "tests"))
    try:
        return importlib.import_module("_acp_checks")
    finally:
        sys.path.remove(str(GENERATED / "tests"))


CHECKS = _checks()


class Surface:
    """One generated package's modules."""

    def __init__(self, name: str) -> None:
        self.name = name
        for module in ("connection", "errors", "schema", "guards", "interfaces", "methods", "models"):
            setattr(self, module, importlib.import_module(f"{name}.{module}"))

    def every_capability(self, root: str, but: str | None = None) -> dict[str, Any]:
        """``root``'s capabilities, every one advertised (but ``but`` and what is under it)."""
        advertised: dict[str, Any] = {}
        paths = self.schema.CAPABILITY_PATHS  # type: ignore[attr-defined]
        for qualified, (kind, wire_path, _py) in sorted(paths.items()):
            if not qualified.startswith(root + "."):
                continue
            if but is not None and (qualified == but or qualified.startswith(but + ".")):
                continue
            node = advertised
            for step in wire_path[:-1]:
                node = node.setdefault(step, {})
            node.setdefault(wire_path[-1], True if kind == "boolean" else {})
        # An advertised object may have required members of its own: filled in minimally.
        model = self.models.AgentCapabilities if root == "agentCapabilities" else self.models.ClientCapabilities  # type: ignore[attr-defined]
        return dict(self.value(model, advertised))

    def member(self, model: Any, member_type: Any) -> tuple[str, str]:
        """(python name, wire name) of ``model``'s member of type ``member_type``."""
        for name, field in model.model_fields.items():
            if member_type in (field.annotation, *typing.get_args(field.annotation)):
                return name, field.serialization_alias or name
        raise LookupError(member_type)

    def initialize_request(self, capabilities: dict[str, Any]) -> dict[str, Any]:
        model = self.models.InitializeRequest  # type: ignore[attr-defined]
        _, wire = self.member(model, self.models.ClientCapabilities)  # type: ignore[attr-defined]
        return dict(self.value(model, {"protocolVersion": 1, wire: capabilities}))

    def route(self, method: str) -> Any:
        return self.methods.METHODS[method]  # type: ignore[attr-defined]

    def value(self, model: Any, fragment: Any) -> Any:
        return CHECKS.valid_value(model, fragment)


SURFACES = {name: Surface(name) for name in PACKAGES}


def _fragment(surface: Surface, gate: Any, allowed: bool) -> dict[str, Any]:
    """The part of the gate's message that makes it apply (or, for a "never" gate that is
    allowed, the same member with a value it does not refuse)."""
    if gate.kind == "never":  # authenticate's methodId: a terminal method is never passed
        return {gate.select[0]: AGENT_ID if allowed else TERMINAL_ID}
    if not gate.select:
        return {}
    leaf: Any = gate.equals
    if leaf is None:  # applies when present: a non-empty value of the member's type
        leaf = ["/acp/test"]
    node: Any = leaf
    for step in reversed(gate.select):
        node = [node] if step == "[]" else {step: node}
    return dict(node)


# ---- a raw peer and the receiving connection, on a socket pair ----------------------------


class Raw:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def send(self, message: Any) -> None:
        self.writer.write(json.dumps(message).encode() + b"\n")
        await self.writer.drain()

    async def recv(self) -> Any:
        return json.loads(await asyncio.wait_for(self.reader.readline(), TIMEOUT))


async def _pair() -> tuple[tuple[Any, Any], Raw]:
    left, right = socket.socketpair()
    ours = await asyncio.open_connection(sock=left)
    theirs = await asyncio.open_connection(sock=right)
    return ours, Raw(*theirs)


def _recording(surface: Surface, base: type, routes: dict[str, Any], extra: dict[str, Any]) -> Any:
    """An instance of ``base`` (Agent or Client) whose every handler records its call and
    answers a minimal valid result."""
    called: list[str] = []

    def handler(route: Any) -> Any:
        async def handle(self: Any, params: Any) -> Any:
            called.append(route.wire)
            if route.kind != "request":
                return None
            return surface.value(route.result, {})

        return handle

    # initialize keeps its default: it answers what the class attributes advertise.
    members = {r.py_name: handler(r) for r in routes.values() if r.wire != "initialize"}
    members.update(extra)
    instance = type("Recording", (base,), members)()
    instance.called = called
    return instance


async def _quiesce(connection: Any, raw: Raw) -> None:
    """Every frame the raw peer sent has been read and its notifications handled: an
    extension request is answered after the frames before it are read, then the queues drain."""
    await raw.send({"jsonrpc": "2.0", "id": "sync", "method": "_acpgen/sync", "params": {}})
    while (await raw.recv()).get("id") != "sync":
        pass
    while connection.rpc.queued_notifications:  # until they drain: the run's guard bounds it
        await asyncio.sleep(0.005)


async def _send_gated(
    surface: Surface, gate: Any, allowed: bool, connection: Any, raw: Raw, called: list[str]
) -> tuple[list[str], Any]:
    """The raw peer sends the gate's message (the gated content, or with ``allowed`` what the
    gate lets through); the handlers that ran, and the answer (None for a notification)."""
    route = surface.route(gate.method)
    params = surface.value(route.params, _fragment(surface, gate, allowed))
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": gate.method, "params": params}
    answer = None
    if route.kind == "request":
        message["id"] = 7
        await raw.send(message)
        answer = await raw.recv()
    else:
        await raw.send(message)
    await _quiesce(connection, raw)
    return list(called), answer


async def _agent_receives(surface: Surface, gate: Any, allowed: bool) -> tuple[list[str], Any]:
    """A raw client sends the gate's message to an agent that advertised everything, or
    everything but the gate's capability; what the agent's handlers saw and the answer."""
    response = surface.models.InitializeResponse  # type: ignore[attr-defined]
    attribute, _ = surface.member(response, surface.models.AgentCapabilities)  # type: ignore[attr-defined]
    capabilities = surface.every_capability(
        "agentCapabilities", but=None if allowed else gate.capability
    )
    auth = [{"type": "terminal", "id": TERMINAL_ID, "name": "t"}, {"id": AGENT_ID, "name": "a"}]
    extra = {
        attribute: surface.models.AgentCapabilities.model_validate(capabilities),  # type: ignore[attr-defined]
    }
    if any(g.kind == "never" for g in surface.guards.GATES):  # type: ignore[attr-defined]
        # A terminal auth method the client must never pass to authenticate (v1's shape).
        methods = pydantic.TypeAdapter(list[surface.models.AuthMethod])  # type: ignore[name-defined]
        extra["auth_methods"] = methods.validate_python(auth)
    base = surface.interfaces.Agent  # type: ignore[attr-defined]
    agent = _recording(surface, base, surface.connection.AGENT_ROUTES, extra)  # type: ignore[attr-defined]
    (reader, writer), raw = await _pair()
    connection = surface.connection.AgentSideConnection(agent, reader, writer)  # type: ignore[attr-defined]
    connection.start()
    try:
        init_params = surface.initialize_request(surface.every_capability("clientCapabilities"))
        await raw.send({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": init_params})
        assert "result" in await raw.recv()
        agent.called.clear()
        return await _send_gated(surface, gate, allowed, connection, raw, agent.called)
    finally:
        await connection.close()
        raw.writer.close()


async def _client_receives(surface: Surface, gate: Any, allowed: bool) -> tuple[list[str], Any]:
    """A raw agent sends the gate's message to a client that advertised everything, or
    everything but the gate's capability."""
    base = surface.interfaces.Client  # type: ignore[attr-defined]
    client = _recording(surface, base, surface.connection.CLIENT_ROUTES, {})  # type: ignore[attr-defined]
    (reader, writer), raw = await _pair()
    connection = surface.connection.ClientSideConnection(client, reader, writer)  # type: ignore[attr-defined]
    connection.start()
    own = surface.every_capability("clientCapabilities", but=None if allowed else gate.capability)
    try:
        await _initialize_client(surface, connection, raw, own, {})
        return await _send_gated(surface, gate, allowed, connection, raw, client.called)
    finally:
        await connection.close()
        raw.writer.close()


async def _initialize_client(
    surface: Surface, connection: Any, raw: Raw, own: dict[str, Any], result: dict[str, Any]
) -> Any:
    """The client's initialize, answered by the raw agent advertising everything (and
    ``result``'s members); the call's outcome (an exception is returned, not raised)."""
    model = surface.models.InitializeRequest  # type: ignore[attr-defined]
    params = model.model_validate(surface.initialize_request(own))
    call = asyncio.ensure_future(connection.initialize(params))
    request = await raw.recv()
    response = surface.models.InitializeResponse  # type: ignore[attr-defined]
    _, wire = surface.member(response, surface.models.AgentCapabilities)  # type: ignore[attr-defined]
    answer = {"protocolVersion": request["params"]["protocolVersion"]}
    answer[wire] = surface.every_capability("agentCapabilities")
    answer = {**surface.value(response, {}), **result, **answer}
    await raw.send({"jsonrpc": "2.0", "id": request["id"], "result": answer})
    try:
        return await asyncio.wait_for(call, TIMEOUT)
    except Exception as exc:  # noqa: BLE001  # the caller asserts on it
        return exc


async def _client_gets_result(surface: Surface, gate: Any, allowed: bool) -> Any:
    """The client calls the gate's method and a raw agent answers with the gated content;
    the call's outcome (its exception, if it raised)."""
    route = surface.route(gate.method)
    client = _recording(surface, surface.interfaces.Client, {}, {})  # type: ignore[attr-defined]
    (reader, writer), raw = await _pair()
    connection = surface.connection.ClientSideConnection(client, reader, writer)  # type: ignore[attr-defined]
    connection.start()
    own = surface.every_capability("clientCapabilities", but=None if allowed else gate.capability)
    result = surface.value(route.result, _fragment(surface, gate, allowed))
    try:
        if gate.method == "initialize":
            return await _initialize_client(surface, connection, raw, own, result)
        assert not isinstance(await _initialize_client(surface, connection, raw, own, {}), Exception)
        call = asyncio.ensure_future(
            getattr(connection, route.py_name)(
                pydantic.TypeAdapter(route.params).validate_python(surface.value(route.params, {}))
            )
        )
        request = await raw.recv()
        await raw.send({"jsonrpc": "2.0", "id": request["id"], "result": result})
        try:
            return await asyncio.wait_for(call, TIMEOUT)
        except Exception as exc:  # noqa: BLE001
            return exc
    finally:
        await connection.close()
        raw.writer.close()


def check_gate(surface: Surface, gate: Any) -> None:
    """The gate's two cases, refused and accepted; AssertionError when either is wrong."""
    if gate.message == "result":
        refused = asyncio.run(_client_gets_result(surface, gate, allowed=False))
        assert isinstance(refused, surface.errors.MalformedResponse), (gate.target, refused)  # type: ignore[attr-defined]
        accepted = asyncio.run(_client_gets_result(surface, gate, allowed=True))
        assert not isinstance(accepted, Exception), (gate.target, accepted)
        return
    receive = _agent_receives if gate.sender == "client" else _client_receives
    called, answer = asyncio.run(receive(surface, gate, allowed=False))
    assert gate.method not in called, f"{gate.target}: the handler ran without the capability"
    if answer is not None:
        expected = -32601 if not gate.select else -32602
        assert answer.get("error", {}).get("code") == expected, (gate.target, answer)
        data = answer["error"]["data"]
        assert set(gate.requirements) <= set(data["requirements"]), (gate.target, data)
    called, answer = asyncio.run(receive(surface, gate, allowed=True))
    assert gate.method in called, f"{gate.target}: the handler did not run with the capability"
    if answer is not None:
        assert "result" in answer, (gate.target, answer)


def _slow_unless_v1(name: str) -> tuple[Any, ...]:
    # v1 stable in the fast tier; the other surfaces (a few seconds together) in the full run.
    return () if name == "acp_v1" else (pytest.mark.slow,)


def _gates() -> Iterator[Any]:
    for name, surface in SURFACES.items():
        for gate in surface.guards.GATES:  # type: ignore[attr-defined]
            marks = _slow_unless_v1(name)
            yield pytest.param(name, gate, id=f"{name}:{gate.sender}:{gate.target}", marks=marks)


@pytest.mark.parametrize(("package", "gate"), list(_gates()))
def test_every_gate_is_enforced_on_receipt(package: str, gate: Any) -> None:
    check_gate(SURFACES[package], gate)


def _first_of_each_kind() -> Iterator[Any]:
    """One gate per kind (whole method, content, never, result, on a notification) of each
    package: the planted faults."""
    for name, surface in SURFACES.items():
        kinds: dict[tuple[str, bool, str, str], Any] = {}
        for gate in surface.guards.GATES:  # type: ignore[attr-defined]
            route = surface.route(gate.method)
            kinds.setdefault((gate.message, bool(gate.select), gate.kind, route.kind), gate)
        for gate in kinds.values():
            marks = _slow_unless_v1(name)
            yield pytest.param(name, gate, id=f"{name}:{gate.sender}:{gate.target}", marks=marks)


@pytest.mark.parametrize(("package", "gate"), list(_first_of_each_kind()))
def test_a_gate_dropped_from_the_guards_makes_its_case_fail(
    package: str, gate: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    surface = SURFACES[package]
    guards = surface.guards
    rules = dict(guards._RULES)  # type: ignore[attr-defined]
    key = (gate.sender, gate.message, gate.method)
    kept_gates, paths = rules[key]
    rules[key] = (tuple(g for g in kept_gates if g != gate), paths)
    monkeypatch.setattr(guards, "_RULES", rules)
    with pytest.raises(AssertionError):
        check_gate(surface, gate)


# ---- before initialize -----------------------------------------------------------------


async def _before_initialize(surface: Surface, side: str) -> list[tuple[str, Any, list[str]]]:
    """Every method ``side`` handles, sent by a raw peer before initialize: (method, answer
    or None for a notification, the handlers that ran)."""
    agent_side = side == "agent"
    routes = surface.connection.AGENT_ROUTES if agent_side else surface.connection.CLIENT_ROUTES  # type: ignore[attr-defined]
    base = surface.interfaces.Agent if agent_side else surface.interfaces.Client  # type: ignore[attr-defined]
    handler = _recording(surface, base, routes, {})
    (reader, writer), raw = await _pair()
    kind = surface.connection.AgentSideConnection if agent_side else surface.connection.ClientSideConnection  # type: ignore[attr-defined]
    connection = kind(handler, reader, writer)
    connection.start()
    seen = []
    try:
        for n, (wire, route) in enumerate(sorted(routes.items())):
            if wire in surface.guards.INITIALIZE_EXEMPT:  # type: ignore[attr-defined]
                continue
            message: dict[str, Any] = {"jsonrpc": "2.0", "method": wire}
            message["params"] = surface.value(route.params, {})
            answer = None
            if route.kind == "request":
                message["id"] = n
                await raw.send(message)
                answer = await raw.recv()
            else:
                await raw.send(message)
                await _quiesce(connection, raw)
            seen.append((wire, answer, list(handler.called)))
        return seen
    finally:
        await connection.close()
        raw.writer.close()


@pytest.mark.parametrize("side", ["agent", "client"])
@pytest.mark.parametrize("package", PACKAGES)
def test_nothing_but_initialize_is_served_before_it(package: str, side: str) -> None:
    seen = asyncio.run(_before_initialize(SURFACES[package], side))
    assert seen, "no method to send"
    for wire, answer, called in seen:
        assert called == [], f"{wire}: a handler ran before initialize"
        if answer is not None:
            assert answer["error"]["code"] == -32600, (wire, answer)
            assert "initialize" in answer["error"]["data"]["reason"]


def test_a_request_written_right_behind_initialize_waits_for_it() -> None:
    """A peer that pipelines (a file piped in) is served: the request is checked once the
    initialize it follows has been answered."""
    surface = SURFACES["acp_v1"]

    async def body() -> list[Any]:
        agent = _recording(surface, surface.interfaces.Agent, surface.connection.AGENT_ROUTES, {})  # type: ignore[attr-defined]
        (reader, writer), raw = await _pair()
        connection = surface.connection.AgentSideConnection(agent, reader, writer)  # type: ignore[attr-defined]
        connection.start()
        init = {"protocolVersion": 1, "clientCapabilities": {}}
        new = {"cwd": "/tmp", "mcpServers": []}
        with contextlib.closing(raw.writer):
            raw.writer.write(
                (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}) + "\n"
                 + json.dumps({"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": new}) + "\n").encode()
            )
            answers = [await raw.recv(), await raw.recv()]
            await connection.close()
        return answers

    answers = asyncio.run(body())
    assert all("result" in a for a in answers), answers
