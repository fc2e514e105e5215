"""The agent checks of the roster's elicitation sections (ELIC-).

Each registers itself in ``AGENT_CHECKS`` (``agent_kit``); ``checks_agent`` imports them all.
"""

from __future__ import annotations

from .agent_kit import (
    AgentKit,
    check,
    elicitation_modes,
    received_count,
)
from .agent_scenarios import obj
from .observation import Observation
from .outcome import CheckSkipped, fail, skip
from .wire import Frame, Transcript


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


@check(
    "ACP-V1-ELIC-AGENT-UNIQUE-ELICITATION-ID",
    observes=Observation(
        "URL elicitation", lambda kit: sum(len(_url_elicitations(t)) for t in kit.transcripts())
    ),
)
def _unique_elicitation_id(kit: AgentKit) -> None:
    # Outstanding for sure while the kit has not answered it (the kit reads what the agent
    # wrote before it could see the answer); the agent alone knows when an accepted one ends.
    seen = 0
    for t in kit.transcripts():
        if "url" not in elicitation_modes(t):
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


COMPLETIONS = Observation(
    "elicitation/complete notification",
    lambda kit: received_count(kit, lambda f: f.method == "elicitation/complete"),
)


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


@check("ACP-V1-ELIC-AGENT-COMPLETE-SAME-CLIENT", observes=COMPLETIONS)
def _complete_same_client(kit: AgentKit) -> None:
    for t, f, matching in _completions(kit):
        if not matching:
            raise fail(
                f"elicitation/complete for an elicitationId no URL elicitation of this "
                f"connection carried before: [{t.name}] {f.shown()}"
            )


@check("ACP-V1-ELIC-AGENT-COMPLETE-MAY", observes=COMPLETIONS)
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
