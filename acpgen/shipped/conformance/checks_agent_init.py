"""The agent checks of the roster's initialization and capabilities sections (INIT-, FS-, TERM-, AUTH-, CONTENT-).

Each registers itself in ``AGENT_CHECKS`` (``agent_kit``); ``checks_agent`` imports them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .agent_kit import (
    ALL_SCENARIOS,
    ANY_ERROR,
    INVALID,
    TURNS_WITHOUT_FS_TERMINAL,
    WITHOUT_FS_TERMINAL,
    AgentKit,
    check,
    elicitation_modes,
    step_result,
    stop_reason_of,
    turns_observed,
)
from .agent_scenarios import PROTOCOL_VERSION, UNSUPPORTED_VERSION, obj
from .observation import Observation
from .outcome import fail, skip
from .wire import Frame


@check("ACP-V1-INIT-IMPLEMENTATION-INFO")
def _info(kit: AgentKit) -> None:
    info = kit.init_result().get("agentInfo")
    if not isinstance(info, dict) or not info.get("name") or not info.get("version"):
        raise fail(f"initialize result has no agentInfo with name and version: {info!r}")


@check("ACP-V1-INIT-AGENT-RESPONSE")
def _init_response(kit: AgentKit) -> None:
    result = kit.init_result()
    version = result.get("protocolVersion")
    if not isinstance(version, int) or isinstance(version, bool):
        raise fail(
            f"initialize result without an integer protocolVersion: "
            f"{kit.note('basic', 'initialize')[0].shown()}"
        )
    # agentCapabilities may be omitted: the schema's default then states them (none optional).
    caps = result.get("agentCapabilities", {})
    if not isinstance(caps, dict):
        raise fail(f"agentCapabilities is not an object: {caps!r}")


def _answered_version(frame: Frame, result: dict[str, Any]) -> int:
    """The protocolVersion answered; one that is no integer is INIT-AGENT-RESPONSE's."""
    answered = result.get("protocolVersion")
    if not isinstance(answered, int) or isinstance(answered, bool):
        raise skip(f"initialize answered no integer protocolVersion: {frame.shown()}")
    return answered


@check("ACP-V1-INIT-AGENT-SAME-VERSION")
def _same_version(kit: AgentKit) -> None:
    answered = _answered_version(kit.note("basic", "initialize")[0], kit.init_result())
    if answered != PROTOCOL_VERSION:
        raise fail(
            f"asked for protocol version {PROTOCOL_VERSION}, the agent answered {answered!r}"
        )


@check("ACP-V1-INIT-VERSION-AGREEMENT")
def _agreement(kit: AgentKit) -> None:
    # Having agreed on version 1, the agent acts on it: its baseline session/new is served
    # (not refused as an unknown method or an invalid request).
    if _answered_version(kit.note("basic", "initialize")[0], kit.init_result()) != PROTOCOL_VERSION:
        raise skip("the agent did not agree on version 1 (INIT-AGENT-SAME-VERSION's)")
    step_result(
        kit.note("basic", "session/new")[0],
        "session/new after agreeing on version 1",
        own=(-32600,),  # -32601 for session/new is INIT-SESSION-BASELINE's
    )


@check("ACP-V1-INIT-AGENT-LATEST-VERSION")
def _latest(kit: AgentKit) -> None:
    # Asked for a version no ACP release defines, the agent answers the latest it supports:
    # not the one asked for, and not below one it accepted when asked (an agent that speaks
    # versions 1 and 2 rightly answers 1 to 1 and 2 to 9999).
    frame = kit.note("version", "initialize")[0]
    what = f"initialize with protocolVersion {UNSUPPORTED_VERSION}"
    answered = _answered_version(frame, step_result(frame, what, own=ANY_ERROR))
    if answered == UNSUPPORTED_VERSION:
        raise fail(
            f"echoed protocol version {UNSUPPORTED_VERSION}, which no ACP release defines, "
            f"instead of its own latest: {frame.shown()}"
        )
    accepted = kit.init_result().get("protocolVersion")
    if isinstance(accepted, int) and answered < accepted:
        raise fail(
            f"answered {answered} to version {UNSUPPORTED_VERSION} but accepts {accepted}: "
            f"not its latest: {frame.shown()}"
        )


@check("ACP-V1-INIT-CAPABILITIES-OPTIONAL")
def _caps_optional(kit: AgentKit) -> None:
    step_result(
        kit.note("no_capabilities", "initialize")[0],
        "initialize without clientCapabilities",
        own=INVALID,
    )


@check("ACP-V1-INIT-SUPPORT-ALL-COMBINATIONS")
def _combinations(kit: AgentKit) -> None:
    # The same prompt turn must work whatever the kit advertised, once it works at all.
    if kit.prompts_fail():
        raise skip(str(kit.prompts_fail()))
    for scenario in ("no_capabilities", "all_capabilities"):
        stop_reason_of(
            kit.note(scenario, "prompt_text")[1],
            f"[{scenario}] session/prompt",
            own=ANY_ERROR,
        )


def _no_requests(
    kit: AgentKit, prefixes: tuple[str, ...], scenarios: Sequence[str], why: str
) -> None:
    for t in kit.transcripts(scenarios):
        for f in t.received():
            if f.is_request and (f.method or "").startswith(prefixes):
                raise fail(f"{why}, yet the agent sent {f.method}: [{t.name}] {f.shown()}")


@check(
    "ACP-V1-INIT-OMITTED-UNSUPPORTED",
    observes=turns_observed("without clientCapabilities", ("no_capabilities",)),
)
def _omitted(kit: AgentKit) -> None:
    kit.note("no_capabilities", "prompt_text")
    _no_requests(
        kit,
        ("fs/", "terminal/"),  # elicitation/create is ELIC-AGENT-NO-UNADVERTISED-MODE's
        ("no_capabilities",),
        "the kit's initialize omitted clientCapabilities",
    )


@check(
    "ACP-V1-FS-AGENT-CHECK-CAPABILITY",
    "ACP-V1-FS-AGENT-NO-CALL-WITHOUT-CAPABILITY",
    observes=TURNS_WITHOUT_FS_TERMINAL,
)
def _no_fs(kit: AgentKit) -> None:
    kit.note("basic", "prompt_text")
    _no_requests(
        kit,
        ("fs/",),
        WITHOUT_FS_TERMINAL,
        "the kit advertised fs.readTextFile/writeTextFile false",
    )


@check(
    "ACP-V1-TERM-AGENT-CHECK-CAPABILITY",
    "ACP-V1-TERM-AGENT-NO-CALL-WITHOUT-CAPABILITY",
    observes=TURNS_WITHOUT_FS_TERMINAL,
)
def _no_terminal(kit: AgentKit) -> None:
    kit.note("basic", "prompt_text")
    _no_requests(kit, ("terminal/",), WITHOUT_FS_TERMINAL, "the kit advertised terminal false")


@check(
    "ACP-V1-ELIC-AGENT-NO-UNADVERTISED-MODE",
    observes=turns_observed("in any run", ALL_SCENARIOS),
)
def _no_elicitation(kit: AgentKit) -> None:
    kit.note("basic", "prompt_text")
    for t in kit.transcripts():
        modes = elicitation_modes(t)
        for f in t.requests("elicitation/create"):
            mode = obj(f.get("params")).get("mode")
            if not modes:
                raise fail(
                    f"the kit advertised no elicitation mode, yet the agent sent "
                    f"elicitation/create: [{t.name}] {f.shown()}"
                )
            if isinstance(mode, str) and mode not in modes:  # no mode: the shape check's
                raise fail(
                    f"elicitation/create in mode {mode!r}, which the kit did not advertise "
                    f"({', '.join(sorted(modes))}): [{t.name}] {f.shown()}"
                )


@check("ACP-V1-INIT-AGENT-SPECIFY-CAPABILITIES")
def _specify(kit: AgentKit) -> None:
    if not isinstance(kit.init_result().get("agentCapabilities"), dict):
        raise fail("initialize result has no agentCapabilities object")


@check("ACP-V1-INIT-PROMPT-BASELINE")
def _baseline(kit: AgentKit) -> None:
    # The text block alone is CONTENT-TEXT-SUPPORT's; here: a resource_link refused where
    # the same turn with text alone works.
    if kit.prompts_fail():
        raise skip(str(kit.prompts_fail()))
    stop_reason_of(
        kit.note("basic", "prompt_link")[1],
        "a prompt with text and a resource_link",
        own=ANY_ERROR,
    )


@check("ACP-V1-CONTENT-TEXT-SUPPORT")
def _text(kit: AgentKit) -> None:
    stop_reason_of(kit.note("basic", "prompt_text")[1], "a text prompt", own=INVALID)


@check("ACP-V1-INIT-PROMPT-RICHER-MAY")
def _richer(kit: AgentKit) -> None:
    caps = kit.capabilities().get("promptCapabilities")
    advertised = [
        k
        for k in ("image", "audio", "embeddedContext")
        if isinstance(caps, dict) and caps.get(k) is True
    ]
    if not advertised:
        raise skip("the agent advertises no richer prompt content")
    if kit.prompts_fail():
        raise skip(str(kit.prompts_fail()))
    for name in advertised:
        stop_reason_of(
            kit.note("basic", f"prompt_{name}")[1],
            f"a prompt with {name} content (advertised)",
            own=ANY_ERROR,
        )


@check("ACP-V1-INIT-SESSION-BASELINE")
def _session_baseline(kit: AgentKit) -> None:
    # Not supported: the baseline methods answered "method not found".
    not_found = (-32601,)
    step_result(kit.note("basic", "session/new")[0], "session/new", own=not_found)
    stop_reason_of(kit.note("basic", "prompt_text")[1], "session/prompt", own=not_found)


@check("ACP-V1-INIT-SESSION-OPTIONAL-MAY")
def _optional(kit: AgentKit) -> None:
    probes = {
        "session/load": "load",
        "session/list": "list_all",
        "session/resume": "resume",
        "session/delete": "delete_unknown",
        "session/close": "close_unknown",
    }
    run = kit.run("basic")
    seen = 0
    for method, key in probes.items():
        note = run.notes.get(key)
        if note is None:
            continue
        frame = note[1] if isinstance(note, tuple) else note
        seen += 1
        kit.consulted += 1  # an observation that could fail it
        error = frame.get("error")
        if isinstance(error, dict) and error.get("code") == -32601:
            raise fail(f"{method} is advertised but answered method-not-found: {frame.shown()}")
    if not seen:
        kit.note("basic", "prompt_text")
        raise skip("the agent advertises no optional session method")


@check(
    "ACP-V1-AUTH-AGENT-TERMINAL-METHOD-ONLY-WITH-CAPABILITY",
    observes=Observation("auth method advertised", lambda kit: len(_auth_methods_of(kit))),
)
def _terminal_auth(kit: AgentKit) -> None:
    for method in _auth_methods_of(kit):
        if isinstance(method, dict) and method.get("type") == "terminal":
            raise fail(
                f"advertises terminal auth method {method.get('id')!r} although the kit did not "
                f"enable clientCapabilities.auth.terminal: {kit.note('basic', 'initialize')[0].shown()}"
            )


def _auth_methods_of(kit: AgentKit) -> list[Any]:
    methods = kit.init_result().get("authMethods")
    return methods if isinstance(methods, list) else []
