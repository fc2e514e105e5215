"""The agent checks of the roster's session setup, list and delete sections (SETUP-, LIST-, DELETE-).

Each registers itself in ``AGENT_CHECKS`` (``agent_kit``); ``checks_agent`` imports them all.
"""

from __future__ import annotations

from typing import Any

from . import checks_wire as w
from .agent_kit import (
    HISTORY_UPDATES,
    AgentKit,
    AllCodesBut,
    check,
    known_stop_reason,
    step_result,
    stop_reason_of,
    update_kind,
    updates_of,
)
from .agent_scenarios import AUTH_REQUIRED, Run, obj
from .outcome import fail, skip
from .wire import Frame


@check("ACP-V1-SETUP-NEW-SESSION-ID")
def _session_ids(kit: AgentKit) -> None:
    frames = kit.note("basic", "session/new")
    ids = [step_result(f, "session/new").get("sessionId") for f in frames]
    if not all(isinstance(i, str) and i for i in ids):
        raise fail(f"session/new results without a sessionId: {ids!r}")
    if len(ids) >= 2 and ids[0] == ids[1]:
        raise fail(f"two session/new calls returned the same sessionId {ids[0]!r}")


def _exchange(kit: AgentKit, key: str, capability: str) -> tuple[Run, Frame, Frame]:
    note = kit.note("basic", key, f"the agent does not advertise {capability}")
    sent, response = note
    return kit.run("basic"), sent, response


def _history(run: Run, session: str, start: float, end: float) -> list[Frame]:
    """The conversation updates (not commands, modes, usage, ...) for ``session`` in a window."""
    return [
        f
        for f in updates_of(run, session)
        if start <= f.time <= end and update_kind(f) in HISTORY_UPDATES
    ]


def _said(text: str) -> str:
    return " ".join(text.split())


def _contents(frames: list[Frame], kind: str) -> list[dict[str, Any]]:
    found = []
    for f in frames:
        update = obj(obj(f.get("params")).get("update"))
        if update.get("sessionUpdate") == kind and isinstance(update.get("content"), dict):
            found.append(update["content"])
    return found


def _text_of(contents: list[dict[str, Any]]) -> str:
    return _said("".join(str(c.get("text", "")) for c in contents if c.get("type") == "text"))


# What identifies a non-text content block in a replay: the same type and these members.
_BLOCK_KEYS = {
    "image": ("data",),
    "audio": ("data",),
    "resource_link": ("uri",),
    "resource": ("resource",),
}


def _block_key(block: dict[str, Any]) -> tuple[Any, ...]:
    kind = block.get("type")
    members = _BLOCK_KEYS.get(str(kind), ())
    values = [block.get(m) for m in members]
    if kind == "resource":
        values = [obj(block.get("resource")).get("uri")]
    return (kind, *values)


def _missing_from_replay(run: Run, session: str, replayed: list[Frame]) -> list[str]:
    """What of the conversation the kit had with ``session`` (the prompt turns that ended
    with a result: each block it sent, the text the agent streamed) the replay lacks."""
    t = run.transcript
    user = _contents(replayed, "user_message_chunk")
    user_text = _text_of(user)
    user_blocks = {_block_key(c) for c in user if c.get("type") != "text"}
    agent_text = _text_of(_contents(replayed, "agent_message_chunk"))
    missing = []
    turn = 0
    for sent in t.sent():
        params = obj(sent.get("params"))
        if sent.method != "session/prompt" or params.get("sessionId") != session:
            continue
        response = t.response_to(sent)
        if response is None or not isinstance(response.get("result"), dict):
            continue  # a turn that failed may have left no history
        turn += 1
        blocks = [obj(b) for b in params.get("prompt") or []]
        for block in blocks:
            if block.get("type") == "text":
                if _said(str(block.get("text", ""))) not in user_text:
                    missing.append(f"turn {turn}: the prompt text {block.get('text')!r}")
            elif _block_key(block) not in user_blocks:
                missing.append(f"turn {turn}: the prompt's {block.get('type')} block")
        start, end = t.frames.index(sent), t.frames.index(response)
        streamed = [
            f for f in t.frames[start:end] if f.direction == "in" and f.method == "session/update"
        ]
        said = _text_of(
            _contents(
                [f for f in streamed if obj(f.get("params")).get("sessionId") == session],
                "agent_message_chunk",
            )
        )
        if said and said not in agent_text:
            missing.append(f"turn {turn}: the agent's own reply {said[:80]!r}")
    return missing


@check("ACP-V1-SETUP-LOAD-REPLAY")
def _load_replay(kit: AgentKit) -> None:
    # The entire conversation, compared with what was sent and streamed: every block of each
    # prompt turn that ended with a result (text, images, audio, resources, links) as
    # user_message_chunk, and the agent's own streamed text as agent_message_chunk. Replayed
    # at all after the response is LOAD-RESPOND-AFTER-REPLAY's; here any time after the load.
    run, sent, response = _exchange(kit, "load", "loadSession")
    step_result(response, "session/load")
    session = sent.message["params"]["sessionId"]
    replayed = _history(run, session, sent.time, float("inf"))
    missing = _missing_from_replay(run, session, replayed)
    if replayed and missing:
        raise fail(
            f"session/load replayed {len(replayed)} conversation update(s) but not the entire "
            f"conversation: missing {'; '.join(missing[:5])}"
            + (f"; and {len(missing) - 5} more" if len(missing) > 5 else "")
            + f" (the load: {response.shown()})"
        )
    if replayed:
        return
    if kit.prompts_fail():
        # Only what was seen: no replay, and turns that did not go through.
        raise skip(
            "session/load replayed no conversation update, and the session's prompt turns did "
            f"not go through here, so it may have nothing to replay: {kit.prompts_fail()}"
        )
    raise fail(
        "session/load of a session with two finished turns answered without replaying any "
        f"message or tool call as session/update: {response.shown()}"
    )


@check("ACP-V1-SETUP-LOAD-RESPOND-AFTER-REPLAY")
def _load_after(kit: AgentKit) -> None:
    run, sent, response = _exchange(kit, "load", "loadSession")
    step_result(response, "session/load")
    session = sent.message["params"]["sessionId"]
    late = _history(run, session, response.time + 1e-9, float("inf"))
    if late and _history(run, session, sent.time, response.time):
        raise fail(f"history replayed partly after the session/load response: {late[0].shown()}")
    if late:
        raise fail(f"replayed history arrived after the session/load response: {late[0].shown()}")


@check("ACP-V1-SETUP-RESUME-NO-REPLAY")
def _resume(kit: AgentKit) -> None:
    run, sent, response = _exchange(kit, "resume", "sessionCapabilities.resume")
    step_result(response, "session/resume")
    replayed = _history(run, sent.message["params"]["sessionId"], sent.time, response.time)
    if replayed:
        raise fail(
            f"conversation replayed before the session/resume response: {replayed[0].shown()}"
        )


@check("ACP-V1-SETUP-RESUME-RESPONSE-STATE-MAY")
def _resume_state(kit: AgentKit) -> None:
    # Its shape is SCHEMA-RESUME-SESSION-SHAPE's; here: the state it may return is the
    # resumed session's (modes' current id among the available ones).
    _run, _sent, response = _exchange(kit, "resume", "sessionCapabilities.resume")
    modes = step_result(response, "session/resume").get("modes")
    if isinstance(modes, dict):
        ids = [m.get("id") for m in modes.get("availableModes") or [] if isinstance(m, dict)]
        if modes.get("currentModeId") not in ids:
            raise fail(f"resumed currentModeId is not among availableModes: {response.shown()}")


@check("ACP-V1-SETUP-CLOSE-MAY-ERROR")
def _close_idle(kit: AgentKit) -> None:
    # The MAY allows an error for a session that does not exist or is not active, so not for
    # one the agent created on this connection and nobody closed (the kit's idle session).
    # No answer is RESPONSE-REQUIRED's, neither result nor error RESULT-XOR-ERROR's,
    # -32601 INIT-SESSION-OPTIONAL-MAY's.
    frame = kit.note(
        "basic", "close_idle", "the agent does not advertise sessionCapabilities.close"
    )
    step_result(
        frame,
        "session/close of an open session the agent created on this connection",
        own=AllCodesBut((-32601, AUTH_REQUIRED)),
    )


@check("ACP-V1-SETUP-CLOSE-CANCELS-AND-FREES")
def _close_cancels(kit: AgentKit) -> None:
    if not isinstance(kit.session_caps().get("close"), dict):
        raise skip("the agent does not advertise sessionCapabilities.close")
    _sent, response = kit.note("close_running", "closed_turn")
    if "result" in response.message:
        known_stop_reason(stop_reason_of(response, "the closed turn"), response)
    if "result" in response.message and stop_reason_of(response, "the closed turn") != "cancelled":
        raise fail(f"a turn running when its session was closed ended with {response.shown()}")


@check("ACP-V1-SETUP-AGENT-MCP-STDIO")
def _mcp_stdio(kit: AgentKit) -> None:
    frame = kit.note("mcp_stdio", "session/new")[0]
    error = frame.get("error")
    if isinstance(error, dict) and error.get("code") == -32602:
        raise fail(
            f"session/new with a stdio MCP server refused as invalid params: {frame.shown()}"
        )
    if isinstance(error, dict):
        raise skip(
            f"session/new with a stdio MCP server failed ({error.get('message')!r}); "
            "the kit's stub server exits at once"
        )


@check("ACP-V1-LIST-AGENT-RESPONSE")
def _list(kit: AgentKit) -> None:
    # Advertised, so answered with a result (its shape is SCHEMA-LIST-SESSIONS-SHAPE's).
    frame = kit.note("basic", "list_all", "the agent does not advertise sessionCapabilities.list")
    # -32601 for an advertised method is INIT-SESSION-OPTIONAL-MAY's.
    step_result(frame, "session/list", own=AllCodesBut((-32601,)))


@check("ACP-V1-LIST-ADDITIONAL-DIRS-MAY")
def _list_dirs(kit: AgentKit) -> None:
    frame = kit.note("basic", "list_all", "the agent does not advertise sessionCapabilities.list")
    dirs = [
        d
        for s in step_result(frame, "session/list").get("sessions") or []
        if isinstance(s, dict)
        for d in s.get("additionalDirectories") or []
    ]
    if not dirs:
        raise skip("no listed session reports additionalDirectories")
    for d in dirs:
        if not isinstance(d, str) or not w.is_absolute(d):
            raise fail(f"additionalDirectories entry {d!r} is not an absolute path")


@check("ACP-V1-LIST-EMPTY-ARRAY")
def _list_empty(kit: AgentKit) -> None:
    frame = kit.note("basic", "list_empty", "the agent does not advertise sessionCapabilities.list")
    sessions = step_result(frame, "session/list for an empty directory").get("sessions")
    if sessions != []:
        raise fail(f"session/list for a directory without sessions returned sessions={sessions!r}")


@check("ACP-V1-LIST-AGENT-INVALID-CURSOR-ERROR")
def _list_cursor(kit: AgentKit) -> None:
    frame = kit.note(
        "basic",
        "list_bad_cursor",
        "the agent does not advertise sessionCapabilities.list",
    )
    if not isinstance(frame.get("error"), dict):
        raise fail(f"session/list with a made-up cursor succeeded: {frame.shown()}")


@check("ACP-V1-DELETE-IDEMPOTENT")
def _delete(kit: AgentKit) -> None:
    frame = kit.note(
        "basic",
        "delete_unknown",
        "the agent does not advertise sessionCapabilities.delete",
    )
    step_result(
        frame,
        "session/delete of a session that never existed",
        own=AllCodesBut((-32601,)),
    )
