"""The black-box checks against an agent, one per requirement classified ``agent`` or ``both``.

``AGENT_CHECKS[ID](kit)`` returns when the agent kept the requirement and raises
:class:`CheckFailed` (what was observed) or :class:`CheckSkipped` (why it does not apply).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import checks_wire as w
from .agent_scenarios import (
    AUTH_REQUIRED,
    PROTOCOL_VERSION,
    UNSUPPORTED_VERSION,
    AgentRunner,
    Run,
)
from .outcome import fail, skip
from .validate import Validator
from .wire import Frame, Transcript

ALL_SCENARIOS = (
    "basic",
    "no_capabilities",
    "all_capabilities",
    "version",
    "wire",
    "cancel",
    "permission",
    "cancel_request",
    "mcp_stdio",
)
WITHOUT_FS_TERMINAL = ("basic", "no_capabilities", "wire", "cancel", "permission", "cancel_request")


@dataclass
class AgentKit:
    runner: AgentRunner
    validator: Validator

    def run(self, name: str) -> Run:
        return self.runner.run(name)

    def transcripts(self, names: Sequence[str] = ALL_SCENARIOS) -> list[Transcript]:
        runs = [self.run(n) for n in names]
        broken = self.runner.broken
        if broken is not None and not any(r.transcript.received() for r in runs):
            raise fail(broken)
        return [r.transcript for r in runs]

    def note(self, scenario: str, key: str, missing: str | None = None) -> Any:
        """A fact the scenario established; otherwise fail or skip with the reason it is missing."""
        run = self.run(scenario)
        if key in run.notes:
            return run.notes[key]
        if run.stopped is not None:
            if run.stop_is_skip:
                raise skip(run.stopped)
            raise fail(f"[{scenario}] {run.stopped}")
        raise skip(missing or f"[{scenario}] not exercised: {key}")

    def init_result(self) -> dict[str, Any]:
        frames = self.note("basic", "initialize")
        result = frames[0].get("result")
        if not isinstance(result, dict):
            raise fail(f"initialize failed: {frames[0].shown()}")
        return result

    def capabilities(self) -> dict[str, Any]:
        caps = self.init_result().get("agentCapabilities")
        return caps if isinstance(caps, dict) else {}

    def session_caps(self) -> dict[str, Any]:
        caps = self.capabilities().get("sessionCapabilities")
        return caps if isinstance(caps, dict) else {}


Check = Callable[[AgentKit], None]
AGENT_CHECKS: dict[str, Check] = {}


def check(*ids: str) -> Callable[[Check], Check]:
    def register(func: Check) -> Check:
        for req_id in ids:
            assert req_id not in AGENT_CHECKS, req_id
            AGENT_CHECKS[req_id] = func
        return func

    return register


def wire_check(req_id: str, func: Callable[[Sequence[Transcript]], None]) -> None:
    AGENT_CHECKS[req_id] = lambda kit: func(kit.transcripts())


def _result(frame: Frame, what: str) -> dict[str, Any]:
    error = frame.get("error")
    if isinstance(error, dict) and error.get("code") == AUTH_REQUIRED:
        raise skip(f"{what}: the agent requires authentication ({error.get('message')!r})")
    if isinstance(error, dict):
        raise fail(f"{what} failed with error {error.get('code')} {error.get('message')!r}")
    result = frame.get("result")
    if not isinstance(result, dict):
        raise fail(f"{what}: no result object: {frame.shown()}")
    return result


def _updates(run: Run, session: str | None = None) -> list[Frame]:
    return [
        f
        for f in run.transcript.notifications("session/update")
        if session is None or (f.get("params") or {}).get("sessionId") == session
    ]


def _update_kinds(kit: AgentKit, kind: str) -> list[tuple[Transcript, Frame, dict[str, Any]]]:
    found = []
    for t in kit.transcripts():
        for f in t.notifications("session/update"):
            update = (f.get("params") or {}).get("update")
            if isinstance(update, dict) and update.get("sessionUpdate") == kind:
                found.append((t, f, update))
    return found


def _stop_reason(frame: Frame, what: str) -> str:
    reason = _result(frame, what).get("stopReason")
    if not isinstance(reason, str):
        raise fail(f"{what}: result without a stopReason: {frame.shown()}")
    return reason


# ---- transport and JSON-RPC (any run) -----------------------------------------------------------

wire_check("ACP-V1-TRANSPORT-UTF8", w.utf8)
wire_check("ACP-V1-TRANSPORT-STDIO-NEWLINE-DELIMITED", w.newline_delimited)
wire_check("ACP-V1-TRANSPORT-AGENT-STDOUT-ONLY-ACP", w.only_messages)
wire_check("ACP-V1-JSONRPC-VERSION-MEMBER", w.version_member)
wire_check("ACP-V1-JSONRPC-RPC-PREFIX-RESERVED", w.no_rpc_prefix)
wire_check("ACP-V1-JSONRPC-ID-TYPE", w.id_types)
wire_check("ACP-V1-JSONRPC-ID-NOT-NULL", w.ids_not_null)
wire_check("ACP-V1-JSONRPC-ID-NO-FRACTION", w.ids_no_fraction)
wire_check("ACP-V1-JSONRPC-PARAMS-STRUCTURED", w.params_structured)
wire_check("ACP-V1-JSONRPC-RESULT-ON-SUCCESS", w.result_on_success)
wire_check("ACP-V1-JSONRPC-ERROR-MEMBER-ON-ERROR", w.error_member)
wire_check("ACP-V1-JSONRPC-RESULT-XOR-ERROR", w.result_xor_error)
wire_check("ACP-V1-JSONRPC-ERROR-CODE-INTEGER", w.error_code_integer)
wire_check("ACP-V1-JSONRPC-ERROR-RESPONSE-CONTAINS-ERROR", w.error_contains)
wire_check("ACP-V1-JSONRPC-ERROR-MESSAGE-CONCISE", w.error_message_concise)
wire_check("ACP-V1-JSONRPC-RESPONSE-REQUIRED", w.every_request_answered)
wire_check("ACP-V1-OVERVIEW-ABSOLUTE-PATHS", w.absolute_paths)
wire_check("ACP-V1-EXT-META-TRACE-KEYS-RESERVED", w.trace_keys)


@check("ACP-V1-TRANSPORT-STDIO-SHOULD")
def _stdio(kit: AgentKit) -> None:
    kit.init_result()


@check("ACP-V1-TRANSPORT-AGENT-STDERR-MAY")
def _stderr(kit: AgentKit) -> None:
    for t in kit.transcripts():
        try:
            t.stderr.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise fail(f"[{t.name}] stderr is not UTF-8 at byte {exc.start}") from None


@check("ACP-V1-JSONRPC-RESPONSE-SAME-ID")
def _same_id(kit: AgentKit) -> None:
    for key, req_id in (
        ("unknown_method", "kit-unknown-1"),
        ("bad_params", 77),
        ("miscased_params", "kit-case-1"),
    ):
        frame = kit.note("wire", key)
        if frame.get("id") != req_id or type(frame.get("id")) is not type(req_id):
            raise fail(
                f"response to request id {req_id!r} carries id {frame.get('id')!r}: {frame.shown()}"
            )
    w.response_ids_known(kit.transcripts())


@check("ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION")
def _no_reply(kit: AgentKit) -> None:
    late = kit.note("wire", "after_notifications")
    replies = [f for f in late if f.is_response]
    if replies:
        raise fail(f"a response after notifications only: {replies[0].shown()}")
    w.response_ids_known(kit.transcripts())


@check("ACP-V1-JSONRPC-RESPONSE-ID-ECHO")
def _parse_error(kit: AgentKit) -> None:
    frames = kit.note("wire", "parse_error")
    answers = [f for f in frames if f.is_response]
    if not answers:
        raise fail("no response to a line that is not JSON (expected error -32700 with id null)")
    if answers[0].get("id") is not None:
        raise fail(f"the parse-error response must have id null: {answers[0].shown()}")


@check("ACP-V1-JSONRPC-PARAM-NAMES-EXACT")
def _param_names(kit: AgentKit) -> None:
    t = kit.run("wire").transcript
    w.expect_error_code(
        t,
        kit.note("wire", "miscased_params"),
        -32602,
        "session/new with CWD / MCPServers instead of cwd / mcpServers",
    )


@check("ACP-V1-JSONRPC-PARAMS-MAY-BE-OMITTED")
def _params_omitted(kit: AgentKit) -> None:
    frame = kit.note(
        "basic",
        "list_no_params",
        "the agent advertises no method whose params are all optional (session/list)",
    )
    _result(frame, "session/list without params")


@check("ACP-V1-SCHEMA-ERROR-OBJECT")
def _error_object(kit: AgentKit) -> None:
    w.error_codes_meaning(kit.transcripts())
    t = kit.run("wire").transcript
    parse = [f for f in kit.note("wire", "parse_error") if f.is_response]
    w.expect_error_code(t, parse[0] if parse else None, -32700, "a line that is not JSON")
    w.expect_error_code(t, kit.note("wire", "unknown_method"), -32601, "an unknown method")
    w.expect_error_code(t, kit.note("wire", "bad_params"), -32602, "session/new with cwd 42")


@check("ACP-V1-EXT-NO-ROOT-CUSTOM-FIELDS")
def _extra(kit: AgentKit) -> None:
    w.no_extra_members(kit.transcripts(), kit.validator)


@check("ACP-V1-SCHEMA-EXTENSION-METHOD-NAMES")
def _ext_names(kit: AgentKit) -> None:
    try:
        w.extension_names(kit.transcripts(), kit.validator)
    except Exception as exc:
        if "sent no request" not in str(exc):
            raise
    _ext_answered(kit)


@check("ACP-V1-EXT-CUSTOM-REQUESTS-MAY", "ACP-V1-EXT-RESPOND-TO-CUSTOM-REQUEST")
def _ext_answered(kit: AgentKit) -> None:
    frame = kit.note("wire", "unknown_ext")
    if frame.get("id") != "kit-ext-1":
        raise fail(
            f"the response to _acpgen_kit/unknown (id 'kit-ext-1') carries id {frame.get('id')!r}"
        )


@check("ACP-V1-EXT-UNKNOWN-METHOD-NOT-FOUND")
def _ext_not_found(kit: AgentKit) -> None:
    w.expect_error_code(
        kit.run("wire").transcript,
        kit.note("wire", "unknown_ext"),
        -32601,
        "an unknown _ extension request",
    )


@check("ACP-V1-EXT-IGNORE-UNKNOWN-NOTIFICATIONS")
def _ext_notifications(kit: AgentKit) -> None:
    late = kit.note("wire", "after_notifications")
    if any(f.is_response for f in late):
        raise fail(
            f"a reply to an unknown notification: {next(f for f in late if f.is_response).shown()}"
        )
    _result(kit.note("wire", "still_alive"), "session/new after unknown notifications")


@check("ACP-V1-EXT-META-NO-ASSUMPTIONS")
def _meta(kit: AgentKit) -> None:
    _result(kit.note("no_capabilities", "initialize")[0], "initialize with unusual _meta")
    _result(kit.note("no_capabilities", "session/new")[0], "session/new with unusual _meta")
    _stop_reason(kit.note("no_capabilities", "prompt_text")[1], "session/prompt with unusual _meta")


# ---- schema shapes ---------------------------------------------------------------------------

_SHAPES = {
    "ACP-V1-SCHEMA-INITIALIZE-SHAPE": ("initialize",),
    "ACP-V1-SCHEMA-NEW-SESSION-SHAPE": ("session/new",),
    "ACP-V1-SCHEMA-LOAD-SESSION-SHAPE": ("session/load",),
    "ACP-V1-SCHEMA-RESUME-SESSION-SHAPE": ("session/resume",),
    "ACP-V1-SCHEMA-CLOSE-SESSION-SHAPE": ("session/close",),
    "ACP-V1-SCHEMA-LIST-SESSIONS-SHAPE": ("session/list",),
    "ACP-V1-SCHEMA-DELETE-SESSION-SHAPE": ("session/delete",),
    "ACP-V1-SCHEMA-SET-MODE-SHAPE": ("session/set_mode",),
    "ACP-V1-SCHEMA-SET-CONFIG-OPTION-SHAPE": ("session/set_config_option",),
    "ACP-V1-SCHEMA-PROMPT-SHAPE": ("session/prompt",),
    "ACP-V1-SCHEMA-CANCEL-REQUEST-NOTIFICATION-SHAPE": ("$/cancel_request",),
    "ACP-V1-SCHEMA-REQUEST-PERMISSION-SHAPE": ("session/request_permission",),
    "ACP-V1-SCHEMA-SESSION-UPDATE-VARIANTS": ("session/update",),
    "ACP-V1-SCHEMA-READ-TEXT-FILE-SHAPE": ("fs/read_text_file",),
    "ACP-V1-SCHEMA-WRITE-TEXT-FILE-SHAPE": ("fs/write_text_file",),
    "ACP-V1-SCHEMA-TERMINAL-CREATE-SHAPE": ("terminal/create",),
    "ACP-V1-SCHEMA-TERMINAL-OUTPUT-SHAPE": ("terminal/output",),
    "ACP-V1-SCHEMA-TERMINAL-RELEASE-SHAPE": ("terminal/release",),
    "ACP-V1-SCHEMA-TERMINAL-WAIT-FOR-EXIT-SHAPE": ("terminal/wait_for_exit",),
    "ACP-V1-SCHEMA-TERMINAL-KILL-SHAPE": ("terminal/kill",),
    "ACP-V1-SCHEMA-ELICITATION-CREATE-SHAPE": ("elicitation/create",),
    "ACP-V1-SCHEMA-ELICITATION-COMPLETE-SHAPE": ("elicitation/complete",),
    "ACP-V1-SCHEMA-CONTENT-BLOCK-VARIANTS": ("session/update",),
}


def _shape_check(methods: tuple[str, ...]) -> Check:
    return lambda kit: w.shape(kit.transcripts(), kit.validator, *methods)


for _id, _methods in _SHAPES.items():
    AGENT_CHECKS[_id] = _shape_check(_methods)


@check("ACP-V1-SCHEMA-AUTHENTICATE-SHAPE", "ACP-V1-SCHEMA-LOGOUT-SHAPE")
def _no_login(kit: AgentKit) -> None:
    kit.init_result()
    raise skip(
        "the kit never calls authenticate or logout (they would start or end a real user's login)"
    )


@check("ACP-V1-SCHEMA-AUTH-METHOD-VARIANTS")
def _auth_methods(kit: AgentKit) -> None:
    methods = kit.init_result().get("authMethods")
    if not methods:
        raise skip("the agent advertises no authMethods")
    verdict = kit.validator.result("initialize", kit.init_result())
    if not verdict.ok:
        raise fail(str(verdict.problem))


@check("ACP-V1-SCHEMA-STOP-REASON-VALUES", "ACP-V1-PROMPT-AGENT-MAY-STOP")
def _stop_values(kit: AgentKit) -> None:
    allowed = {"end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"}
    seen = 0
    for t in kit.transcripts():
        for f in t.received():
            request = t.request_for(f) if f.is_response else None
            if request is None or request.method != "session/prompt" or "result" not in f.message:
                continue
            seen += 1
            reason = (
                (f.message["result"] or {}).get("stopReason")
                if isinstance(f.message["result"], dict)
                else None
            )
            if reason not in allowed:
                raise fail(f"stopReason {reason!r} is not a StopReason: [{t.name}] {f.shown()}")
    if not seen:
        kit.note("basic", "prompt_text")
        raise skip("no session/prompt result in any run")


# ---- initialization ---------------------------------------------------------------------------


@check("ACP-V1-INIT-IMPLEMENTATION-INFO")
def _info(kit: AgentKit) -> None:
    info = kit.init_result().get("agentInfo")
    if not isinstance(info, dict) or not info.get("name") or not info.get("version"):
        raise fail(f"initialize result has no agentInfo with name and version: {info!r}")


@check("ACP-V1-INIT-AGENT-RESPONSE")
def _init_response(kit: AgentKit) -> None:
    result = kit.init_result()
    if not isinstance(result.get("protocolVersion"), int):
        raise fail(f"initialize result without an integer protocolVersion: {result!r}")
    # agentCapabilities may be omitted: the schema's default then states them (none optional).
    caps = result.get("agentCapabilities", {})
    if not isinstance(caps, dict):
        raise fail(f"agentCapabilities is not an object: {caps!r}")


@check("ACP-V1-INIT-AGENT-SAME-VERSION")
def _same_version(kit: AgentKit) -> None:
    answered = kit.init_result().get("protocolVersion")
    if answered != PROTOCOL_VERSION:
        raise fail(
            f"asked for protocol version {PROTOCOL_VERSION}, the agent answered {answered!r}"
        )


@check("ACP-V1-INIT-VERSION-AGREEMENT")
def _agreement(kit: AgentKit) -> None:
    _same_version(kit)
    _result(kit.note("basic", "session/new")[0], "session/new after agreeing on version 1")


@check("ACP-V1-INIT-AGENT-LATEST-VERSION")
def _latest(kit: AgentKit) -> None:
    frame = kit.note("version", "initialize")[0]
    result = _result(frame, f"initialize with protocolVersion {UNSUPPORTED_VERSION}")
    answered = result.get("protocolVersion")
    if not isinstance(answered, int) or isinstance(answered, bool):
        raise fail(f"answered protocolVersion {answered!r}, not an integer")
    if answered == UNSUPPORTED_VERSION:
        raise fail(
            f"echoed protocol version {UNSUPPORTED_VERSION}, which no ACP release defines, "
            "instead of its own latest"
        )
    if answered != kit.init_result().get("protocolVersion"):
        raise fail(
            f"answered {answered} to version {UNSUPPORTED_VERSION} but accepts "
            f"{kit.init_result().get('protocolVersion')}: not its latest"
        )


@check("ACP-V1-INIT-CAPABILITIES-OPTIONAL")
def _caps_optional(kit: AgentKit) -> None:
    _result(kit.note("no_capabilities", "initialize")[0], "initialize without clientCapabilities")
    _result(kit.note("no_capabilities", "session/new")[0], "session/new after it")


@check("ACP-V1-INIT-SUPPORT-ALL-COMBINATIONS")
def _combinations(kit: AgentKit) -> None:
    for scenario in ("basic", "no_capabilities", "all_capabilities"):
        _stop_reason(kit.note(scenario, "prompt_text")[1], f"[{scenario}] session/prompt")


def _no_requests(
    kit: AgentKit, prefixes: tuple[str, ...], scenarios: Sequence[str], why: str
) -> None:
    for t in kit.transcripts(scenarios):
        for f in t.received():
            if f.is_request and (f.method or "").startswith(prefixes):
                raise fail(f"{why}, yet the agent sent {f.method}: [{t.name}] {f.shown()}")


@check("ACP-V1-INIT-OMITTED-UNSUPPORTED")
def _omitted(kit: AgentKit) -> None:
    kit.note("no_capabilities", "prompt_text")
    _no_requests(
        kit,
        ("fs/", "terminal/", "elicitation/"),
        ("no_capabilities",),
        "the kit's initialize omitted clientCapabilities",
    )


@check("ACP-V1-FS-AGENT-CHECK-CAPABILITY", "ACP-V1-FS-AGENT-NO-CALL-WITHOUT-CAPABILITY")
def _no_fs(kit: AgentKit) -> None:
    kit.note("basic", "prompt_text")
    _no_requests(
        kit, ("fs/",), WITHOUT_FS_TERMINAL, "the kit advertised fs.readTextFile/writeTextFile false"
    )


@check("ACP-V1-TERM-AGENT-CHECK-CAPABILITY", "ACP-V1-TERM-AGENT-NO-CALL-WITHOUT-CAPABILITY")
def _no_terminal(kit: AgentKit) -> None:
    kit.note("basic", "prompt_text")
    _no_requests(kit, ("terminal/",), WITHOUT_FS_TERMINAL, "the kit advertised terminal false")


@check("ACP-V1-ELIC-AGENT-NO-UNADVERTISED-MODE")
def _no_elicitation(kit: AgentKit) -> None:
    kit.note("basic", "prompt_text")
    _no_requests(
        kit, ("elicitation/create",), ALL_SCENARIOS, "the kit never advertises elicitation"
    )


@check("ACP-V1-INIT-AGENT-SPECIFY-CAPABILITIES")
def _specify(kit: AgentKit) -> None:
    if not isinstance(kit.init_result().get("agentCapabilities"), dict):
        raise fail("initialize result has no agentCapabilities object")


@check("ACP-V1-INIT-PROMPT-BASELINE")
def _baseline(kit: AgentKit) -> None:
    _stop_reason(kit.note("basic", "prompt_text")[1], "a text prompt")
    _stop_reason(kit.note("basic", "prompt_link")[1], "a prompt with text and a resource_link")


@check("ACP-V1-CONTENT-TEXT-SUPPORT")
def _text(kit: AgentKit) -> None:
    _stop_reason(kit.note("basic", "prompt_text")[1], "a text prompt")


@check("ACP-V1-INIT-PROMPT-RICHER-MAY")
def _richer(kit: AgentKit) -> None:
    caps = kit.capabilities().get("promptCapabilities")
    advertised = [
        k
        for k in ("image", "audio", "embeddedContext")
        if isinstance(caps, dict) and caps.get(k) is True
    ]
    if not advertised:
        raise skip("the agent advertises no richer prompt content")
    for name in advertised:
        _stop_reason(
            kit.note("basic", f"prompt_{name}")[1], f"a prompt with {name} content (advertised)"
        )


@check("ACP-V1-INIT-SESSION-BASELINE")
def _session_baseline(kit: AgentKit) -> None:
    _result(kit.note("basic", "session/new")[0], "session/new")
    _stop_reason(kit.note("basic", "prompt_text")[1], "session/prompt")
    if not _updates(kit.run("basic")):
        raise fail("no session/update during a prompt turn")
    _sent, _cancel, response = kit.note("cancel", "cancelled_turn")
    _stop_reason(response, "session/prompt after session/cancel")


@check("ACP-V1-INIT-SESSION-OPTIONAL-MAY")
def _optional(kit: AgentKit) -> None:
    probes = {
        "session/load": "load",
        "session/list": "list_all",
        "session/resume": "resume",
        "session/delete": "delete_unknown",
        "session/close": "close_unknown",
    }
    run = kit.run("basic")
    seen = 0
    for method, key in probes.items():
        note = run.notes.get(key)
        if note is None:
            continue
        frame = note[1] if isinstance(note, tuple) else note
        seen += 1
        error = frame.get("error")
        if isinstance(error, dict) and error.get("code") == -32601:
            raise fail(f"{method} is advertised but answered method-not-found: {frame.shown()}")
    if not seen:
        kit.note("basic", "prompt_text")
        raise skip("the agent advertises no optional session method")


@check("ACP-V1-AUTH-AGENT-TERMINAL-METHOD-ONLY-WITH-CAPABILITY")
def _terminal_auth(kit: AgentKit) -> None:
    for method in kit.init_result().get("authMethods") or []:
        if isinstance(method, dict) and method.get("type") == "terminal":
            raise fail(
                f"advertises terminal auth method {method.get('id')!r} although the kit did not "
                "enable clientCapabilities.auth.terminal"
            )


# ---- sessions ---------------------------------------------------------------------------------


@check("ACP-V1-SETUP-NEW-SESSION-ID")
def _session_ids(kit: AgentKit) -> None:
    frames = kit.note("basic", "session/new")
    ids = [_result(f, "session/new").get("sessionId") for f in frames]
    if not all(isinstance(i, str) and i for i in ids):
        raise fail(f"session/new results without a sessionId: {ids!r}")
    if len(ids) >= 2 and ids[0] == ids[1]:
        raise fail(f"two session/new calls returned the same sessionId {ids[0]!r}")


def _exchange(kit: AgentKit, key: str, capability: str) -> tuple[Run, Frame, Frame]:
    note = kit.note("basic", key, f"the agent does not advertise {capability}")
    sent, response = note
    return kit.run("basic"), sent, response


def _between(run: Run, start: Frame, end: Frame, session: str) -> list[Frame]:
    return [f for f in _updates(run, session) if start.time <= f.time <= end.time]


@check("ACP-V1-SETUP-LOAD-REPLAY")
def _load_replay(kit: AgentKit) -> None:
    run, sent, response = _exchange(kit, "load", "loadSession")
    _result(response, "session/load")
    session = sent.message["params"]["sessionId"]
    if not _between(run, sent, response, session):
        raise fail(
            "session/load of a session with two finished turns answered without replaying "
            "any session/update"
        )


@check("ACP-V1-SETUP-LOAD-RESPOND-AFTER-REPLAY")
def _load_after(kit: AgentKit) -> None:
    run, sent, response = _exchange(kit, "load", "loadSession")
    session = sent.message["params"]["sessionId"]
    late = [f for f in _updates(run, session) if f.time > response.time]
    if late:
        raise fail(
            f"replayed session/update arrived after the session/load response: {late[0].shown()}"
        )


@check("ACP-V1-SETUP-RESUME-NO-REPLAY")
def _resume(kit: AgentKit) -> None:
    run, sent, response = _exchange(kit, "resume", "sessionCapabilities.resume")
    _result(response, "session/resume")
    replayed = _between(run, sent, response, sent.message["params"]["sessionId"])
    if replayed:
        raise fail(f"session/update before the session/resume response: {replayed[0].shown()}")


@check("ACP-V1-SETUP-RESUME-RESPONSE-STATE-MAY")
def _resume_state(kit: AgentKit) -> None:
    _run, _sent, response = _exchange(kit, "resume", "sessionCapabilities.resume")
    verdict = kit.validator.result("session/resume", _result(response, "session/resume"))
    if not verdict.ok:
        raise fail(str(verdict.problem))


@check("ACP-V1-SETUP-CLOSE-MAY-ERROR")
def _close_unknown(kit: AgentKit) -> None:
    frame = kit.note(
        "basic", "close_unknown", "the agent does not advertise sessionCapabilities.close"
    )
    if "result" not in frame.message and not isinstance(frame.get("error"), dict):
        raise fail(
            f"closing an unknown session gave neither a result nor an error: {frame.shown()}"
        )


@check("ACP-V1-SETUP-CLOSE-CANCELS-AND-FREES")
def _close_cancels(kit: AgentKit) -> None:
    if not isinstance(kit.session_caps().get("close"), dict):
        raise skip("the agent does not advertise sessionCapabilities.close")
    _sent, response = kit.note("close_running", "closed_turn")
    if "result" in response.message and _stop_reason(response, "the closed turn") != "cancelled":
        raise fail(f"a turn running when its session was closed ended with {response.shown()}")


@check("ACP-V1-SETUP-AGENT-MCP-STDIO")
def _mcp_stdio(kit: AgentKit) -> None:
    frame = kit.note("mcp_stdio", "session/new")[0]
    error = frame.get("error")
    if isinstance(error, dict) and error.get("code") == -32602:
        raise fail(
            f"session/new with a stdio MCP server refused as invalid params: {frame.shown()}"
        )
    if isinstance(error, dict):
        raise skip(
            f"session/new with a stdio MCP server failed ({error.get('message')!r}); "
            "the kit's stub server exits at once"
        )


@check("ACP-V1-LIST-AGENT-RESPONSE")
def _list(kit: AgentKit) -> None:
    frame = kit.note("basic", "list_all", "the agent does not advertise sessionCapabilities.list")
    verdict = kit.validator.result("session/list", _result(frame, "session/list"))
    if not verdict.ok:
        raise fail(str(verdict.problem))


@check("ACP-V1-LIST-ADDITIONAL-DIRS-MAY")
def _list_dirs(kit: AgentKit) -> None:
    frame = kit.note("basic", "list_all", "the agent does not advertise sessionCapabilities.list")
    dirs = [
        d
        for s in _result(frame, "session/list").get("sessions") or []
        if isinstance(s, dict)
        for d in s.get("additionalDirectories") or []
    ]
    if not dirs:
        raise skip("no listed session reports additionalDirectories")
    for d in dirs:
        if not isinstance(d, str) or not w.is_absolute(d):
            raise fail(f"additionalDirectories entry {d!r} is not an absolute path")


@check("ACP-V1-LIST-EMPTY-ARRAY")
def _list_empty(kit: AgentKit) -> None:
    frame = kit.note("basic", "list_empty", "the agent does not advertise sessionCapabilities.list")
    sessions = _result(frame, "session/list for an empty directory").get("sessions")
    if sessions != []:
        raise fail(f"session/list for a directory without sessions returned sessions={sessions!r}")


@check("ACP-V1-LIST-AGENT-INVALID-CURSOR-ERROR")
def _list_cursor(kit: AgentKit) -> None:
    frame = kit.note(
        "basic", "list_bad_cursor", "the agent does not advertise sessionCapabilities.list"
    )
    if not isinstance(frame.get("error"), dict):
        raise fail(f"session/list with a made-up cursor succeeded: {frame.shown()}")


@check("ACP-V1-DELETE-IDEMPOTENT")
def _delete(kit: AgentKit) -> None:
    frame = kit.note(
        "basic", "delete_unknown", "the agent does not advertise sessionCapabilities.delete"
    )
    _result(frame, "session/delete of a session that never existed")


# ---- prompt turns -----------------------------------------------------------------------------


@check("ACP-V1-PROMPT-RESPOND-WITH-STOP-REASON")
def _respond(kit: AgentKit) -> None:
    for key in ("prompt_text", "prompt_link"):
        _stop_reason(kit.note("basic", key)[1], f"session/prompt ({key})")


@check("ACP-V1-PROMPT-MESSAGE-ID-MAY")
def _message_id(kit: AgentKit) -> None:
    seen = 0
    for kind in ("agent_message_chunk", "agent_thought_chunk", "user_message_chunk"):
        for t, f, update in _update_kinds(kit, kind):
            if "messageId" in update:
                seen += 1
                if not isinstance(update["messageId"], str):
                    raise fail(f"messageId is not a string: [{t.name}] {f.shown()}")
    if not seen:
        raise skip("the agent puts no messageId on message chunks")


def _variant_check(kind: str) -> Check:
    def run(kit: AgentKit) -> None:
        found = _update_kinds(kit, kind)
        if not found:
            kit.note("basic", "prompt_text")
            raise skip(f"the agent sent no {kind} update")
        for t, f, _update in found:
            verdict = kit.validator.params("session/update", f.message.get("params"))
            if not verdict.ok:
                raise fail(f"{verdict.problem}: [{t.name}] {f.shown()}")

    return run


AGENT_CHECKS["ACP-V1-PROMPT-USAGE-UPDATE-MAY"] = _variant_check("usage_update")
AGENT_CHECKS["ACP-V1-PROMPT-TOOL-UPDATES-MAY"] = _variant_check("tool_call_update")
AGENT_CHECKS["ACP-V1-COMMANDS-ADVERTISE-MAY"] = _variant_check("available_commands_update")


def _session_ids_of(t: Transcript) -> set[str]:
    ids = set()
    for f in t.received():
        request = t.request_for(f) if f.is_response else None
        if (
            request is not None
            and request.method == "session/new"
            and isinstance(f.get("result"), dict)
        ):
            ids.add(f.message["result"].get("sessionId"))
    return ids


@check("ACP-V1-PROMPT-PERMISSION-MAY", "ACP-V1-TOOLS-PERMISSION-MAY")
def _permission(kit: AgentKit) -> None:
    seen = 0
    for t in kit.transcripts():
        known = _session_ids_of(t)
        for f in t.requests("session/request_permission"):
            seen += 1
            params = f.get("params") or {}
            verdict = kit.validator.params("session/request_permission", params)
            if not verdict.ok:
                raise fail(f"{verdict.problem}: [{t.name}] {f.shown()}")
            if params.get("sessionId") not in known:
                raise fail(
                    f"permission request for a session the agent never created: [{t.name}] {f.shown()}"
                )
            if not params.get("options"):
                raise fail(f"permission request without options: [{t.name}] {f.shown()}")
    if not seen:
        raise skip("the agent asked for no permission (give --acp-permission-prompt)")


@check("ACP-V1-PROMPT-TOOLS-MAY-USE-CLIENT-CAPABILITIES")
def _client_caps_use(kit: AgentKit) -> None:
    t = kit.run("all_capabilities").transcript
    kit.note("all_capabilities", "prompt_text")
    used = [
        f
        for f in t.received()
        if f.is_request and (f.method or "").startswith(("fs/", "terminal/"))
    ]
    if not used:
        raise skip("the agent used no fs or terminal method although the kit advertised them")
    known = _session_ids_of(t)
    for f in used:
        method = f.method or ""
        verdict = kit.validator.params(method, f.get("params"))
        if not verdict.ok:
            raise fail(f"{verdict.problem}: {f.shown()}")
        if (f.get("params") or {}).get("sessionId") not in known:
            raise fail(f"{method} for a session the agent never created: {f.shown()}")


def _cancelled_turn(kit: AgentKit) -> tuple[Frame, Frame, Frame]:
    sent, cancel_frame, response = kit.note("cancel", "cancelled_turn")
    return sent, cancel_frame, response


@check("ACP-V1-PROMPT-AGENT-STOP-ON-CANCEL")
def _stop_on_cancel(kit: AgentKit) -> None:
    _sent, cancel_frame, response = _cancelled_turn(kit)
    delay = response.time - cancel_frame.time
    if delay > kit.runner.target.timeout:
        raise fail(f"the turn ended {delay:.1f} s after session/cancel")


@check("ACP-V1-PROMPT-AGENT-CANCELLED-STOP-REASON")
def _cancelled(kit: AgentKit) -> None:
    _sent, _cancel, response = _cancelled_turn(kit)
    reason = _stop_reason(response, "session/prompt after session/cancel")
    if reason != "cancelled":
        if not kit.runner.target.slow_prompt:
            raise skip(
                f"the turn ended ({reason}) before session/cancel took effect; give "
                "--acp-slow-prompt to keep the agent busy"
            )
        raise fail(f"a turn cancelled while running ended with stopReason {reason!r}")
    run = kit.run("permission")
    if "permission_turn" in run.notes:
        response = run.notes["permission_turn"][3]
        reason = _stop_reason(response, "session/prompt cancelled during a permission request")
        if reason != "cancelled":
            raise fail(f"a turn cancelled during a permission request ended with {reason!r}")


@check("ACP-V1-PROMPT-AGENT-CATCH-ABORT-ERRORS")
def _catch_abort(kit: AgentKit) -> None:
    _sent, _cancel, response = _cancelled_turn(kit)
    if isinstance(response.get("error"), dict):
        raise fail(
            f"a cancelled turn answered with a JSON-RPC error instead of stopReason cancelled: "
            f"{response.shown()}"
        )


@check("ACP-V1-PROMPT-UPDATES-BEFORE-RESPONSE")
def _before_response(kit: AgentKit) -> None:
    # The kit listens LATE_WINDOW seconds after each turn's response, before sending anything.
    for scenario, key in (("basic", "late_after_prompt"), ("cancel", "late_after_cancel")):
        late = kit.note(scenario, key)
        updates = [f for f in late if f.method == "session/update"]
        if updates:
            raise fail(
                f"[{scenario}] session/update after the turn's session/prompt response: "
                f"{updates[0].shown()}"
            )


@check("ACP-V1-CANCEL-REQUEST-MUST-RESPOND")
def _cancel_request(kit: AgentKit) -> None:
    _sent, response, fell_back = kit.note("cancel_request", "cancel_request")
    if fell_back:
        raise skip(
            "the agent does not act on $/cancel_request (optional); the turn ended after session/cancel"
        )
    error = response.get("error")
    if isinstance(error, dict) and error.get("code") != -32800:
        raise fail(
            f"after $/cancel_request the request was answered with error {error.get('code')}, "
            f"not a result or -32800: {response.shown()}"
        )


@check("ACP-V1-TOOLS-NAME-STABLE")
def _tool_names(kit: AgentKit) -> None:
    seen = 0
    for t in kit.transcripts():
        names: dict[str, str] = {}
        for f in t.notifications("session/update"):
            update = (f.get("params") or {}).get("update")
            if not isinstance(update, dict) or update.get("sessionUpdate") not in (
                "tool_call",
                "tool_call_update",
            ):
                continue
            call_id, name = update.get("toolCallId"), update.get("name")
            if not isinstance(call_id, str) or not isinstance(name, str):
                continue
            seen += 1
            if call_id in names and names[call_id] != name:
                raise fail(
                    f"tool call {call_id!r} renamed from {names[call_id]!r} to {name!r}: [{t.name}] {f.shown()}"
                )
            names[call_id] = name
    if not seen:
        raise skip("the agent reported no named tool call")


# ---- elicitation ------------------------------------------------------------------------------


@check(
    "ACP-V1-ELIC-AGENT-UNIQUE-ELICITATION-ID",
    "ACP-V1-ELIC-AGENT-COMPLETE-MAY",
    "ACP-V1-ELIC-AGENT-COMPLETE-SAME-CLIENT",
)
def _elicitation(kit: AgentKit) -> None:
    for t in kit.transcripts():
        sent_ids = [
            ((f.get("params") or {}).get("elicitationId")) for f in t.requests("elicitation/create")
        ]
        for f in t.notifications("elicitation/complete"):
            if (f.get("params") or {}).get("elicitationId") not in sent_ids:
                raise fail(
                    f"elicitation/complete for an id no URL elicitation of this connection carried: "
                    f"[{t.name}] {f.shown()}"
                )
        if sent_ids:
            verdict = [
                kit.validator.params("elicitation/create", f.get("params"))
                for f in t.requests("elicitation/create")
            ]
            bad = [v for v in verdict if not v.ok]
            if bad:
                raise fail(str(bad[0].problem))
    raise skip("the agent sent no elicitation (the kit advertises no elicitation mode)")


# ---- modes and config options -----------------------------------------------------------------


def _config_payloads(kit: AgentKit) -> list[tuple[str, list[Any]]]:
    payloads: list[tuple[str, list[Any]]] = []
    run = kit.run("basic")
    for f in kit.note("basic", "session/new"):
        options = (
            (f.get("result") or {}).get("configOptions")
            if isinstance(f.get("result"), dict)
            else None
        )
        if isinstance(options, list):
            payloads.append(("session/new", options))
    if "set_config" in run.notes and isinstance(run.notes["set_config"].get("result"), dict):
        options = run.notes["set_config"].message["result"].get("configOptions")
        if isinstance(options, list):
            payloads.append(("session/set_config_option", options))
    for _t, _f, update in _update_kinds(kit, "config_option_update"):
        if isinstance(update.get("configOptions"), list):
            payloads.append(("config_option_update", update["configOptions"]))
    return payloads


@check("ACP-V1-MODES-INITIAL-STATE-MAY")
def _modes(kit: AgentKit) -> None:
    seen = 0
    for f in kit.note("basic", "session/new"):
        modes = (f.get("result") or {}).get("modes") if isinstance(f.get("result"), dict) else None
        if not isinstance(modes, dict):
            continue
        seen += 1
        ids = [m.get("id") for m in modes.get("availableModes") or [] if isinstance(m, dict)]
        if modes.get("currentModeId") not in ids:
            raise fail(
                f"currentModeId {modes.get('currentModeId')!r} is not among availableModes {ids!r}"
            )
    if not seen:
        raise skip("session/new returns no modes")


@check("ACP-V1-CONFIG-INITIAL-STATE-MAY", "ACP-V1-CONFIG-CATEGORY-MAY")
def _config_initial(kit: AgentKit) -> None:
    payloads = _config_payloads(kit)
    if not payloads:
        raise skip("the agent sends no configOptions")
    for f in kit.note("basic", "session/new"):
        verdict = kit.validator.result("session/new", f.get("result"))
        if not verdict.ok:
            raise fail(str(verdict.problem))


@check(
    "ACP-V1-CONFIG-NO-BOOLEAN-WITHOUT-CAPABILITY", "ACP-V1-CONFIG-BOOLEAN-ONLY-AFTER-CAPABILITY-MAY"
)
def _no_boolean(kit: AgentKit) -> None:
    payloads = _config_payloads(kit)
    if not payloads:
        raise skip("the agent sends no configOptions")
    for where, options in payloads:
        for option in options:
            if isinstance(option, dict) and option.get("type") == "boolean":
                raise fail(
                    f"{where} carries boolean option {option.get('id')!r} although the kit "
                    "did not advertise boolean config options"
                )


@check("ACP-V1-CONFIG-AGENT-DEFAULTS")
def _defaults(kit: AgentKit) -> None:
    payloads = _config_payloads(kit)
    if not payloads:
        raise skip("the agent sends no configOptions")
    for where, options in payloads:
        for option in options:
            if isinstance(option, dict) and "currentValue" not in option:
                raise fail(f"{where}: config option {option.get('id')!r} has no currentValue")


@check("ACP-V1-CONFIG-SET-RESPONSE-COMPLETE")
def _set_complete(kit: AgentKit) -> None:
    frame = kit.note("basic", "set_config", "session/new returns no configOptions to set")
    listed = (kit.note("basic", "session/new")[0].get("result") or {}).get("configOptions") or []
    returned = _result(frame, "session/set_config_option").get("configOptions") or []
    want = {o.get("id") for o in listed if isinstance(o, dict)}
    got = {o.get("id") for o in returned if isinstance(o, dict)}
    if not want <= got:
        raise fail(f"session/set_config_option result lacks options {sorted(map(str, want - got))}")


@check("ACP-V1-CONFIG-AGENT-KEEP-IN-SYNC")
def _sync(kit: AgentKit) -> None:
    result = kit.note("basic", "session/new")[0].get("result") or {}
    modes, options = result.get("modes"), result.get("configOptions")
    mode_options = [o for o in options or [] if isinstance(o, dict) and o.get("category") == "mode"]
    if not isinstance(modes, dict) or not mode_options:
        raise skip("session/new does not return both modes and a mode config option")
    for option in mode_options:
        if option.get("currentValue") != modes.get("currentModeId"):
            raise fail(
                f"mode config option {option.get('id')!r} is {option.get('currentValue')!r} but "
                f"currentModeId is {modes.get('currentModeId')!r}"
            )
