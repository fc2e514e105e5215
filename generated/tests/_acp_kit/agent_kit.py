# Edit acpgen/shipped/conformance/agent_kit.py, not this file: acpgen generate writes it.
"""What every agent check stands on: the kit over the agent's runs, the check registry and the
helpers several roster sections share (the checks are in ``checks_agent_<section>.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import checks_wire as w
from . import observation
from .agent_scenarios import (
    AUTH_REQUIRED,
    AgentRunner,
    Run,
    obj,
    shows_turn_work,
)
from .observation import STEPS, Observation
from .outcome import fail, skip
from .validate import Validator
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


class AnyCode(tuple[int, ...]):
    """Every error code: the step is the requirement's own, any error fails it."""

    def __contains__(self, code: object) -> bool:
        return True


class AllCodesBut(tuple[int, ...]):
    """Every error code but these (which are another requirement's)."""

    def __contains__(self, code: object) -> bool:
        return not super().__contains__(code)


ANY_ERROR = AnyCode()
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
    consulted: int = field(default=0, init=False)  # scenario steps the running check read

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
            self.consulted += 1
            return run.notes[key]
        if run.stopped is not None:
            raise skip(f"[{scenario}] {run.stopped}")
        raise skip(missing or f"[{scenario}] not exercised: {key}")

    def seen(self, scenario: str, key: str) -> Any:
        """A fact the scenario established, or None when it did not get that far: for checks
        that judge several probes, each on its own (one probe that crashed the agent leaves
        the others' evidence standing)."""
        run = self.run(scenario)
        if key in run.notes:
            self.consulted += 1
            return run.notes[key]
        return None

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

    def prompts_error(self) -> str | None:
        """Why an ordinary prompt turn ended with an error here, or None (also when it never
        ended: that excuses no error of another turn)."""
        note = self.run("basic").notes.get("prompt_text")
        if note is not None and isinstance(note[1].get("error"), dict):
            return f"an ordinary prompt turn fails here too: {note[1].shown()}"
        return None

    def no_turn(self) -> str | None:
        """Why no prompt turn could show anything in any run (no session was ever created, or
        no turn ended with a result), or None: a skip that says what was seen, not "the agent
        sends no ..." where it was never given the chance."""
        ts = self.transcripts()
        answers = [
            r
            for t in ts
            for f in t.received()
            for r in f.responses()
            if (t.request_for(r) or r).method == "session/new"
        ]
        if not any(isinstance(r.get("result"), dict) for r in answers):
            seen = f": {answers[0].shown()}" if answers else ""
            return f"session/new never succeeded in any run, so no prompt turn ran{seen}"
        if not finished_turns(self, ALL_SCENARIOS):
            why = self.prompts_fail()
            return "no prompt turn ended with a result in any run" + (f" ({why})" if why else "")
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


OBSERVES: dict[str, Observation] = {}  # requirement ID -> what could fail its check


def register(req_id: str, func: Check, observes: Observation = STEPS) -> None:
    observation.register(AGENT_CHECKS, OBSERVES, req_id, func, observes)


def check(*ids: str, observes: Observation = STEPS) -> Callable[[Check], Check]:
    def add(func: Check) -> Check:
        for req_id in ids:
            register(req_id, func, observes)
        return func

    return add


def received_count(kit: AgentKit, wanted: Callable[[Frame], bool]) -> int:
    """How many messages the agent wrote (in every run, batches element by element) that
    ``wanted`` selects."""
    return sum(1 for t in kit.transcripts() for f in t.received() for p in f.parts() if wanted(p))


MESSAGES = Observation("message from the agent", lambda kit: received_count(kit, lambda f: True))


def wire_check(
    req_id: str,
    func: Callable[[Sequence[Transcript]], None],
    observes: Observation = MESSAGES,
) -> None:
    register(req_id, lambda kit: func(kit.transcripts()), observes)


def step_result(frame: Frame | None, what: str, own: tuple[int, ...] = ()) -> dict[str, Any]:
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


def updates_of(run: Run, session: str | None = None) -> list[Frame]:
    return [
        f
        for f in run.transcript.notifications("session/update")
        if session is None or (f.get("params") or {}).get("sessionId") == session
    ]


def update_kinds(kit: AgentKit, kind: str) -> list[tuple[Transcript, Frame, dict[str, Any]]]:
    found = []
    for t in kit.transcripts():
        for f in t.notifications("session/update"):
            update = (f.get("params") or {}).get("update")
            if isinstance(update, dict) and update.get("sessionUpdate") == kind:
                found.append((t, f, update))
    return found


def stop_reason_of(frame: Frame, what: str, own: tuple[int, ...] = ()) -> str:
    reason = step_result(frame, what, own).get("stopReason")
    if not isinstance(reason, str):
        raise skip(
            f"{what}: result without a stopReason (charged to its schema check): {frame.shown()}"
        )
    return reason


def update_kind(frame: Frame) -> str | None:
    params = frame.get("params")
    update = params.get("update") if isinstance(params, dict) else None
    kind = update.get("sessionUpdate") if isinstance(update, dict) else None
    return kind if isinstance(kind, str) else None


def answers_in(frames: list[Frame]) -> list[Frame]:
    return [r for f in frames for r in f.responses()]


def notification_replies(kit: AgentKit) -> list[Frame]:
    """The wire run's replies to the kit's unknown notifications: what its quiet window after
    them caught, and any later response with no id to answer (id null or absent) that came
    before the agent answered the kit's next request. A loaded machine can deliver a reply
    after the window; an agent that answers in order still writes it before that answer."""
    run = kit.run("wire")
    t = run.transcript
    replies = answers_in(kit.note("wire", "after_notifications"))
    notices = [f for f in t.sent() if f.is_notification and f.method == "_acpgen_kit/notice"]
    if not notices:
        return replies
    start = notices[0].time
    answered = run.notes.get("bad_params")
    end = answered.time if isinstance(answered, Frame) else float("inf")
    for f in t.received():
        if start <= f.time < end:
            replies += [r for r in f.responses() if r.get("id") is None and r not in replies]
    return replies


def later_answered(kit: AgentKit, scenario: str, key: str) -> bool:
    """Whether the agent answered the kit's next request (so a missing answer is no delay)."""
    frame = kit.run(scenario).notes.get(key)
    return isinstance(frame, Frame)


def refused_by_transport(kit: AgentKit, scenario: str, sent: Frame) -> bool:
    """Whether the transport refused ``sent`` before the agent's JSON-RPC layer (over HTTP, an
    error status with no JSON-RPC answer in its body: the remote peer takes the message out
    of the transcript and keeps it in ``notes["http"]``); then it is no request left
    unanswered."""
    return not any(frame is sent for frame in kit.run(scenario).transcript.frames)


def session_ids_of(t: Transcript) -> set[str]:
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


def cancelled_turn(kit: AgentKit) -> tuple[Frame, Frame, Frame]:
    sent, cancel_frame, response = kit.note("cancel", "cancelled_turn")
    return sent, cancel_frame, response


STOP_REASONS = ("end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled")


def known_stop_reason(reason: str, response: Frame) -> None:
    if reason not in STOP_REASONS:
        raise skip(
            f"stopReason {reason!r} is no StopReason (SCHEMA-STOP-REASON-VALUES'): {response.shown()}"
        )


def elicitation_modes(t: Transcript) -> set[str]:
    """The elicitation modes the kit's initialize advertised in this run ({} = supported)."""
    for f in t.sent():
        if f.method == "initialize":
            caps = obj(obj(obj(f.get("params")).get("clientCapabilities")).get("elicitation"))
            return {mode for mode, value in caps.items() if isinstance(value, dict)}
    return set()


def update_observation(kind: str) -> Observation:
    return Observation(f"{kind} session update", lambda kit: len(update_kinds(kit, kind)))


def _index(t: Transcript, frame: Frame) -> int:
    return next(i for i, f in enumerate(t.frames) if f is frame)


def interruption(t: Transcript, sent: Frame) -> Frame | None:
    """The kit's first message that cancels the turn ``sent`` before its response came:
    session/cancel or session/close of its session, or $/cancel_request for its id."""
    session = obj(sent.get("params")).get("sessionId")
    response = t.response_to(sent)
    start = _index(t, sent)
    end = _index(t, response) if response is not None else len(t.frames)
    for f in t.frames[start + 1 : end]:
        if f.direction != "out":
            continue
        params = obj(f.get("params"))
        if f.method in ("session/cancel", "session/close") and params.get("sessionId") == session:
            return f
        if f.method == "$/cancel_request" and params.get("requestId") == sent.get("id"):
            return f
    return None


def showed_running(t: Transcript, sent: Frame, until: Frame) -> list[Frame]:
    """What the agent wrote of the turn ``sent`` (conversation updates and requests of its
    session; not state updates such as a command list) before the kit's frame ``until``: the
    evidence that the turn ran when ``until`` was sent."""
    session = obj(sent.get("params")).get("sessionId")
    frames = t.frames[_index(t, sent) + 1 : _index(t, until)]
    return [
        p for f in frames if f.direction == "in" for p in f.parts() if shows_turn_work(p, session)
    ]


def finished_turns(kit: AgentKit, names: Sequence[str]) -> int:
    """session/prompt turns of the runs ``names`` that ended with a result: only such a turn
    gave the agent the chance to do what a turn-time requirement forbids. A turn the kit
    cancelled counts only when it showed it ran before the cancel (an update or a request of
    its session): one cancelled before it did anything gave the agent no such chance."""
    count = 0
    for name in names:
        t = kit.run(name).transcript
        for f in t.received():
            for part in f.responses():
                request = t.request_for(part)
                if request is None or request.method != "session/prompt":
                    continue
                if "result" not in part.message:
                    continue
                cancel = interruption(t, request)
                count += cancel is None or bool(showed_running(t, request, cancel))
    return count


def turns_observed(what: str, names: Sequence[str]) -> Observation:
    return Observation(
        f"prompt turn that ended with a result {what}",
        lambda kit: finished_turns(kit, names),
    )


TURNS_WITHOUT_FS_TERMINAL = turns_observed(
    "while the kit advertised fs and terminal false", WITHOUT_FS_TERMINAL
)
