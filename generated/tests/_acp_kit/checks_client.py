# Edit acpgen/shipped/conformance/checks_client.py, not this file: acpgen generate writes it.
"""The black-box checks against a client, one per requirement classified ``client`` or ``both``.

The client under test runs against the kit's scripted agent (:mod:`.scripted_agent`); in its
transcripts ``in`` frames are what the client wrote. ``CLIENT_CHECKS[ID](kit)`` returns when
the client kept the requirement, else raises :class:`CheckFailed` / :class:`CheckSkipped`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import checks_wire as w
from . import observation
from .client_scenarios import ClientRun, ClientRunner
from .observation import Observation
from .outcome import LISTED, CheckFailed, CheckSkipped, Findings, fail, not_checkable, skip
from .scripted_agent import (
    CANCEL_CALL,
    FENCE_CALL,
    KIT_CURSOR,
    TERMINAL_LIMIT,
    TERMINAL_TEXT,
)
from .validate import Validator
from .wire import Frame, Transcript

TURN_MODES = ("basic", "extras", "garbage")
ALL_MODES = ("basic", "extras", "garbage", "version", "capable", "batch")
GATED = (
    "session/load",
    "session/resume",
    "session/close",
    "session/list",
    "session/delete",
    "logout",
)


@dataclass
class ClientKit:
    runner: ClientRunner
    validator: Validator
    consulted: int = field(default=0, init=False)  # what the running check judged

    def run(self, mode: str) -> ClientRun:
        run = self.runner.run(mode)
        if run.error:
            raise fail(run.error)
        if not run.transcript.received():
            # Nothing to judge; the fact itself is TRANSPORT-STDIO-SHOULD's.
            raise skip(f"[{mode}] the client wrote nothing to the kit's agent ({_ending(run)})")
        return run

    def transcripts(self, modes: Sequence[str] = ALL_MODES) -> list[Transcript]:
        return [self.run(m).transcript for m in modes]

    def first_request(self, mode: str, method: str) -> Frame:
        run = self.run(mode)
        found = run.transcript.requests(method)
        if not found:
            _not_hung(run)
            raise fail(f"[{mode}] the client never sent {method} ({_ending(run)})")
        return found[0]

    def init_params(self) -> dict[str, Any]:
        params = self.first_request("basic", "initialize").get("params")
        if not isinstance(params, dict):
            raise fail("initialize without params")
        return params

    def caps(self) -> dict[str, Any]:
        caps = self.init_params().get("clientCapabilities")
        return caps if isinstance(caps, dict) else {}

    def completed(self, mode: str) -> ClientRun:
        """The run, after checking that the client took its prompt turn to the end."""
        run = self.run(mode)
        if run.event("turn-ended") is None:
            _not_hung(run)
            raise fail(f"[{mode}] the prompt turn never ended ({_ending(run)})")
        return run


def _ending(run: ClientRun) -> str:
    if run.timed_out:
        how = f"stopped by the kit's hang guard: {run.hung}"
    elif run.exited:
        how = f"client exit status {run.exit_code}"
    else:
        how = "the client closed the connection"
    return f"{how}; output: {run.output}" if run.output else how


def _not_hung(run: ClientRun) -> None:
    """Skip when a hang guard stopped the run: what the client did not get to is not judged
    (a guard's expiry is reported as such, never as a requirement failure)."""
    if run.timed_out and run.event("turn-ended") is None:
        raise skip(f"[{run.mode}] not judged: {_ending(run)}")


Check = Callable[[ClientKit], None]
CLIENT_CHECKS: dict[str, Check] = {}
CLIENT_OBSERVES: dict[str, Observation] = {}  # requirement ID -> what could fail its check


def written_count(kit: ClientKit, wanted: Callable[[Frame], bool] = lambda f: True) -> int:
    """How many messages the client wrote (in every run made, batches element by element)
    that ``wanted`` selects."""
    return sum(
        1
        for run in kit.runner.runs.values()
        for f in run.transcript.received()
        for p in f.parts()
        if wanted(p)
    )


MESSAGES = Observation("message from the client", written_count)


def calls_of(method: str) -> Observation:
    """The client's requests of ``method``: what a check of how it makes them reads."""
    return Observation(
        f"{method} from the client",
        lambda kit: written_count(kit, lambda f: f.method == method and f.is_request),
    )


def _turns_ended(kit: ClientKit) -> int:
    return sum(
        kit.runner.runs[m].event("turn-ended") is not None
        for m in TURN_MODES
        if m in kit.runner.runs
    )


# What could fail a check of what the client must not do around its turn: a turn it took to
# the end (the kit's clients call the optional methods after it).
TURNS_ENDED = Observation("prompt turn the client took to the end", _turns_ended)


def _register(req_id: str, func: Check, observes: Observation = MESSAGES) -> None:
    observation.register(CLIENT_CHECKS, CLIENT_OBSERVES, req_id, func, observes)


def check(*ids: str, observes: Observation = MESSAGES) -> Callable[[Check], Check]:
    def add(func: Check) -> Check:
        for req_id in ids:
            _register(req_id, func, observes)
        return func

    return add


def _wire(
    req_id: str,
    func: Callable[[Sequence[Transcript]], None],
    observes: Observation = MESSAGES,
) -> None:
    _register(req_id, lambda kit: func(kit.transcripts()), observes)


CLIENT_CALLS = Observation(
    "request or notification from the client",
    lambda kit: written_count(kit, lambda f: f.method is not None),
)
WITH_ID = Observation(
    "message with an id from the client",
    lambda kit: written_count(kit, lambda f: "id" in f.message),
)
WITH_PARAMS = Observation(
    "message with params from the client",
    lambda kit: written_count(kit, lambda f: "params" in f.message),
)

# What could fail each transcript check, where "a message from the client" says too little.
_OBSERVES = {
    "ACP-V1-JSONRPC-RPC-PREFIX-RESERVED": CLIENT_CALLS,
    "ACP-V1-JSONRPC-ID-TYPE": WITH_ID,
    "ACP-V1-JSONRPC-ID-NOT-NULL": WITH_ID,
    "ACP-V1-JSONRPC-ID-NO-FRACTION": WITH_ID,
    "ACP-V1-JSONRPC-PARAMS-STRUCTURED": WITH_PARAMS,
}
for _id, _func in w.transcript_checks("client").items():
    _wire(_id, _func, _OBSERVES.get(_id, MESSAGES))


def _is_fence(frame: Frame) -> bool:
    params = frame.get("params")
    call = params.get("toolCall") if isinstance(params, dict) else None
    return frame.is_request and isinstance(call, dict) and call.get("toolCallId") == FENCE_CALL


def _replies(run: ClientRun, sent: Frame) -> tuple[list[Frame], bool]:
    """The client's replies to the probe ``sent``: the responses it wrote after it until its
    answer to the fence the kit's agent sent next, less those that answer another request of
    the agent (a client may finish an earlier batch late); and whether the fence's answer
    came: only then is the window closed, and no reply in it provably none."""
    t = run.transcript
    frames = t.frames
    index = next(i for i, f in enumerate(frames) if f is sent)
    fence = next((f for f in frames[index + 1 :] if f.direction == "out" and _is_fence(f)), None)
    closing = t.response_to(fence) if fence is not None else None
    own = [p.get("id") for p in sent.parts() if p.is_request]
    replies = []
    for f in frames[index + 1 :]:
        if closing is not None and f.time >= closing.time:
            break
        if f.direction == "in":
            replies += [
                r
                for r in f.responses()
                if t.request_for(r) is None or any(r.get("id") == i for i in own)
            ]
    return replies, closing is not None


def _finished(run: ClientRun) -> bool:
    """Whether the client ended the run itself (its turn ended, or it exited or closed the
    connection): what it left unanswered then stays unanswered. A run a hang guard stopped
    is not judged."""
    return run.event("turn-ended") is not None or not run.timed_out


# The "extras" turn's stimuli a client must ignore, in the order the kit's agent sends them:
# (requirement, method, sessionUpdate kind).
EXTRAS_STIMULI = (
    ("ACP-V1-EXT-IGNORE-UNKNOWN-NOTIFICATIONS", "_acpgen_kit/notice", None),
    ("ACP-V1-ELIC-CLIENT-IGNORE-UNKNOWN-COMPLETE", "elicitation/complete", None),
    (
        "ACP-V1-CONFIG-CLIENT-IGNORE-UNKNOWN-TYPE",
        "session/update",
        "config_option_update",
    ),
)


def _stopped_at(run: ClientRun) -> Frame | None:
    """The stimulus a client went silent at: the first of EXTRAS_STIMULI the kit's agent sent
    after the client's last line, when the client ended the run itself leaving a request of
    the agent's unanswered after that line. Everything the client left unanswered after it is
    one observation, charged to that stimulus' requirement alone."""
    if not _finished(run):
        return None
    frames = run.transcript.frames
    written = [f.time for f in frames if f.direction == "in"]
    after = [f for f in frames if f.direction == "out" and (not written or f.time > written[-1])]
    if not any(f.is_request for f in after):
        return None
    return next(
        (
            f
            for f in after
            if any(f.method == m and _update_kind(f) == k for _, m, k in EXTRAS_STIMULI)
        ),
        None,
    )


def _stopped_before(run: ClientRun, frame: Frame) -> None:
    """Skip when the client went silent at a stimulus sent before ``frame``: that step's."""
    stop = _stopped_at(run)
    if stop is not None and stop is not frame and stop.time <= frame.time:
        raise skip(f"[{run.mode}] the client went silent earlier, at {stop.shown()}")


def _batches(kit: ClientKit) -> tuple[ClientRun, list[Frame]]:
    """The batch run's four batches; a client that stopped before them all gates the checks
    that need them (what stopped it is RESPONSE-REQUIRED's: a batch left unanswered)."""
    run = kit.run("batch")
    sent = [f for f in run.transcript.sent() if f.is_batch]
    if len(sent) < 4:
        raise skip(
            f"[batch] the client stopped before the kit's agent sent all its batches "
            f"({len(sent)} of 4 sent; {_ending(run)})"
        )
    return run, sent  # requests, notifications, empty, both


def _outstanding(run: ClientRun) -> list[Frame]:
    """The kit agent's requests the client left without a response in this run."""
    t = run.transcript
    return [p for f in t.sent() for p in f.parts() if p.is_request and t.response_to(p) is None]


def _garbage_sent(kit: ClientKit) -> tuple[ClientRun, Frame] | None:
    run = kit.run("garbage")
    sent = next((f for f in run.transcript.sent() if f.problem), None)
    return (run, sent) if sent is not None else None


def _garbage(kit: ClientKit) -> tuple[ClientRun, Frame]:
    found = _garbage_sent(kit)
    if found is not None:
        return found
    run = kit.run("garbage")
    if any(f.method == "session/prompt" for f in run.transcript.received()):
        # What was seen: the turn began, and the kit's agent waited on its own request.
        left = _outstanding(run)
        waited = f"; the client left unanswered {left[0].shown()}" if left else ""
        raise skip(
            f"[garbage] the kit's agent did not get to its line that is not JSON{waited} "
            f"({_ending(run)})"
        )
    raise skip(f"[garbage] the client never reached the prompt turn ({_ending(run)})")


@check("ACP-V1-JSONRPC-RESPONSE-REQUIRED")
def _answered(kit: ClientKit) -> None:
    # The batch run's requests serve its batches (a SHOULD of JSON-RPC 2.0, reported beside
    # the roster): a client that never recovers from a batch breaks no MUST there. Every
    # offence is listed; a probe the run never got to is not judged, the others still are.
    modes = ("basic", "extras")
    runs = [kit.run(m) for m in modes]
    with Findings() as found:
        # A custom (_) request never answered is EXT-RESPOND-TO-CUSTOM-REQUEST's; a request
        # is judged unanswered once a later one was answered, or the client ended the run
        # with it outstanding (as against an agent: silence alone proves nothing).
        w.every_request_answered(
            [r.transcript for r in runs],
            [_finished(r) and _stopped_at(r) is None for r in runs],
            skip_methods=("_",),
        )
        garbage = _garbage_sent(kit)
        if garbage is not None:
            replies, closed = _replies(*garbage)
            if not replies and closed:
                found.add(
                    "[garbage] no response (expected error -32700) to a line that is not JSON: "
                    f"{garbage[1].shown()}"
                )
        try:
            run, batches = _batches(kit)
        except CheckSkipped:
            batches = []  # the batch run stopped before `[]` (its batches are reported alone)
        if batches:
            replies, closed = _replies(run, batches[2])
            if not replies and closed:
                found.add(
                    f"[batch] no response (expected error -32600) to an empty batch: "
                    f"{batches[2].shown()}"
                )
    # Nothing proven: a client that answered none of the kit agent's requests and never ended
    # a run itself is not judged, but what it left unanswered is said.
    left = [
        (r, p)
        for r in runs
        if not _finished(r)
        for p in _outstanding(r)
        if not (p.method or "").startswith("_")
    ]
    answered = [
        r
        for r in runs
        if any(
            r.transcript.response_to(p)
            for f in r.transcript.sent()
            for p in f.parts()
            if p.is_request
        )
    ]
    if left and not answered:
        shown = "; ".join(f"[{r.mode}] {p.shown()}" for r, p in left[:LISTED])
        raise skip(
            f"not judged: the client answered none of the kit's agent's requests and ended no "
            f"run itself, leaving unanswered {shown} ({_ending(left[0][0])})"
        )


@check("ACP-V1-JSONRPC-RESPONSE-SAME-ID")
def _ids_known(kit: ClientKit) -> None:
    w.response_ids_known(kit.transcripts())


@check("ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION")
def _no_reply(kit: ClientKit) -> None:
    run, batches = _batches(kit)
    answers, closed = _replies(run, batches[1])
    if answers:
        raise fail(f"a response to a batch of notifications only: {answers[0].shown()}")
    if not closed:
        _not_hung(run)
        raise skip(
            "[batch] the client never answered the kit's request after the batch of notifications"
        )
    answers = _replies(run, batches[3])[0]
    request = next(p for p in batches[3].parts() if p.is_request)
    if any(a.get("id") == request.get("id") for a in answers) and len(answers) > 1:
        extra = next(a for a in answers if a.get("id") != request.get("id"))
        raise fail(f"a response for the notification of a batch: {extra.shown()}")


@check("ACP-V1-JSONRPC-RESPONSE-ID-ECHO")
def _parse_error(kit: ClientKit) -> None:
    w.ids_echoed(kit.transcripts())
    run, sent = _garbage(kit)
    _, batches = _batches(kit)
    for what, answers in (
        ("a line that is not JSON", _replies(run, sent)[0]),
        ("an empty batch", _replies(kit.run("batch"), batches[2])[0]),
    ):
        for answer in answers:
            if "id" in answer.message and answer.get("id") is not None:
                raise fail(f"the error response to {what} must have id null: {answer.shown()}")


@check("ACP-V1-JSONRPC-PARAM-NAMES-EXACT")
def _names(kit: ClientKit) -> None:
    # Names only: a member that is a declared name in another case (the shapes are the
    # schema checks').
    seen = 0
    for t in kit.transcripts(TURN_MODES):
        for f in t.received():
            params = f.get("params")
            if f.method not in kit.validator.stable_methods() or not isinstance(params, dict):
                continue
            seen += 1
            declared = kit.validator.declared(f.method or "")
            for key in params:
                if key not in declared and key.lower() in {d.lower() for d in declared}:
                    raise fail(
                        f"{f.method} param {key!r} is a declared name in another case: [{t.name}] {f.shown()}"
                    )
    if not seen:
        raise skip("the client sent no stable request or notification with params")


@check("ACP-V1-TRANSPORT-STDIO-SHOULD")
def _stdio(kit: ClientKit) -> None:
    # The client started the kit's agent (else the run is one error): it should talk ACP to
    # it on its stdin.
    run = kit.runner.run("basic")
    if run.error:
        raise fail(run.error)
    if not run.transcript.received():
        _not_hung(run)
        raise fail(
            f"the client started the kit's agent but wrote nothing to its stdin ({_ending(run)})"
        )


def _requests_after_stderr(kit: ClientKit) -> int:
    run = kit.runner.runs.get("garbage")
    written = run.event("stderr-written") if run is not None else None
    if run is None or written is None:
        return 0
    return sum(1 for f in run.transcript.sent() if f.time > written and _is_fence(f))


@check(
    "ACP-V1-TRANSPORT-CLIENT-STDERR-MAY",
    observes=Observation(
        "request of the kit's agent after a line on its stderr", _requests_after_stderr
    ),
)
def _stderr(kit: ClientKit) -> None:
    # In the garbage run the kit's agent writes a line on its stderr, then a chunk and a fence
    # (a permission request, the same the basic run's turn starts with). Capturing, forwarding
    # or ignoring the line is the client's choice; stopping at it is not.
    run = kit.run("garbage")
    written = run.event("stderr-written")
    if written is None:
        raise skip(f"[garbage] the client never reached the prompt turn ({_ending(run)})")
    fence = next((f for f in run.transcript.sent() if f.time > written and _is_fence(f)), None)
    if fence is None or run.transcript.response_to(fence) is not None:
        return
    _not_hung(run)
    basic = kit.run("basic")
    first = next((f for f in basic.transcript.sent() if f.is_request), None)
    if first is None or basic.transcript.response_to(first) is None:
        raise skip("the client does not answer the kit's permission request without stderr either")
    raise fail(
        "the client stopped after the kit's agent wrote a line on its stderr: it never answered "
        f"the next request, as it does in the basic run: {fence.shown()} ({_ending(run)})"
    )


def _response_to(run: ClientRun, method: str) -> Frame:
    for f in run.transcript.sent():
        if f.is_request and f.method == method:
            answer = run.transcript.response_to(f)
            if answer is None:
                _stopped_before(run, f)
                # Silence is judged as everywhere: once the client answered a later request
                # (the fence after it), or ended the run itself with this one outstanding.
                if not w.unanswered(run.transcript, f, _finished(run)):
                    raise skip(
                        f"[{run.mode}] not judged: no response to the kit's {method}, and none "
                        f"to any later request of the kit's agent ({_ending(run)}): {f.shown()}"
                    )
                raise fail(f"[{run.mode}] no response to the kit's {method}: {f.shown()}")
            return answer
    raise skip(f"[{run.mode}] the kit did not send {method}")


@check("ACP-V1-EXT-RESPOND-TO-CUSTOM-REQUEST")
def _ext(kit: ClientKit) -> None:
    answer = _response_to(kit.run("extras"), "_acpgen_kit/ping")
    del answer  # answered, with its id (responses are matched by id)


@check("ACP-V1-EXT-CUSTOM-REQUESTS-MAY")
def _ext_requests(kit: ClientKit) -> None:
    w.extension_names(kit.transcripts(), kit.validator, notifications=False)


@check("ACP-V1-EXT-UNKNOWN-METHOD-NOT-FOUND")
def _ext_not_found(kit: ClientKit) -> None:
    run = kit.run("extras")
    try:
        answer = _response_to(run, "_acpgen_kit/ping")
    except CheckFailed:
        raise skip("no answer to the custom request (EXT-RESPOND-TO-CUSTOM-REQUEST's)") from None
    w.expect_error_code(run.transcript, answer, -32601, "an unknown _ extension request")


def _goes_on_after(
    mode: str, stimulus: str, next_step: str, what: str, update: str | None = None
) -> Check:
    """The client keeps working after ``stimulus`` (a method the kit's agent sent, or
    "initialize" for its result): the step ``next_step`` happens (a request of the client)
    or any later request of the agent gets its answer."""

    def run_check(kit: ClientKit) -> None:
        run = kit.run(mode)
        t = run.transcript
        if stimulus == "initialize":
            sent = next((t.response_to(f) for f in t.requests("initialize")), None)
        else:
            sent = next(
                (f for f in t.sent() if f.method == stimulus and _update_kind(f) == update),
                None,
            )
        if sent is None:
            raise skip(f"[{mode}] the run never got to {what} ({_ending(run)})")
        _stopped_before(run, sent)
        later = [f for f in t.frames if f.time >= sent.time and f is not sent]
        if any(f.direction == "in" and f.method == next_step for f in later):
            return
        if any(f.direction == "out" and f.is_request and t.response_to(f) for f in later):
            return
        _not_hung(run)
        if stimulus == "initialize" and not kit.run("basic").transcript.requests(next_step):
            # The unusual result is not what stopped it: it stops after the plain one too.
            raise skip(
                f"[{mode}] the client stopped after {what}, but it sends no {next_step} after "
                "the basic run's initialize result either"
            )
        raise fail(f"[{mode}] the client stopped after {what}: {sent.shown()} ({_ending(run)})")

    return run_check


def _update_kind(frame: Frame) -> str | None:
    """A session/update's sessionUpdate (None for any other message): the stimulus of a check
    is the update it is about, not the first update of the turn."""
    params = frame.get("params")
    update = params.get("update") if isinstance(params, dict) else None
    if frame.method != "session/update" or not isinstance(update, dict):
        return None
    kind = update.get("sessionUpdate")
    return kind if isinstance(kind, str) else None


_register(
    "ACP-V1-EXT-IGNORE-UNKNOWN-NOTIFICATIONS",
    _goes_on_after("extras", "_acpgen_kit/notice", "_acpgen_kit/ping", "an unknown _ notification"),
)
_register(
    "ACP-V1-ELIC-CLIENT-IGNORE-UNKNOWN-COMPLETE",
    _goes_on_after(
        "extras",
        "elicitation/complete",
        "elicitation/create",
        "elicitation/complete for an unknown id",
    ),
)
_register(
    "ACP-V1-EXT-META-NO-ASSUMPTIONS",
    _goes_on_after(
        "extras", "initialize", "session/new", "an initialize result with unusual _meta"
    ),
)


@check("ACP-V1-CONFIG-CLIENT-UNKNOWN-CATEGORY")
def _unknown_category(kit: ClientKit) -> None:
    run = kit.run("extras")
    t = run.transcript
    answer = next((t.response_to(f) for f in t.requests("session/new")), None)
    if answer is None and not t.requests("session/new"):
        # What was seen: no session asked for, so no config option offered (not the agent's).
        raise skip(f"[extras] the client sent no session/new ({_ending(run)})")
    if answer is None:
        raise skip(f"[extras] the kit's agent never answered session/new ({_ending(run)})")
    if not t.requests("session/prompt"):
        raise fail(
            "the client stopped after a session/new result with a config option of an unknown "
            f"category: {answer.shown()} ({_ending(run)})"
        )


_register(
    "ACP-V1-CONFIG-CLIENT-IGNORE-UNKNOWN-TYPE",
    _goes_on_after(
        "extras",
        "session/update",
        "session/request_permission",
        "a config_option_update with an option of an unknown type",
        update="config_option_update",
    ),
)


@check("ACP-V1-ELIC-CLIENT-UNADVERTISED-MODE-INVALID-PARAMS")
def _elicitation(kit: ClientKit) -> None:
    run = kit.run("extras")
    w.expect_error_code(
        run.transcript,
        _response_to(run, "elicitation/create"),
        -32602,
        "elicitation/create in form mode, which the client did not advertise",
    )


@check("ACP-V1-CANCEL-REQUEST-MUST-RESPOND")
def _cancel_request(kit: ClientKit) -> None:
    run = kit.run("extras")
    sent = run.event("cancel-request-sent")
    if sent is None:
        # The client stopped earlier in the turn: that step's check's, not this one's.
        raise skip(f"[extras] the turn never got to $/cancel_request ({_ending(run)})")
    permissions = [f for f in run.transcript.sent() if f.method == "session/request_permission"]
    answer = run.transcript.response_to(permissions[-1]) if permissions else None
    if answer is None:
        _stopped_before(run, permissions[-1])
        raise fail("the permission request cancelled with $/cancel_request was never answered")
    error = answer.get("error")
    if isinstance(error, dict) and error.get("code") != -32800:
        plain = _response_to(kit.run("basic"), "session/request_permission").get("error")
        if isinstance(plain, dict) and plain.get("code") == error.get("code"):
            raise skip(
                f"the client answers every session/request_permission with error {error.get('code')}, "
                "cancelled or not: nothing to tell about $/cancel_request"
            )
        raise fail(
            f"the cancelled request was answered with error {error.get('code')}, not a result or -32800"
        )


@check(
    "ACP-V1-EXT-NO-ROOT-CUSTOM-FIELDS",
    observes=Observation(
        "params or result object from the client",
        lambda kit: written_count(
            kit, lambda f: isinstance(f.get("params"), dict) or isinstance(f.get("result"), dict)
        ),
    ),
)
def _extra(kit: ClientKit) -> None:
    w.no_extra_members(kit.transcripts(), kit.validator)


@check("ACP-V1-SCHEMA-EXTENSION-METHOD-NAMES")
def _ext_names(kit: ClientKit) -> None:
    w.extension_names(kit.transcripts(), kit.validator, notifications=True)


@check("ACP-V1-SCHEMA-ERROR-OBJECT")
def _errors(kit: ClientKit) -> None:
    # The predefined codes keep their meanings: a line that is not JSON is -32700, an empty
    # batch -32600 (when answered with an error; no answer is RESPONSE-REQUIRED's).
    run, sent = _garbage(kit)
    batch_run, batches = _batches(kit)
    judged = 0
    for what, code, answers in (
        ("a line that is not JSON", -32700, _replies(run, sent)[0]),
        ("an empty batch", -32600, _replies(batch_run, batches[2])[0]),
    ):
        errors = [a for a in answers if isinstance(a.get("error"), dict)]
        if errors:
            judged += 1
            if errors[0].message["error"].get("code") != code:
                raise fail(f"{what}: expected error {code}, got {errors[0].shown()}")
    if not judged:
        raise skip("the client answered none of the kit's malformed messages with an error")


_SHAPES = {
    "ACP-V1-SCHEMA-INITIALIZE-SHAPE": ("initialize",),
    "ACP-V1-SCHEMA-AUTHENTICATE-SHAPE": ("authenticate",),
    "ACP-V1-SCHEMA-LOGOUT-SHAPE": ("logout",),
    "ACP-V1-SCHEMA-NEW-SESSION-SHAPE": ("session/new",),
    "ACP-V1-SCHEMA-LOAD-SESSION-SHAPE": ("session/load",),
    "ACP-V1-SCHEMA-RESUME-SESSION-SHAPE": ("session/resume",),
    "ACP-V1-SCHEMA-CLOSE-SESSION-SHAPE": ("session/close",),
    "ACP-V1-SCHEMA-LIST-SESSIONS-SHAPE": ("session/list",),
    "ACP-V1-SCHEMA-DELETE-SESSION-SHAPE": ("session/delete",),
    "ACP-V1-SCHEMA-SET-MODE-SHAPE": ("session/set_mode",),
    "ACP-V1-SCHEMA-SET-CONFIG-OPTION-SHAPE": ("session/set_config_option",),
    "ACP-V1-SCHEMA-PROMPT-SHAPE": ("session/prompt",),
    "ACP-V1-SCHEMA-CANCEL-NOTIFICATION-SHAPE": ("session/cancel",),
    "ACP-V1-SCHEMA-CANCEL-REQUEST-NOTIFICATION-SHAPE": ("$/cancel_request",),
    "ACP-V1-SCHEMA-REQUEST-PERMISSION-SHAPE": ("session/request_permission",),
    "ACP-V1-SCHEMA-READ-TEXT-FILE-SHAPE": ("fs/read_text_file",),
    "ACP-V1-SCHEMA-WRITE-TEXT-FILE-SHAPE": ("fs/write_text_file",),
    "ACP-V1-SCHEMA-TERMINAL-CREATE-SHAPE": ("terminal/create",),
    "ACP-V1-SCHEMA-TERMINAL-OUTPUT-SHAPE": ("terminal/output",),
    "ACP-V1-SCHEMA-TERMINAL-RELEASE-SHAPE": ("terminal/release",),
    "ACP-V1-SCHEMA-TERMINAL-WAIT-FOR-EXIT-SHAPE": ("terminal/wait_for_exit",),
    "ACP-V1-SCHEMA-TERMINAL-KILL-SHAPE": ("terminal/kill",),
}


def _shape(methods: tuple[str, ...]) -> Check:
    return lambda kit: w.shape(kit.transcripts(), kit.validator, *methods)


for _id, _methods in _SHAPES.items():
    _register(_id, _shape(_methods))
_register(
    "ACP-V1-SCHEMA-CONTENT-BLOCK-VARIANTS",
    lambda kit: w.content_blocks(kit.transcripts(), kit.validator, "session/prompt"),
)


def _mcp_servers(kit: ClientKit) -> list[tuple[Frame, Any]]:
    return [
        (f, server)
        for t in kit.transcripts(TURN_MODES)
        for f in t.received()
        if f.method in ("session/new", "session/load", "session/resume")
        for server in ((f.get("params") or {}).get("mcpServers") or [])
    ]


@check(
    "ACP-V1-SCHEMA-MCP-SERVER-VARIANTS",
    observes=Observation("MCP server listed by the client", lambda kit: len(_mcp_servers(kit))),
)
def _mcp_variants(kit: ClientKit) -> None:
    found = _mcp_servers(kit)
    if not found:
        raise skip("the client listed no MCP server")
    for f, server in found:
        verdict = kit.validator.definition("McpServer", server)
        if not verdict.ok:
            raise fail(f"{verdict.problem}: {f.shown()}")


@check("ACP-V1-SETUP-CLIENT-MCP-SERVERS-MAY")
def _mcp_may(kit: ClientKit) -> None:
    raise not_checkable(
        "including MCP servers or not is the client's choice; what it includes is "
        "SCHEMA-MCP-SERVER-VARIANTS' (shape) and SETUP-CLIENT-CHECK-MCP-TRANSPORT's "
        "(transport), and nothing else on the wire can break this MAY alone"
    )


# ---- initialization ---------------------------------------------------------------------------


@check("ACP-V1-INIT-CLIENT-INITIALIZE-FIRST")
def _first(kit: ClientKit) -> None:
    for mode in TURN_MODES:
        frames = [f for f in kit.run(mode).transcript.received() if f.is_object]
        if not frames:  # only lines that are no message: TRANSPORT-CLIENT-STDIN-ONLY-ACP's
            raise skip(f"[{mode}] the client wrote no message to the agent")
        if frames[0].method != "initialize":
            raise fail(f"[{mode}] the first message is not initialize: {frames[0].shown()}")


@check("ACP-V1-INIT-REQUEST-LATEST-VERSION")
def _latest(kit: ClientKit) -> None:
    version = kit.init_params().get("protocolVersion")
    if version != 1:
        raise fail(
            f"initialize asks for protocol version {version!r}; the latest stable version is 1"
        )


def _initialize_answers(mode: str) -> Callable[[ClientKit], int]:
    def count(kit: ClientKit) -> int:
        run = kit.runner.runs.get(mode)
        t = run.transcript if run is not None else None
        return (
            0 if t is None else sum(t.response_to(f) is not None for f in t.requests("initialize"))
        )

    return count


@check(
    "ACP-V1-INIT-VERSION-AGREEMENT",
    observes=Observation("initialize answered by the kit's agent", _initialize_answers("basic")),
)
def _agreement(kit: ClientKit) -> None:
    # The wire part of agreeing: the agent's initialize result settles the version for the
    # connection, so the client does not negotiate again. (The version asked is
    # INIT-REQUEST-LATEST-VERSION's, going on after 9999 INIT-CLIENT-UNSUPPORTED-VERSION's,
    # acting by version 1 every other check's.)
    kit.first_request("basic", "initialize")
    for mode in ALL_MODES:
        t = kit.run(mode).transcript
        asked = t.requests("initialize")
        answered = t.response_to(asked[0]) if asked else None
        for f in asked[1:]:
            if answered is not None and f.time > answered.time:
                agreed = (answered.get("result") or {}).get("protocolVersion")
                raise fail(
                    f"[{mode}] initialize again after the kit's agent answered protocol version "
                    f"{agreed!r}: {f.shown()}"
                )


@check(
    "ACP-V1-INIT-CLIENT-UNSUPPORTED-VERSION",
    observes=Observation(
        "initialize answered with an unsupported protocol version",
        _initialize_answers("version"),
    ),
)
def _unsupported(kit: ClientKit) -> None:
    run = kit.run("version")
    if not run.transcript.requests("initialize"):
        raise fail(f"[version] the client never sent initialize ({_ending(run)})")
    answered = next(
        (run.transcript.response_to(f) for f in run.transcript.requests("initialize")),
        None,
    )
    # A second initialize is INIT-VERSION-AGREEMENT's; going on with the session is this one's.
    later = [
        f
        for f in run.transcript.received()
        if f.is_request
        and f.method != "initialize"
        and answered is not None
        and f.time > answered.time
    ]
    if later:
        raise fail(
            f"the agent answered protocol version 9999, yet the client went on with {later[0].method}"
        )
    if run.timed_out:
        raise skip(
            f"[version] the client neither went on nor closed the connection ({_ending(run)})"
        )


@check("ACP-V1-INIT-IMPLEMENTATION-INFO")
def _info(kit: ClientKit) -> None:
    info = kit.init_params().get("clientInfo")
    if not isinstance(info, dict) or not info.get("name") or not info.get("version"):
        raise fail(f"initialize has no clientInfo with name and version: {info!r}")


@check("ACP-V1-INIT-CLIENT-SPECIFY-CAPABILITIES")
def _specify(kit: ClientKit) -> None:
    caps = kit.init_params().get("clientCapabilities")
    if not isinstance(caps, dict):
        raise fail("initialize has no clientCapabilities")
    missing = [k for k in ("fs", "terminal") if k not in caps]
    if missing:
        raise fail(f"clientCapabilities does not say whether it supports {', '.join(missing)}")


# Every capability is optional: in the garbage run the kit's agent answers initialize with
# protocolVersion alone (no agentCapabilities, which then take their defaults); the client
# must go on as with the basic run's explicit ones.
_register(
    "ACP-V1-INIT-CAPABILITIES-OPTIONAL",
    _goes_on_after(
        "garbage",
        "initialize",
        "session/new",
        "an initialize result without agentCapabilities",
    ),
)


@check("ACP-V1-INIT-SUPPORT-ALL-COMBINATIONS")
def _combinations(kit: ClientKit) -> None:
    # The two capability combinations the kit's agent advertises: none of the optional
    # session methods ("basic") and all of them ("capable"). A stop in "extras" is the check
    # of the step it stopped at; in "capable", what follows a cancellation is the
    # cancellation checks'.
    kit.completed("basic")
    if kit.run("capable").event("cancelled-while-pending") is None:
        kit.completed("capable")


def _never(kit: ClientKit, methods: Sequence[str], why: str) -> None:
    for t in kit.transcripts(TURN_MODES):
        for f in t.received():
            if f.is_request and f.method in methods:
                raise fail(f"{why}, yet the client sent {f.method}: [{t.name}] {f.shown()}")


_register(
    "ACP-V1-INIT-OMITTED-UNSUPPORTED",
    lambda kit: _never(kit, GATED, "the kit's agent advertised none of these methods"),
    TURNS_ENDED,
)


def _never_called(method: str, capability: str) -> Check:
    return lambda kit: _never(kit, (method,), f"the kit's agent did not advertise {capability}")


for _id, _method, _cap in (
    ("ACP-V1-AUTH-CLIENT-NO-LOGOUT-WITHOUT-CAPABILITY", "logout", "auth.logout"),
    ("ACP-V1-SETUP-CLIENT-CHECK-LOADSESSION", "session/load", "loadSession"),
    ("ACP-V1-SETUP-CLIENT-NO-LOAD-WITHOUT-CAPABILITY", "session/load", "loadSession"),
    (
        "ACP-V1-SETUP-CLIENT-CHECK-RESUME",
        "session/resume",
        "sessionCapabilities.resume",
    ),
    (
        "ACP-V1-SETUP-CLIENT-NO-RESUME-WITHOUT-CAPABILITY",
        "session/resume",
        "sessionCapabilities.resume",
    ),
    ("ACP-V1-SETUP-CLIENT-CHECK-CLOSE", "session/close", "sessionCapabilities.close"),
    (
        "ACP-V1-SETUP-CLIENT-NO-CLOSE-WITHOUT-CAPABILITY",
        "session/close",
        "sessionCapabilities.close",
    ),
    ("ACP-V1-LIST-CLIENT-CHECK-CAPABILITY", "session/list", "sessionCapabilities.list"),
    (
        "ACP-V1-LIST-CLIENT-NO-LIST-WITHOUT-CAPABILITY",
        "session/list",
        "sessionCapabilities.list",
    ),
    ("ACP-V1-LIST-INIT-FIRST", "session/list", "sessionCapabilities.list"),
    (
        "ACP-V1-DELETE-CLIENT-CHECK-CAPABILITY",
        "session/delete",
        "sessionCapabilities.delete",
    ),
    (
        "ACP-V1-DELETE-CLIENT-NO-DELETE-WITHOUT-CAPABILITY",
        "session/delete",
        "sessionCapabilities.delete",
    ),
    ("ACP-V1-DELETE-INIT-FIRST", "session/delete", "sessionCapabilities.delete"),
):
    _register(_id, _never_called(_method, _cap), TURNS_ENDED)


def _capable_calls(kit: ClientKit, method: str, capability: str) -> list[Frame]:
    """The client's calls of ``method`` in the run where the kit's agent advertised it."""
    run = kit.run("capable")
    if run.event("turn-ended") is None:
        # A client that cannot work with every capability advertised is
        # INIT-SUPPORT-ALL-COMBINATIONS'.
        raise skip(f"[capable] the prompt turn never ended ({_ending(run)})")
    calls = run.transcript.requests(method)
    if not calls:
        raise skip(
            f"the client never called {method} although the kit's agent advertised {capability}"
        )
    return calls


def _request_contents(method: str, capability: str, members: tuple[str, ...]) -> Check:
    def run(kit: ClientKit) -> None:
        for f in _capable_calls(kit, method, capability):
            params = f.get("params")
            params = params if isinstance(params, dict) else {}
            missing = [m for m in members if m not in params]
            if missing:
                raise fail(f"{method} without {', '.join(missing)}: {f.shown()}")
            cwd = params.get("cwd")
            if "cwd" in members and not (isinstance(cwd, str) and w.is_absolute(cwd)):
                raise fail(f"{method} cwd {cwd!r} is not an absolute path: {f.shown()}")
            if params.get("sessionId") in (None, ""):
                raise fail(f"{method} without a session id: {f.shown()}")

    return run


_register(
    "ACP-V1-SETUP-LOAD-REQUEST-CONTENTS",
    _request_contents("session/load", "loadSession", ("sessionId", "mcpServers", "cwd")),
)
_register(
    "ACP-V1-SETUP-RESUME-REQUEST-CONTENTS",
    _request_contents(
        "session/resume",
        "sessionCapabilities.resume",
        ("sessionId", "mcpServers", "cwd"),
    ),
)
_register(
    "ACP-V1-SETUP-CLOSE-REQUEST",
    _request_contents("session/close", "sessionCapabilities.close", ("sessionId",)),
)


@check("ACP-V1-LIST-CLIENT-OPAQUE-CURSOR")
def _opaque_cursor(kit: ClientKit) -> None:
    calls = _capable_calls(kit, "session/list", "sessionCapabilities.list")
    paged = [f for f in calls if (f.get("params") or {}).get("cursor") is not None]
    if not paged:
        raise skip("the client never asked for a second page (the kit's agent offered one)")
    for f in paged:
        if (f.get("params") or {}).get("cursor") != KIT_CURSOR:
            raise fail(
                f"session/list with a cursor the agent never gave ({KIT_CURSOR!r} was): {f.shown()}"
            )


@check("ACP-V1-LIST-CLIENT-MISSING-CURSOR-IS-END")
def _cursor_end(kit: ClientKit) -> None:
    calls = _capable_calls(kit, "session/list", "sessionCapabilities.list")
    t = kit.run("capable").transcript
    last_pages = [
        answer.time
        for answer in (t.response_to(f) for f in calls)
        if answer is not None
        and isinstance(answer.get("result"), dict)
        and "nextCursor" not in answer.message["result"]
    ]
    if not last_pages:
        raise skip("the client never reached the last page (one without nextCursor)")
    for f in calls:
        if f.time > min(last_pages) and (f.get("params") or {}).get("cursor") is not None:
            raise fail(f"session/list with a cursor after a page without nextCursor: {f.shown()}")


@check("ACP-V1-AUTH-CLIENT-NO-TERMINAL-METHOD-ID")
def _terminal_auth(kit: ClientKit) -> None:
    auth = kit.caps().get("auth")
    if not (isinstance(auth, dict) and auth.get("terminal") is True):
        raise skip(
            "the client does not enable auth.terminal, so the kit advertises no terminal auth method"
        )
    _never_authenticate_terminal(kit)


def _never_authenticate_terminal(kit: ClientKit) -> None:
    for f in kit.run("basic").transcript.requests("authenticate"):
        if (f.get("params") or {}).get("methodId") == "kit-terminal-login":
            raise fail(f"authenticate with the terminal auth method: {f.shown()}")


def _order(kit: ClientKit, first: str, then: str) -> None:
    for mode in TURN_MODES:
        t = kit.run(mode).transcript
        before = t.requests(first)
        answered = t.response_to(before[0]) if before else None
        for f in t.requests(then):
            if answered is None or f.time < answered.time:
                raise fail(f"[{mode}] {then} before {first} completed: {f.shown()}")


_register(
    "ACP-V1-SETUP-INIT-BEFORE-SESSION",
    lambda kit: _order(kit, "initialize", "session/new"),
    calls_of("session/new"),
)


@check("ACP-V1-PROMPT-INIT-AND-SETUP-FIRST", observes=calls_of("session/prompt"))
def _prompt_order(kit: ClientKit) -> None:
    # session/new before initialize is SETUP-INIT-BEFORE-SESSION's; here: the prompt.
    _order(kit, "initialize", "session/prompt")
    _order(kit, "session/new", "session/prompt")


def _new_session_params(kit: ClientKit) -> list[dict[str, Any]]:
    return [
        f.get("params") or {}
        for mode in TURN_MODES
        for f in kit.run(mode).transcript.requests("session/new")
    ]


@check("ACP-V1-SETUP-CWD-ABSOLUTE", observes=calls_of("session/new"))
def _cwd(kit: ClientKit) -> None:
    for params in _new_session_params(kit):
        cwd = params.get("cwd")
        if isinstance(cwd, str) and not w.is_absolute(cwd):  # not a string: the shape's
            raise fail(f"session/new cwd {cwd!r} is not an absolute path")


@check("ACP-V1-SETUP-ADDITIONAL-DIRS-ABSOLUTE")
def _dirs_absolute(kit: ClientKit) -> None:
    # The capable run advertises sessionCapabilities.additionalDirectories (elsewhere any is
    # SETUP-CLIENT-ADDITIONAL-DIRS-ONLY-WITH-CAPABILITY's; one that is no string the shape's).
    seen = 0
    for f in (
        f for method in w.SESSION_SETUP for f in kit.run("capable").transcript.requests(method)
    ):
        dirs = (f.get("params") or {}).get("additionalDirectories")
        for entry in dirs if isinstance(dirs, list) else []:
            if isinstance(entry, str):
                seen += 1
                if not w.is_absolute(entry):
                    raise fail(
                        f"{f.method} additionalDirectories entry {entry!r} is not absolute: {f.shown()}"
                    )
    if not seen:
        raise skip(
            "the client sent no additionalDirectories although the kit's agent advertised "
            "sessionCapabilities.additionalDirectories"
        )


@check("ACP-V1-SETUP-CLIENT-ADDITIONAL-DIRS-ONLY-WITH-CAPABILITY", observes=calls_of("session/new"))
def _dirs(kit: ClientKit) -> None:
    for params in _new_session_params(kit):
        if params.get("additionalDirectories"):
            raise fail(
                "session/new carries additionalDirectories although the kit's agent did not advertise "
                "sessionCapabilities.additionalDirectories"
            )


@check("ACP-V1-SETUP-CLIENT-CHECK-MCP-TRANSPORT", observes=calls_of("session/new"))
def _mcp(kit: ClientKit) -> None:
    for params in _new_session_params(kit):
        for server in params.get("mcpServers") or []:
            if isinstance(server, dict) and server.get("type") in ("http", "sse"):
                raise fail(
                    f"session/new has an {server['type']} MCP server although the kit's agent did not "
                    "advertise mcpCapabilities"
                )


@check(
    "ACP-V1-PROMPT-CLIENT-RESTRICT-CONTENT",
    "ACP-V1-PROMPT-CLIENT-CONTEXT-BLOCKS-MAY",
    observes=calls_of("session/prompt"),
)
def _content(kit: ClientKit) -> None:
    # An unknown block type is SCHEMA-CONTENT-BLOCK-VARIANTS'; here: a known one the agent
    # did not advertise.
    for mode in TURN_MODES:
        for f in kit.run(mode).transcript.requests("session/prompt"):
            for block in (f.get("params") or {}).get("prompt") or []:
                kind = block.get("type") if isinstance(block, dict) else None
                if kind in ("image", "audio", "resource"):
                    raise fail(
                        f"prompt block of type {kind!r} although the kit's agent advertised no "
                        f"image, audio or embeddedContext: {f.shown()}"
                    )


def _cancels(kit: ClientKit) -> list[tuple[Transcript, Frame]]:
    found = [
        (kit.run(m).transcript, f)
        for m in (*TURN_MODES, "capable")
        for f in kit.run(m).transcript.notifications("session/cancel")
    ]
    if not found:
        raise skip("the client never sent session/cancel")
    return found


@check("ACP-V1-PROMPT-CLIENT-CANCEL-MAY")
def _cancel(kit: ClientKit) -> None:
    for t, f in _cancels(kit):
        if not str((f.get("params") or {}).get("sessionId", "")).startswith("kit-session-"):
            raise fail(
                f"session/cancel for a session the kit's agent never created: [{t.name}] {f.shown()}"
            )


def _pending_at_cancel(kit: ClientKit) -> tuple[ClientRun, Frame]:
    """The capable run's permission request for the long tool call, pending when the client
    sent session/cancel. The kit cannot make a client cancel: one that
    answers the request instead leaves nothing to judge."""
    run = kit.run("capable")
    t = run.transcript
    pending = next(
        (
            f
            for f in t.sent()
            if f.method == "session/request_permission"
            and ((f.get("params") or {}).get("toolCall") or {}).get("toolCallId") == CANCEL_CALL
        ),
        None,
    )
    if pending is None:
        raise skip(f"[capable] the turn never got to the long tool call ({_ending(run)})")
    cancel = next((f for f in t.notifications("session/cancel") if f.time > pending.time), None)
    answer = t.response_to(pending)
    if cancel is None or (answer is not None and answer.time < cancel.time):
        raise skip(
            "the client never cancelled the turn while the kit's permission request was pending"
        )
    return run, pending


@check("ACP-V1-PROMPT-CLIENT-RESPOND-PENDING-PERMISSIONS")
def _pending_permissions(kit: ClientKit) -> None:
    run, pending = _pending_at_cancel(kit)
    answer = run.transcript.response_to(pending)
    if answer is None:
        _not_hung(run)
        raise fail(
            f"the permission request pending at session/cancel was never answered: {pending.shown()} "
            f"({_ending(run)})"
        )
    if "result" not in answer.message and "error" not in answer.message:
        raise skip(f"neither result nor error (JSONRPC-RESULT-XOR-ERROR's): {answer.shown()}")
    result = answer.get("result")
    outcome = result.get("outcome") if isinstance(result, dict) else None
    if not (isinstance(outcome, dict) and outcome.get("outcome") == "cancelled"):
        raise fail(
            "the permission request pending at session/cancel was answered without the cancelled "
            f"outcome: {answer.shown()}"
        )


@check("ACP-V1-PROMPT-CLIENT-ACCEPT-LATE-UPDATES")
def _late_updates(kit: ClientKit) -> None:
    # After the cancel and the pending request's answer the kit's agent sends a tool call
    # update, then a custom request (to a client that answered one earlier in the run): the
    # client that accepted the update goes on to answer it.
    run, _pending = _pending_at_cancel(kit)
    late = run.event("late-update-sent")
    if late is None:
        raise skip(
            "the pending permission request was never answered (RESPOND-PENDING-PERMISSIONS')"
        )
    t = run.transcript
    update = next(f for f in reversed(t.sent()) if f.time < late and f.method == "session/update")
    probe = next((f for f in t.sent() if f.time > late and f.is_request), None)
    if probe is None:
        raise skip(
            "the client answers no custom request, so nothing after the late update shows it went on"
        )
    if t.response_to(probe) is not None:
        return
    _not_hung(run)
    raise fail(
        f"the client stopped at a tool call update sent after its session/cancel: {update.shown()} "
        f"({_ending(run)})"
    )


@check("ACP-V1-FS-CLIENT-CREATE-FILE")
def _create(kit: ClientKit) -> None:
    fs = kit.caps().get("fs")
    if not (isinstance(fs, dict) and fs.get("writeTextFile") is True):
        raise skip("the client does not advertise fs.writeTextFile")
    run = kit.run("basic")
    path = os.path.join(run.workdir, "kit-created.txt")
    answer = _response_to(run, "fs/write_text_file")
    if "result" not in answer.message:
        # A client may refuse a write (outside its root, by policy): nothing about creating.
        raise skip(f"the client refused the write, so creating cannot be judged: {answer.shown()}")
    if not os.path.exists(path):
        raise fail(
            f"fs/write_text_file to a file that did not exist succeeded but did not create it "
            f"({path}): {answer.shown()}"
        )


@check("ACP-V1-TERM-CLIENT-TRUNCATE-AT-CHARACTER-BOUNDARY")
def _truncate(kit: ClientKit) -> None:
    if kit.caps().get("terminal") is not True:
        raise skip("the client does not advertise terminal")
    run = kit.run("basic")
    answer = _response_to(run, "terminal/output")
    output = (
        (answer.get("result") or {}).get("output")
        if isinstance(answer.get("result"), dict)
        else None
    )
    if not isinstance(output, str):
        raise fail(f"terminal/output without output: {answer.shown()}")
    if len(output.encode("utf-8")) > TERMINAL_LIMIT or not TERMINAL_TEXT.endswith(output):
        raise fail(f"with outputByteLimit {TERMINAL_LIMIT} the retained output is {output!r}")


@check("ACP-V1-MODES-SET-MODE-ID-LISTED")
def _set_mode(kit: ClientKit) -> None:
    calls = kit.run("extras").transcript.requests("session/set_mode")
    if not calls:
        raise skip("the client never called session/set_mode")
    for f in calls:
        if (f.get("params") or {}).get("modeId") not in ("ask", "code"):
            raise fail(f"session/set_mode to a mode the agent did not list: {f.shown()}")


@check("ACP-V1-CONFIG-SET-VALUE-VALID")
def _set_config(kit: ClientKit) -> None:
    calls = kit.run("extras").transcript.requests("session/set_config_option")
    if not calls:
        raise skip("the client never called session/set_config_option")
    valid = {"mode": {"ask", "code"}, "tone": {"plain"}, "depth": {"1"}}
    for f in calls:
        params = f.get("params") or {}
        if params.get("value") not in valid.get(str(params.get("configId")), set()):
            raise fail(
                f"session/set_config_option with a value the option does not list: {f.shown()}"
            )
