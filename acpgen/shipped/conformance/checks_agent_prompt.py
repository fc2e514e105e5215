"""The agent checks of the roster's prompt turns, tools and cancellation sections (PROMPT-, TOOLS-, CANCEL-, COMMANDS-).

Each registers itself in ``AGENT_CHECKS`` (``agent_kit``); ``checks_agent`` imports them all.
"""

from __future__ import annotations

from .agent_kit import (
    AGENT_CHECKS,
    CONTENT_UPDATES,
    AgentKit,
    Check,
    cancelled_turn,
    check,
    known_stop_reason,
    session_ids_of,
    step_result,
    stop_reason_of,
    update_kind,
    update_kinds,
)
from .outcome import fail, skip
from .wire import Frame


@check("ACP-V1-PROMPT-RESPOND-WITH-STOP-REASON")
def _respond(kit: AgentKit) -> None:
    for key in ("prompt_text", "prompt_link"):
        frame = kit.note("basic", key)[1]
        if "stopReason" not in step_result(frame, f"session/prompt ({key})"):
            raise fail(f"session/prompt result without a stopReason: {frame.shown()}")


@check("ACP-V1-PROMPT-MESSAGE-ID-MAY")
def _message_id(kit: AgentKit) -> None:
    seen = 0
    for kind in ("agent_message_chunk", "agent_thought_chunk", "user_message_chunk"):
        for t, f, update in update_kinds(kit, kind):
            if "messageId" in update:
                seen += 1
                if not isinstance(update["messageId"], str):
                    raise fail(f"messageId is not a string: [{t.name}] {f.shown()}")
    if not seen:
        raise skip("the agent puts no messageId on message chunks")


def _variant_check(kind: str) -> Check:
    # These updates are validated here, not by SCHEMA-SESSION-UPDATE-VARIANTS (w.carve).
    def run(kit: AgentKit) -> None:
        found = update_kinds(kit, kind)
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


@check("ACP-V1-PROMPT-PERMISSION-MAY", "ACP-V1-TOOLS-PERMISSION-MAY")
def _permission(kit: AgentKit) -> None:
    # The request's shape is SCHEMA-REQUEST-PERMISSION-SHAPE's; here: it is about a session
    # of this connection and offers options.
    seen = 0
    for t in kit.transcripts():
        known = session_ids_of(t)
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
    known = session_ids_of(t)
    for f in used:
        method = f.method or ""
        if (f.get("params") or {}).get("sessionId") not in known:
            raise fail(f"{method} for a session the agent never created: {f.shown()}")


def _cancel_took_effect(kit: AgentKit) -> tuple[Frame, Frame, Frame]:
    """The cancelled turn, once the kit knows the cancel reached a turn that was running."""
    sent, cancel_frame, response = cancelled_turn(kit)
    if response.time < cancel_frame.time:
        raise skip(f"the turn ended before session/cancel was sent: {response.shown()}")
    if kit.prompts_fail():
        raise skip(str(kit.prompts_fail()))
    return sent, cancel_frame, response


@check("ACP-V1-PROMPT-AGENT-STOP-ON-CANCEL")
def _stop_on_cancel(kit: AgentKit) -> None:
    _sent, cancel_frame, response = cancelled_turn(kit)
    delay = response.time - cancel_frame.time
    if delay > kit.runner.target.timeout:
        raise fail(f"the turn ended {delay:.1f} s after session/cancel: {response.shown()}")


@check("ACP-V1-PROMPT-AGENT-CANCELLED-STOP-REASON")
def _cancelled(kit: AgentKit) -> None:
    # An error instead of a result is CATCH-ABORT-ERRORS'; here: the result's stopReason.
    _sent, _cancel, response = _cancel_took_effect(kit)
    reason = stop_reason_of(response, "session/prompt after session/cancel")
    known_stop_reason(reason, response)
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
        reason = stop_reason_of(response, "session/prompt cancelled during a permission request")
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
    sent, cancel_frame, response = cancelled_turn(kit)
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
        and update_kind(f) in CONTENT_UPDATES
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
