# Edit acpgen/shipped/conformance/checks_agent_schema.py, not this file: acpgen generate writes it.
"""The agent checks of the roster's schema shapes sections (SCHEMA-).

Each registers itself in ``AGENT_CHECKS`` (``agent_kit``); ``checks_agent`` imports them all.
"""

from __future__ import annotations

from . import checks_wire as w
from .agent_kit import (
    MESSAGES,
    STOP_REASONS,
    AgentKit,
    Check,
    check,
    register,
)
from .outcome import fail, skip

_SHAPES = {
    "ACP-V1-SCHEMA-INITIALIZE-SHAPE": ("initialize",),
    "ACP-V1-SCHEMA-NEW-SESSION-SHAPE": ("session/new",),
    "ACP-V1-SCHEMA-LOAD-SESSION-SHAPE": ("session/load",),
    "ACP-V1-SCHEMA-RESUME-SESSION-SHAPE": ("session/resume",),
    "ACP-V1-SCHEMA-CLOSE-SESSION-SHAPE": ("session/close",),
    "ACP-V1-SCHEMA-LIST-SESSIONS-SHAPE": ("session/list",),
    "ACP-V1-SCHEMA-DELETE-SESSION-SHAPE": ("session/delete",),
    "ACP-V1-SCHEMA-SET-MODE-SHAPE": ("session/set_mode",),
    "ACP-V1-SCHEMA-SET-CONFIG-OPTION-SHAPE": ("session/set_config_option",),
    "ACP-V1-SCHEMA-PROMPT-SHAPE": ("session/prompt",),
    "ACP-V1-SCHEMA-CANCEL-REQUEST-NOTIFICATION-SHAPE": ("$/cancel_request",),
    "ACP-V1-SCHEMA-REQUEST-PERMISSION-SHAPE": ("session/request_permission",),
    "ACP-V1-SCHEMA-SESSION-UPDATE-VARIANTS": ("session/update",),
    "ACP-V1-SCHEMA-READ-TEXT-FILE-SHAPE": ("fs/read_text_file",),
    "ACP-V1-SCHEMA-WRITE-TEXT-FILE-SHAPE": ("fs/write_text_file",),
    "ACP-V1-SCHEMA-TERMINAL-CREATE-SHAPE": ("terminal/create",),
    "ACP-V1-SCHEMA-TERMINAL-OUTPUT-SHAPE": ("terminal/output",),
    "ACP-V1-SCHEMA-TERMINAL-RELEASE-SHAPE": ("terminal/release",),
    "ACP-V1-SCHEMA-TERMINAL-WAIT-FOR-EXIT-SHAPE": ("terminal/wait_for_exit",),
    "ACP-V1-SCHEMA-TERMINAL-KILL-SHAPE": ("terminal/kill",),
    "ACP-V1-SCHEMA-ELICITATION-CREATE-SHAPE": ("elicitation/create",),
    "ACP-V1-SCHEMA-ELICITATION-COMPLETE-SHAPE": ("elicitation/complete",),
}
register(
    "ACP-V1-SCHEMA-CONTENT-BLOCK-VARIANTS",
    lambda kit: w.content_blocks(kit.transcripts(), kit.validator, "session/update"),
    MESSAGES,
)


def _shape_check(methods: tuple[str, ...]) -> Check:
    return lambda kit: w.shape(kit.transcripts(), kit.validator, *methods)


for _id, _methods in _SHAPES.items():
    register(_id, _shape_check(_methods), MESSAGES)


def _auth_shape(kit: AgentKit, method: str, option: str) -> None:
    """The result of the kit's ``method`` call (all_capabilities run), validated; an error
    answer (no login possible here, ...) leaves nothing to judge."""
    notes = kit.run("all_capabilities").notes
    why = notes.get(f"no_{method}") or f"the kit may not call {method} (give {option})"
    frame = kit.note("all_capabilities", method, why)
    if isinstance(frame.get("error"), dict) or "result" not in frame.message:
        raise skip(f"{method} answered no result, so its shape cannot be judged: {frame.shown()}")
    w.shape([kit.run("all_capabilities").transcript], kit.validator, method)


@check("ACP-V1-SCHEMA-AUTHENTICATE-SHAPE")
def _authenticate(kit: AgentKit) -> None:
    _auth_shape(kit, "authenticate", "--acp-auth-method")


@check("ACP-V1-SCHEMA-LOGOUT-SHAPE")
def _logout(kit: AgentKit) -> None:
    _auth_shape(kit, "logout", "--acp-logout")


AUTH_TYPES = (
    "agent",
    "terminal",
)  # the stable AuthMethod variants' "type" (none: agent)


@check("ACP-V1-SCHEMA-AUTH-METHOD-VARIANTS")
def _auth_methods(kit: AgentKit) -> None:
    frame = kit.note("basic", "initialize")[0]
    methods = kit.init_result().get("authMethods")
    if not methods:
        raise skip("the agent advertises no authMethods")
    for method in methods if isinstance(methods, list) else [methods]:
        kind = method.get("type") if isinstance(method, dict) else None
        if isinstance(method, dict) and "type" in method and kind not in AUTH_TYPES:
            raise fail(
                f"auth method of type {kind!r}, which no stable variant has: {frame.shown()}"
            )
        verdict = kit.validator.definition("AuthMethod", method)
        if not verdict.ok:
            raise fail(f"{verdict.problem}: {frame.shown()}")


@check("ACP-V1-SCHEMA-STOP-REASON-VALUES", "ACP-V1-PROMPT-AGENT-MAY-STOP")
def _stop_values(kit: AgentKit) -> None:
    allowed = set(STOP_REASONS)
    seen = 0
    for t in kit.transcripts():
        for f in t.received():
            request = t.request_for(f) if f.is_response else None
            if request is None or request.method != "session/prompt" or "result" not in f.message:
                continue
            seen += 1
            kit.consulted += 1  # an observation that could fail it
            reason = (
                (f.message["result"] or {}).get("stopReason")
                if isinstance(f.message["result"], dict)
                else None
            )
            if "stopReason" in (f.message["result"] or {}) and reason not in allowed:
                raise fail(f"stopReason {reason!r} is not a StopReason: [{t.name}] {f.shown()}")
    if not seen:
        kit.note("basic", "prompt_text")
        raise skip("no session/prompt result in any run")
