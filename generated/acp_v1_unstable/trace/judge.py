# Edit acpgen/shipped/trace/judge.py, not this file: acpgen generate writes it.
"""The offline judge: a recorded conversation held to the roster's wire requirements.

Two sources of rules, one verdict per requirement and side:

* the conformance kit's own transcript checks (``conformance/checks_wire.py``: framing, the
  JSON-RPC shape of every message, error objects, ids, paths, ``_meta`` keys), fed the
  recorded frames through a small adapter: the trace seen from the side under judgement is
  a kit transcript whose ``in`` frames are that side's;
* the rules a passive trace can judge exactly where the live kit, which drives one side,
  judges loosely: every request answered exactly once, a prompt turn's updates before its
  response, a request only for what the peer advertised (the runtime's own capability
  guards, ``guards.py``, run on each recorded message), what follows a cancellation.

A requirement whose observation the trace does not contain is "not exercised", with why.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..conformance import checks_wire as w
from ..conformance.outcome import CheckFailed, CheckNoted, CheckSkipped, skip
from ..conformance.validate import Validator
from ..conformance.wire import Direction, Frame, Transcript, decode_line
from ..guards import AcpGuardError, PathNotAbsoluteError, check_agent_call, check_client_call
from ..schema import GATES, INITIALIZE_FIRST
from .format import Trace
from .requirements import REQUIREMENTS

__all__ = ["Verdict", "judge", "package_name"]

Status = Literal["fail", "pass", "not exercised"]
Side = Literal["agent", "client"]
SIDES: tuple[Side, Side] = ("agent", "client")
_FRAME_NUMBER = re.compile(r"frame (\d+):")


def package_name() -> str:
    """The generated package this judge belongs to (``<package>`` for ``<package>.trace``)."""
    return __name__.rsplit(".", 2)[0]


@dataclass(frozen=True)
class Verdict:
    req_id: str
    side: Side  # whose behaviour is judged
    status: Status
    detail: str  # what was observed (fail), or why it was not exercised
    frames: tuple[int, ...] = ()  # the frame numbers the failure points at

    def to_json(self) -> dict[str, Any]:
        keyword, _role, text = REQUIREMENTS.get(self.req_id, ("", "", ""))
        data = {**dataclasses.asdict(self), "frames": list(self.frames)}
        return {**data, "keyword": keyword, "wording": text}


class Failed(CheckFailed):
    """A failure of one of this module's rules, with the frames it points at."""

    def __init__(self, message: str, *frames: Frame) -> None:
        super().__init__(message)
        self.frames = tuple(sorted({f.number for f in frames if f.number is not None}))


# ---- the conversation --------------------------------------------------------------------------


def _sender(frame: Frame) -> Side:
    return "agent" if frame.direction == "in" else "client"  # the agent-side view


def _key(value: Any) -> str:
    # JSON-RPC ids match in type and value: 1, 1.0 and "1" are three ids.
    return f"{type(value).__name__}:{json.dumps(value, sort_keys=True)}"


@dataclass
class Exchange:
    """A request and every response carrying its id (in the other direction, after it)."""

    request: Frame
    responses: list[Frame] = field(default_factory=list)

    @property
    def method(self) -> str:
        return self.request.method or ""

    @property
    def session(self) -> Any:
        params = self.request.get("params")
        return params.get("sessionId") if isinstance(params, dict) else None


@dataclass
class Conversation:
    """The recorded frames decoded once, as the kit decodes a line, and their exchanges."""

    frames: list[Frame]  # the agent-side view: ``in`` is what the agent sent
    ended: bool  # the recording ended normally (both sides were done)
    exchanges: list[Exchange] = field(default_factory=list)
    stray: list[Frame] = field(default_factory=list)  # responses that answer no request
    request_of: dict[int, Frame] = field(default_factory=dict)  # id(response) -> its request
    # Every message, those of a batch one by one: made once, so each keeps its identity.
    parts: list[Frame] = field(default_factory=list)
    index_of: dict[int, int] = field(default_factory=dict)  # id(message) -> its place in parts
    _capability_findings: list[tuple[Side, str, str, tuple[Frame, ...]]] | None = None

    def capability_findings(self) -> list[tuple[Side, str, str, tuple[Frame, ...]]]:
        """:func:`capability_findings`, computed once for both sides."""
        if self._capability_findings is None:
            self._capability_findings = list(capability_findings(self))
        return self._capability_findings

    @classmethod
    def of(cls, trace: Trace) -> Conversation:
        frames = [
            dataclasses.replace(
                decode_line("in" if f.sender == "agent" else "out", f.raw, f.time),
                number=f.number,
            )
            for f in trace.frames
        ]
        conversation = cls(frames, trace.end is not None)
        open_requests: dict[tuple[Side, str], Exchange] = {}
        conversation.parts = [part for frame in frames for part in frame.parts()]
        conversation.index_of = {id(part): i for i, part in enumerate(conversation.parts)}
        for part in conversation.parts:
            if part.is_request:
                exchange = Exchange(part)
                conversation.exchanges.append(exchange)
                open_requests[(_sender(part), _key(part.get("id")))] = exchange
            elif part.is_response and "id" in part.message:
                asker: Side = "client" if _sender(part) == "agent" else "agent"
                found = open_requests.get((asker, _key(part.get("id"))))
                if found is None:
                    conversation.stray.append(part)
                else:
                    found.responses.append(part)
                    conversation.request_of[id(part)] = found.request
        return conversation

    def seen_from(self, side: Side) -> Transcript:
        """The kit's transcript with ``side`` as the implementation under test."""
        if side == "agent":
            return Transcript("trace", list(self.frames))
        flip: dict[str, Direction] = {"in": "out", "out": "in"}
        frames = [dataclasses.replace(f, direction=flip[f.direction]) for f in self.frames]
        return Transcript("trace", frames)

    def messages(self) -> Iterator[Frame]:
        return iter(self.parts)

    def answered_by(self, side: Side) -> list[Exchange]:
        """The requests ``side`` had to answer (those its peer sent)."""
        return [e for e in self.exchanges if _sender(e.request) != side]


# ---- the rules only a whole recorded conversation can judge ------------------------------------


def every_request_answered_once(c: Conversation, side: Side, custom: bool) -> None:
    """Each request to ``side`` got a response (``custom``: only ``_`` extension requests,
    which are EXT-RESPOND-TO-CUSTOM-REQUEST's; otherwise all others)."""
    asked = [e for e in c.answered_by(side) if e.method.startswith("_") == custom]
    if not asked:
        raise skip(f"the {side}'s peer sent no {'_extension ' if custom else ''}request")
    for e in asked:
        if not e.responses:
            end = "the recording ended" if c.ended else "the recording was cut off"
            raise Failed(
                f"no response to {e.method} (frame {e.request.number}) before {end}",
                e.request,
            )


def answered_at_most_once(c: Conversation, side: Side) -> None:
    """No id answered twice, and (the kit's check) no response to an id nobody sent."""
    asked = c.answered_by(side)
    if not asked:
        raise skip(f"the {side}'s peer sent no request")
    for e in asked:
        if len(e.responses) > 1:
            first, second = e.responses[:2]
            raise Failed(
                f"{e.method} (frame {e.request.number}) answered twice: frames {first.number} "
                f"and {second.number} carry its id {e.request.get('id')!r}",
                e.request,
                first,
                second,
            )
    for response in c.stray:
        if _sender(response) == side and response.get("id") is not None:
            raise Failed(
                f"a response (frame {response.number}) whose id {response.get('id')!r} "
                "matches no request",
                response,
            )


def _update_kind(frame: Frame) -> Any:
    params = frame.get("params")
    update = params.get("update") if isinstance(params, dict) else None
    return update.get("sessionUpdate") if isinstance(update, dict) else None


# What opens a stretch of a session's conversation updates, and what the stretch is called.
STRETCHES = {"session/prompt": "turn", "session/load": "replay"}


def updates_before_response(c: Conversation, method: str) -> None:
    """Every update of a prompt turn (``method`` session/prompt) or of a session/load replay
    comes before the request's response, exactly: the stretch of session S runs from the
    request to its response; a conversation update for S after that response and before S's
    next prompt or load belongs to the stretch that ended."""
    opened = [e for e in c.exchanges if e.method == method and e.responses]
    if not opened:
        raise skip(f"no answered {method} in the trace")
    what = STRETCHES[method]
    messages, position = c.parts, c.index_of
    for e in opened:
        response = e.responses[0]
        start, end = position[id(e.request)], position[id(response)]
        later = [
            m
            for m in messages[end + 1 :]
            if m.method in STRETCHES and (m.get("params") or {}).get("sessionId") == e.session
        ]
        stop = position[id(later[0])] if later else len(messages)
        in_stretch = [
            m
            for m in messages[start:stop]
            if _sender(m) == "agent"
            and m.method == "session/update"
            and (m.get("params") or {}).get("sessionId") == e.session
            and _update_kind(m) in w.TURN_UPDATES
        ]
        before = [m for m in in_stretch if position[id(m)] < end]
        after = [m for m in in_stretch if position[id(m)] > end]
        if after and not before:
            raise Failed(
                f"the {method} response (frame {response.number}) came before every update "
                f"of its {what} (the first at frame {after[0].number})",
                response,
                after[0],
            )
        if after:
            raise Failed(
                f"an update of the {what} (frame {after[0].number}, {_update_kind(after[0])}) "
                f"came after its {method} response (frame {response.number})",
                response,
                after[0],
            )


@dataclass
class _Capabilities:
    """What each side advertised in the initialize exchange, as the trace shows it so far."""

    client: Any = None  # clientCapabilities of the initialize request; None before it
    agent: Any = None  # agentCapabilities of the initialize result; None before it
    auth_methods: Any = None
    init: list[Frame] = field(default_factory=list)

    def learn(self, c: Conversation, message: Frame) -> None:
        if message.method == "initialize" and message.is_request:
            params = message.get("params")
            caps = params.get("clientCapabilities") if isinstance(params, dict) else None
            self.client = caps if isinstance(caps, dict) else {}
            self.init.append(message)
        elif message.is_response and isinstance(message.get("result"), dict):
            request = c.request_of.get(id(message))
            if request is not None and request.method == "initialize":
                result = message.message["result"]
                caps = result.get("agentCapabilities")
                self.agent = caps if isinstance(caps, dict) else {}
                self.auth_methods = result.get("authMethods")
                self.init.append(message)


def capability_findings(c: Conversation) -> Iterator[tuple[Side, str, str, tuple[Frame, ...]]]:
    """(side, requirement, what happened, frames) for every message the runtime's own guards
    would have refused to send, given what the peer had advertised at that point."""
    caps = _Capabilities()
    for message in c.messages():
        sender = _sender(message)
        # Any method name may be on the wire; the guards take any string (their Literal
        # types are for the SDK's callers).
        method: Any = message.method
        try:
            if method is not None:
                if sender == "client":
                    check_client_call(method, message.get("params"), caps.agent, caps.auth_methods)
                else:
                    check_agent_call(method, message.get("params"), caps.client)
        except PathNotAbsoluteError:
            pass  # OVERVIEW-ABSOLUTE-PATHS: the kit's check judges every path
        except AcpGuardError as exc:
            for req_id in exc.requirements:
                yield sender, req_id, f"{message.method} (frame {message.number}): {exc}", (
                    message,
                    *caps.init,
                )
        caps.learn(c, message)


def cancellation(c: Conversation, side: Side) -> Iterator[tuple[str, str, tuple[Frame, ...]]]:
    """(requirement, what happened, frames) for what follows a cancellation: the agent's
    answer to a cancelled prompt, the client's answers to the permission requests pending
    when it cancelled, and the answer to a ``$/cancel_request``ed request."""
    messages = c.parts
    for index, message in enumerate(messages):
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        if message.method == "session/cancel" and side == "agent":
            yield from _cancelled_prompt(c, messages, index, params.get("sessionId"))
        if message.method == "session/cancel" and side == "client":
            yield from _pending_permissions(c, messages, index, params.get("sessionId"))
        if message.method == "$/cancel_request" and _sender(message) != side:
            target = next(
                (
                    e
                    for e in c.answered_by(side)
                    if _key(e.request.get("id")) == _key(params.get("requestId"))
                    and c.index_of[id(e.request)] < index
                ),
                None,
            )
            if target is None or not target.responses:
                continue
            error = target.responses[0].get("error")
            if isinstance(error, dict) and error.get("code") != -32800:
                yield (
                    "ACP-V1-CANCEL-REQUEST-MUST-RESPOND",
                    (
                        f"{target.method} (frame {target.request.number}) was cancelled with "
                        f"$/cancel_request (frame {message.number}) and answered with error "
                        f"{error.get('code')}, not a result or -32800 "
                        f"(frame {target.responses[0].number})"
                    ),
                    (target.request, message, target.responses[0]),
                )


def _outstanding(c: Conversation, messages: list[Frame], index: int, method: str) -> list[Exchange]:
    return [
        e
        for e in c.exchanges
        if e.method == method
        and c.index_of[id(e.request)] < index
        and not any(c.index_of[id(r)] < index for r in e.responses)
    ]


def _cancelled_prompt(
    c: Conversation, messages: list[Frame], index: int, session: Any
) -> Iterator[tuple[str, str, tuple[Frame, ...]]]:
    cancel = messages[index]
    for e in _outstanding(c, messages, index, "session/prompt"):
        if e.session != session or not e.responses:
            continue
        response = e.responses[0]
        took = response.time - cancel.time
        result, error = response.get("result"), response.get("error")
        if isinstance(error, dict):
            yield (
                "ACP-V1-PROMPT-AGENT-CATCH-ABORT-ERRORS",
                (
                    f"the prompt (frame {e.request.number}) cancelled at frame {cancel.number} ended "
                    f"with error {error.get('code')} after {took:.3f}s, not stopReason cancelled "
                    f"(frame {response.number})"
                ),
                (e.request, cancel, response),
            )
        elif isinstance(result, dict) and result.get("stopReason") != "cancelled":
            yield (
                "ACP-V1-PROMPT-AGENT-CANCELLED-STOP-REASON",
                (
                    f"the prompt (frame {e.request.number}) cancelled at frame {cancel.number} ended "
                    f"{took:.3f}s later with stopReason {result.get('stopReason')!r}, not "
                    f"'cancelled' (frame {response.number})"
                ),
                (e.request, cancel, response),
            )


def _pending_permissions(
    c: Conversation, messages: list[Frame], index: int, session: Any
) -> Iterator[tuple[str, str, tuple[Frame, ...]]]:
    cancel = messages[index]
    for e in _outstanding(c, messages, index, "session/request_permission"):
        if e.session != session or not e.responses:
            continue
        result = e.responses[0].get("result")
        outcome = result.get("outcome") if isinstance(result, dict) else None
        if not (isinstance(outcome, dict) and outcome.get("outcome") == "cancelled"):
            yield (
                "ACP-V1-PROMPT-CLIENT-RESPOND-PENDING-PERMISSIONS",
                (
                    f"session/request_permission (frame {e.request.number}) was pending when the "
                    f"client cancelled the turn (frame {cancel.number}) and was answered without "
                    f"the cancelled outcome (frame {e.responses[0].number})"
                ),
                (e.request, cancel, e.responses[0]),
            )


# ---- one verdict per requirement and side ------------------------------------------------------

Rule = Callable[[], None]


def _kit_rules(c: Conversation, side: Side, validator: Validator | None) -> dict[str, list[Rule]]:
    """The kit's transcript checks, on the trace seen from ``side``."""
    ts = [c.seen_from(side)]
    rules: dict[str, list[Rule]] = {
        req_id: [lambda check=check: check(ts)]  # type: ignore[misc]
        for req_id, check in w.transcript_checks(side).items()
    }
    rules["ACP-V1-JSONRPC-RESPONSE-ID-ECHO"] = [lambda: w.ids_echoed(ts)]
    if validator is not None:
        v = validator
        method = "session/update" if side == "agent" else "session/prompt"
        rules["ACP-V1-EXT-NO-ROOT-CUSTOM-FIELDS"] = [lambda: w.no_extra_members(ts, v)]
        rules["ACP-V1-SCHEMA-EXTENSION-METHOD-NAMES"] = [lambda: w.extension_names(ts, v, True)]
        rules["ACP-V1-EXT-CUSTOM-REQUESTS-MAY"] = [lambda: w.extension_names(ts, v, False)]
        rules["ACP-V1-SCHEMA-CONTENT-BLOCK-VARIANTS"] = [lambda: w.content_blocks(ts, v, method)]
    return rules


def _trace_rules(c: Conversation, side: Side) -> dict[str, list[Rule]]:
    rules: dict[str, list[Rule]] = {
        "ACP-V1-JSONRPC-RESPONSE-REQUIRED": [lambda: every_request_answered_once(c, side, False)],
        "ACP-V1-EXT-RESPOND-TO-CUSTOM-REQUEST": [
            lambda: every_request_answered_once(c, side, True)
        ],
        "ACP-V1-JSONRPC-RESPONSE-SAME-ID": [lambda: answered_at_most_once(c, side)],
    }
    if side == "agent":
        rules["ACP-V1-PROMPT-UPDATES-BEFORE-RESPONSE"] = [
            lambda: updates_before_response(c, "session/prompt")
        ]
        rules["ACP-V1-SETUP-LOAD-RESPOND-AFTER-REPLAY"] = [
            lambda: updates_before_response(c, "session/load")
        ]
    return rules


def _findings_rules(
    found: Sequence[tuple[str, str, tuple[Frame, ...]]], exercised: dict[str, str | None]
) -> dict[str, list[Rule]]:
    """Rules from findings computed in one pass: fail with the first, or pass when the
    situation occurred (``exercised[ID]`` is None) or skip with why it did not."""
    rules: dict[str, list[Rule]] = {}
    for req_id, why_not in exercised.items():
        first = next((f for f in found if f[0] == req_id), None)

        def rule(first: Any = first, why_not: str | None = why_not) -> None:
            if first is not None:
                raise Failed(first[1], *first[2])
            if why_not is not None:
                raise skip(why_not)

        rules[req_id] = [rule]
    return rules


def _guard_requirements(side: Side) -> set[str]:
    ids = set(INITIALIZE_FIRST.get(side, ()))
    ids.update(r for g in GATES if g.sender == side for r in g.requirements)
    return ids


def _capability_rules(c: Conversation, side: Side) -> dict[str, list[Rule]]:
    found = [(r, text, frames) for s, r, text, frames in c.capability_findings() if s == side]
    initialized = any(m.method == "initialize" for m in c.messages())
    why = None if initialized else "no initialize exchange in the trace"
    return _findings_rules(found, {req_id: why for req_id in _guard_requirements(side)})


def _cancel_rules(c: Conversation, side: Side) -> dict[str, list[Rule]]:
    found = list(cancellation(c, side))
    methods = {m.method for m in c.messages()}
    cancelled = "session/cancel" in methods
    ids = (
        ["ACP-V1-PROMPT-AGENT-CANCELLED-STOP-REASON", "ACP-V1-PROMPT-AGENT-CATCH-ABORT-ERRORS"]
        if side == "agent"
        else ["ACP-V1-PROMPT-CLIENT-RESPOND-PENDING-PERMISSIONS"]
    )
    exercised: dict[str, str | None] = {
        i: None if cancelled else "no session/cancel in the trace" for i in ids
    }
    exercised["ACP-V1-CANCEL-REQUEST-MUST-RESPOND"] = (
        None if "$/cancel_request" in methods else "no $/cancel_request in the trace"
    )
    return _findings_rules(found, exercised)


def _run(req_id: str, side: Side, rules: list[Rule]) -> Verdict:
    """Failed when a rule fails, passed when one passes, else not exercised (with why)."""
    reasons: list[str] = []
    for rule in rules:
        try:
            rule()
        except Failed as exc:
            return Verdict(req_id, side, "fail", str(exc), exc.frames)
        except CheckFailed as exc:  # the kit's: its frames are named in the message
            numbers = tuple(sorted({int(n) for n in _FRAME_NUMBER.findall(str(exc))}))
            return Verdict(req_id, side, "fail", str(exc), numbers)
        except CheckSkipped as exc:
            reasons.append(str(exc))
        except CheckNoted as exc:  # kept, with a note (members the unstable schema declares)
            return Verdict(req_id, side, "pass", f"note: {exc}")
    if len(reasons) < len(rules):
        return Verdict(req_id, side, "pass", "")
    return Verdict(req_id, side, "not exercised", "; ".join(reasons))


def judge(trace: Trace, validator: Validator | None = None) -> list[Verdict]:
    """Every requirement this judge knows, for each side the roster binds it to, in roster
    order then by side."""
    c = Conversation.of(trace)
    verdicts: list[Verdict] = []
    for side in SIDES:
        merged: dict[str, list[Rule]] = {}
        for table in (
            _kit_rules(c, side, validator),
            _trace_rules(c, side),
            _capability_rules(c, side),
            _cancel_rules(c, side),
        ):
            for req_id, rules in table.items():
                merged.setdefault(req_id, []).extend(rules)
        for req_id, rules in merged.items():
            role = REQUIREMENTS.get(req_id, ("", "", ""))[1]
            if role in (side, "both"):
                verdicts.append(_run(req_id, side, rules))
    order = {req_id: i for i, req_id in enumerate(REQUIREMENTS)}
    verdicts.sort(key=lambda v: (order.get(v.req_id, len(order)), v.side))
    return verdicts
