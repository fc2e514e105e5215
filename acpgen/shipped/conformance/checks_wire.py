"""Checks that read any transcript the same way, whichever side the implementation plays.

Each takes the transcripts of the runs (frames ``in`` come from the implementation under
test) and raises :class:`CheckFailed` naming the first offending frame, or
:class:`CheckSkipped` when the run never showed what the requirement is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from .outcome import fail, skip
from .validate import STABLE_ERROR_CODES, Validator
from .wire import Frame, Transcript

TRACE_KEYS = ("traceparent", "tracestate", "baggage")
_TRACEPARENT = re.compile(r"^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$")
CONCISE_MESSAGE = 200  # characters: "a concise single sentence"


def received(ts: Sequence[Transcript]) -> Iterator[tuple[Transcript, Frame]]:
    for t in ts:
        for f in t.frames:
            if f.direction == "in":
                yield t, f


def received_objects(ts: Sequence[Transcript]) -> Iterator[tuple[Transcript, Frame]]:
    for t, f in received(ts):
        if f.is_object:
            yield t, f


def where(t: Transcript, f: Frame) -> str:
    return f"[{t.name}] {f.shown()}"


def require_traffic(ts: Sequence[Transcript]) -> None:
    if not any(True for _ in received(ts)):
        raise skip("the implementation wrote no message in any run")


# ---- transport ------------------------------------------------------------------------------


def utf8(ts: Sequence[Transcript]) -> None:
    require_traffic(ts)
    for t, f in received(ts):
        if f.problem and f.problem.startswith("not UTF-8"):
            raise fail(f"a line is {f.problem}: {where(t, f)}")


def newline_delimited(ts: Sequence[Transcript]) -> None:
    require_traffic(ts)
    for t, f in received(ts):
        if f.problem and f.problem.startswith("not JSON"):
            raise fail(f"a line does not hold one JSON message ({f.problem}): {where(t, f)}")


def only_messages(ts: Sequence[Transcript]) -> None:
    """Every line is a JSON-RPC 2.0 request, notification or response."""
    require_traffic(ts)
    for t, f in received(ts):
        problem = f.problem or message_shape_problem(f.message)
        if problem:
            raise fail(f"a line that is not a valid ACP message ({problem}): {where(t, f)}")


def message_shape_problem(message: Any) -> str | None:
    if not isinstance(message, dict):
        return "not a JSON object"
    if message.get("jsonrpc") != "2.0":
        return 'jsonrpc is not "2.0"'
    if "method" in message:
        if not isinstance(message["method"], str):
            return "method is not a string"
        return None
    if "id" not in message:
        return "neither method nor id"
    if ("result" in message) == ("error" in message):
        return "a response needs exactly one of result and error"
    return None


# ---- JSON-RPC message shape --------------------------------------------------------------------


def version_member(ts: Sequence[Transcript]) -> None:
    require_traffic(ts)
    for t, f in received_objects(ts):
        if f.get("jsonrpc") != "2.0":
            raise fail(f"jsonrpc is {f.get('jsonrpc')!r}, not \"2.0\": {where(t, f)}")


def no_rpc_prefix(ts: Sequence[Transcript]) -> None:
    require_traffic(ts)
    for t, f in received_objects(ts):
        if f.method is not None and f.method.startswith("rpc."):
            raise fail(f"method name uses the reserved rpc. prefix: {where(t, f)}")


def id_types(ts: Sequence[Transcript]) -> None:
    require_traffic(ts)
    for t, f in received_objects(ts):
        if "id" in f.message:
            value = f.message["id"]
            if isinstance(value, bool) or not isinstance(value, (str, int, float, type(None))):
                raise fail(
                    f"id is a {type(value).__name__}, not a string, number or null: {where(t, f)}"
                )


def ids_not_null(ts: Sequence[Transcript]) -> None:
    requests = [(t, f) for t, f in received_objects(ts) if f.is_request]
    if not requests:
        raise skip("the implementation sent no request")
    for t, f in requests:
        if f.get("id") is None:
            raise fail(f"request id is null: {where(t, f)}")


def ids_no_fraction(ts: Sequence[Transcript]) -> None:
    require_traffic(ts)
    for t, f in received_objects(ts):
        value = f.get("id")
        if isinstance(value, float):
            raise fail(
                f"numeric id {value!r} has a fractional part or is not an integer: {where(t, f)}"
            )


def params_structured(ts: Sequence[Transcript]) -> None:
    sent = [(t, f) for t, f in received_objects(ts) if f.method is not None]
    if not sent:
        raise skip("the implementation sent no request or notification")
    for t, f in sent:
        if "params" in f.message and not isinstance(f.message["params"], (dict, list)):
            raise fail(f"params is neither an object nor an array: {where(t, f)}")


def responses(ts: Sequence[Transcript]) -> list[tuple[Transcript, Frame]]:
    found = [(t, f) for t, f in received_objects(ts) if f.is_response]
    if not found:
        raise skip("the implementation sent no response")
    return found


def errors(ts: Sequence[Transcript]) -> list[tuple[Transcript, Frame]]:
    found = [(t, f) for t, f in received_objects(ts) if f.is_response and "error" in f.message]
    if not found:
        raise skip("the implementation sent no error response")
    return found


def result_on_success(ts: Sequence[Transcript]) -> None:
    for t, f in responses(ts):
        if "result" not in f.message and "error" not in f.message:
            raise fail(f"a response with neither result nor error: {where(t, f)}")
        if "result" in f.message and "error" in f.message:
            raise fail(f"a response with both result and error: {where(t, f)}")


def error_member(ts: Sequence[Transcript]) -> None:
    for t, f in errors(ts):
        if not isinstance(f.message["error"], dict):
            raise fail(f"error is not an object: {where(t, f)}")


def result_xor_error(ts: Sequence[Transcript]) -> None:
    for t, f in responses(ts):
        if ("result" in f.message) == ("error" in f.message):
            raise fail(f"a response must carry exactly one of result and error: {where(t, f)}")


def error_code_integer(ts: Sequence[Transcript]) -> None:
    for t, f in errors(ts):
        code = f.message["error"].get("code") if isinstance(f.message["error"], dict) else None
        if isinstance(code, bool) or not isinstance(code, int):
            raise fail(f"error code {code!r} is not an integer: {where(t, f)}")


def error_contains(ts: Sequence[Transcript]) -> None:
    for t, f in errors(ts):
        error = f.message["error"]
        if (
            not isinstance(error, dict)
            or not isinstance(error.get("message"), str)
            or "code" not in error
        ):
            raise fail(f"error object without an integer code and a string message: {where(t, f)}")


def error_message_concise(ts: Sequence[Transcript]) -> None:
    for t, f in errors(ts):
        error = f.message["error"]
        message = error.get("message") if isinstance(error, dict) else None
        if isinstance(message, str) and ("\n" in message.strip() or len(message) > CONCISE_MESSAGE):
            raise fail(
                f"error message is not one short sentence ({len(message)} characters): {where(t, f)}"
            )


def response_ids_known(ts: Sequence[Transcript]) -> None:
    """Every response answers a request the kit sent, with that request's id."""
    for t, f in responses(ts):
        if t.request_for(f) is None and f.get("id") is not None:
            raise fail(f"a response whose id matches no request the kit sent: {where(t, f)}")


def every_request_answered(ts: Sequence[Transcript]) -> None:
    asked = [(t, f) for t in ts for f in t.frames if f.direction == "out" and f.is_request]
    if not asked:
        raise skip("the kit sent no request")
    for t, f in asked:
        if t.response_to(f) is None:
            raise fail(f"no response to the kit's request: [{t.name}] {f.shown()}")


# ---- schema ------------------------------------------------------------------------------------


def validate_sent_by_peer(ts: Sequence[Transcript], v: Validator, method: str) -> int:
    """Validate the peer's requests/notifications of ``method`` and its results for it."""
    count = 0
    for t, f in received_objects(ts):
        if f.method == method:
            verdict = v.params(method, f.message.get("params"))
            count += 1
        elif f.is_response and "result" in f.message:
            request = t.request_for(f)
            if request is None or request.method != method:
                continue
            verdict = v.result(method, f.message["result"])
            count += 1
        else:
            continue
        if not verdict.ok:
            raise fail(f"{verdict.problem}: {where(t, f)}")
    return count


def shape(ts: Sequence[Transcript], v: Validator, *methods: str) -> None:
    count = sum(validate_sent_by_peer(ts, v, m) for m in methods)
    if count == 0:
        raise skip(f"no {' / '.join(methods)} message from the implementation in any run")


def no_extra_members(ts: Sequence[Transcript], v: Validator) -> None:
    require_traffic(ts)
    for t, f in received_objects(ts):
        if f.method is not None:
            verdict = v.params(f.method, f.message.get("params"))
            which = f"{f.method} params"
        elif f.is_response and "result" in f.message:
            request = t.request_for(f)
            if request is None or request.method is None:
                continue
            verdict = v.result(request.method, f.message["result"])
            which = f"{request.method} result"
        else:
            continue
        if verdict.extra:
            raise fail(
                f"{which} carries members the schema does not declare ({', '.join(verdict.extra)}): "
                f"{where(t, f)}"
            )


def extension_names(ts: Sequence[Transcript], v: Validator) -> None:
    stable = v.stable_methods()
    methods = [(t, f) for t, f in received_objects(ts) if f.method is not None]
    if not methods:
        raise skip("the implementation sent no request or notification")
    for t, f in methods:
        if f.method not in stable and not (f.method or "").startswith("_"):
            raise fail(
                f"method {f.method!r} is neither stable ACP nor an _extension: {where(t, f)}"
            )


def error_codes_meaning(ts: Sequence[Transcript]) -> None:
    for t, f in errors(ts):
        error = f.message["error"]
        if not isinstance(error, dict) or not isinstance(error.get("code"), int):
            raise fail(f"error without an integer code: {where(t, f)}")
        if not isinstance(error.get("message"), str):
            raise fail(f"error without a string message: {where(t, f)}")


def expect_error_code(t: Transcript, frame: Frame | None, code: int, what: str) -> None:
    if frame is None:
        raise fail(f"no response to {what}")
    error = frame.get("error")
    actual = error.get("code") if isinstance(error, dict) else None
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
    for t, f in received_objects(ts):
        for meta in metas(f.message):
            for key in TRACE_KEYS:
                if key not in meta:
                    continue
                seen += 1
                value = meta[key]
                if not isinstance(value, str):
                    raise fail(f"_meta.{key} is not a W3C trace-context string: {where(t, f)}")
                if key == "traceparent" and not _TRACEPARENT.match(value):
                    raise fail(
                        f"_meta.traceparent {value!r} is not a W3C traceparent: {where(t, f)}"
                    )
    if not seen:
        raise skip("the implementation used no traceparent / tracestate / baggage key in _meta")


# ---- paths -------------------------------------------------------------------------------------

PATH_MEMBERS = ("path", "cwd", "additionalDirectories")


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
    for t, f in received_objects(ts):
        payload = f.message.get("params") if f.method else f.message.get("result")
        for path in paths_in(payload):
            seen += 1
            if not is_absolute(path):
                raise fail(f"path {path!r} is not absolute: {where(t, f)}")
    if not seen:
        raise skip("the implementation sent no path in any run")
