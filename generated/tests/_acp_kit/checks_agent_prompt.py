# Edit acpgen/shipped/conformance/checks_agent_prompt.py, not this file: acpgen generate writes it.
"""The agent checks of the roster's prompt turns, tools and cancellation sections (PROMPT-, TOOLS-, CANCEL-, COMMANDS-).

Each registers itself in ``AGENT_CHECKS`` (``agent_kit``); ``checks_agent`` imports them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from .agent_kit import (
    CONTENT_UPDATES,
    AgentKit,
    Check,
    cancelled_turn,
    check,
    known_stop_reason,
    register,
    session_ids_of,
    step_result,
    stop_reason_of,
    update_kind,
    update_kinds,
    update_observation,
)
from .agent_scenarios import Run
from .observation import Observation
from .outcome import Findings, fail, skip
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
                kit.consulted += 1  # an observation that could fail it
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


for _id, _kind in (
    ("ACP-V1-PROMPT-USAGE-UPDATE-MAY", "usage_update"),
    ("ACP-V1-PROMPT-TOOL-UPDATES-MAY", "tool_call_update"),
    ("ACP-V1-COMMANDS-ADVERTISE-MAY", "available_commands_update"),
):
    register(_id, _variant_check(_kind), update_observation(_kind))


@check("ACP-V1-PROMPT-PERMISSION-MAY", "ACP-V1-TOOLS-PERMISSION-MAY")
def _permission(kit: AgentKit) -> None:
    # The request's shape is SCHEMA-REQUEST-PERMISSION-SHAPE's; here: it is about a session
    # of this connection and offers options.
    seen = 0
    for t in kit.transcripts():
        known = session_ids_of(t)
        for f in t.requests("session/request_permission"):
            seen += 1
            kit.consulted += 1  # an observation that could fail it
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


# Every run in which the kit sent session/cancel for a running turn: the plain cancel, the
# cancel during a permission request and the fallback after an ignored $/cancel_request.
CANCEL_RUNS = ("cancel", "permission", "cancel_request")


@dataclass(frozen=True)
class Cancel:
    run: Run
    sent: Frame  # the session/prompt request
    cancel: Frame  # the session/cancel notification
    response: Frame | None  # the turn's response; None: still running when the kit stopped

    @property
    def elapsed(self) -> float:
        """Seconds from the cancel to the turn's end, or to when the kit stopped listening."""
        end = self.response.time if self.response is not None else self.run.ended
        return end - self.cancel.time

    def where(self) -> str:
        return f"[{self.run.name}]"


def cancels(kit: AgentKit) -> list[Cancel]:
    """Each cancel the kit sent while the turn still ran (a turn that ended before its cancel
    was sent shows nothing about cancellation)."""
    found = []
    for name in CANCEL_RUNS:
        run = kit.run(name)
        for sent, cancel_frame in run.cancels:
            response = run.transcript.response_to(sent)
            if response is None or response.time >= cancel_frame.time:
                found.append(Cancel(run, sent, cancel_frame, response))
    return found


def _ended_turns(kit: AgentKit) -> list[Cancel]:
    return [c for c in cancels(kit) if c.response is not None]


ENDED_CANCELLED_TURNS = Observation("cancelled turn that ended", lambda kit: len(_ended_turns(kit)))


def _stop_judged(kit: AgentKit) -> list[Cancel]:
    """The cancels whose outcome is known: the turn ended, or it ran on past the grace."""
    grace = kit.runner.target.cancel_grace
    return [c for c in cancels(kit) if c.response is not None or c.elapsed > grace]


@check(
    "ACP-V1-PROMPT-AGENT-STOP-ON-CANCEL",
    observes=Observation(
        "turn cancelled while it ran that ended or outlived --acp-cancel-grace",
        lambda kit: len(_stop_judged(kit)),
    ),
)
def _stop_on_cancel(kit: AgentKit) -> None:
    # A turn still running when the hang guard stopped the run is judged by the time it had
    # run on after the cancel: the guard firing first does not make it "not judged".
    grace = kit.runner.target.cancel_grace
    with Findings() as found:
        for c in _stop_judged(kit):
            if c.elapsed <= grace:
                continue
            if c.response is not None:
                found.add(
                    f"{c.where()} the turn ended {c.elapsed:.1f} s after session/cancel "
                    f"(grace {grace:g} s): {c.response.shown()}"
                )
            else:
                found.add(
                    f"{c.where()} the turn was still running {c.elapsed:.1f} s after "
                    f"session/cancel (grace {grace:g} s) when the kit stopped waiting: "
                    f"{c.sent.shown()}"
                )
    if not cancels(kit):
        kit.note("cancel", "cancelled_turn")  # why the cancel run made no cancel


@check("ACP-V1-PROMPT-AGENT-CANCELLED-STOP-REASON", observes=ENDED_CANCELLED_TURNS)
def _cancelled(kit: AgentKit) -> None:
    # An error instead of a result is CATCH-ABORT-ERRORS'; here: the result's stopReason.
    with Findings() as found:
        for c in _ended_turns(kit):
            assert c.response is not None
            if not isinstance(c.response.get("result"), dict):
                continue
            reason = stop_reason_of(c.response, "session/prompt after session/cancel")
            known_stop_reason(reason, c.response)
            if reason == "cancelled":
                continue
            if not kit.runner.target.slow_prompt and c.run.name == "cancel":
                raise skip(
                    f"the turn ended ({reason}) before session/cancel took effect; give "
                    "--acp-slow-prompt to keep the agent busy"
                )
            found.add(
                f"{c.where()} a turn cancelled while running ended with stopReason "
                f"{reason!r}: {c.response.shown()}"
            )
    if not _ended_turns(kit):
        kit.note("cancel", "cancelled_turn")


@check("ACP-V1-PROMPT-AGENT-CATCH-ABORT-ERRORS", observes=ENDED_CANCELLED_TURNS)
def _catch_abort(kit: AgentKit) -> None:
    errors = [
        (c, c.response)
        for c in _ended_turns(kit)
        if c.response is not None and isinstance(c.response.get("error"), dict)
    ]
    # The same error for an ordinary turn: the error is the environment's, not the cancel's.
    # A turn that merely never ended here is no such excuse.
    if errors and kit.prompts_error():
        raise skip(str(kit.prompts_error()))
    with Findings() as found:
        for c, response in errors:
            found.add(
                f"{c.where()} a cancelled turn answered with a JSON-RPC error instead of "
                f"stopReason cancelled: {response.shown()}"
            )
    if not _ended_turns(kit):
        kit.note("cancel", "cancelled_turn")


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
            kit.consulted += 1  # an observation that could fail it
            if call_id in names and names[call_id] != name:
                raise fail(
                    f"tool call {call_id!r} renamed from {names[call_id]!r} to {name!r}: [{t.name}] {f.shown()}"
                )
            names[call_id] = name
    if not seen:
        raise skip("the agent reported no named tool call")
