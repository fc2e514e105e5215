"""generated/acp_v1/guards.py: every gate of schema/capabilities.toml, in both directions.

Each gate is exercised through the generated decorators on a fake connection whose transport
records what is sent: with the capability advertised the call goes through (sent once);
omitted, false or null, it is refused with CapabilityError and nothing is sent. Each test is
named with, and marked by, the requirement IDs of its gate.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import MESSAGES, generated_dir

GENERATED = generated_dir()  # generated now into a temporary directory, importable

from acp_v1 import guards, models

CAP_MODELS = {"agent": models.AgentCapabilities, "client": models.ClientCapabilities}
TERMINAL_AUTH = [{"type": "terminal", "id": "term-login", "name": "Log in in a terminal"},
                 {"id": "agent-login", "name": "Agent login"}]


# ---- A fake connection: the negotiated state plus a transport that records sends -------------


class Conn:
    """Satisfies both AgentPeer and ClientPeer: the guards only read these attributes."""

    def __init__(self, capabilities: Any, auth_methods: Any = None) -> None:
        self.peer_capabilities = capabilities
        self.peer_auth_methods = auth_methods
        self.sent: list[tuple[str, Any]] = []


def outbound(gate: guards.Gate, *, use_async: bool) -> Callable[[Conn, Any], Any]:
    """A guarded function that 'sends' the gate's message on the fake transport."""
    wire = gate.method
    if gate.message == "params":
        decorator: Any = guards.client_call(wire) if gate.sender == "client" else guards.agent_call(wire)  # type: ignore[arg-type]

        if use_async:
            async def send_async(conn: Conn, params: Any) -> None:
                conn.sent.append((wire, params))

            return decorator(send_async)  # type: ignore[no-any-return]

        def send(conn: Conn, params: Any) -> None:
            conn.sent.append((wire, params))

        return decorator(send)  # type: ignore[no-any-return]

    # A result: the handler returns it, and the runtime sends it only if the guard let it out.
    decorator = guards.agent_result(wire) if gate.sender == "agent" else guards.client_result(wire)  # type: ignore[arg-type]

    if use_async:
        @decorator
        async def handler_async(conn: Conn, result: Any) -> Any:
            return result

        async def respond_async(conn: Conn, result: Any) -> None:
            conn.sent.append((wire, await handler_async(conn, result)))

        return respond_async

    @decorator
    def handler(conn: Conn, result: Any) -> Any:
        return result

    def respond(conn: Conn, result: Any) -> None:
        conn.sent.append((wire, handler(conn, result)))

    return respond


def call(gate: guards.Gate, conn: Conn, payload: Any, *, use_async: bool) -> None:
    result = outbound(gate, use_async=use_async)(conn, payload)
    if use_async:
        asyncio.run(result)


def nest(steps: tuple[str, ...], leaf: Any) -> Any:
    """The smallest JSON that puts ``leaf`` at ``steps`` ("[]" is a one-item array)."""
    if not steps:
        return leaf
    if steps[0] == "[]":
        return [nest(steps[1:], leaf)]
    return {steps[0]: nest(steps[1:], leaf)}


def triggering_payload(gate: guards.Gate) -> Any:
    if gate.kind == "never":
        return nest(gate.select, "term-login")
    if not gate.select:
        return {"sessionId": "sess-1"}
    if gate.equals is not None:
        return nest(gate.select, gate.equals)
    return nest(gate.select, ["/srv/extra-root"])  # present: additionalDirectories


def merge(into: dict[str, Any], extra: Any) -> dict[str, Any]:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            merge(into[key], value)
        else:
            into[key] = copy.deepcopy(value)
    return into


def advertise(gate: guards.Gate) -> dict[str, Any]:
    return nest(gate.wire_path, True if gate.kind == "boolean" else {})  # type: ignore[no-any-return]


def base_capabilities(gate: guards.Gate) -> dict[str, Any]:
    """What the other gates on the same message need: the gate under test must be the one that decides."""
    base: dict[str, Any] = {}
    for other in guards.GATES:
        if (other is not gate and other.kind != "never" and not other.select and other.method == gate.method
                and other.sender == gate.sender and other.message == gate.message):
            merge(base, advertise(other))
    return base


def capabilities(gate: guards.Gate, variant: str) -> dict[str, Any]:
    """The peer's capabilities in wire JSON: advertised, omitted, false, null or parent-null."""
    caps = base_capabilities(gate)
    path = gate.wire_path
    if variant == "advertised":
        return merge(caps, advertise(gate))
    if variant == "omitted":
        return caps
    if variant in ("false", "null"):
        return merge(caps, nest(path, False if variant == "false" else None))
    if variant == "parent-null":
        return merge(caps, nest(path[:-1], None))
    raise AssertionError(variant)


def parent_is_shared(gate: guards.Gate) -> bool:
    node: Any = base_capabilities(gate)
    for step in gate.wire_path[:-1]:
        if not isinstance(node, dict) or step not in node:
            return False
        node = node[step]
    return True


def ids_of(gate: guards.Gate) -> str:
    return "+".join(gate.requirements)


def gate_params(variants: Callable[[guards.Gate], list[str]]) -> list[Any]:
    out = []
    for gate in guards.GATES:
        if gate.kind == "never":
            continue
        for variant in variants(gate):
            out.append(pytest.param(gate, variant, id=f"{gate.target}|{variant}|{ids_of(gate)}",
                                    marks=pytest.mark.acp_requirement(*gate.requirements)))
    return out


def refused_variants(gate: guards.Gate) -> list[str]:
    found = ["omitted", "null"] + (["false"] if gate.kind == "boolean" else [])
    return found + (["parent-null"] if len(gate.wire_path) > 1 and not parent_is_shared(gate) else [])


def as_model(gate: guards.Gate, caps: dict[str, Any]) -> Any:
    peer = "agent" if gate.sender == "client" else "client"
    return CAP_MODELS[peer].model_validate(caps)


# ---- Every gate, both directions --------------------------------------------------------------


def test_every_manifest_gate_is_generated(project) -> None:  # type: ignore[no-untyped-def]

    assert [(g.target, g.sender, g.requirements) for g in project.capabilities.gates] == [
        (g.target, g.sender, g.requirements) for g in guards.GATES]
    assert len(guards.GATES) >= 20


@pytest.mark.parametrize(("gate", "variant"), gate_params(lambda g: ["advertised"]))
@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("form", ["json", "model"])
def test_gate_lets_the_call_through_when_advertised(gate: guards.Gate, variant: str, use_async: bool, form: str) -> None:
    caps: Any = capabilities(gate, variant)
    if form == "model":
        caps = as_model(gate, caps)
    conn = Conn(caps, TERMINAL_AUTH)
    payload = triggering_payload(gate)
    call(gate, conn, payload, use_async=use_async)
    assert conn.sent == [(gate.method, payload)]


@pytest.mark.parametrize(("gate", "variant"), gate_params(refused_variants))
@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_gate_refuses_and_sends_nothing_when_not_advertised(gate: guards.Gate, variant: str, use_async: bool) -> None:
    conn = Conn(capabilities(gate, variant), TERMINAL_AUTH)
    with pytest.raises(guards.CapabilityError) as info:
        call(gate, conn, triggering_payload(gate), use_async=use_async)
    assert conn.sent == []
    error = info.value
    assert not isinstance(error, guards.NotInitializedError)
    assert error.method == gate.method and error.capability == gate.capability
    assert error.requirements == gate.requirements and error.target == gate.target
    message = str(error)
    assert message.startswith(f"{gate.method} refused:")
    assert str(gate.capability) in message
    for rid in gate.requirements:
        assert rid in message


@pytest.mark.parametrize(("gate", "variant"), gate_params(
    lambda g: ["omitted"] + (["false"] if g.kind == "boolean" else ["null"])))
def test_gate_refuses_with_capabilities_as_generated_models(gate: guards.Gate, variant: str) -> None:
    conn = Conn(as_model(gate, capabilities(gate, variant)), TERMINAL_AUTH)
    with pytest.raises(guards.CapabilityError):
        call(gate, conn, triggering_payload(gate), use_async=False)
    assert conn.sent == []


@pytest.mark.parametrize(("gate", "variant"), gate_params(lambda g: ["omitted"] if g.select else []))
def test_feature_gate_does_not_fire_without_the_feature(gate: guards.Gate, variant: str) -> None:
    """A prompt of text only, stdio MCP servers, no additional roots... need no capability."""
    conn = Conn(capabilities(gate, variant), TERMINAL_AUTH)
    other = "text" if gate.equals is not None else None
    payload = nest(gate.select, other) if other else nest(gate.select, [])
    call(gate, conn, payload, use_async=False)
    assert conn.sent == [(gate.method, payload)]


NEVER = [g for g in guards.GATES if g.kind == "never"]


@pytest.mark.parametrize("gate", [pytest.param(g, id=f"{g.target}|{ids_of(g)}",
                                               marks=pytest.mark.acp_requirement(*g.requirements))
                                  for g in NEVER])
def test_never_gate_refuses_a_terminal_auth_method_id_whatever_is_advertised(gate: guards.Gate) -> None:
    everything = {"auth": {"logout": {}}, "loadSession": True}
    conn = Conn(everything, TERMINAL_AUTH)
    with pytest.raises(guards.CapabilityError) as info:
        call(gate, conn, {"methodId": "term-login"}, use_async=False)
    assert conn.sent == [] and info.value.capability is None
    assert "term-login" in str(info.value) and all(r in str(info.value) for r in gate.requirements)
    # An agent-type method goes through.
    call(gate, conn, {"methodId": "agent-login"}, use_async=True)
    assert conn.sent == [("authenticate", {"methodId": "agent-login"})]


PATH_RULES = [pytest.param(r, id=f"{r.target}|{'+'.join(r.requirements)}",
                           marks=pytest.mark.acp_requirement(*r.requirements)) for r in guards.ABSOLUTE_PATHS]


def path_gate(rule: guards.PathRule) -> guards.Gate:
    """A stand-in gate to reuse the fake senders for a path rule's message."""
    return guards.Gate(rule.target, rule.method, rule.sender, rule.message, rule.select, None, None, (), (),
                       "never", None, rule.requirements)


def everything_for(rule: guards.PathRule) -> dict[str, Any]:
    caps: dict[str, Any] = {}
    for g in guards.GATES:
        if g.method == rule.method and g.sender == rule.sender and g.kind != "never":
            merge(caps, advertise(g))
    return caps


@pytest.mark.parametrize("rule", PATH_RULES)
@pytest.mark.parametrize("path", ["/abs/posix", "C:\\abs\\win", "\\\\host\\share\\x"])
def test_path_rule_lets_absolute_paths_through(rule: guards.PathRule, path: str) -> None:
    conn = Conn(everything_for(rule))
    payload = nest(rule.select, path)
    call(path_gate(rule), conn, payload, use_async=False)
    assert conn.sent == [(rule.method, payload)]


@pytest.mark.parametrize("rule", PATH_RULES)
@pytest.mark.parametrize("path", ["relative/dir", "./x", "C:drive-relative", "\\root-relative"])
def test_path_rule_refuses_relative_paths_and_sends_nothing(rule: guards.PathRule, path: str) -> None:
    conn = Conn(everything_for(rule))
    with pytest.raises(guards.PathNotAbsoluteError) as info:
        call(path_gate(rule), conn, nest(rule.select, path), use_async=True)
    assert conn.sent == []
    assert info.value.requirements == rule.requirements and info.value.value == path
    assert str(info.value).startswith(f"{rule.method} refused:")
    assert all(r in str(info.value) for r in rule.requirements)


# ---- The audit report's findings, with real typed models ------------------------------------


def golden(inputs_dir: Path, name: str) -> Any:
    return json.loads((MESSAGES / name).read_text(encoding="utf-8"))


class Client(Conn):
    """A client-side connection using the decorators as a runtime would."""

    @guards.client_call("authenticate")
    def authenticate(self, params: models.AuthenticateRequest) -> None:
        self.sent.append(("authenticate", params))

    @guards.client_call("session/new")
    async def new_session(self, params: models.NewSessionRequest) -> None:
        self.sent.append(("session/new", params))

    @guards.client_call("session/load")
    def load_session(self, params: models.LoadSessionRequest) -> None:
        self.sent.append(("session/load", params))

    @guards.client_call("session/resume")
    def resume_session(self, params: models.ResumeSessionRequest) -> None:
        self.sent.append(("session/resume", params))

    @guards.client_call("session/prompt")
    async def prompt(self, params: models.PromptRequest) -> None:
        self.sent.append(("session/prompt", params))

    @guards.client_call("initialize")
    def initialize(self, params: models.InitializeRequest) -> None:
        self.sent.append(("initialize", params))


@pytest.mark.acp_requirement("ACP-V1-AUTH-CLIENT-NO-TERMINAL-METHOD-ID")
def test_audit_finding_2_terminal_auth_method_id_is_refused(inputs_dir: Path) -> None:
    init = models.InitializeResponse.model_validate(
        {**golden(inputs_dir, "initialize_response.json"), "authMethods": TERMINAL_AUTH})
    client = Client(init.agent_capabilities, init.auth_methods)
    with pytest.raises(guards.CapabilityError, match="ACP-V1-AUTH-CLIENT-NO-TERMINAL-METHOD-ID"):
        client.authenticate(models.AuthenticateRequest(method_id="term-login"))
    assert client.sent == []
    client.authenticate(models.AuthenticateRequest(method_id="agent-login"))
    assert len(client.sent) == 1


MCP = {
    "http": {"type": "http", "name": "web", "url": "https://mcp.example/mcp", "headers": []},
    "sse": {"type": "sse", "name": "events", "url": "https://mcp.example/sse", "headers": []},
    "stdio": {"name": "fs", "command": "/usr/bin/mcp-fs", "args": [], "env": []},
}


@pytest.mark.acp_requirement("ACP-V1-SETUP-CLIENT-CHECK-MCP-TRANSPORT")
@pytest.mark.parametrize("transport", ["http", "sse"])
@pytest.mark.parametrize("method", ["new_session", "load_session", "resume_session"])
def test_audit_finding_3_mcp_http_sse_need_the_capability(transport: str, method: str) -> None:
    params_model = {"new_session": models.NewSessionRequest, "load_session": models.LoadSessionRequest,
                    "resume_session": models.ResumeSessionRequest}[method]
    params = params_model.model_validate(
        {"sessionId": "s", "cwd": "/home/u/proj", "mcpServers": [MCP["stdio"], MCP[transport]]})

    def send(client: Client) -> None:
        result = getattr(client, method)(params)
        if inspect.iscoroutine(result):
            asyncio.run(result)

    session_caps = {"loadSession": True, "sessionCapabilities": {"resume": {}}}
    refused = Client(models.AgentCapabilities.model_validate(
        {**session_caps, "mcpCapabilities": {"http": transport != "http", "sse": transport != "sse"}}))
    with pytest.raises(guards.CapabilityError, match=f"mcpCapabilities.{transport}"):
        send(refused)
    assert refused.sent == []
    allowed = Client(models.AgentCapabilities.model_validate(
        {"mcpCapabilities": {transport: True}, "loadSession": True, "sessionCapabilities": {"resume": {}}}))
    send(allowed)
    assert len(allowed.sent) == 1


@pytest.mark.acp_requirement("ACP-V1-PROMPT-CLIENT-RESTRICT-CONTENT")
@pytest.mark.parametrize(("block", "capability"), [
    ("content_image.json", "image"), ("content_audio.json", "audio"),
    ("content_resource_text.json", "embeddedContext"), ("content_resource_blob.json", "embeddedContext"),
])
def test_audit_finding_4_prompt_content_is_restricted(inputs_dir: Path, block: str, capability: str) -> None:
    params = models.PromptRequest.model_validate(
        {"sessionId": "s", "prompt": [golden(inputs_dir, "content_text.json"), golden(inputs_dir, block)]})
    refused = Client(models.AgentCapabilities.model_validate({}))
    with pytest.raises(guards.CapabilityError, match=f"promptCapabilities.{capability}"):
        asyncio.run(refused.prompt(params))
    assert refused.sent == []
    allowed = Client(models.AgentCapabilities.model_validate({"promptCapabilities": {capability: True}}))
    asyncio.run(allowed.prompt(params))
    assert allowed.sent == [("session/prompt", params)]
    # Text and resource links need no capability.
    plain = models.PromptRequest.model_validate(
        {"sessionId": "s", "prompt": [golden(inputs_dir, "content_text.json"),
                                      golden(inputs_dir, "content_resource_link.json")]})
    asyncio.run(refused.prompt(plain))
    assert len(refused.sent) == 1


@pytest.mark.acp_requirement("ACP-V1-SETUP-CWD-ABSOLUTE", "ACP-V1-SETUP-ADDITIONAL-DIRS-ABSOLUTE")
@pytest.mark.parametrize("member", ["cwd", "additionalDirectories"])
@pytest.mark.parametrize("path", ["proj", "./proj", "~/proj", "C:proj", "\\proj", ""])
def test_audit_run_002_relative_paths_are_refused(member: str, path: str) -> None:
    caps = models.AgentCapabilities.model_validate({"sessionCapabilities": {"additionalDirectories": {}}})
    data: dict[str, Any] = {"cwd": "/home/u/proj", "mcpServers": []}
    if member == "cwd":
        data["cwd"] = path
    else:
        data["additionalDirectories"] = ["/srv/ok", path]
    client = Client(caps)
    with pytest.raises(guards.PathNotAbsoluteError) as info:
        asyncio.run(client.new_session(models.NewSessionRequest.model_validate(data)))
    assert client.sent == []
    assert info.value.value == path and member in info.value.member
    expected = "ACP-V1-SETUP-CWD-ABSOLUTE" if member == "cwd" else "ACP-V1-SETUP-ADDITIONAL-DIRS-ABSOLUTE"
    assert expected in info.value.requirements and "session/new refused" in str(info.value)


@pytest.mark.acp_requirement("ACP-V1-SETUP-CWD-ABSOLUTE")
@pytest.mark.parametrize("path", ["/home/u/proj", "C:\\Users\\u\\proj", "c:/work", "\\\\server\\share\\proj",
                                  "\\\\?\\C:\\long\\path"])
def test_absolute_paths_in_posix_and_windows_form_go_through(path: str) -> None:
    client = Client(models.AgentCapabilities.model_validate({}))
    asyncio.run(client.new_session(models.NewSessionRequest.model_validate({"cwd": path, "mcpServers": []})))
    assert len(client.sent) == 1


def test_absolute_path_form_never_uses_the_local_os(monkeypatch: pytest.MonkeyPatch) -> None:
    import os.path
    import posixpath

    def forbidden(_: object) -> bool:
        raise AssertionError("isabs must not be used")

    monkeypatch.setattr(os.path, "isabs", forbidden)
    monkeypatch.setattr(posixpath, "isabs", forbidden)
    assert guards.is_absolute_path("D:\\x") and guards.is_absolute_path("/x")
    assert not guards.is_absolute_path("x/y") and not guards.is_absolute_path(None)


class Agent(Conn):
    """An agent-side connection: outbound calls and handler results."""

    @guards.agent_result("session/new")
    async def new_session(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        return models.NewSessionResponse.model_validate({"sessionId": "s", "configOptions": [BOOLEAN_OPTION]})

    @guards.agent_call("session/update")
    def update(self, params: models.SessionNotification) -> None:
        self.sent.append(("session/update", params))

    @guards.agent_call("fs/read_text_file")
    def read_text_file(self, params: models.ReadTextFileRequest) -> None:
        self.sent.append(("fs/read_text_file", params))


BOOLEAN_OPTION = {"id": "web", "name": "Web search", "type": "boolean", "currentValue": False}


@pytest.mark.acp_requirement("ACP-V1-CONFIG-NO-BOOLEAN-WITHOUT-CAPABILITY")
def test_audit_finding_6_boolean_config_options_are_refused_on_the_agent_side() -> None:
    no_bool = Agent(models.ClientCapabilities.model_validate({"session": {"configOptions": {}}}))
    params = models.NewSessionRequest.model_validate({"cwd": "/w", "mcpServers": []})
    with pytest.raises(guards.CapabilityError, match="clientCapabilities.session.configOptions.boolean"):
        asyncio.run(no_bool.new_session(params))
    update = models.SessionNotification.model_validate(
        {"sessionId": "s", "update": {"sessionUpdate": "config_option_update", "configOptions": [BOOLEAN_OPTION]}})
    with pytest.raises(guards.CapabilityError):
        no_bool.update(update)
    assert no_bool.sent == []
    with_bool = Agent(models.ClientCapabilities.model_validate({"session": {"configOptions": {"boolean": {}}}}))
    assert asyncio.run(with_bool.new_session(params)).session_id == "s"
    with_bool.update(update)
    assert len(with_bool.sent) == 1


@pytest.mark.acp_requirement("ACP-V1-OVERVIEW-ABSOLUTE-PATHS")
def test_agent_file_system_paths_must_be_absolute() -> None:
    agent = Agent(models.ClientCapabilities.model_validate({"fs": {"readTextFile": True}}))
    with pytest.raises(guards.PathNotAbsoluteError):
        agent.read_text_file(models.ReadTextFileRequest(session_id="s", path="notes.txt"))
    agent.read_text_file(models.ReadTextFileRequest(session_id="s", path="/w/notes.txt"))
    assert len(agent.sent) == 1


@pytest.mark.acp_requirement("ACP-V1-ELIC-CLIENT-UNADVERTISED-MODE-INVALID-PARAMS")
@pytest.mark.parametrize("mode", ["form", "url"])
def test_a_client_answers_an_unadvertised_elicitation_mode_with_invalid_params(mode: str) -> None:
    """Inbound: the client runs the agent-side check against its own capabilities."""
    other = "url" if mode == "form" else "form"
    own = models.ClientCapabilities.model_validate({"elicitation": {other: {}}})
    request = {"sessionId": "s", "mode": mode, "message": "Sign in?", "elicitationId": "e1",
               "url": "https://example.com/", "requestedSchema": {"type": "object", "properties": {}}}
    with pytest.raises(guards.CapabilityError) as info:
        guards.check_agent_call("elicitation/create", request, own)
    assert info.value.code == -32602
    guards.check_agent_call("elicitation/create", {**request, "mode": other}, own)


def test_error_codes_for_receivers() -> None:
    with pytest.raises(guards.CapabilityError) as info:
        guards.check_agent_call("fs/read_text_file", {"sessionId": "s", "path": "/a"}, {})
    assert info.value.code == -32601
    with pytest.raises(guards.PathNotAbsoluteError) as path_info:
        guards.check_agent_call("fs/read_text_file", {"sessionId": "s", "path": "a"}, {"fs": {"readTextFile": True}})
    assert path_info.value.code == -32602


# ---- Before initialize ------------------------------------------------------------------------


@pytest.mark.acp_requirement("ACP-V1-SETUP-INIT-BEFORE-SESSION", "ACP-V1-INIT-CLIENT-INITIALIZE-FIRST")
def test_client_calls_before_initialize_are_refused_except_initialize() -> None:
    client = Client(None)
    with pytest.raises(guards.NotInitializedError) as info:
        asyncio.run(client.new_session(models.NewSessionRequest.model_validate({"cwd": "/w", "mcpServers": []})))
    assert "ACP-V1-SETUP-INIT-BEFORE-SESSION" in info.value.requirements
    assert isinstance(info.value, guards.CapabilityError) and isinstance(info.value, guards.AcpGuardError)
    assert client.sent == []
    client.initialize(models.InitializeRequest.model_validate({"protocolVersion": 1}))
    assert [m for m, _ in client.sent] == ["initialize"]


@pytest.mark.acp_requirement("ACP-V1-INIT-OMITTED-UNSUPPORTED")
def test_agent_calls_before_initialize_are_refused() -> None:
    agent = Agent(None)
    with pytest.raises(guards.NotInitializedError):
        agent.read_text_file(models.ReadTextFileRequest(session_id="s", path="/a"))
    assert agent.sent == []


# ---- requires_*_capability, signatures and typing ---------------------------------------------


class Resumer(Conn):
    @guards.requires_agent_capability("sessionCapabilities.resume")
    async def resume(self, params: models.ResumeSessionRequest, *, timeout: float = 5.0) -> str:
        self.sent.append(("session/resume", params))
        return "resumed"

    @guards.requires_client_capability("terminal", method="terminal/kill")
    def kill(self, terminal_id: str) -> int:
        self.sent.append(("terminal/kill", terminal_id))
        return 0


@pytest.mark.acp_requirement("ACP-V1-SETUP-CLIENT-CHECK-RESUME", "ACP-V1-SETUP-CLIENT-NO-RESUME-WITHOUT-CAPABILITY")
def test_requires_agent_capability_names_method_path_and_ids() -> None:
    params = models.ResumeSessionRequest(session_id="s", cwd="/w")
    conn = Resumer({"sessionCapabilities": {}})
    with pytest.raises(guards.CapabilityError) as info:
        asyncio.run(conn.resume(params))
    message = str(info.value)
    assert message.startswith("session/resume refused:")
    assert "agentCapabilities.sessionCapabilities.resume" in message
    assert "ACP-V1-SETUP-CLIENT-NO-RESUME-WITHOUT-CAPABILITY" in message and conn.sent == []
    ok = Resumer({"sessionCapabilities": {"resume": {}}})
    assert asyncio.run(ok.resume(params, timeout=1.0)) == "resumed"


@pytest.mark.acp_requirement("ACP-V1-TERM-AGENT-NO-CALL-WITHOUT-CAPABILITY")
def test_requires_client_capability_on_a_sync_call() -> None:
    with pytest.raises(guards.CapabilityError, match="terminal/kill refused"):
        Resumer({"terminal": False}).kill("t1")
    assert Resumer({"terminal": True}).kill("t1") == 0


def test_decorators_keep_signature_and_coroutine_kind() -> None:
    assert inspect.iscoroutinefunction(Resumer.resume)
    assert not inspect.iscoroutinefunction(Resumer.kill)
    assert inspect.iscoroutinefunction(Client.new_session) and not inspect.iscoroutinefunction(Client.load_session)
    assert str(inspect.signature(Resumer.resume)) == (
        "(self, params: 'models.ResumeSessionRequest', *, timeout: 'float' = 5.0) -> 'str'")
    assert Resumer.kill.__name__ == "kill" and Resumer.kill.__wrapped__  # type: ignore[attr-defined]


def test_params_by_keyword_and_missing_params() -> None:
    gate = next(g for g in guards.GATES if g.target == "session/prompt params.prompt[].type=image")

    @guards.client_call("session/prompt")
    def send(conn: Conn, *, params: Any) -> None:
        conn.sent.append(("session/prompt", params))

    conn = Conn({})
    with pytest.raises(guards.CapabilityError):
        send(conn, params=triggering_payload(gate))

    @guards.client_call("session/prompt")
    def bare(conn: Conn) -> None:
        conn.sent.append(("session/prompt", None))

    with pytest.raises(TypeError, match="params"):
        bare(conn)
    assert conn.sent == []


def test_module_docstring_documents_the_public_api() -> None:
    doc = guards.__doc__ or ""
    for name in ("AcpGuardError", "CapabilityError", "NotInitializedError", "PathNotAbsoluteError",
                 "AgentPeer", "ClientPeer", "peer_capabilities", "client_call", "agent_call", "agent_result",
                 "requires_agent_capability", "check_client_call", "check_agent_call", "check_agent_result",
                 "is_absolute_path", "GATES"):
        assert name in doc, name


TYPED_SAMPLE = '''
from acp_v1 import guards, models


class Conn:
    peer_capabilities: models.AgentCapabilities | None = None
    peer_auth_methods: list[models.AuthMethod] | None = None

    @guards.client_call("session/resume")
    async def resume(self, params: models.ResumeSessionRequest, *, timeout: float = 1.0) -> int:
        return 1

    @guards.requires_agent_capability("sessionCapabilities.close")
    def close(self, params: models.CloseSessionRequest) -> str:
        return ""


class NotAPeer:
    pass


reveal_type(Conn().resume)
reveal_type(Conn.close)
Conn().close(1)
guards.requires_agent_capability("sessionCapabilities.nope")


@guards.client_call("session/new")
def f(x: NotAPeer, p: int) -> int:
    return p
'''


def test_generated_code_passes_mypy_strict_and_decorators_keep_static_types(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(TYPED_SAMPLE, encoding="utf-8")
    generated = [str(GENERATED / "acp_v1" / "methods.py"), str(GENERATED / "acp_v1" / "guards.py")]
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental",
         "--cache-dir=/dev/null", "--hide-error-context", "--no-error-summary", *generated, str(sample)],
        capture_output=True, text=True, cwd=GENERATED, timeout=300, check=False,
        env={"MYPYPATH": str(GENERATED), "PATH": "/usr/bin:/bin"},
    )
    out = result.stdout
    # methods.py and guards.py themselves are clean under --strict: every line is the sample's.
    assert all(line.startswith(str(sample)) for line in out.splitlines()), out
    lines = {int(line.split(":")[1]): line for line in out.splitlines() if line.startswith(str(sample))}
    reveal_resume, reveal_close, bad_call, bad_path, bad_peer = (
        next(n for n, text in enumerate(TYPED_SAMPLE.splitlines(), 1) if text.startswith(prefix))
        for prefix in ("reveal_type(Conn().resume)", "reveal_type(Conn.close)", "Conn().close(1)",
                       'guards.requires_agent_capability("sessionCapabilities.nope")', "@guards.client_call(\"session/new\")")
    )
    # The decorated methods keep their exact parameters and return types...
    assert ("def (params: acp_v1.models.ResumeSessionRequest, *, timeout: float =) -> "
            "typing.Coroutine[Any, Any, int]") in lines[reveal_resume], out
    assert "params: acp_v1.models.CloseSessionRequest) -> str" in lines[reveal_close], out
    # ...so a wrong argument, an unknown capability path and a non-peer first argument are errors.
    assert "error" in lines[bad_call] and "[arg-type]" in lines[bad_call], out
    assert "error" in lines[bad_path] and "[arg-type]" in lines[bad_path], out
    peer_error = lines.get(bad_peer) or lines.get(bad_peer + 1, "")
    assert "[type-var]" in peer_error, out
    assert set(lines) == {reveal_resume, reveal_close, bad_call, bad_path} | ({bad_peer} if bad_peer in lines
                                                                              else {bad_peer + 1}), out


# ---- Property: the prompt guard against an oracle read from the schema's own text -----------


@pytest.mark.acp_requirement("ACP-V1-PROMPT-CLIENT-RESTRICT-CONTENT")
def test_prompt_guard_matches_the_schema_text_for_any_prompt_and_capabilities(project) -> None:  # type: ignore[no-untyped-def]
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    # "Requires the `image` prompt capability when included in prompts." -> {"image": "image"}
    needs: dict[str, str | None] = {}
    for variant in project.ir.defs["ContentBlock"].variants:
        match = re.search(r"Requires the `(\w+)` prompt capability", variant.description or "")
        needs[variant.tag] = match[1] if match else None
    assert sum(1 for v in needs.values() if v) == 3
    flags = sorted({v for v in needs.values() if v})

    @settings(max_examples=150, deadline=None)
    @given(
        tags=st.lists(st.sampled_from(sorted(needs)), max_size=5),
        advertised=st.fixed_dictionaries({}, optional={f: st.sampled_from([True, False, None]) for f in flags}),
        as_model=st.booleans(),
    )
    def check(tags: list[str], advertised: dict[str, Any], as_model: bool) -> None:
        caps: Any = {"promptCapabilities": advertised}
        if as_model:
            caps = models.AgentCapabilities.model_validate(
                {"promptCapabilities": {k: v for k, v in advertised.items() if v is not None}})
        params = {"sessionId": "s", "prompt": [{"type": t} for t in tags]}
        missing = sorted({needs[t] for t in tags if needs[t] and advertised.get(needs[t]) is not True})
        try:
            guards.check_client_call("session/prompt", params, caps)
        except guards.CapabilityError as exc:
            assert missing, f"refused although everything needed was advertised: {exc}"
            assert exc.capability in {f"agentCapabilities.promptCapabilities.{m}" for m in missing}
        else:
            assert not missing, f"allowed although {missing} not advertised"

    check()
