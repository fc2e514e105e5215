# Edit acpgen/shipped/conformance/checks_agent_jsonrpc.py, not this file: acpgen generate writes it.
"""The agent checks of the roster's transport, JSON-RPC and extensibility sections (TRANSPORT-, JSONRPC-, EXT-).

Each registers itself in ``AGENT_CHECKS`` (``agent_kit``); ``checks_agent`` imports them all.
"""

from __future__ import annotations

from . import checks_wire as w
from .agent_kit import (
    ALL_SCENARIOS,
    MESSAGES,
    AgentKit,
    answers_in,
    check,
    later_answered,
    notification_replies,
    received_count,
    refused_by_transport,
    step_result,
    stop_reason_of,
    wire_check,
)
from .observation import Observation
from .outcome import Findings, fail, not_checkable, skip
from .validate import STABLE_ERROR_CODES
from .wire import Frame

AGENT_CALLS = Observation(
    "request or notification from the agent",
    lambda kit: received_count(kit, lambda f: f.method is not None),
)
WITH_ID = Observation(
    "message with an id", lambda kit: received_count(kit, lambda f: "id" in f.message)
)

# What could fail each transcript check, where "a message from the agent" says too little.
_OBSERVES = {
    "ACP-V1-JSONRPC-RPC-PREFIX-RESERVED": AGENT_CALLS,
    "ACP-V1-JSONRPC-ID-TYPE": WITH_ID,
    "ACP-V1-JSONRPC-ID-NO-FRACTION": WITH_ID,
}
for _id, _func in w.transcript_checks("agent").items():
    wire_check(_id, _func, _OBSERVES.get(_id, MESSAGES))


@check("ACP-V1-TRANSPORT-STDIO-SHOULD")
def _stdio(_kit: AgentKit) -> None:
    raise not_checkable(
        "the kit can run an agent only over stdio: one that does not support it cannot be run "
        "(one error for the whole run), and what it writes to stdout is STDOUT-ONLY-ACP's"
    )


@check(
    "ACP-V1-TRANSPORT-AGENT-STDERR-MAY",
    observes=Observation(
        "byte on the agent's stderr", lambda kit: sum(len(t.stderr) for t in kit.transcripts())
    ),
)
def _stderr(kit: AgentKit) -> None:
    for t in kit.transcripts():
        try:
            t.stderr.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise fail(f"[{t.name}] stderr is not UTF-8 at byte {exc.start}") from None


# The probes that must each get an error with id null (JSON-RPC 2.0: -32700 / -32600): the
# scenario, its note of what was sent and of what came back, the request sent after it that
# proves the agent went on, the code and what the probe is.
_NULL_ID_PROBES = (
    (
        "wire",
        "parse_error_line",
        "parse_error",
        "unknown_method",
        -32700,
        "a line that is not JSON",
    ),
    (
        "wire",
        "invalid_request_line",
        "invalid_request",
        "unknown_method",
        -32600,
        "JSON that is no request",
    ),
    ("batch", "batch_empty", "batch_empty", "after_batches", -32600, "an empty batch"),
)


def _probe(
    kit: AgentKit, scenario: str, sent_key: str, key: str
) -> tuple[Frame, list[Frame]] | None:
    """(the probe as sent, what came back in its window), or None when the run never got to it."""
    note = kit.seen(scenario, key)
    if note is None:
        return None
    if isinstance(note, tuple):
        return note[0], note[1]
    sent = kit.seen(scenario, sent_key)
    return (sent, note) if isinstance(sent, Frame) else None


@check("ACP-V1-JSONRPC-RESPONSE-REQUIRED")
def _response_required(kit: AgentKit) -> None:
    # The batch run's requests serve its batches, which JSON-RPC 2.0 answers as a SHOULD
    # (reported beside the roster): an agent that never recovers from a batch breaks no MUST
    # there. Its empty batch, an invalid request like any other, is judged below. Every probe
    # left unanswered is listed; one the run never got to is not judged, the others still are.
    names = tuple(n for n in ALL_SCENARIOS if n != "batch")
    ts = kit.transcripts(names)
    with Findings() as found:
        # A custom (_) request never answered is EXT-RESPOND-TO-CUSTOM-REQUEST's.
        w.every_request_answered(ts, kit.closed(names), skip_methods=("_",))
        for scenario, sent_key, key, after, code, what in _NULL_ID_PROBES:
            probe = _probe(kit, scenario, sent_key, key)
            if probe is None:
                continue
            sent, frames = probe
            if not answers_in(frames) and unanswered_probe(kit, scenario, sent, after):
                found.add(
                    f"[{scenario}] no response (expected error {code}) to {what}: {sent.shown()}"
                )


def unanswered_probe(
    kit: AgentKit, scenario: str, sent: Frame, next_request: str = "unknown_method"
) -> bool:
    """A probe with no answer in its window is unanswered once the agent answered the kit's
    next request (no mere delay) or closed its output with none written after the probe,
    unless the transport refused it (no request then)."""
    if refused_by_transport(kit, scenario, sent):
        return False
    if later_answered(kit, scenario, next_request):
        return True
    run = kit.run(scenario)
    t = run.transcript
    after = t.frames[next(i for i, f in enumerate(t.frames) if f is sent) + 1 :]
    return run.closed and not any(r for f in after if f.direction == "in" for r in f.responses())


@check(
    "ACP-V1-JSONRPC-RESPONSE-SAME-ID",
    observes=Observation(
        "response from the agent", lambda kit: received_count(kit, lambda f: f.is_response)
    ),
)
def _same_id(kit: AgentKit) -> None:
    w.response_ids_known(kit.transcripts())


@check("ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION")
def _no_reply(kit: AgentKit) -> None:
    late = notification_replies(kit)
    if late:
        raise fail(f"a response after notifications only: {late[0].shown()}")
    note = kit.seen("batch", "batch_notifications")
    if note is not None and answers_in(note[1]):
        raise fail(
            f"a response to a batch of notifications only: {answers_in(note[1])[0].shown()} "
            f"(sent {note[0].shown()})"
        )
    note = kit.seen("batch", "batch_mixed")
    if note is None:
        return
    sent, frames = note
    answers = answers_in(frames)
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
        note = kit.seen(scenario, key)
        frames = note[1] if isinstance(note, tuple) else note or []
        for answer in answers_in(frames):
            if answer.get("id") is not None and "id" in answer.message:
                raise fail(f"the error response to {what} must have id null: {answer.shown()}")


@check("ACP-V1-JSONRPC-PARAM-NAMES-EXACT")
def _param_names(kit: AgentKit) -> None:
    frame = kit.note("wire", "miscased_params")
    if frame is None:
        raise skip("no answer to session/new with miscased names (charged to RESPONSE-REQUIRED)")
    good = kit.note("wire", "still_alive")
    if isinstance(good, Frame) and isinstance(good.get("error"), dict):
        raise skip(
            "session/new with the exact names fails here too, so refusing the miscased ones "
            f"tells nothing: {good.shown()}"
        )
    bad = kit.run("wire").notes.get("bad_params")
    if isinstance(bad, Frame) and "result" in bad.message and "error" not in bad.message:
        # It validates no params at all: accepting miscased names tells nothing of names.
        raise skip(
            'session/new with cwd 42 and mcpServers "none" succeeded too, so the agent '
            f"validates no params and accepting the miscased ones tells nothing: {bad.shown()}"
        )
    if "result" in frame.message and "error" not in frame.message:
        raise fail(
            "session/new with CWD / MCPServers instead of cwd / mcpServers succeeded: "
            f"{frame.shown()}"
        )


@check("ACP-V1-JSONRPC-PARAMS-MAY-BE-OMITTED")
def _params_omitted(_kit: AgentKit) -> None:
    # The roster's keyword decides: a MAY lets the sender of a request omit params. Nothing an
    # agent sends can break that permission, and an agent that refuses session/list without
    # params breaks no MUST of it (the duty "must accept" would come from the manifest, which
    # may narrow a check, never strengthen it).
    raise not_checkable(
        "a permission for the sender of a request (it MAY omit params): nothing the agent "
        "sends can break it, and refusing a request without params is no breach of a MAY"
    )


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
    # Every probe answered with the wrong code is listed; a probe the run never got to (the
    # agent crashed on an earlier batch) is not judged, the others still are.
    judged = 0
    with Findings() as found:
        for scenario, key, code, what in _PROBE_CODES:
            note = kit.seen(scenario, key)
            if isinstance(note, tuple):
                note = note[1]
            answers = answers_in(note) if isinstance(note, list) else [note] if note else []
            errors = [a for a in answers if isinstance(a.get("error"), dict)]
            if not errors or (key == "bad_params" and _refuses_every_session(kit, errors[0])):
                continue
            judged += 1
            actual = errors[0].message["error"].get("code")
            if not isinstance(actual, int) or isinstance(actual, bool):
                continue  # JSONRPC-ERROR-CODE-INTEGER's
            if actual != code:
                found.add(
                    f"[{scenario}] {what}: expected error {code} ({STABLE_ERROR_CODES[code]}), "
                    f"got {actual!r}: {errors[0].shown()}"
                )
    if not judged:
        for scenario in ("wire", "batch"):
            kit.note(scenario, "initialize")  # a run that stopped before: why
        raise skip("the agent answered none of the kit's malformed messages with an error")


def _refuses_every_session(kit: AgentKit, error: Frame) -> bool:
    """Whether session/new with good params got the same error as the malformed one (then
    that error is about something else than the params: INIT-SESSION-BASELINE, ...)."""
    good = kit.run("wire").notes.get("still_alive")
    code = error.message["error"].get("code")
    return isinstance(good, Frame) and (good.get("error") or {}).get("code") == code


@check(
    "ACP-V1-EXT-NO-ROOT-CUSTOM-FIELDS",
    observes=Observation(
        "params or result from the agent",
        lambda kit: received_count(kit, lambda f: f.method is not None or "result" in f.message),
    ),
)
def _extra(kit: AgentKit) -> None:
    w.no_extra_members(kit.transcripts(), kit.validator)


@check(
    "ACP-V1-SCHEMA-EXTENSION-METHOD-NAMES",
    observes=Observation(
        "notification from the agent",
        lambda kit: received_count(kit, lambda f: f.is_notification),
    ),
)
def _ext_names(kit: AgentKit) -> None:
    w.extension_names(kit.transcripts(), kit.validator, notifications=True)


@check(
    "ACP-V1-EXT-CUSTOM-REQUESTS-MAY",
    observes=Observation(
        "request from the agent", lambda kit: received_count(kit, lambda f: f.is_request)
    ),
)
def _ext_requests(kit: AgentKit) -> None:
    w.extension_names(kit.transcripts(), kit.validator, notifications=False)


@check("ACP-V1-EXT-RESPOND-TO-CUSTOM-REQUEST")
def _ext_answered(kit: AgentKit) -> None:
    frame = kit.note("wire", "unknown_ext")
    if frame is None:
        if later_answered(kit, "wire", "bad_params") or later_answered(kit, "wire", "still_alive"):
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
    with Findings() as found:
        # Answering an unknown notification is not ignoring it (NO-REPLY-TO-NOTIFICATION
        # fails for the same bytes: one observation breaks both).
        for answer in notification_replies(kit):
            found.add(f"[wire] a response to unknown notifications: {answer.shown()}")
        frame = kit.note("wire", "still_alive")
        if not frame.responses():
            found.add(f"no answer to session/new after unknown notifications: {frame.shown()}")


@check("ACP-V1-EXT-META-NO-ASSUMPTIONS")
def _meta(kit: AgentKit) -> None:
    # Compared with the same steps without _meta (basic): only a difference is the agent's.
    step_result(kit.note("basic", "session/new")[0], "session/new")
    step_result(
        kit.note("no_capabilities", "session/new")[0],
        "session/new with unusual _meta",
        own=(-32602, -32600),
    )
    if kit.prompts_fail() is None:
        stop_reason_of(
            kit.note("no_capabilities", "prompt_text")[1],
            "session/prompt with unusual _meta",
            own=(-32602, -32600, -32603),
        )
