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
    showed_running,
    step_result,
    stop_reason_of,
    update_kind,
    update_kinds,
    update_observation,
)
from .agent_scenarios import FENCE, Run, obj
from .observation import Observation
from .outcome import Findings, fail, skip
from .wire import Frame, Transcript


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
        raise skip(kit.no_turn() or "the agent puts no messageId on message chunks")


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
        hint = "" if kit.runner.target.permission_prompt else " (give --acp-permission-prompt)"
        raise skip(kit.no_turn() or f"the agent asked for no permission{hint}")


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
# Seconds after which an agent that never answered the kit's fence (a blocking agent, which
# reads nothing while its turn runs) is taken to have gone on working after the cancel: what
# it wrote within them may have been on its way before it could read the cancel.
SETTLE = 1.0


@dataclass(frozen=True)
class Cancel:
    run: Run
    sent: Frame  # the session/prompt request
    cancel: Frame  # the session/cancel notification
    response: Frame | None  # the turn's response; None: still running when the kit stopped
    slow_prompt: str | None  # --acp-slow-prompt: a turn that runs until it is cancelled
    wait: float  # --acp-timeout: how long the kit waited for the turn to show it runs

    @property
    def elapsed(self) -> float:
        """Seconds from the cancel to the turn's end, or to when the kit stopped listening."""
        end = self.response.time if self.response is not None else self.run.ended
        return end - self.cancel.time

    def where(self) -> str:
        return f"[{self.run.name}]"

    @property
    def transcript(self) -> Transcript:
        return self.run.transcript

    def running(self) -> bool:
        """Whether the turn demonstrably ran when the cancel was sent: it had written a turn
        update or a request, or it had been left unanswered through the kit's whole wait for
        a sign of it (``--acp-timeout``: an agent that works silently holds the turn open)."""
        return ran_when(self.transcript, self.sent, self.cancel, self.wait)

    @property
    def runs_until_cancelled(self) -> bool:
        """A turn that cannot end by itself: the slow prompt's, or one waiting on the kit's
        answer to its permission request (held until after the cancel)."""
        prompt = obj(self.sent.get("params")).get("prompt")
        said = [obj(b).get("text") for b in prompt] if isinstance(prompt, list) else []
        return self.run.name == "permission" or (
            self.slow_prompt is not None and self.slow_prompt in said
        )

    def refusal(self) -> Frame | None:
        """An error the agent answered the session/cancel notification with ("Unknown
        method"): a response with no id to answer, after the cancel."""
        t = self.transcript
        for f in t.frames[t.frames.index(self.cancel) + 1 :]:
            for r in f.responses() if f.direction == "in" else []:
                if r.get("id") is None and isinstance(r.get("error"), dict):
                    return r
        return None

    def fence_answer(self) -> Frame | None:
        t = self.transcript
        after = t.frames[t.frames.index(self.cancel) + 1 :]
        fence = next((f for f in after if f.direction == "out" and f.method == FENCE), None)
        return t.response_to(fence) if fence is not None else None

    def went_on(self) -> str | None:
        """How the agent showed it went on working after it had read the cancel, or None:
        updates (content, tool calls) or requests of the turn written after it answered the
        kit's fence; with the fence unanswered until the turn ended (it read nothing while
        the turn ran), written more than SETTLE seconds after the cancel. Ending the turn is
        no such sign (every agent ends it after reading the cancel)."""
        t = self.transcript
        session = obj(self.sent.get("params")).get("sessionId")
        fence = self.fence_answer()
        if fence is not None and self.response is not None and fence.time > self.response.time:
            fence = None  # answered only after the turn: it read nothing while the turn ran
        start = t.frames.index(fence if fence is not None else self.cancel) + 1
        end = t.frames.index(self.response) if self.response is not None else len(t.frames)
        later = [
            p
            for f in t.frames[start:end]
            if f.direction == "in"
            for p in f.parts()
            if p.method is not None
            and obj(p.get("params")).get("sessionId") == session
            and (p.is_request or update_kind(p) in CONTENT_UPDATES)
            and (fence is not None or p.time - self.cancel.time > SETTLE)
        ]
        if not later:
            return None
        how = (
            "after it answered the kit's request sent behind the cancel"
            if fence is not None
            else f"more than {SETTLE:g} s after the cancel, the agent reading nothing meanwhile"
        )
        last = later[-1].time - self.cancel.time
        return f"{len(later)} update(s) or request(s) of the turn came {how}, the last {last:.1f} s after it"

    def reason(self) -> str | None:
        result = self.response.get("result") if self.response is not None else None
        reason = obj(result).get("stopReason")
        return reason if isinstance(reason, str) else None

    def acted(self) -> bool:
        """The agent ended the turn as cancelled: stopReason cancelled, or an error."""
        if self.response is None:
            return False
        return self.reason() == "cancelled" or isinstance(self.response.get("error"), dict)

    def ran_on(self) -> str | None:
        """Why this turn's end shows the cancel did not take effect, or None: it ended with
        another stop reason although it could not end by itself, or after it went on working
        (a turn that ended so right after the cancel, with nothing written after the agent
        read it, may have ended before the cancel could take effect)."""
        reason = self.reason()
        if self.response is None or reason is None or reason == "cancelled":
            return None
        if self.runs_until_cancelled:
            return f"a turn that runs until cancelled ended with stopReason {reason!r}"
        went_on = self.went_on()
        if went_on is not None:
            return f"it went on ({went_on}) and ended with stopReason {reason!r}"
        return None


def ran_when(t: Transcript, sent: Frame, until: Frame, wait: float) -> bool:
    """Whether the turn ``sent`` demonstrably ran when the kit sent ``until``: it wrote a turn
    update or a request before, or it was still unanswered after the kit's whole ``wait``."""
    if showed_running(t, sent, until):
        return True
    response = t.response_to(sent)
    pending = response is None or response.time >= until.time
    return pending and until.time - sent.time >= wait * 0.99


def all_cancels(kit: AgentKit) -> list[Cancel]:
    """Each session/cancel the kit sent before the turn's response."""
    found = []
    slow = kit.runner.target.slow_prompt
    for name in CANCEL_RUNS:
        run = kit.run(name)
        for sent, cancel_frame in run.cancels:
            response = run.transcript.response_to(sent)
            if response is None or response.time >= cancel_frame.time:
                wait = kit.runner.target.timeout
                found.append(Cancel(run, sent, cancel_frame, response, slow, wait))
    return found


def cancels(kit: AgentKit) -> list[Cancel]:
    """Each cancel the kit sent while the turn demonstrably ran: it had sent an update or a
    request of its session, and not its response (a turn cancelled before it showed it ran,
    or one that had ended, shows nothing about cancellation)."""
    return [c for c in all_cancels(kit) if c.running()]


def _not_running(kit: AgentKit) -> None:
    """Why no cancel was judged, from what the runs show; or nothing to say."""
    if cancels(kit):
        return
    unseen = [c for c in all_cancels(kit) if not c.running()]
    if unseen:
        c = unseen[0]
        raise skip(
            f"not exercised: {c.where()} the turn wrote no turn update or request before "
            f"session/cancel and was not left running through the kit's wait, so it was not "
            f"shown to run when cancelled ({c.sent.shown()})"
        )
    kit.note("cancel", "cancelled_turn")  # why the cancel run made no cancel


def _ended_turns(kit: AgentKit) -> list[Cancel]:
    return [c for c in cancels(kit) if c.response is not None]


def _stop_judged(kit: AgentKit) -> list[Cancel]:
    """The cancels whose outcome tells whether the agent stopped: the turn ended (what it
    wrote after reading the cancel says whether it went on first), the agent refused the
    cancel, or the turn ran past the grace."""
    grace = kit.runner.target.cancel_grace
    return [
        c
        for c in cancels(kit)
        if c.response is not None or c.refusal() is not None or c.elapsed > grace
    ]


@check(
    "ACP-V1-PROMPT-AGENT-STOP-ON-CANCEL",
    observes=Observation(
        "turn cancelled while it ran that ended or outlived --acp-cancel-grace",
        lambda kit: len(_stop_judged(kit)),
    ),
)
def _stop_on_cancel(kit: AgentKit) -> None:
    # Judged by what the agent did after the cancel: it refused it, it went on to its own end,
    # or it was still running past the grace (also when the hang guard stopped the run first).
    grace = kit.runner.target.cancel_grace
    with Findings() as found:
        for c in _stop_judged(kit):
            refusal = c.refusal()
            if refusal is not None:
                found.add(
                    f"{c.where()} the agent answered session/cancel with an error: {refusal.shown()}"
                )
            went_on = c.went_on()
            late = c.elapsed > grace
            if c.response is None and late:
                found.add(
                    f"{c.where()} the turn was still running {c.elapsed:.1f} s after "
                    f"session/cancel (grace {grace:g} s) when the kit stopped waiting: "
                    f"{c.sent.shown()}"
                )
            elif c.response is not None and (late or went_on):
                when = f"the turn ended {c.elapsed:.1f} s after session/cancel"
                when += f" (grace {grace:g} s)" if late else ""
                found.add(
                    f"{c.where()} {when}"
                    + (f"; it went on: {went_on}" if went_on else "")
                    + f": {c.response.shown()}"
                )
            elif went_on:
                found.add(f"{c.where()} the turn went on after session/cancel: {went_on}")
    _not_running(kit)


@check(
    "ACP-V1-PROMPT-AGENT-CANCELLED-STOP-REASON",
    observes=Observation(
        "turn cancelled while it ran that ended as cancelled or showed it went on",
        lambda kit: len([c for c in _ended_turns(kit) if c.acted() or c.ran_on()]),
    ),
)
def _cancelled(kit: AgentKit) -> None:
    # An error instead of a result is CATCH-ABORT-ERRORS'; here: the result's stopReason. A
    # turn that ended with another reason right after the cancel, with nothing written after
    # the agent read it, may have ended before the cancel could take effect: not judged.
    with Findings() as found:
        for c in _ended_turns(kit):
            assert c.response is not None
            if not isinstance(c.response.get("result"), dict):
                continue
            reason = stop_reason_of(c.response, "session/prompt after session/cancel")
            known_stop_reason(reason, c.response)
            ran_on = c.ran_on()
            if ran_on:
                found.add(f"{c.where()} {ran_on}, not 'cancelled': {c.response.shown()}")
    _not_running(kit)


@check(
    "ACP-V1-PROMPT-AGENT-CATCH-ABORT-ERRORS",
    observes=Observation(
        "cancelled turn the agent ended as cancelled (stopReason cancelled or an error)",
        lambda kit: len([c for c in _ended_turns(kit) if c.acted()]),
    ),
)
def _catch_abort(kit: AgentKit) -> None:
    # Only a cancel the agent acted on aborted anything: a turn that ran on to its own end
    # had no abort error to catch.
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
    _not_running(kit)


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


def _cancel_request_support(kit: AgentKit) -> tuple[Frame, Frame] | None:
    """(the $/cancel_request, the request's answer) when the agent showed it supports
    $/cancel_request (the roster's requirement applies only then): the turn ran when the kit
    sent it, and was then answered -32800 or with stopReason cancelled, or, being a turn that
    runs until cancelled, answered at all before the kit fell back to session/cancel."""
    run = kit.run("cancel_request")
    note = run.notes.get("cancel_request")
    if note is None or note[2]:
        return None
    sent, response, _fell_back = note
    t = run.transcript
    asked = next(
        (f for f in t.sent() if f.method == "$/cancel_request" and f.time >= sent.time), None
    )
    if asked is None or response.time < asked.time:
        return None
    if not ran_when(t, sent, asked, kit.runner.target.timeout):
        return None
    error = obj(response.get("error"))
    reason = obj(response.get("result")).get("stopReason")
    slow = kit.runner.target.slow_prompt
    prompt = obj(sent.get("params")).get("prompt")
    said = [obj(b).get("text") for b in prompt] if isinstance(prompt, list) else []
    if error.get("code") == -32800 or reason == "cancelled" or (slow is not None and slow in said):
        return asked, response
    return None


@check(
    "ACP-V1-CANCEL-REQUEST-MUST-RESPOND",
    observes=Observation(
        "$/cancel_request for a running turn that the agent acted on (it showed it supports "
        "$/cancel_request)",
        lambda kit: int(_cancel_request_support(kit) is not None),
    ),
)
def _cancel_request(kit: AgentKit) -> None:
    _sent, response, fell_back = kit.note("cancel_request", "cancel_request")
    if fell_back:
        raise skip(
            "the agent does not act on $/cancel_request (optional); the turn ended after session/cancel"
        )
    if _cancel_request_support(kit) is None:
        return  # not exercised: nothing showed that the agent supports it
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
        raise skip(kit.no_turn() or "the agent reported no named tool call")
