# Edit acpgen/shipped/conformance/checks_wire.py, not this file: acpgen generate writes it.
"""Checks that read any transcript the same way, whichever side the implementation plays.

Each takes the transcripts of the runs (frames ``in`` come from the implementation under
test) and raises :class:`CheckFailed` naming the first offending frame, or
:class:`CheckSkipped` when the run never showed what the requirement is about.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .outcome import Findings, fail, noted, skip
from .validate import STABLE_ERROR_CODES, Validator
from .wire import Frame, Transcript, decode_line

TRACE_KEYS = ("traceparent", "tracestate", "baggage")
# Session updates that carry the conversation (a prompt turn's content, what session/load
# replays); the others describe the session's state and may come at any time.
TURN_UPDATES = (
    "user_message_chunk",
    "agent_message_chunk",
    "agent_thought_chunk",
    "tool_call",
    "tool_call_update",
    "plan",
)
_TRACEPARENT = re.compile(r"^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$")
CONCISE_MESSAGE = 200  # characters: "a concise single sentence"


def received(ts: Sequence[Transcript]) -> Iterator[tuple[Transcript, Frame]]:
    for t in ts:
        for f in t.frames:
            if f.direction == "in":
                yield t, f


def received_objects(ts: Sequence[Transcript]) -> Iterator[tuple[Transcript, Frame]]:
    """Every message received, those inside a batch one by one (quoted with the whole line)."""
    for t, f in received(ts):
        for part in f.parts():
            yield t, part


def where(t: Transcript, f: Frame) -> str:
    return f"[{t.name}] {f.shown()}"


def require_traffic(ts: Sequence[Transcript]) -> None:
    if not any(True for _ in received(ts)):
        raise skip("the implementation wrote no message in any run")


# ---- transport ------------------------------------------------------------------------------
#
# Each observation fails every requirement it breaks: a line that is not UTF-8 TRANSPORT-UTF8
# and STDOUT/STDIN-ONLY-ACP; a message split over lines (it parses once joined with the next)
# STDIO-NEWLINE-DELIMITED and STDOUT/STDIN-ONLY-ACP; any other line that is no message
# STDOUT/STDIN-ONLY-ACP; a wrong "jsonrpc" JSONRPC-VERSION-MEMBER; a response's members the
# response requirements. What a message's members break is judged by those requirements, so
# ONLY-ACP asks only whether the line is a JSON-RPC message at all.


def utf8(ts: Sequence[Transcript]) -> None:
    require_traffic(ts)
    with Findings() as found:
        for t, f in received(ts):
            if f.problem and f.problem.startswith("not UTF-8"):
                found.add(f"a line is {f.problem}: {where(t, f)}")


def split_messages(t: Transcript) -> list[list[Frame]]:
    """Runs of lines that are no JSON alone but one message together (an embedded newline)."""
    lines = t.received()
    found: list[list[Frame]] = []
    index = 0
    while index < len(lines):
        first = lines[index]
        joined, end = first.raw, None
        if first.problem and first.problem.startswith("not JSON"):
            for offset, nxt in enumerate(lines[index + 1 : index + 4], start=1):
                joined += nxt.raw
                if decode_line(first.direction, joined, first.time).problem is None:
                    end = index + offset
                    break
        if end is None:
            index += 1
            continue
        found.append(lines[index : end + 1])
        index = end + 1
    return found


def newline_delimited(ts: Sequence[Transcript]) -> None:
    require_traffic(ts)
    with Findings() as found:
        for t in ts:
            for run in split_messages(t):
                found.add(
                    f"one message over several lines (an embedded newline): {where(t, run[0])}"
                )


def only_messages(ts: Sequence[Transcript]) -> None:
    """Every line is a JSON-RPC message (or a batch of them). A line that is not UTF-8 or a
    message split over lines also breaks TRANSPORT-UTF8 / STDIO-NEWLINE-DELIMITED, and still
    fails here: such a line is not a valid ACP message either."""
    require_traffic(ts)
    with Findings() as found:
        for t in ts:
            split = {id(f) for run in split_messages(t) for f in run[1:]}  # quoted once
            for f in t.received():
                if id(f) in split:
                    continue
                problem = f.problem or message_shape_problem(f.message)
                if problem:
                    found.add(f"a line that is not a valid ACP message ({problem}): {where(t, f)}")


def message_shape_problem(message: Any) -> str | None:
    """Why a JSON value is no JSON-RPC message at all (faults inside one are charged elsewhere)."""
    if isinstance(message, list) and message:  # a batch: every element a message
        return next(filter(None, map(message_shape_problem, message)), None)
    if isinstance(message, list):
        return "an empty array"
    if not isinstance(message, dict):
        return f"a JSON {type(message).__name__}, not an object"
    if not any(k in message for k in ("method", "id", "result", "error")):
        return "an object with none of method, id, result and error"
    return None


# ---- JSON-RPC message shape --------------------------------------------------------------------


def version_member(ts: Sequence[Transcript]) -> None:
    require_traffic(ts)
    with Findings() as found:
        for t, f in received_objects(ts):
            if "jsonrpc" not in f.message:
                found.add(f"no jsonrpc member: {where(t, f)}")
                continue
            if f.message["jsonrpc"] != "2.0":
                found.add(f'jsonrpc is {f.message["jsonrpc"]!r}, not "2.0": {where(t, f)}')


def no_rpc_prefix(ts: Sequence[Transcript]) -> None:
    require_traffic(ts)
    with Findings() as found:
        for t, f in received_objects(ts):
            if f.method is not None and f.method.startswith("rpc."):
                found.add(f"method name uses the reserved rpc. prefix: {where(t, f)}")


def id_types(ts: Sequence[Transcript]) -> None:
    require_traffic(ts)
    with Findings() as found:
        for t, f in received_objects(ts):
            if "id" in f.message:
                value = f.message["id"]
                if isinstance(value, bool) or not isinstance(value, (str, int, float, type(None))):
                    found.add(
                        f"id is a {type(value).__name__}, not a string, number or null: {where(t, f)}"
                    )


def ids_not_null(ts: Sequence[Transcript]) -> None:
    requests = [(t, f) for t, f in received_objects(ts) if f.is_request]
    if not requests:
        raise skip("the implementation sent no request")
    with Findings() as found:
        for t, f in requests:
            if f.message["id"] is None:
                found.add(f"request id is null: {where(t, f)}")


def ids_no_fraction(ts: Sequence[Transcript]) -> None:
    require_traffic(ts)
    with Findings() as found:
        for t, f in received_objects(ts):
            value = f.get("id")
            if isinstance(value, float) and not value.is_integer():
                found.add(f"numeric id {value!r} has a fractional part: {where(t, f)}")


def params_structured(ts: Sequence[Transcript]) -> None:
    sent = [(t, f) for t, f in received_objects(ts) if f.method is not None]
    if not sent:
        raise skip("the implementation sent no request or notification")
    with Findings() as found:
        for t, f in sent:
            if "params" in f.message and not isinstance(f.message["params"], (dict, list)):
                found.add(f"params is neither an object nor an array: {where(t, f)}")


def responses(ts: Sequence[Transcript]) -> list[tuple[Transcript, Frame]]:
    found = [(t, f) for t, f in received_objects(ts) if f.is_response]
    if not found:
        raise skip("the implementation sent no response")
    return found


def errors(ts: Sequence[Transcript]) -> list[tuple[Transcript, Frame]]:
    """Responses with an error object and no result (other shapes are the members' checks)."""
    found = [
        (t, f)
        for t, f in received_objects(ts)
        if f.is_response and isinstance(f.message.get("error"), dict) and "result" not in f.message
    ]
    if not found:
        raise skip("the implementation sent no error response")
    return found


def _both_members(message: dict[str, Any]) -> str | None:
    """Which requirement a response with both result and error breaks (the null one tells)."""
    if not ("result" in message and "error" in message):
        return None
    if message["error"] is None:
        return "error"  # an error member although there was no error
    if message["result"] is None:
        return "result"  # a result member although there was an error
    return "both"


def result_on_success(ts: Sequence[Transcript]) -> None:
    with Findings() as found:
        for t, f in responses(ts):
            if _both_members(f.message) == "result":
                found.add(f"a result member (null) beside an error: {where(t, f)}")


def error_member(ts: Sequence[Transcript]) -> None:
    with Findings() as found:
        for t, f in responses(ts):
            if _both_members(f.message) == "error":
                found.add(f"an error member (null) beside a result: {where(t, f)}")
                continue
            error = f.message.get("error", {})
            if "result" not in f.message and not isinstance(error, dict):
                found.add(f"error is not an object: {where(t, f)}")


def result_xor_error(ts: Sequence[Transcript]) -> None:
    with Findings() as found:
        for t, f in responses(ts):
            if "result" not in f.message and "error" not in f.message:
                found.add(f"a response with neither result nor error: {where(t, f)}")
                continue
            if _both_members(f.message) == "both":
                found.add(f"a response with both result and error: {where(t, f)}")


def error_code_integer(ts: Sequence[Transcript]) -> None:
    with Findings() as found:
        for t, f in errors(ts):
            error = f.message["error"]
            if "code" in error and (
                isinstance(error["code"], bool) or not isinstance(error["code"], int)
            ):
                found.add(f"error code {error['code']!r} is not an integer: {where(t, f)}")


def error_contains(ts: Sequence[Transcript]) -> None:
    with Findings() as found:
        for t, f in errors(ts):
            error = f.message["error"]
            if "code" not in error or not isinstance(error.get("message"), str):
                found.add(f"error object without a code and a string message: {where(t, f)}")


# A sentence ends at . ! or ? followed by space and a capital letter (so "e.g. x", "v1.2",
# "1.5" and a path do not split one).
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.!?]\s+(?=[A-Z])")


def concise_problem(message: str) -> str | None:
    """Why an error message is not "a concise single sentence", or None."""
    text = message.strip()
    if "\n" in text:
        return "more than one line"
    if len(text) > CONCISE_MESSAGE:
        return f"{len(text)} characters"
    sentences = len(_SENTENCE_END.findall(text)) + 1
    if sentences > 1:
        return f"{sentences} sentences"
    return None


def error_message_concise(ts: Sequence[Transcript]) -> None:
    with Findings() as found:
        for t, f in errors(ts):
            message = f.message["error"].get("message")
            problem = concise_problem(message) if isinstance(message, str) else None
            if problem:
                found.add(f"error message is not one concise sentence ({problem}): {where(t, f)}")


def response_ids_known(ts: Sequence[Transcript]) -> None:
    """Every response that has a non-null id answers a request the kit sent, with that id
    (value and type; a missing or null id is RESPONSE-ID-ECHO's). The roster's "the same
    value ... if included" applies to a request that carried an id: a response whose id
    matches none is charged only when a request sent before it is left without its own
    response (it may be that one's answer, its id changed); when every request before it got
    its own answer, it replies to a message that carried no id (a notification, an invalid
    request), which is NO-REPLY-TO-NOTIFICATION's or RESPONSE-ID-ECHO's, not this."""
    with Findings() as found:
        for t, f in responses(ts):
            if f.get("id") is None or t.request_for(f) is not None:
                continue
            owed = [
                p
                for g in t.sent()
                if g.time <= f.time
                for p in g.parts()
                if p.is_request and t.response_to(p) is None
            ]
            if owed:
                found.add(f"a response whose id matches no request the kit sent: {where(t, f)}")


def ids_echoed(ts: Sequence[Transcript]) -> None:
    """Every response has an id member: the request's, or null when it could not be read."""
    with Findings() as found:
        for t, f in responses(ts):
            if "id" not in f.message:
                found.add(
                    f"a response without an id member (null is not the same as absent): {where(t, f)}"
                )


def _loosely_same(a: Any, b: Any) -> bool:
    return a == b or (a is not None and b is not None and str(a).lower() == str(b).lower())


def unanswered(t: Transcript, request: Frame, proven: bool) -> bool:
    """Whether the kit's request provably got no response: the peer answered a request sent
    later, or (``proven``) it closed its output with the request outstanding. A request the
    kit merely stopped waiting for is not judged (a slow model is no protocol fault)."""
    if t.response_to(request) is not None:
        return False
    req_id = request.get("id")
    if any(_loosely_same(r.get("id"), req_id) for f in t.received() for r in f.responses()):
        return False  # answered with the id changed: JSONRPC-RESPONSE-SAME-ID's
    if proven:
        return True
    later = [p for f in t.sent() if f.time > request.time for p in f.parts() if p.is_request]
    return any(t.response_to(p) is not None for p in later)


def every_request_answered(
    ts: Sequence[Transcript],
    closed: Sequence[bool] | None = None,
    skip_methods: tuple[str, ...] = (),
) -> None:
    """Every request the kit sent was answered, judged as :func:`unanswered` says; requests
    whose method starts with one of ``skip_methods`` are another requirement's."""
    asked = [
        (t, i, p)
        for i, t in enumerate(ts)
        for f in t.frames
        if f.direction == "out" and not f.is_batch  # batches: batch_requests_answered
        for p in f.parts()
        if p.is_request and not (skip_methods and (p.method or "").startswith(skip_methods))
    ]
    if not asked:
        raise skip("the kit sent no request")
    with Findings() as found:
        for t, i, p in asked:
            if unanswered(t, p, bool(closed and closed[i])):
                found.add(f"no response to the kit's request: [{t.name}] {p.shown()}")


def batch_requests_answered(ts: Sequence[Transcript]) -> list[str]:
    """What a peer left unanswered of the requests inside the kit's JSON-RPC batches.

    ACP v1 defines no batch; JSON-RPC 2.0 answers each call of a batch with its own response
    as a SHOULD ("The Server should respond with an Array containing the corresponding
    Response objects"). A peer that refuses batches with one -32600 keeps every MUST; this is
    reported at its own strength, beside the roster's requirements."""
    found = []
    for t in ts:
        for f in t.sent():
            if not f.is_batch:
                continue
            for p in f.parts():
                if p.is_request and unanswered(t, p, proven=False):
                    refused = [
                        r.shown() for g in t.received() if g.time > f.time for r in g.responses()
                    ]
                    seen = f" (answered instead: {refused[0]})" if refused else ""
                    found.append(f"[{t.name}] no response to {p.shown()} in batch{seen}")
    return found


# ---- schema ------------------------------------------------------------------------------------


# What a shape check leaves to a more specific requirement: a stopReason (missing:
# PROMPT-RESPOND-WITH-STOP-REASON; unknown: SCHEMA-STOP-REASON-VALUES), content blocks
# (SCHEMA-CONTENT-BLOCK-VARIANTS), authMethods (SCHEMA-AUTH-METHOD-VARIANTS) and the session
# updates whose own MAY check validates them.
TEXT_BLOCK = {"type": "text", "text": "checked as a ContentBlock on its own"}
MCP_STUB = {"name": "checked on its own", "command": "/bin/true", "args": [], "env": []}
UPDATES_CHECKED_ALONE = ("usage_update", "tool_call_update", "available_commands_update")


def carve(method: str, which: str, payload: Any) -> Any:
    """``payload`` minus what another requirement owns; None when nothing is left to check."""
    if which == "params" and payload is not None and not isinstance(payload, (dict, list)):
        return None  # JSONRPC-PARAMS-STRUCTURED's
    if not isinstance(payload, dict):
        return payload
    if method == "session/prompt" and which == "result":
        return {**payload, "stopReason": "end_turn"}
    if method == "session/prompt" and isinstance(payload.get("prompt"), list):
        return {**payload, "prompt": [TEXT_BLOCK for _ in payload["prompt"]]}
    if method == "initialize" and which == "result":
        # authMethods: SCHEMA-AUTH-METHOD-VARIANTS; protocolVersion: INIT-AGENT-RESPONSE;
        # agentInfo: INIT-IMPLEMENTATION-INFO.
        kept = {k: v for k, v in payload.items() if k not in ("authMethods", "agentInfo")}
        return {**kept, "protocolVersion": 1}
    if isinstance(payload.get("mcpServers"), list) and which == "params":
        # Each server's shape is SCHEMA-MCP-SERVER-VARIANTS'.
        payload = {**payload, "mcpServers": [MCP_STUB for _ in payload["mcpServers"]]}
    if isinstance(payload.get("configOptions"), list):
        payload = {**payload, "configOptions": [_carve_option(o) for o in payload["configOptions"]]}
    update = payload.get("update")
    if method == "session/update" and isinstance(update, dict):
        if update.get("sessionUpdate") in UPDATES_CHECKED_ALONE:
            return None
        # messageId: PROMPT-MESSAGE-ID-MAY's; content: SCHEMA-CONTENT-BLOCK-VARIANTS'.
        update = {k: v for k, v in update.items() if k != "messageId"}
        if isinstance(update.get("content"), dict):
            update["content"] = TEXT_BLOCK
        return {**payload, "update": update}
    return payload


def _carve_option(option: Any) -> Any:
    """A config option minus its category (CONFIG-CATEGORY-MAY's) and with a currentValue
    (a missing one is CONFIG-AGENT-DEFAULTS')."""
    if not isinstance(option, dict):
        return option
    kept = {k: v for k, v in option.items() if k != "category"}
    if "currentValue" not in kept:
        values = [o.get("value") for o in kept.get("options") or [] if isinstance(o, dict)]
        kept["currentValue"] = False if kept.get("type") == "boolean" else (values or [""])[0]
    return kept


def validate_sent_by_peer(ts: Sequence[Transcript], v: Validator, method: str) -> int:
    """Validate the peer's requests/notifications of ``method`` and its results for it."""
    count = 0
    with Findings() as found:
        for t, f in received_objects(ts):
            if f.method == method:
                which, payload = "params", f.message.get("params")
            elif f.is_response and "result" in f.message:
                request = t.request_for(f)
                if request is None or request.method != method:
                    continue
                which, payload = "result", f.message["result"]
            else:
                continue
            payload = carve(method, which, payload)
            if payload is None:
                continue
            if which == "params" and isinstance(payload, dict):
                # A declared name in another case is JSONRPC-PARAM-NAMES-EXACT's.
                declared = {d.lower(): d for d in v.declared(method)}
                payload = {
                    (declared.get(k.lower(), k) if k not in declared.values() else k): x
                    for k, x in payload.items()
                }
            count += 1
            verdict = v.params(method, payload) if which == "params" else v.result(method, payload)
            if not verdict.ok:
                found.add(f"{verdict.problem}: {where(t, f)}")
    return count


def shape(ts: Sequence[Transcript], v: Validator, *methods: str) -> None:
    count = sum(validate_sent_by_peer(ts, v, m) for m in methods)
    if count == 0:
        raise skip(f"no {' / '.join(methods)} message from the implementation in any run")


def content_blocks(ts: Sequence[Transcript], v: Validator, method: str) -> None:
    """Every content block the implementation sent (a chunk's content, a prompt's blocks) is
    one of the stable ContentBlock variants."""
    seen = 0
    with Findings() as found:
        for t, f in received_objects(ts):
            params = f.get("params")
            if f.method != method or not isinstance(params, dict):
                continue
            update = params.get("update")
            blocks = (
                params.get("prompt")
                if method == "session/prompt"
                else (
                    [update["content"]]
                    if isinstance(update, dict) and isinstance(update.get("content"), dict)
                    else []
                )
            )
            for block in blocks if isinstance(blocks, list) else []:
                seen += 1
                verdict = v.definition("ContentBlock", block)
                if not verdict.ok:
                    found.add(f"{verdict.problem}: {where(t, f)}")
    if not seen:
        raise skip(f"no content block in any {method} from the implementation")


def no_extra_members(ts: Sequence[Transcript], v: Validator) -> None:
    """No member the schema does not declare. One that the same protocol version's unstable
    surface declares (``sessionCapabilities.fork``, ``PromptResponse.usage``) is ACP's, not
    custom: it is reported as a note, never as a failure."""
    require_traffic(ts)
    unstable = v.unstable()
    notes: list[str] = []
    with Findings() as found:
        for t, f in received_objects(ts):
            if f.method is not None:
                method, which, payload = f.method, "params", f.message.get("params")
            elif f.is_response and "result" in f.message:
                request = t.request_for(f)
                if request is None or request.method is None:
                    continue
                method, which, payload = request.method, "result", f.message["result"]
            else:
                continue
            verdict = v.params(method, payload) if which == "params" else v.result(method, payload)
            # an auth method's members are SCHEMA-AUTH-METHOD-VARIANTS'
            extra = [p for p in verdict.extra if not p.startswith("/authMethods/")]
            if not extra:
                continue
            acp = _declared_by(unstable, method, which, payload, extra)
            custom = [p for p in extra if p not in acp]
            if acp:
                notes.append(f"{method} {which}: {', '.join(acp)}")
            if custom:
                found.add(
                    f"{method} {which} carries members the schema does not declare "
                    f"({', '.join(custom)}): {where(t, f)}"
                )
    if notes:
        raise noted(
            "members the stable v1 schema does not declare but the v1 unstable schema does "
            f"(ACP's, not custom): {'; '.join(dict.fromkeys(notes))}"
        )


def _declared_by(
    unstable: Validator | None, method: str, which: str, payload: Any, extra: list[str]
) -> list[str]:
    """Which of ``extra`` (member paths undeclared by the stable schema) the unstable surface
    declares; none when it is not generated or does not accept the payload at all."""
    if unstable is None:
        return []
    verdict = (
        unstable.params(method, payload) if which == "params" else unstable.result(method, payload)
    )
    if not verdict.ok:
        return []
    return [p for p in extra if p not in verdict.extra]


def extension_names(ts: Sequence[Transcript], v: Validator, notifications: bool) -> None:
    """Methods outside the stable set start with ``_``: the requests (``notifications``
    False) or the notifications (True) the implementation sent."""
    stable = v.stable_methods()
    kind = "notification" if notifications else "request"
    methods = [
        (t, f)
        for t, f in received_objects(ts)
        if f.method is not None and f.is_notification == notifications
    ]
    if not methods:
        raise skip(f"the implementation sent no {kind}")
    with Findings() as found:
        for t, f in methods:
            if f.method not in stable and not (f.method or "").startswith(("_", "rpc.")):
                found.add(
                    f"{kind} method {f.method!r} is neither stable ACP nor an _extension: {where(t, f)}"
                )


def expect_error_code(t: Transcript, frame: Frame | None, code: int, what: str) -> None:
    """The answer to ``what`` is an error with ``code``; no answer is RESPONSE-REQUIRED's."""
    if frame is None:
        raise skip(f"no response to {what} (charged to ACP-V1-JSONRPC-RESPONSE-REQUIRED)")
    error = frame.get("error")
    if "error" in frame.message and not isinstance(error, dict):
        raise skip(f"{what}: the error is no object (JSONRPC-ERROR-MEMBER-ON-ERROR's)")
    actual = error.get("code") if isinstance(error, dict) else None
    if isinstance(error, dict) and (not isinstance(actual, int) or isinstance(actual, bool)):
        raise skip(f"{what}: the error code is no integer (JSONRPC-ERROR-CODE-INTEGER's)")
    if actual != code:
        got = f"error {actual}" if actual is not None else "a success"
        raise fail(
            f"{what}: expected error {code} ({STABLE_ERROR_CODES.get(code)}), got {got}: {where(t, frame)}"
        )


# ---- _meta -------------------------------------------------------------------------------------


def metas(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        meta = value.get("_meta")
        if isinstance(meta, dict):
            yield meta
        for key, item in value.items():
            if key != "_meta":
                yield from metas(item)
    elif isinstance(value, list):
        for item in value:
            yield from metas(item)


def trace_keys(ts: Sequence[Transcript]) -> None:
    seen = 0
    with Findings() as found:
        for t, f in received_objects(ts):
            for meta in metas(f.message):
                for key in TRACE_KEYS:
                    if key not in meta:
                        continue
                    seen += 1
                    value = meta[key]
                    if not isinstance(value, str):
                        found.add(f"_meta.{key} is not a W3C trace-context string: {where(t, f)}")
                        continue
                    if key == "traceparent" and not _TRACEPARENT.match(value):
                        found.add(
                            f"_meta.traceparent {value!r} is not a W3C traceparent: {where(t, f)}"
                        )
    if not seen:
        raise skip("the implementation used no traceparent / tracestate / baggage key in _meta")


# ---- paths -------------------------------------------------------------------------------------

PATH_MEMBERS = ("path", "cwd", "additionalDirectories")
SESSION_SETUP = ("session/new", "session/load", "session/resume")


def is_absolute(path: str) -> bool:
    return path.startswith(("/", "\\\\")) or bool(re.match(r"^[A-Za-z]:[\\/]", path))


def paths_in(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "_meta":
                continue
            if key in PATH_MEMBERS and isinstance(item, str):
                yield item
            elif key in PATH_MEMBERS and isinstance(item, list):
                yield from (p for p in item if isinstance(p, str))
            else:
                yield from paths_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from paths_in(item)


def absolute_paths(ts: Sequence[Transcript]) -> None:
    seen = 0
    with Findings() as found:
        for t, f in received_objects(ts):
            payload = f.message.get("params") if f.method else f.message.get("result")
            if f.method in SESSION_SETUP and isinstance(payload, dict):
                # Their cwd and additionalDirectories are the session-setup requirements' own.
                payload = {
                    k: v for k, v in payload.items() if k not in ("cwd", "additionalDirectories")
                }
            request = t.request_for(f) if f.is_response else None
            if (
                request is not None
                and request.method == "session/list"
                and isinstance(payload, dict)
            ):
                # A listed session's additionalDirectories are LIST-ADDITIONAL-DIRS-MAY's.
                sessions = payload.get("sessions")
                payload = {
                    **payload,
                    "sessions": [
                        (
                            {k: v for k, v in s.items() if k != "additionalDirectories"}
                            if isinstance(s, dict)
                            else s
                        )
                        for s in (sessions if isinstance(sessions, list) else [])
                    ],
                }
            for path in paths_in(payload):
                seen += 1
                if not is_absolute(path):
                    found.add(f"path {path!r} is not absolute: {where(t, f)}")
    if not seen:
        raise skip("the implementation sent no path in any run")


# ---- the checks that need nothing but transcripts ------------------------------------------

TranscriptCheck = Callable[[Sequence[Transcript]], None]


def transcript_checks(side: str) -> dict[str, TranscriptCheck]:
    """The requirements these checks judge from the frames alone, for an implementation on
    ``side`` ("agent" or "client"): the live kit runs them on its runs' transcripts, the trace
    judge on a recorded conversation."""
    only = "AGENT-STDOUT" if side == "agent" else "CLIENT-STDIN"
    return {
        "ACP-V1-TRANSPORT-UTF8": utf8,
        "ACP-V1-TRANSPORT-STDIO-NEWLINE-DELIMITED": newline_delimited,
        f"ACP-V1-TRANSPORT-{only}-ONLY-ACP": only_messages,
        "ACP-V1-JSONRPC-VERSION-MEMBER": version_member,
        "ACP-V1-JSONRPC-RPC-PREFIX-RESERVED": no_rpc_prefix,
        "ACP-V1-JSONRPC-ID-TYPE": id_types,
        "ACP-V1-JSONRPC-ID-NOT-NULL": ids_not_null,
        "ACP-V1-JSONRPC-ID-NO-FRACTION": ids_no_fraction,
        "ACP-V1-JSONRPC-PARAMS-STRUCTURED": params_structured,
        "ACP-V1-JSONRPC-RESULT-ON-SUCCESS": result_on_success,
        "ACP-V1-JSONRPC-ERROR-MEMBER-ON-ERROR": error_member,
        "ACP-V1-JSONRPC-RESULT-XOR-ERROR": result_xor_error,
        "ACP-V1-JSONRPC-ERROR-CODE-INTEGER": error_code_integer,
        "ACP-V1-JSONRPC-ERROR-RESPONSE-CONTAINS-ERROR": error_contains,
        "ACP-V1-JSONRPC-ERROR-MESSAGE-CONCISE": error_message_concise,
        "ACP-V1-OVERVIEW-ABSOLUTE-PATHS": absolute_paths,
        "ACP-V1-EXT-META-TRACE-KEYS-RESERVED": trace_keys,
    }
