# Edit acpgen/shipped/conformance/agent_scenarios.py, not this file: acpgen generate writes it.
"""Scenarios the kit plays against an agent under test, each one run of the agent.

A scenario spawns the agent, plays a scripted client, and keeps the transcript and the
facts it established (``notes``). Checks read those afterwards; one scenario serves many
requirements, so a full run spawns the agent about ten times. A scenario that is cut short
(the agent died, never answered, refused a step) keeps what it got and says why
(``stopped``); once the agent could not even be initialized, later scenarios are not tried.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .checks_wire import TURN_UPDATES
from .process import Peer, PeerClosed, PeerError, PeerTimeout
from .scripted_client import AgentDriver, ClientBehaviour
from .wire import Frame, Transcript
from .workdir import KitWorkdir

KIT_INFO = {"name": "acpgen-conformance-kit", "version": "1.0.0"}
PROTOCOL_VERSION = 1
UNSUPPORTED_VERSION = 9999  # no ACP version; an agent must answer its own latest instead
AUTH_REQUIRED = -32000
UNKNOWN_SESSION = "acpgen-kit-no-such-session"
BAD_CURSOR = "acpgen-kit-invalid-cursor"
LATE_WINDOW = 0.3  # seconds the kit listens after a turn ended, for late updates
# Unusual but legal _meta values (ACP-V1-EXT-META-NO-ASSUMPTIONS).
ODD_META = {
    "acpgen.dev/kit": {"nested": [1, None, {"deep": True}], "": "empty key"},
    "x-number": 1e300,
}


@dataclass(frozen=True)
class AgentTarget:
    argv: tuple[str, ...]
    timeout: float = 10.0  # seconds for every answer but a prompt turn
    turn_timeout: float = 60.0  # seconds for a prompt turn to end
    prompt: str = "Hello from the ACP conformance kit."
    slow_prompt: str | None = None  # a prompt the agent works on until cancelled
    permission_prompt: str | None = None  # a prompt that makes the agent ask for permission
    fs_prompt: str | None = None  # a prompt that makes the agent read {path} through the client
    elicitation_prompt: str | None = None  # a prompt that makes the agent elicit (form or URL)
    auth_method: str | None = None  # an advertised auth method ID the kit may authenticate with
    logout: bool = False  # the kit may call logout (when the agent advertises auth.logout)
    cancel_grace: float = 10.0  # seconds a cancelled turn may run on (PROMPT-AGENT-STOP-ON-CANCEL)
    env: tuple[tuple[str, str], ...] | None = None  # None: the caller's environment
    cwd: str | None = None  # where the command runs; None: the caller's working directory
    url: str | None = None  # a remote agent (ws://, http://, unix:PATH): argv is then not run


class Stop(Exception):
    """A scenario cannot go on; ``skipped`` when the agent needs something the kit lacks."""

    def __init__(self, message: str, skipped: bool = False) -> None:
        super().__init__(message)
        self.skipped = skipped


@dataclass
class Run:
    name: str
    transcript: Transcript
    notes: dict[str, Any] = field(default_factory=dict)
    stopped: str | None = None  # why the scenario ended early
    closed: bool = False  # the agent closed its output while the kit still talked to it
    pgid: int | None = None
    workdir: str = ""
    ended: float = 0.0  # when the kit stopped listening (time.monotonic, as frames' times)
    # Each cancel the kit sent for a running turn: (the prompt request, the cancel frame),
    # recorded when sent, so a turn that never ends is judged too.
    cancels: list[tuple[Frame, Frame]] = field(default_factory=list)


Scenario = Callable[["Context"], Awaitable[None]]


@dataclass
class Context:
    target: AgentTarget
    run: Run
    driver: AgentDriver

    @property
    def notes(self) -> dict[str, Any]:
        return self.run.notes

    async def initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        frame = await self.driver.request("initialize", params)
        self.notes.setdefault("initialize", []).append(frame)
        return expect_result(frame, "initialize")

    async def new_session(self, extra: dict[str, Any] | None = None) -> str:
        params = {"cwd": self.run.workdir, "mcpServers": [], **(extra or {})}
        frame = await self.driver.request("session/new", params)
        self.notes.setdefault("session/new", []).append(frame)
        result = expect_result(frame, "session/new")
        session_id = result.get("sessionId")
        if not isinstance(session_id, str):
            raise Stop(f"session/new result has no string sessionId: {frame.shown()}")
        return session_id

    async def prompt(
        self,
        session_id: str,
        blocks: list[dict[str, Any]],
        key: str,
        meta: dict[str, Any] | None = None,
    ) -> Frame:
        params: dict[str, Any] = {"sessionId": session_id, "prompt": blocks}
        if meta is not None:
            params["_meta"] = meta
        sent = await self.driver.send_request("session/prompt", params)
        frame = await self.driver.wait_response(sent, self.target.turn_timeout, "session/prompt")
        self.notes[key] = (sent, frame)
        return frame


def expect_result(frame: Frame, what: str) -> dict[str, Any]:
    error = frame.get("error")
    if isinstance(error, dict):
        if error.get("code") == AUTH_REQUIRED:
            raise Stop(
                f"{what}: the agent requires authentication ({error.get('message')!r})",
                skipped=True,
            )
        raise Stop(f"{what} failed: error {error.get('code')!r} {error.get('message')!r}")
    result = frame.get("result")
    if not isinstance(result, dict):
        raise Stop(f"{what}: response without a result object: {frame.shown()}")
    return result


def obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def caps_false() -> dict[str, Any]:
    return {"fs": {"readTextFile": False, "writeTextFile": False}, "terminal": False}


def init_params(
    version: Any = PROTOCOL_VERSION, caps: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``initialize`` params from the kit: no client capability unless ``caps`` says so."""
    return {
        "protocolVersion": version,
        "clientCapabilities": caps_false() if caps is None else caps,
        "clientInfo": KIT_INFO,
    }


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


# The prompt the kit keeps an agent busy with when no --acp-slow-prompt names one: long work
# that streams (a cancellation check needs a turn that demonstrably runs when it is cancelled).
KIT_SLOW_PROMPT = (
    "Please count slowly from 1 to 300, one number per message, with a sentence about each "
    "number; take your time."
)
# A request the kit sends right after each session/cancel: an agent reads its input in order,
# so what it writes after answering this was written after it had read the cancel (what it
# wrote before may have been on its way already). Unknown `_` requests must be answered.
FENCE = "_acpgen_kit/after_cancel"


def turn_shows_running(ctx: Context, session: str, sent: Frame) -> Callable[[Frame], bool]:
    """Whether ``frame`` shows the turn ``sent`` runs (an update or a request of its session)
    or ended (its response)."""

    def shown(frame: Frame) -> bool:
        answered = frame.is_response and frame.get("id") == sent.get("id")
        return answered or any(shows_turn_work(p, session) for p in frame.parts())

    return shown


def shows_turn_work(frame: Frame, session: Any) -> bool:
    """Whether the agent's ``frame`` is work of a turn of ``session``: an update that carries
    the conversation (a message chunk, a tool call, a plan) or a request (permission, fs,
    ...). A state update (commands, modes, config, session info, usage) is sent whenever
    the agent likes and shows no turn running."""
    params = frame.get("params")
    if not isinstance(params, dict) or params.get("sessionId") != session:
        return False
    if frame.is_request:
        return True
    update = params.get("update")
    kind = update.get("sessionUpdate") if isinstance(update, dict) else None
    return frame.method == "session/update" and kind in TURN_UPDATES


async def turn_started(ctx: Context, session: str, sent: Frame) -> None:
    """Wait until the turn shows it runs (its first turn update or request) or ends, at
    most ``--acp-timeout``. A cancel that overtakes the turn's start finds nothing running,
    and a turn that never showed it ran is not judged as cancelled (the checks read the
    transcript). A turn that already ended is kept there, where ``wait_response`` finds it."""
    try:
        await ctx.driver.pump(turn_shows_running(ctx, session, sent), ctx.target.timeout)
    except PeerTimeout:
        pass


async def start_turn(ctx: Context, session: str) -> Frame:
    """Send the prompt that keeps the agent busy (--acp-slow-prompt, else the kit's own) and
    wait until the turn shows it runs; the request as sent."""
    sent = await ctx.driver.send_request(
        "session/prompt",
        {"sessionId": session, "prompt": [text(ctx.target.slow_prompt or KIT_SLOW_PROMPT)]},
    )
    await turn_started(ctx, session, sent)
    return sent


async def send_cancel(ctx: Context, session: str, sent: Frame) -> Frame:
    """session/cancel for the turn ``sent``, recorded, then the fence (FENCE); the cancel."""
    cancel_frame = await ctx.driver.notify("session/cancel", {"sessionId": session})
    ctx.run.cancels.append((sent, cancel_frame))
    await ctx.driver.send_request(FENCE, {}, req_id=f"kit-fence-{len(ctx.run.cancels)}")
    return cancel_frame


# ---- scenarios ------------------------------------------------------------------------------


async def basic(ctx: Context) -> None:
    """Initialize with fs/terminal false, two sessions, prompt turns, the advertised extras."""
    init = await ctx.initialize(init_params())
    first = await ctx.new_session()
    ctx.notes["idle_session"] = await ctx.new_session()
    await ctx.prompt(first, [text(ctx.target.prompt)], "prompt_text")
    ctx.notes["late_after_prompt"] = await ctx.driver.quiet(LATE_WINDOW)
    link = {
        "type": "resource_link",
        "uri": Path(ctx.run.workdir, "notes.md").as_uri(),
        "name": "notes.md",
    }
    await ctx.prompt(first, [text("Please look at the linked file."), link], "prompt_link")
    caps = obj(init.get("agentCapabilities"))
    prompt_caps = obj(caps.get("promptCapabilities"))
    richer: dict[str, dict[str, Any]] = {
        "image": {"type": "image", "mimeType": "image/png", "data": _PNG},
        "audio": {"type": "audio", "mimeType": "audio/wav", "data": _WAV},
        "embeddedContext": {
            "type": "resource",
            "resource": {
                "uri": Path(ctx.run.workdir, "notes.md").as_uri(),
                "mimeType": "text/markdown",
                "text": "# Notes\n",
            },
        },
    }
    for name, block in richer.items():
        if prompt_caps.get(name) is True:
            await ctx.prompt(first, [text("Here is some content."), block], f"prompt_{name}")
    await _optional_methods(ctx, caps, first)


async def _optional_methods(ctx: Context, caps: dict[str, Any], prompted: str) -> None:
    d = ctx.driver
    session_caps = obj(caps.get("sessionCapabilities"))
    new_results = [f.get("result") for f in ctx.notes.get("session/new", [])]
    first_result = new_results[0] if new_results and isinstance(new_results[0], dict) else {}
    options = first_result.get("configOptions")
    if isinstance(options, list) and options and isinstance(options[0], dict):
        option = options[0]
        params = {
            "sessionId": prompted,
            "configId": option.get("id"),
            "value": option.get("currentValue"),
        }
        ctx.notes["set_config"] = await d.request("session/set_config_option", params)
    modes = first_result.get("modes")
    if isinstance(modes, dict) and isinstance(modes.get("currentModeId"), str):
        # Another listed mode when there is one: a real switch, its result and updates seen.
        listed = [m.get("id") for m in modes.get("availableModes") or [] if isinstance(m, dict)]
        other = [m for m in listed if isinstance(m, str) and m != modes["currentModeId"]]
        ctx.notes["set_mode"] = await d.request(
            "session/set_mode",
            {"sessionId": prompted, "modeId": (other or [modes["currentModeId"]])[0]},
        )
    if caps.get("loadSession") is True:
        sent = await d.send_request(
            "session/load", {"sessionId": prompted, "cwd": ctx.run.workdir, "mcpServers": []}
        )
        ctx.notes["load"] = (
            sent,
            await d.wait_response(sent, ctx.target.turn_timeout, "session/load"),
        )
    if isinstance(session_caps.get("list"), dict):
        empty_dir = tempfile.mkdtemp(prefix="acp-kit-empty-", dir=ctx.run.workdir)
        ctx.notes["list_empty"] = await d.request("session/list", {"cwd": empty_dir})
        ctx.notes["list_all"] = await d.request("session/list", {})
        ctx.notes["list_bad_cursor"] = await d.request("session/list", {"cursor": BAD_CURSOR})
        ctx.notes["list_no_params"] = await d.request("session/list", omit_params=True)
    if isinstance(session_caps.get("resume"), dict):
        fresh = await ctx.new_session()
        sent = await d.send_request(
            "session/resume", {"sessionId": fresh, "cwd": ctx.run.workdir, "mcpServers": []}
        )
        ctx.notes["resume"] = (
            sent,
            await d.wait_response(sent, ctx.target.turn_timeout, "session/resume"),
        )
    if isinstance(session_caps.get("delete"), dict):
        ctx.notes["delete_unknown"] = await d.request(
            "session/delete", {"sessionId": UNKNOWN_SESSION}
        )
    if isinstance(session_caps.get("close"), dict):
        ctx.notes["close_unknown"] = await d.request(
            "session/close", {"sessionId": UNKNOWN_SESSION}
        )
    # An existing idle session (never prompted) closed and deleted: results to validate.
    idle = ctx.notes.get("idle_session")
    if isinstance(session_caps.get("close"), dict) and idle:
        ctx.notes["close_idle"] = await d.request("session/close", {"sessionId": idle})
    if isinstance(session_caps.get("delete"), dict) and idle:
        ctx.notes["delete_idle"] = await d.request("session/delete", {"sessionId": idle})


async def no_capabilities(ctx: Context) -> None:
    """Initialize with nothing but the version, then a session and a turn with odd _meta."""
    await ctx.initialize({"protocolVersion": PROTOCOL_VERSION})
    session = await ctx.new_session({"_meta": ODD_META})
    await ctx.prompt(session, [text(ctx.target.prompt)], "prompt_text", meta=ODD_META)


# Both elicitation modes ({} means supported), advertised with --acp-elicitation-prompt.
ELICITATION_CAPS: dict[str, dict[str, Any]] = {"form": {}, "url": {}}


async def all_capabilities(ctx: Context) -> None:
    """The kit as the most capable client: fs and terminal advertised and served (and form
    and URL elicitation with --acp-elicitation-prompt); authenticate with --acp-auth-method;
    a turn, the fs and elicitation prompts; logout last with --acp-logout, and then this run
    comes after every other one (a logout may end the login they need)."""
    caps: dict[str, Any] = {"fs": {"readTextFile": True, "writeTextFile": True}, "terminal": True}
    if ctx.target.elicitation_prompt:
        caps["elicitation"] = ELICITATION_CAPS
        ctx.driver.behaviour.elicitation = tuple(ELICITATION_CAPS)
    init = await ctx.initialize(init_params(caps=caps))
    methods = [m.get("id") for m in init.get("authMethods") or [] if isinstance(m, dict)]
    method = ctx.target.auth_method
    if method is not None and method in methods:
        ctx.notes["authenticate"] = await ctx.driver.request(
            "authenticate", {"methodId": method}, timeout=ctx.target.turn_timeout
        )
    elif method is not None:
        ctx.notes["no_authenticate"] = f"--acp-auth-method {method!r} is not among {methods!r}"
    session = await ctx.new_session()
    await ctx.prompt(session, [text(ctx.target.prompt)], "prompt_text")
    if ctx.target.fs_prompt:
        path = str(Path(ctx.run.workdir, "notes.md"))
        await ctx.prompt(session, [text(ctx.target.fs_prompt.replace("{path}", path))], "prompt_fs")
    if ctx.target.elicitation_prompt:
        prompt = [text(ctx.target.elicitation_prompt)]
        await ctx.prompt(session, prompt, "prompt_elicitation")
    logout = isinstance(obj(obj(init.get("agentCapabilities")).get("auth")).get("logout"), dict)
    if ctx.target.logout and logout:
        ctx.notes["logout"] = await ctx.driver.request("logout", {})
    elif ctx.target.logout:
        ctx.notes["no_logout"] = "the agent does not advertise auth.logout"


async def version(ctx: Context) -> None:
    """Ask for a protocol version that does not exist."""
    frame = await ctx.driver.request(
        "initialize",
        init_params(UNSUPPORTED_VERSION),
    )
    ctx.notes["initialize"] = [frame]


async def probe(ctx: Context, method: str, params: Any, req_id: Any) -> Frame | None:
    """A request whose answer the kit checks; None when none came in time (the scenario goes
    on: a request answered later proves the agent skipped this one)."""
    try:
        return await ctx.driver.request(method, params, req_id=req_id)
    except PeerTimeout:
        return None


async def wire(ctx: Context) -> None:
    """Malformed and unknown messages, exact error codes, then a request that must still work."""
    await ctx.initialize(init_params())
    d = ctx.driver
    notes = ctx.notes
    notes["parse_error_line"] = await ctx.driver.peer.send_raw(PARSE_ERROR_LINE)
    notes["parse_error"] = await d.quiet(LATE_WINDOW * 2)
    notes["invalid_request_line"] = await ctx.driver.peer.send_raw(INVALID_REQUEST_LINE)
    notes["invalid_request"] = await d.quiet(LATE_WINDOW * 2)
    notes["unknown_method"] = await probe(ctx, "acpgen-kit/unknown", {}, "kit-unknown-1")
    notes["unknown_ext"] = await probe(ctx, "_acpgen_kit/unknown", {"probe": True}, "kit-ext-1")
    await d.notify("_acpgen_kit/notice", {"probe": True})
    await d.notify("acpgen-kit/unknown-notice", {"probe": True})
    await d.notify("$/cancel_request", {"requestId": "kit-never-sent"})
    notes["after_notifications"] = await d.quiet(LATE_WINDOW)
    notes["bad_params"] = await probe(ctx, "session/new", {"cwd": 42, "mcpServers": "none"}, 77)
    notes["miscased_params"] = await probe(
        ctx, "session/new", {"CWD": ctx.run.workdir, "MCPServers": []}, "kit-case-1"
    )
    notes["still_alive"] = await d.request(
        "session/new", {"cwd": ctx.run.workdir, "mcpServers": []}
    )


PARSE_ERROR_LINE = b'{"jsonrpc": "2.0", "id": 41, "method": \n'
INVALID_REQUEST_LINE = b'{"foo": "bar"}\n'  # JSON, but no request: -32600 with id null


def _request(method: str, params: Any, req_id: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": req_id, "method": method, "params": params}


def _notification(method: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": {"probe": True}}


BATCH_WAIT = 3.0  # seconds the kit waits for the answers to one batch


async def send_batch(ctx: Context, messages: list[dict[str, Any]]) -> tuple[Frame, list[Frame]]:
    """Send a JSON-RPC batch; wait until each request in it is answered (alone or in an
    array), for an empty batch until any answer, for notifications only a quiet window."""
    d = ctx.driver
    transcript = d.peer.transcript
    start = len(transcript.frames)
    sent = await d.peer.send(messages)
    asked = [p for p in sent.parts() if p.is_request]
    wait = min(ctx.target.timeout, BATCH_WAIT)
    try:
        if asked:
            await d.pump(lambda f: all(transcript.response_to(p) for p in asked), wait)
        elif messages:
            await d.quiet(LATE_WINDOW)
        else:
            # Judged on the transcript from the batch on: a frame still queued from before it
            # (an earlier batch's late answer) is no answer to this one.
            await d.pump(
                lambda f: any(
                    g.direction == "in" and (g.responses() or g.problem)
                    for g in transcript.frames[start:]
                ),
                wait,
            )
    except PeerTimeout:
        pass
    return sent, [f for f in transcript.frames[start:] if f.direction == "in"]


async def batch(ctx: Context) -> None:
    """JSON-RPC batches: of requests, of notifications, of both, and an empty one."""
    await ctx.initialize(init_params())
    new = {"cwd": ctx.run.workdir, "mcpServers": []}
    notes = ctx.notes
    notes["batch_requests"] = await send_batch(
        ctx,
        [_request("session/new", new, "kit-batch-1"), _request("acpgen-kit/unknown", {}, 901)],
    )
    notes["batch_notifications"] = await send_batch(
        ctx, [_notification("_acpgen_kit/notice"), _notification("acpgen-kit/unknown-notice")]
    )
    notes["batch_mixed"] = await send_batch(
        ctx, [_request("session/new", new, "kit-batch-2"), _notification("_acpgen_kit/notice")]
    )
    notes["batch_empty"] = await send_batch(ctx, [])
    notes["after_batches"] = await ctx.driver.request("session/new", new)


async def cancel(ctx: Context) -> None:
    """A turn cancelled with session/cancel right after it started."""
    await ctx.initialize(init_params())
    session = await ctx.new_session()
    d = ctx.driver
    sent = await start_turn(ctx, session)
    cancel_frame = await send_cancel(ctx, session, sent)
    response = await d.wait_response(
        sent, ctx.target.turn_timeout, "session/prompt after session/cancel"
    )
    ctx.notes["cancelled_turn"] = (sent, cancel_frame, response)
    ctx.notes["late_after_cancel"] = await d.quiet(LATE_WINDOW)


async def permission(ctx: Context) -> None:
    """A turn that asks for permission, cancelled while the request is pending."""
    if not ctx.target.permission_prompt:
        raise Stop(
            "no prompt that makes the agent ask for permission (--acp-permission-prompt)",
            skipped=True,
        )
    ctx.driver.behaviour.permission = "hold"
    await ctx.initialize(init_params())
    session = await ctx.new_session()
    d = ctx.driver
    sent = await d.send_request(
        "session/prompt", {"sessionId": session, "prompt": [text(ctx.target.permission_prompt)]}
    )
    asked = await d.pump(
        lambda f: (
            f.is_request
            and f.method == "session/request_permission"
            or (f.is_response and f.get("id") == sent.get("id"))
        ),
        ctx.target.turn_timeout,
    )
    if not asked.is_request:
        raise Stop(
            f"the permission prompt ended the turn without a permission request: {asked.shown()}",
            skipped=True,
        )
    cancel_frame = await send_cancel(ctx, session, sent)
    await d.answer_held(asked, {"outcome": {"outcome": "cancelled"}})
    response = await d.wait_response(
        sent, ctx.target.turn_timeout, "session/prompt after session/cancel"
    )
    ctx.notes["permission_turn"] = (sent, asked, cancel_frame, response)


async def cancel_request(ctx: Context) -> None:
    """$/cancel_request for a running session/prompt: the prompt must still be answered."""
    await ctx.initialize(init_params())
    session = await ctx.new_session()
    d = ctx.driver
    sent = await start_turn(ctx, session)
    await d.notify("$/cancel_request", {"requestId": sent.get("id")})
    wait = min(ctx.target.timeout, ctx.target.turn_timeout)
    try:
        response = await d.wait_response(sent, wait, "session/prompt after $/cancel_request")
        ctx.notes["cancel_request"] = (sent, response, False)
    except PeerError:
        # Support for $/cancel_request is optional: end the turn the mandatory way instead.
        await send_cancel(ctx, session, sent)
        response = await d.wait_response(
            sent, ctx.target.turn_timeout, "session/prompt after session/cancel"
        )
        ctx.notes["cancel_request"] = (sent, response, True)


async def mcp_stdio(ctx: Context) -> None:
    """session/new with a stdio MCP server (a stub that exits at once)."""
    await ctx.initialize(init_params())
    server = {
        "name": "acpgen-kit-stub",
        "command": sys.executable,
        "args": ["-c", "pass"],
        "env": [],
    }
    frame = await ctx.driver.request(
        "session/new", {"cwd": ctx.run.workdir, "mcpServers": [server]}
    )
    ctx.notes["session/new"] = [frame]


async def close_running(ctx: Context) -> None:
    """session/close while a turn runs: the turn must end as if cancelled."""
    init = await ctx.initialize(init_params())
    caps = init.get("agentCapabilities") or {}
    if not isinstance((caps.get("sessionCapabilities") or {}).get("close"), dict):
        raise Stop("the agent does not advertise sessionCapabilities.close", skipped=True)
    if not ctx.target.slow_prompt:
        raise Stop("no prompt that keeps the agent busy (--acp-slow-prompt)", skipped=True)
    session = await ctx.new_session()
    d = ctx.driver
    sent = await start_turn(ctx, session)  # the slow prompt (checked above)
    await d.request("session/close", {"sessionId": session})
    response = await d.wait_response(sent, ctx.target.timeout, "session/prompt after session/close")
    ctx.notes["closed_turn"] = (sent, response)


LAST = "all_capabilities"  # it may log out, which may end the login every other run needs


SCENARIOS: dict[str, Scenario] = {
    "mcp_stdio": mcp_stdio,
    "close_running": close_running,
    "basic": basic,
    "no_capabilities": no_capabilities,
    "all_capabilities": all_capabilities,
    "version": version,
    "wire": wire,
    "batch": batch,
    "cancel": cancel,
    "permission": permission,
    "cancel_request": cancel_request,
}
BEHAVIOURS: dict[str, Callable[[], ClientBehaviour]] = {
    "all_capabilities": lambda: ClientBehaviour(fs_read=True, fs_write=True, terminal=True),
}


class AgentRunner(KitWorkdir):
    """Runs each scenario at most once per test session and keeps the result."""

    def __init__(self, target: AgentTarget, workdir: str | None = None) -> None:
        super().__init__(workdir, "acp-kit-agent-")
        self.target = target
        self.runs: dict[str, Run] = {}
        self.broken: str | None = None  # the agent could not be initialized at all
        # Every scenario asked for, in order (repeats included): a check's evidence is the
        # scenarios it asked for while it ran (plugin.Checker).
        self.asked: list[str] = []

    def start(self) -> str | None:
        """Run the first scenario; why the command cannot even be initialized, or None."""
        self.run("basic")
        return self.broken

    def run(self, name: str) -> Run:
        self.asked.append(name)
        if name == LAST and name not in self.runs and self.target.logout:
            for other in SCENARIOS:
                if other != LAST:
                    self.run(other)
        if name not in self.runs:
            self.runs[name] = asyncio.run(self._run(name))
        return self.runs[name]

    async def _run(self, name: str) -> Run:
        workdir = tempfile.mkdtemp(prefix=f"{name}-", dir=self.workdir)
        Path(workdir, "notes.md").write_text("# Notes\n", encoding="utf-8")
        run = Run(name, Transcript(name), workdir=workdir)
        if self.broken is not None:
            run.stopped = self.broken
            return run
        peer = (
            Peer(run.transcript) if self.target.url is None else remote_peer(run, self.target.url)
        )
        behaviour = BEHAVIOURS.get(name, ClientBehaviour)()
        ctx = Context(self.target, run, AgentDriver(peer, behaviour, self.target.timeout))
        env = dict(os.environ) if self.target.env is None else dict(self.target.env)
        try:
            # The caller's directory and environment: `python -m my_agent` and a relative
            # PYTHONPATH work as they do in the caller's shell.
            await peer.start(self.target.argv, cwd=self.target.cwd, env=env)
            run.pgid = peer.pid
            await SCENARIOS[name](ctx)
            await ctx.driver.quiet(0.05)
        except Stop as exc:
            run.stopped = str(exc)
        except PeerError as exc:
            run.stopped = f"the agent {exc}" if not str(exc).startswith("command") else str(exc)
            run.closed = isinstance(exc, PeerClosed)
            if not run.notes.get("initialize"):
                garbage = [f for f in run.transcript.received() if f.problem]
                seen = f"; it wrote: {garbage[0].shown()}" if garbage else ""
                self.broken = run.stopped + seen
        finally:
            run.ended = time.monotonic()
            await peer.close()
        return run


def remote_peer(run: Run, url: str) -> Peer:
    if url.lower().startswith("unix:"):  # NDJSON over a local socket: a pipe's framing
        from .unix_peer import UnixPeer

        return UnixPeer(run.transcript, url)
    from .remote_peer import RemotePeer  # its libraries only when a URL is given

    return RemotePeer(run.transcript, url)


# A 1x1 PNG and a silent WAV: the smallest valid media, for the richer prompt capabilities.
_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg=="
_WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA="
