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
    obj,
)
from .outcome import CheckSkipped, fail, not_checkable, skip
from .validate import STABLE_ERROR_CODES, Validator
from .wire import Frame, Transcript

ALL_SCENARIOS = (
    "basic",
    "no_capabilities",
    "all_capabilities",
    "version",
    "wire",
    "batch",
    "close_running",
    "cancel",
    "permission",
    "cancel_request",
    "mcp_stdio",
)
# Runs where the kit advertised fs and terminal false (without clientCapabilities at all
# is INIT-OMITTED-UNSUPPORTED's).
WITHOUT_FS_TERMINAL = (
    "basic",
    "wire",
    "batch",
    "cancel",
    "permission",
    "cancel_request",
)
# Session updates that carry the conversation (what session/load replays, what may follow a
# cancel only before the turn's response); the others describe the session's state.
HISTORY_UPDATES = w.TURN_UPDATES
INVALID = (-32602, -32600)  # what refusing a message as malformed looks like


class _AnyCode(tuple[int, ...]):
    """Every error code: the step is the requirement's own, any error fails it."""

    def __contains__(self, code: object) -> bool:
        return True


class _AllCodesBut(tuple[int, ...]):
    """Every error code but these (which are another requirement's)."""

    def __contains__(self, code: object) -> bool:
        return not super().__contains__(code)


ANY_ERROR = _AnyCode()
CONTENT_UPDATES = (
    "user_message_chunk",
    "agent_message_chunk",
    "agent_thought_chunk",
    "tool_call",
    "tool_call_update",
)


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
        """A fact the scenario established; otherwise skip with the reason it is missing.

        A step that did not happen (the agent refused a prerequisite, a turn outlived its
        timeout, the agent went away) gates the checks that needed it: they skip with that
        reason. What the step itself broke is charged by the check of its own requirement,
        from the bytes (RESPONSE-REQUIRED for a request provably never answered)."""
        run = self.run(scenario)
        if key in run.notes:
            return run.notes[key]
        if run.stopped is not None:
            raise skip(f"[{scenario}] {run.stopped}")
        raise skip(missing or f"[{scenario}] not exercised: {key}")

    def closed(self, names: Sequence[str] = ALL_SCENARIOS) -> list[bool]:
        return [self.run(n).closed for n in names]

    def prompts_fail(self) -> str | None:
        """Why ordinary prompt turns fail in this environment (no model, no login), or None."""
        run = self.run("basic")
        note = run.notes.get("prompt_text")
        if note is None:
            return f"[basic] {run.stopped}" if run.stopped else None
        error = note[1].get("error")
        if isinstance(error, dict):
            return f"an ordinary prompt turn fails here too: {note[1].shown()}"
        return None

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


def _result(frame: Frame | None, what: str, own: tuple[int, ...] = ()) -> dict[str, Any]:
    """The result of a step. An error fails the check only when its code is one of ``own``
    (the codes that mean the check's own requirement is broken); any other error is a
    prerequisite that failed here (no login, no model, ...): the check skips with it."""
    if frame is None:
        raise skip(f"{what}: no answer in time (charged to ACP-V1-JSONRPC-RESPONSE-REQUIRED)")
    error = frame.get("error")
    if isinstance(error, dict) and error.get("code") in own:
        raise fail(f"{what} failed with error {error.get('code')}: {frame.shown()}")
    if isinstance(error, dict) and error.get("code") == AUTH_REQUIRED:
        raise skip(f"{what}: the agent requires authentication ({error.get('message')!r})")
    if isinstance(error, dict):
        raise skip(f"{what} failed, so this cannot be judged: {frame.shown()}")
    result = frame.get("result")
    if not isinstance(result, dict):
        raise skip(f"{what}: no result object, so this cannot be judged: {frame.shown()}")
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


def _stop_reason(frame: Frame, what: str, own: tuple[int, ...] = ()) -> str:
    reason = _result(frame, what, own).get("stopReason")
    if not isinstance(reason, str):
        raise skip(
            f"{what}: result without a stopReason (charged to its schema check): {frame.shown()}"
        )
    return reason


def _update_kind(frame: Frame) -> str | None:
    params = frame.get("params")
    update = params.get("update") if isinstance(params, dict) else None
    kind = update.get("sessionUpdate") if isinstance(update, dict) else None
    return kind if isinstance(kind, str) else None


# ---- transport and JSON-RPC (any run) -----------------------------------------------------------

for _id, _func in w.transcript_checks("agent").items():
    wire_check(_id, _func)


@check("ACP-V1-TRANSPORT-STDIO-SHOULD")
def _stdio(_kit: AgentKit) -> None:
    raise not_checkable(
        "the kit can run an agent only over stdio: one that does not support it cannot be run "
        "(one error for the whole run), and what it writes to stdout is STDOUT-ONLY-ACP's"
    )


@check("ACP-V1-TRANSPORT-AGENT-STDERR-MAY")
def _stderr(kit: AgentKit) -> None:
    for t in kit.transcripts():
        try:
            t.stderr.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise fail(f"[{t.name}] stderr is not UTF-8 at byte {exc.start}") from None


def _answers(frames: list[Frame]) -> list[Frame]:
    return [r for f in frames for r in f.responses()]


def _later_answered(kit: AgentKit, scenario: str, key: str) -> bool:
    """Whether the agent answered the kit's next request (so a missing answer is no delay)."""
    frame = kit.run(scenario).notes.get(key)
    return isinstance(frame, Frame)


@check("ACP-V1-JSONRPC-RESPONSE-REQUIRED")
def _response_required(kit: AgentKit) -> None:
    names = ALL_SCENARIOS
    ts = kit.transcripts(names)
    # A custom (_) request never answered is EXT-RESPOND-TO-CUSTOM-REQUEST's.
    w.every_request_answered(ts, kit.closed(names), skip_methods=("_",))
    if not _answers(kit.note("wire", "parse_error")) and _later_answered(
        kit, "wire", "unknown_method"
    ):
        line = kit.note("wire", "parse_error_line")
        raise fail(
            f"no response (expected error -32700) to a line that is not JSON: {line.shown()}"
        )
    if not _answers(kit.note("wire", "invalid_request")) and _later_answered(
        kit, "wire", "unknown_method"
    ):
        line = kit.note("wire", "invalid_request_line")
        raise fail(
            f"no response (expected error -32600) to JSON that is no request: {line.shown()}"
        )
    sent, frames = kit.note("batch", "batch_empty")
    if not _answers(frames) and _later_answered(kit, "batch", "after_batches"):
        raise fail(f"no response (expected error -32600) to an empty batch: {sent.shown()}")


@check("ACP-V1-JSONRPC-RESPONSE-SAME-ID")
def _same_id(kit: AgentKit) -> None:
    w.response_ids_known(kit.transcripts())


@check("ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION")
def _no_reply(kit: AgentKit) -> None:
    late = _answers(kit.note("wire", "after_notifications"))
    if late:
        raise fail(f"a response after notifications only: {late[0].shown()}")
    sent, frames = kit.note("batch", "batch_notifications")
    if _answers(frames):
        raise fail(
            f"a response to a batch of notifications only: {_answers(frames)[0].shown()} "
            f"(sent {sent.shown()})"
        )
    sent, frames = kit.note("batch", "batch_mixed")
    answers = _answers(frames)
    request = next(p for p in sent.parts() if p.is_request)
    answered = [a for a in answers if a.get("id") == request.get("id")]
    if answered and len(answers) > 1:
        extra = next(a for a in answers if a not in answered)
        raise fail(
            f"a response for the notification of a batch: {extra.shown()} (sent {sent.shown()})"
        )


@check("ACP-V1-JSONRPC-RESPONSE-ID-ECHO")
def _id_echo(kit: AgentKit) -> None:
    w.ids_echoed(kit.transcripts())
    for scenario, key, what in (
        ("wire", "parse_error", "a line that is not JSON"),
        ("wire", "invalid_request", "JSON that is no request"),
        ("batch", "batch_empty", "an empty batch"),
    ):
        note = kit.note(scenario, key)
        frames = note[1] if isinstance(note, tuple) else note
        for answer in _answers(frames):
            if answer.get("id") is not None and "id" in answer.message:
                raise fail(f"the error response to {what} must have id null: {answer.shown()}")


@check("ACP-V1-JSONRPC-PARAM-NAMES-EXACT")
def _param_names(kit: AgentKit) -> None:
    frame = kit.note("wire", "miscased_params")
    if frame is None:
        raise skip("no answer to session/new with miscased names (charged to RESPONSE-REQUIRED)")
    if "result" in frame.message and "error" not in frame.message:
        raise fail(
            "session/new with CWD / MCPServers instead of cwd / mcpServers succeeded: "
            f"{frame.shown()}"
        )


@check("ACP-V1-JSONRPC-PARAMS-MAY-BE-OMITTED")
def _params_omitted(kit: AgentKit) -> None:
    frame = kit.note(
        "basic",
        "list_no_params",
        "the agent advertises no method whose params are all optional (session/list)",
    )
    _result(frame, "session/list without params", own=(-32602, -32600))


# What each probe's error code must be when the answer is an error (SCHEMA-ERROR-OBJECT: the
# predefined codes keep their meanings). No answer is RESPONSE-REQUIRED's; a success is not
# an error object.
_PROBE_CODES = (
    ("wire", "parse_error", -32700, "a line that is not JSON"),
    ("wire", "invalid_request", -32600, "JSON that is no request"),
    ("wire", "unknown_method", -32601, "an unknown method"),
    ("wire", "bad_params", -32602, "session/new with cwd 42"),
    ("batch", "batch_empty", -32600, "an empty batch"),
)


@check("ACP-V1-SCHEMA-ERROR-OBJECT")
def _error_object(kit: AgentKit) -> None:
    judged = 0
    for scenario, key, code, what in _PROBE_CODES:
        note = kit.note(scenario, key)
        if isinstance(note, tuple):
            note = note[1]
        answers = _answers(note) if isinstance(note, list) else [note] if note else []
        errors = [a for a in answers if isinstance(a.get("error"), dict)]
        if not errors or (key == "bad_params" and _refuses_every_session(kit, errors[0])):
            continue
        judged += 1
        actual = errors[0].message["error"].get("code")
        if not isinstance(actual, int) or isinstance(actual, bool):
            continue  # JSONRPC-ERROR-CODE-INTEGER's
        if actual != code:
            raise fail(
                f"{what}: expected error {code} ({STABLE_ERROR_CODES[code]}), got {actual!r}: "
                f"{errors[0].shown()}"
            )
    if not judged:
        raise skip("the agent answered none of the kit's malformed messages with an error")


def _refuses_every_session(kit: AgentKit, error: Frame) -> bool:
    """Whether session/new with good params got the same error as the malformed one (then
    that error is about something else than the params: INIT-SESSION-BASELINE, ...)."""
    good = kit.run("wire").notes.get("still_alive")
    code = error.message["error"].get("code")
    return isinstance(good, Frame) and (good.get("error") or {}).get("code") == code


@check("ACP-V1-EXT-NO-ROOT-CUSTOM-FIELDS")
def _extra(kit: AgentKit) -> None:
    w.no_extra_members(kit.transcripts(), kit.validator)


@check("ACP-V1-SCHEMA-EXTENSION-METHOD-NAMES")
def _ext_names(kit: AgentKit) -> None:
    w.extension_names(kit.transcripts(), kit.validator, notifications=True)


@check("ACP-V1-EXT-CUSTOM-REQUESTS-MAY")
def _ext_requests(kit: AgentKit) -> None:
    w.extension_names(kit.transcripts(), kit.validator, notifications=False)


@check("ACP-V1-EXT-RESPOND-TO-CUSTOM-REQUEST")
def _ext_answered(kit: AgentKit) -> None:
    frame = kit.note("wire", "unknown_ext")
    if frame is None:
        if _later_answered(kit, "wire", "bad_params") or _later_answered(
            kit, "wire", "still_alive"
        ):
            raise fail("no response to the custom request _acpgen_kit/unknown (id 'kit-ext-1')")
        raise skip("no answer to the custom request in time, and none to the next request")


@check("ACP-V1-EXT-UNKNOWN-METHOD-NOT-FOUND")
def _ext_not_found(kit: AgentKit) -> None:
    frame = kit.note("wire", "unknown_ext")
    if frame is None:
        raise skip("no answer to the custom request (charged to EXT-RESPOND-TO-CUSTOM-REQUEST)")
    w.expect_error_code(kit.run("wire").transcript, frame, -32601, "an unknown _ extension request")


@check("ACP-V1-EXT-IGNORE-UNKNOWN-NOTIFICATIONS")
def _ext_notifications(kit: AgentKit) -> None:
    run = kit.run("wire")
    notices = [f for f in run.transcript.sent() if f.method == "acpgen-kit/unknown-notice"]
    if notices and run.closed and "still_alive" not in run.notes:
        raise fail(f"the agent went away after unknown notifications: {run.stopped}")
    frame = kit.note("wire", "still_alive")
    if not frame.responses():
        raise fail(f"no answer to session/new after unknown notifications: {frame.shown()}")


@check("ACP-V1-EXT-META-NO-ASSUMPTIONS")
def _meta(kit: AgentKit) -> None:
    # Compared with the same steps without _meta (basic): only a difference is the agent's.
    _result(kit.note("basic", "session/new")[0], "session/new")
    _result(
        kit.note("no_capabilities", "session/new")[0],
        "session/new with unusual _meta",
        own=(-32602, -32600),
    )
    if kit.prompts_fail() is None:
        _stop_reason(
            kit.note("no_capabilities", "prompt_text")[1],
            "session/prompt with unusual _meta",
            own=(-32602, -32600, -32603),
        )


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
}
AGENT_CHECKS["ACP-V1-SCHEMA-CONTENT-BLOCK-VARIANTS"] = lambda kit: w.content_blocks(
    kit.transcripts(), kit.validator, "session/update"
)


def _shape_check(methods: tuple[str, ...]) -> Check:
    return lambda kit: w.shape(kit.transcripts(), kit.validator, *methods)


for _id, _methods in _SHAPES.items():
    AGENT_CHECKS[_id] = _shape_check(_methods)


def _auth_shape(kit: AgentKit, method: str, option: str) -> None:
    """The result of the kit's ``method`` call (all_capabilities run), validated; an error
    answer (no login possible here, ...) leaves nothing to judge."""
    notes = kit.run("all_capabilities").notes
    why = notes.get(f"no_{method}") or f"the kit may not call {method} (give {option})"
    frame = kit.note("all_capabilities", method, why)
    if isinstance(frame.get("error"), dict) or "result" not in frame.message:
        raise skip(f"{method} answered no result, so its shape cannot be judged: {frame.shown()}")
    w.shape([kit.run("all_capabilities").transcript], kit.validator, method)


@check("ACP-V1-SCHEMA-AUTHENTICATE-SHAPE")
def _authenticate(kit: AgentKit) -> None:
    _auth_shape(kit, "authenticate", "--acp-auth-method")


@check("ACP-V1-SCHEMA-LOGOUT-SHAPE")
def _logout(kit: AgentKit) -> None:
    _auth_shape(kit, "logout", "--acp-logout")


AUTH_TYPES = ("agent", "terminal")  # the stable AuthMethod variants' "type" (none: agent)


@check("ACP-V1-SCHEMA-AUTH-METHOD-VARIANTS")
def _auth_methods(kit: AgentKit) -> None:
    frame = kit.note("basic", "initialize")[0]
    methods = kit.init_result().get("authMethods")
    if not methods:
        raise skip("the agent advertises no authMethods")
    for method in methods if isinstance(methods, list) else [methods]:
        kind = method.get("type") if isinstance(method, dict) else None
        if isinstance(method, dict) and "type" in method and kind not in AUTH_TYPES:
            raise fail(
                f"auth method of type {kind!r}, which no stable variant has: {frame.shown()}"
            )
        verdict = kit.validator.definition("AuthMethod", method)
        if not verdict.ok:
            raise fail(f"{verdict.problem}: {frame.shown()}")


@check("ACP-V1-SCHEMA-STOP-REASON-VALUES", "ACP-V1-PROMPT-AGENT-MAY-STOP")
def _stop_values(kit: AgentKit) -> None:
    allowed = set(STOP_REASONS)
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
            if "stopReason" in (f.message["result"] or {}) and reason not in allowed:
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
    version = result.get("protocolVersion")
    if not isinstance(version, int) or isinstance(version, bool):
        raise fail(
            f"initialize result without an integer protocolVersion: "
            f"{kit.note('basic', 'initialize')[0].shown()}"
        )
    # agentCapabilities may be omitted: the schema's default then states them (none optional).
    caps = result.get("agentCapabilities", {})
    if not isinstance(caps, dict):
        raise fail(f"agentCapabilities is not an object: {caps!r}")


def _answered_version(frame: Frame, result: dict[str, Any]) -> int:
    """The protocolVersion answered; one that is no integer is INIT-AGENT-RESPONSE's."""
    answered = result.get("protocolVersion")
    if not isinstance(answered, int) or isinstance(answered, bool):
        raise skip(f"initialize answered no integer protocolVersion: {frame.shown()}")
    return answered


@check("ACP-V1-INIT-AGENT-SAME-VERSION")
def _same_version(kit: AgentKit) -> None:
    answered = _answered_version(kit.note("basic", "initialize")[0], kit.init_result())
    if answered != PROTOCOL_VERSION:
        raise fail(
            f"asked for protocol version {PROTOCOL_VERSION}, the agent answered {answered!r}"
        )


@check("ACP-V1-INIT-VERSION-AGREEMENT")
def _agreement(kit: AgentKit) -> None:
    # Having agreed on version 1, the agent acts on it: its baseline session/new is served
    # (not refused as an unknown method or an invalid request).
    if _answered_version(kit.note("basic", "initialize")[0], kit.init_result()) != PROTOCOL_VERSION:
        raise skip("the agent did not agree on version 1 (INIT-AGENT-SAME-VERSION's)")
    _result(
        kit.note("basic", "session/new")[0],
        "session/new after agreeing on version 1",
        own=(-32600,),  # -32601 for session/new is INIT-SESSION-BASELINE's
    )


@check("ACP-V1-INIT-AGENT-LATEST-VERSION")
def _latest(kit: AgentKit) -> None:
    # Asked for a version no ACP release defines, the agent answers the latest it supports:
    # not the one asked for, and not below one it accepted when asked (an agent that speaks
    # versions 1 and 2 rightly answers 1 to 1 and 2 to 9999).
    frame = kit.note("version", "initialize")[0]
    what = f"initialize with protocolVersion {UNSUPPORTED_VERSION}"
    answered = _answered_version(frame, _result(frame, what, own=ANY_ERROR))
    if answered == UNSUPPORTED_VERSION:
        raise fail(
            f"echoed protocol version {UNSUPPORTED_VERSION}, which no ACP release defines, "
            f"instead of its own latest: {frame.shown()}"
        )
    accepted = kit.init_result().get("protocolVersion")
    if isinstance(accepted, int) and answered < accepted:
        raise fail(
            f"answered {answered} to version {UNSUPPORTED_VERSION} but accepts {accepted}: "
            f"not its latest: {frame.shown()}"
        )


@check("ACP-V1-INIT-CAPABILITIES-OPTIONAL")
def _caps_optional(kit: AgentKit) -> None:
    _result(
        kit.note("no_capabilities", "initialize")[0],
        "initialize without clientCapabilities",
        own=INVALID,
    )


@check("ACP-V1-INIT-SUPPORT-ALL-COMBINATIONS")
def _combinations(kit: AgentKit) -> None:
    # The same prompt turn must work whatever the kit advertised, once it works at all.
    if kit.prompts_fail():
        raise skip(str(kit.prompts_fail()))
    for scenario in ("no_capabilities", "all_capabilities"):
        _stop_reason(
            kit.note(scenario, "prompt_text")[1], f"[{scenario}] session/prompt", own=ANY_ERROR
        )


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
        ("fs/", "terminal/"),  # elicitation/create is ELIC-AGENT-NO-UNADVERTISED-MODE's
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
    for t in kit.transcripts():
        modes = _elicitation_modes(t)
        for f in t.requests("elicitation/create"):
            mode = obj(f.get("params")).get("mode")
            if not modes:
                raise fail(
                    f"the kit advertised no elicitation mode, yet the agent sent "
                    f"elicitation/create: [{t.name}] {f.shown()}"
                )
            if isinstance(mode, str) and mode not in modes:  # no mode: the shape check's
                raise fail(
                    f"elicitation/create in mode {mode!r}, which the kit did not advertise "
                    f"({', '.join(sorted(modes))}): [{t.name}] {f.shown()}"
                )


@check("ACP-V1-INIT-AGENT-SPECIFY-CAPABILITIES")
def _specify(kit: AgentKit) -> None:
    if not isinstance(kit.init_result().get("agentCapabilities"), dict):
        raise fail("initialize result has no agentCapabilities object")


@check("ACP-V1-INIT-PROMPT-BASELINE")
def _baseline(kit: AgentKit) -> None:
    # The text block alone is CONTENT-TEXT-SUPPORT's; here: a resource_link refused where
    # the same turn with text alone works.
    if kit.prompts_fail():
        raise skip(str(kit.prompts_fail()))
    _stop_reason(
        kit.note("basic", "prompt_link")[1],
        "a prompt with text and a resource_link",
        own=ANY_ERROR,
    )


@check("ACP-V1-CONTENT-TEXT-SUPPORT")
def _text(kit: AgentKit) -> None:
    _stop_reason(kit.note("basic", "prompt_text")[1], "a text prompt", own=INVALID)


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
    if kit.prompts_fail():
        raise skip(str(kit.prompts_fail()))
    for name in advertised:
        _stop_reason(
            kit.note("basic", f"prompt_{name}")[1],
            f"a prompt with {name} content (advertised)",
            own=ANY_ERROR,
        )


@check("ACP-V1-INIT-SESSION-BASELINE")
def _session_baseline(kit: AgentKit) -> None:
    # Not supported: the baseline methods answered "method not found".
    not_found = (-32601,)
    _result(kit.note("basic", "session/new")[0], "session/new", own=not_found)
    _stop_reason(kit.note("basic", "prompt_text")[1], "session/prompt", own=not_found)


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
                f"enable clientCapabilities.auth.terminal: {kit.note('basic', 'initialize')[0].shown()}"
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


def _history(run: Run, session: str, start: float, end: float) -> list[Frame]:
    """The conversation updates (not commands, modes, usage, ...) for ``session`` in a window."""
    return [
        f
        for f in _updates(run, session)
        if start <= f.time <= end and _update_kind(f) in HISTORY_UPDATES
    ]


def _prompted_turns(kit: AgentKit) -> None:
    """session/load replay is judged only for a session whose turns went through."""
    if kit.prompts_fail():
        raise skip(f"the loaded session has no conversation: {kit.prompts_fail()}")


@check("ACP-V1-SETUP-LOAD-REPLAY")
def _load_replay(kit: AgentKit) -> None:
    # Replayed at all (coming after the response is LOAD-RESPOND-AFTER-REPLAY's).
    run, sent, response = _exchange(kit, "load", "loadSession")
    _result(response, "session/load")
    _prompted_turns(kit)
    session = sent.message["params"]["sessionId"]
    if not _history(run, session, sent.time, float("inf")):
        raise fail(
            "session/load of a session with two finished turns answered without replaying any "
            f"message or tool call as session/update: {response.shown()}"
        )


@check("ACP-V1-SETUP-LOAD-RESPOND-AFTER-REPLAY")
def _load_after(kit: AgentKit) -> None:
    run, sent, response = _exchange(kit, "load", "loadSession")
    _result(response, "session/load")
    session = sent.message["params"]["sessionId"]
    late = _history(run, session, response.time + 1e-9, float("inf"))
    if late and _history(run, session, sent.time, response.time):
        raise fail(f"history replayed partly after the session/load response: {late[0].shown()}")
    if late:
        raise fail(f"replayed history arrived after the session/load response: {late[0].shown()}")


@check("ACP-V1-SETUP-RESUME-NO-REPLAY")
def _resume(kit: AgentKit) -> None:
    run, sent, response = _exchange(kit, "resume", "sessionCapabilities.resume")
    _result(response, "session/resume")
    replayed = _history(run, sent.message["params"]["sessionId"], sent.time, response.time)
    if replayed:
        raise fail(
            f"conversation replayed before the session/resume response: {replayed[0].shown()}"
        )


@check("ACP-V1-SETUP-RESUME-RESPONSE-STATE-MAY")
def _resume_state(kit: AgentKit) -> None:
    # Its shape is SCHEMA-RESUME-SESSION-SHAPE's; here: the state it may return is the
    # resumed session's (modes' current id among the available ones).
    _run, _sent, response = _exchange(kit, "resume", "sessionCapabilities.resume")
    modes = _result(response, "session/resume").get("modes")
    if isinstance(modes, dict):
        ids = [m.get("id") for m in modes.get("availableModes") or [] if isinstance(m, dict)]
        if modes.get("currentModeId") not in ids:
            raise fail(f"resumed currentModeId is not among availableModes: {response.shown()}")


@check("ACP-V1-SETUP-CLOSE-MAY-ERROR")
def _close_idle(kit: AgentKit) -> None:
    # The MAY allows an error for a session that does not exist or is not active, so not for
    # one the agent created on this connection and nobody closed (the kit's idle session).
    # No answer is RESPONSE-REQUIRED's, neither result nor error RESULT-XOR-ERROR's,
    # -32601 INIT-SESSION-OPTIONAL-MAY's.
    frame = kit.note(
        "basic", "close_idle", "the agent does not advertise sessionCapabilities.close"
    )
    _result(
        frame,
        "session/close of an open session the agent created on this connection",
        own=_AllCodesBut((-32601, AUTH_REQUIRED)),
    )


@check("ACP-V1-SETUP-CLOSE-CANCELS-AND-FREES")
def _close_cancels(kit: AgentKit) -> None:
    if not isinstance(kit.session_caps().get("close"), dict):
        raise skip("the agent does not advertise sessionCapabilities.close")
    _sent, response = kit.note("close_running", "closed_turn")
    if "result" in response.message:
        _known_stop_reason(_stop_reason(response, "the closed turn"), response)
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
    # Advertised, so answered with a result (its shape is SCHEMA-LIST-SESSIONS-SHAPE's).
    frame = kit.note("basic", "list_all", "the agent does not advertise sessionCapabilities.list")
    # -32601 for an advertised method is INIT-SESSION-OPTIONAL-MAY's.
    _result(frame, "session/list", own=_AllCodesBut((-32601,)))


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
    _result(frame, "session/delete of a session that never existed", own=_AllCodesBut((-32601,)))


# ---- prompt turns -----------------------------------------------------------------------------


@check("ACP-V1-PROMPT-RESPOND-WITH-STOP-REASON")
def _respond(kit: AgentKit) -> None:
    for key in ("prompt_text", "prompt_link"):
        frame = kit.note("basic", key)[1]
        if "stopReason" not in _result(frame, f"session/prompt ({key})"):
            raise fail(f"session/prompt result without a stopReason: {frame.shown()}")


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
    # These updates are validated here, not by SCHEMA-SESSION-UPDATE-VARIANTS (w.carve).
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
    # The request's shape is SCHEMA-REQUEST-PERMISSION-SHAPE's; here: it is about a session
    # of this connection and offers options.
    seen = 0
    for t in kit.transcripts():
        known = _session_ids_of(t)
        for f in t.requests("session/request_permission"):
            seen += 1
            params = f.get("params") or {}
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
        if (f.get("params") or {}).get("sessionId") not in known:
            raise fail(f"{method} for a session the agent never created: {f.shown()}")


def _cancelled_turn(kit: AgentKit) -> tuple[Frame, Frame, Frame]:
    sent, cancel_frame, response = kit.note("cancel", "cancelled_turn")
    return sent, cancel_frame, response


STOP_REASONS = ("end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled")


def _known_stop_reason(reason: str, response: Frame) -> None:
    if reason not in STOP_REASONS:
        raise skip(
            f"stopReason {reason!r} is no StopReason (SCHEMA-STOP-REASON-VALUES'): {response.shown()}"
        )


def _cancel_took_effect(kit: AgentKit) -> tuple[Frame, Frame, Frame]:
    """The cancelled turn, once the kit knows the cancel reached a turn that was running."""
    sent, cancel_frame, response = _cancelled_turn(kit)
    if response.time < cancel_frame.time:
        raise skip(f"the turn ended before session/cancel was sent: {response.shown()}")
    if kit.prompts_fail():
        raise skip(str(kit.prompts_fail()))
    return sent, cancel_frame, response


@check("ACP-V1-PROMPT-AGENT-STOP-ON-CANCEL")
def _stop_on_cancel(kit: AgentKit) -> None:
    _sent, cancel_frame, response = _cancelled_turn(kit)
    delay = response.time - cancel_frame.time
    if delay > kit.runner.target.timeout:
        raise fail(f"the turn ended {delay:.1f} s after session/cancel: {response.shown()}")


@check("ACP-V1-PROMPT-AGENT-CANCELLED-STOP-REASON")
def _cancelled(kit: AgentKit) -> None:
    # An error instead of a result is CATCH-ABORT-ERRORS'; here: the result's stopReason.
    _sent, _cancel, response = _cancel_took_effect(kit)
    reason = _stop_reason(response, "session/prompt after session/cancel")
    _known_stop_reason(reason, response)
    if reason != "cancelled":
        if not kit.runner.target.slow_prompt:
            raise skip(
                f"the turn ended ({reason}) before session/cancel took effect; give "
                "--acp-slow-prompt to keep the agent busy"
            )
        raise fail(
            f"a turn cancelled while running ended with stopReason {reason!r}: {response.shown()}"
        )
    run = kit.run("permission")
    if "permission_turn" in run.notes:
        response = run.notes["permission_turn"][3]
        reason = _stop_reason(response, "session/prompt cancelled during a permission request")
        if reason != "cancelled":
            raise fail(
                f"a turn cancelled during a permission request ended with {reason!r}: {response.shown()}"
            )


@check("ACP-V1-PROMPT-AGENT-CATCH-ABORT-ERRORS")
def _catch_abort(kit: AgentKit) -> None:
    _sent, _cancel, response = _cancel_took_effect(kit)
    if isinstance(response.get("error"), dict):
        raise fail(
            f"a cancelled turn answered with a JSON-RPC error instead of stopReason cancelled: "
            f"{response.shown()}"
        )


@check("ACP-V1-PROMPT-UPDATES-BEFORE-RESPONSE")
def _before_response(kit: AgentKit) -> None:
    # The rule is about cancellation: content or tool call updates sent after session/cancel
    # must come before the turn's response. The kit listens LATE_WINDOW seconds afterwards.
    sent, cancel_frame, response = _cancelled_turn(kit)
    if response.time < cancel_frame.time:
        raise skip(f"the turn ended before session/cancel was sent: {response.shown()}")
    session = (sent.get("params") or {}).get("sessionId")
    kit.note("cancel", "late_after_cancel")  # the kit listened after the response
    frames = kit.run("cancel").transcript.frames
    after = frames[next(i for i, f in enumerate(frames) if f is response) + 1 :]
    late = [
        f
        for f in after
        if f.direction == "in"
        and f.method == "session/update"
        and (f.get("params") or {}).get("sessionId") == session
        and _update_kind(f) in CONTENT_UPDATES
    ]
    if late:
        raise fail(
            f"[cancel] session/update after the cancelled turn's session/prompt response: "
            f"{late[0].shown()}"
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
        if kit.prompts_fail():
            raise skip(f"the error need not come from $/cancel_request: {kit.prompts_fail()}")
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


def _elicitation_modes(t: Transcript) -> set[str]:
    """The elicitation modes the kit's initialize advertised in this run ({} = supported)."""
    for f in t.sent():
        if f.method == "initialize":
            caps = obj(obj(obj(f.get("params")).get("clientCapabilities")).get("elicitation"))
            return {mode for mode, value in caps.items() if isinstance(value, dict)}
    return set()


def _elicitation_id(frame: Frame) -> str | None:
    """A string elicitationId (any other is the shape check's), or None."""
    value = obj(frame.get("params")).get("elicitationId")
    return value if isinstance(value, str) else None


def _url_elicitations(t: Transcript) -> list[Frame]:
    return [
        f
        for f in t.requests("elicitation/create")
        if obj(f.get("params")).get("mode") == "url" and _elicitation_id(f) is not None
    ]


def _position(t: Transcript, frame: Frame) -> int:
    return next(i for i, f in enumerate(t.frames) if f is frame)


def _accepted_before(t: Transcript, request: Frame, frame: Frame) -> bool:
    """Whether the kit had accepted the elicitation ``request`` before ``frame`` arrived."""
    answer = t.response_to(request)
    return (
        answer is not None
        and _position(t, answer) < _position(t, frame)
        and obj(answer.get("result")).get("action") == "accept"
    )


def _no_elicitation_seen(kit: AgentKit, what: str) -> CheckSkipped:
    why = "no prompt that makes the agent elicit (give --acp-elicitation-prompt)"
    kit.note("all_capabilities", "prompt_elicitation", why)  # or why that run stopped
    return skip(f"the agent sent no {what} (the kit advertised form and url elicitation)")


@check("ACP-V1-ELIC-AGENT-UNIQUE-ELICITATION-ID")
def _unique_elicitation_id(kit: AgentKit) -> None:
    # Outstanding for sure while the kit has not answered it (the kit reads what the agent
    # wrote before it could see the answer); the agent alone knows when an accepted one ends.
    seen = 0
    for t in kit.transcripts():
        if "url" not in _elicitation_modes(t):
            continue  # a URL elicitation there is ELIC-AGENT-NO-UNADVERTISED-MODE's
        created = _url_elicitations(t)
        seen += len(created)
        for index, later in enumerate(created):
            for earlier in created[:index]:
                answer = t.response_to(earlier)
                outstanding = answer is None or _position(t, answer) > _position(t, later)
                if outstanding and _elicitation_id(earlier) == _elicitation_id(later):
                    raise fail(
                        f"a URL elicitation reuses elicitationId {_elicitation_id(later)!r} "
                        f"while the kit had not yet answered the first: [{t.name}] "
                        f"{later.shown()} (first: {earlier.shown()})"
                    )
    if not seen:
        raise _no_elicitation_seen(kit, "URL elicitation")


def _completions(kit: AgentKit) -> list[tuple[Transcript, Frame, list[Frame]]]:
    """Each elicitation/complete with a string id, and the URL elicitations sent before it
    on the same connection with that id."""
    found = []
    for t in kit.transcripts():
        created = _url_elicitations(t)
        for f in t.notifications("elicitation/complete"):
            eid = _elicitation_id(f)
            if eid is not None:
                before = [c for c in created if _position(t, c) < _position(t, f)]
                found.append((t, f, [c for c in before if _elicitation_id(c) == eid]))
    if not found:
        raise _no_elicitation_seen(kit, "elicitation/complete (optional)")
    return found


@check("ACP-V1-ELIC-AGENT-COMPLETE-SAME-CLIENT")
def _complete_same_client(kit: AgentKit) -> None:
    for t, f, matching in _completions(kit):
        if not matching:
            raise fail(
                f"elicitation/complete for an elicitationId no URL elicitation of this "
                f"connection carried before: [{t.name}] {f.shown()}"
            )


@check("ACP-V1-ELIC-AGENT-COMPLETE-MAY")
def _complete_after_interaction(kit: AgentKit) -> None:
    # "after the external interaction finishes": it cannot have begun before the kit accepted
    # the URL elicitation. An id never elicited is ELIC-AGENT-COMPLETE-SAME-CLIENT's.
    for t, f, matching in _completions(kit):
        if matching and not _accepted_before(t, matching[-1], f):
            raise fail(
                f"elicitation/complete for a URL elicitation the kit had not accepted (the "
                f"external interaction cannot have finished): [{t.name}] {f.shown()} "
                f"(elicitation: {matching[-1].shown()})"
            )


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


@check("ACP-V1-CONFIG-INITIAL-STATE-MAY")
def _config_initial(kit: AgentKit) -> None:
    # Their shape is the schema checks'; here: a select option's current value is one it offers.
    payloads = _config_payloads(kit)
    if not payloads:
        raise skip("the agent sends no configOptions")
    for where, options in payloads:
        for option in options:
            if not isinstance(option, dict) or option.get("type") != "select":
                continue
            values = [o.get("value") for o in option.get("options") or [] if isinstance(o, dict)]
            values += [
                o.get("value")
                for g in option.get("options") or []
                if isinstance(g, dict)
                for o in g.get("options") or []
                if isinstance(o, dict)
            ]
            if "currentValue" in option and option["currentValue"] not in values:
                raise fail(
                    f"{where}: option {option.get('id')!r} has currentValue "
                    f"{option['currentValue']!r}, not one of its values {values!r}"
                )


@check("ACP-V1-CONFIG-CATEGORY-MAY")
def _config_category(kit: AgentKit) -> None:
    payloads = _config_payloads(kit)
    categories = [
        (where, o)
        for where, options in payloads
        for o in options
        if isinstance(o, dict) and "category" in o
    ]
    if not categories:
        raise skip("the agent sends no config option with a category")
    for where, option in categories:
        if option["category"] is not None and not isinstance(option["category"], str):
            raise fail(f"{where}: option {option.get('id')!r} has category {option['category']!r}")


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
