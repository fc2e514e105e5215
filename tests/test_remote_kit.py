"""The conformance kit over the network (``--acp-agent-url``): the same checks against a remote
agent, over WebSocket and over Streamable HTTP, plus the RFD's transport rules as a group of
their own (``RFD-HTTP-…``, ``RFD-WS-…``); and a misbehaving server that makes those rules fail.

The kit runs as a user runs it (pytest in the generated tree, a subprocess) against the
generated echo agent served with ``--listen``; against the official Python SDK 1.0.0rc3's
remote echo agent with the opt-in ``remote_interop`` marker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
from conftest import INPUTS, generated_dir

GENERATED = generated_dir()  # generated now into a temporary directory, importable
TESTS_DIR = GENERATED / "tests"
sys.path.insert(0, str(TESTS_DIR))  # the kit's package, _acp_kit, as the generated tests use it

from _acp_kit.transport_rules import RULES, run_rules
from acp_v1.examples.echo_agent import EchoAgent
from acp_v1.remote import ServerOptions, agent_app, serve_app

PYTHON = sys.executable
GUARD = 120  # seconds: a hang guard, no budget
ROSTER = INPUTS / "roster" / "requirements.md"

# Where the same checks see the Streamable HTTP profile differ from a pipe, and why (none
# now: a POST body that is not JSON gets 400 with the -32700 error as its body), with the
# words of each failure. A change shows up here: then update docs/conformance.md too.
HTTP_DEVIATIONS: dict[str, str] = {}


RFD = Path(__file__).parent / "data" / "rfds" / "streamable-http-websocket-transport.mdx"


def test_each_transport_rule_quotes_the_rfd_verbatim_and_stays_apart_from_the_roster() -> None:
    rfd = " ".join(RFD.read_text(encoding="utf-8").split())
    roster = set(re.findall(r"\bACP-V1-[A-Z0-9-]+", ROSTER.read_text(encoding="utf-8")))
    ids = [rule.id for rule in RULES]
    assert len(set(ids)) == len(ids) and roster
    for rule in RULES:
        assert rule.id.startswith(("RFD-HTTP-", "RFD-WS-")), rule.id
        assert rule.id not in roster
        assert " ".join(rule.quote.split()) in rfd, rule.id


def test_a_url_s_profile_is_spelled_both_ways() -> None:
    from _acp_kit.remote_peer import http_url, websocket_url

    assert websocket_url("http://h:1/acp") == "ws://h:1/acp"
    assert websocket_url("HTTPS://h/acp") == "wss://h/acp"
    assert http_url("wss://h/acp") == "https://h/acp" and http_url("http://h/acp") == "http://h/acp"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(GENERATED)
    return env


@contextlib.contextmanager
def listening(argv: list[str], env: dict[str, str], pattern: str) -> Iterator[str]:
    """Run a server process; yield the URL it printed (matching ``pattern``); always reaped."""
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        assert proc.stdout is not None
        url = None
        for _ in range(200):  # a line at a time, bounded: the server prints its URL first
            line = proc.stdout.readline()
            if not line:
                break
            found = re.search(pattern, line)
            if found:
                url = found.group(1)
                break
        assert url, f"the server printed no URL (exit {proc.poll()})"
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.asynccontextmanager
async def served(app: Any) -> AsyncIterator[str]:
    """An ASGI app (the generated endpoint, maybe wrapped) served on a free loopback port, in
    this loop: its URL; stopped and awaited on exit."""
    url: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(serve_app(app, port=0, ready=url.set_result, shutdown=stop.wait))
    try:
        yield await url
    finally:
        stop.set()
        await asyncio.wait_for(task, GUARD)


def run_kit(url: str, tmp_path: Path, *extra: str) -> tuple[subprocess.CompletedProcess[str], dict, dict]:  # type: ignore[type-arg]
    report, rules = tmp_path / "conformance.json", tmp_path / "transport.json"
    done = subprocess.run(
        [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p",
         "no:randomly", "-q", f"--acp-roster={ROSTER}", str(TESTS_DIR / "test_conformance_agent.py"),
         f"--acp-agent-url={url}", f"--acp-conformance-json={report}",
         f"--acp-transport-json={rules}", *extra],
        cwd=GENERATED.parent, env=_env(), capture_output=True, text=True, timeout=600, check=False,
    )
    load = lambda p: json.loads(p.read_text()) if p.exists() else {}
    return done, load(report), load(rules)


def _statuses(data: dict) -> dict[str, str]:  # type: ignore[type-arg]
    return {e["id"]: e["status"] for e in data.get("requirements", data.get("transport", []))}


ECHO = [PYTHON, "-m", "acp_v1.examples.echo_agent", "--listen", "127.0.0.1:0"]
ECHO_URL = r"serving on (http://\S+)"


def _rc3(profile: str) -> Any:
    return pytest.param("rc3", profile, marks=pytest.mark.remote_interop, id=f"rc3-{profile}")


@pytest.mark.slow
@pytest.mark.parametrize(("agent", "profile"), [("generated", "ws"), ("generated", "http"),
                                                _rc3("ws"), _rc3("http")])
def test_the_kit_checks_each_remote_echo_agent_over_each_profile(
        agent: str, profile: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """The kit over WebSocket and over Streamable HTTP against the generated remote echo agent
    (slow tier) and the official Python SDK 1.0.0rc3's (``-m remote_interop``): the same
    checks as on stdio, the RFD's rules apart; the generated agent fails nothing, rc3 exactly
    its findings (RC3_FINDINGS), each with the request that shows it."""
    if agent == "rc3":
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        command, pattern = [request.getfixturevalue("rc3_python"), str(PEER), "serve"], r"(http://\S+)"
    else:
        env, command, pattern = _env(), ECHO, ECHO_URL
    with listening(command, env, pattern) as url:
        target = "ws" + url[4:] if profile == "ws" else url
        done, report, rules = run_kit(target, tmp_path, "--acp-slow-prompt=/wait",
                                      "--acp-permission-prompt=/permission")
    failed = {e["id"]: e.get("message", "") for e in report.get("requirements", []) if e["status"] == "fail"}
    failed |= {e["id"]: e["message"] for e in rules.get("transport", []) if e["status"] == "fail"}
    rule_counts = {s: list(_statuses(rules).values()).count(s) for s in set(_statuses(rules).values())}
    print(json.dumps({"agent": agent, "profile": profile, "counts": report.get("counts"),
                      "rfd_rules": rule_counts, "failed": failed}))
    assert report["counts"]["pass"] >= 60 and report["counts"]["not run"] == 0, done.stdout[-4000:]
    for req_id in ("ACP-V1-PROMPT-AGENT-CANCELLED-STOP-REASON", "ACP-V1-CANCEL-REQUEST-MUST-RESPOND",
                   "ACP-V1-JSONRPC-RESPONSE-ID-ECHO", "ACP-V1-SCHEMA-SESSION-UPDATE-VARIANTS"):
        assert _statuses(report)[req_id] == "pass", (req_id, done.stdout[-4000:])
    # The RFD's rules: each judged, listed apart from the roster, and none of them in it.
    assert set(_statuses(rules)) == {rule.id for rule in RULES}, rules
    assert not set(_statuses(rules)) & set(_statuses(report))
    assert "ACP remote transport (RFD rules)" in done.stdout
    assert f"ACP conformance of the agent {target}" in done.stdout
    expected = ({**HTTP_DEVIATIONS} if profile == "http" else {}) if agent == "generated" else {
        req_id: shown[profile] for req_id, shown in RC3_FINDINGS.items()}
    assert set(failed) == set(expected), failed
    for req_id, shown in expected.items():
        assert shown in failed[req_id], (req_id, failed[req_id])
    if agent == "generated":
        assert _statuses(rules) == {rule.id: "pass" for rule in RULES}, rules


def test_the_session_stream_rule_answers_what_the_agent_asks_and_cancels_a_running_turn() -> None:
    """RFD-HTTP-SESSION-STREAM against an agent that streams, asks for permission and is
    cancelled (the echo agent's ``/permission`` and ``/wait``): the probe answers the agent's
    ``session/request_permission`` on the session stream with the kit's default decision (the
    first allow option, as on stdio) and cancels the slow turn once it showed it runs; every
    RFD rule passes. The probe before this answered nothing: "no answer to 3 on the stream"."""

    async def body() -> dict[str, tuple[str, str]]:
        async with served(agent_app(EchoAgent, ServerOptions())) as url:
            return await run_rules(url, 5.0, "/permission", None, "/wait")

    results = asyncio.run(asyncio.wait_for(body(), GUARD))
    assert results == {rule.id: ("pass", results[rule.id][1]) for rule in RULES}, results
    note = results["RFD-HTTP-SESSION-STREAM"][1]
    assert "'/permission': 1 updates and its answer" in note, note
    assert 'session/request_permission (answered {"outcome": {"outcome": "selected", "optionId": "allow"}})' in note
    assert "'/wait' cancelled while it ran, its answer {\"stopReason\": \"cancelled\"}" in note, note


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["ws", "http"])
def test_the_echo_agent_asking_permission_passes_every_rfd_rule_over_each_profile(
        profile: str, tmp_path: Path) -> None:
    """The kit as a user runs it, ``--acp-prompt=/permission``, over each profile: every RFD
    rule passes (the session stream's turn asks for permission; the kit answers it)."""
    with listening(ECHO, _env(), ECHO_URL) as url:
        target = "ws" + url[4:] if profile == "ws" else url
        done, _report, rules = run_kit(target, tmp_path, "--acp-prompt=/permission",
                                       "--acp-slow-prompt=/wait")
    assert _statuses(rules) == {rule.id: "pass" for rule in RULES}, done.stdout[-4000:]
    note = next(e["message"] for e in rules["transport"] if e["id"] == "RFD-HTTP-SESSION-STREAM")
    assert "session/request_permission (answered" in note and "cancelled while it ran" in note, note


# -- the kit's own HTTP peer: several streams at once, and the server's cookies -----------------


class SettingCookies:
    """The generated endpoint, logging each HTTP request (method, the cookies it carried) and
    setting cookies: ``affinity`` on initialize's answer, ``streams=N`` on the answer that
    opens the Nth session stream (a server's cookies change; the RFD: clients return them)."""

    def __init__(self, app: Any, log: list[tuple[str, dict[str, str]]]) -> None:
        self.app, self.state, self.log = app, app.state, log
        self.session_streams = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        jar: SimpleCookie = SimpleCookie(headers.get("cookie", ""))
        cookie = None
        if scope["method"] == "POST" and "acp-connection-id" not in headers:
            cookie = b"affinity=a; Path=/"
        elif scope["method"] == "GET" and "acp-session-id" in headers:
            self.session_streams += 1
            cookie = f"streams={self.session_streams}; Path=/".encode()
        self.log.append((scope["method"], {name: m.value for name, m in jar.items()}))

        async def setting(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start" and cookie is not None:
                message = {**message, "headers": [*message["headers"], (b"set-cookie", cookie)]}
            await send(message)

        await self.app(scope, receive, setting)


def test_the_kits_http_peer_streams_several_sessions_at_once_and_returns_the_servers_cookies() -> None:
    """Three sessions prompted at once over Streamable HTTP, twice, with no keepalive to nudge
    a stalled stream (an hour): every answer and every chunk comes, in order per session. On
    one HTTP/2 connection for everything (the peer before), the second session's prompt POST
    waited behind a quiet stream's read and the run stopped (PeerTimeout). Every request after
    initialize carries the cookies the server set so far, whichever connection set them; the
    kit's HTTP log is one entry per request, as the server saw them; nothing stays open."""
    from _acp_kit.remote_peer import RemotePeer
    from _acp_kit.wire import Transcript

    async def body() -> None:
        log: list[tuple[str, dict[str, str]]] = []
        app = agent_app(EchoAgent, ServerOptions(keepalive_interval=3600.0))
        async with served(SettingCookies(app, log)) as url:
            peer = RemotePeer(Transcript("streams"), url)
            try:
                await peer.start()

                async def ask(req_id: int, method: str, params: dict[str, Any]) -> None:
                    await peer.send({"jsonrpc": "2.0", "id": req_id, "method": method, "params": params})

                await ask(0, "initialize", {"protocolVersion": 1, "clientCapabilities": {}})
                assert (await peer.next_frame(GUARD)).get("id") == 0
                sessions = []
                for n in range(3):
                    await ask(1 + n, "session/new", {"cwd": "/", "mcpServers": []})
                    sessions.append((await peer.next_frame(GUARD)).get("result")["sessionId"])
                chunks: dict[str, list[str]] = {s: [] for s in sessions}
                for round_ in range(2):
                    for n, session in enumerate(sessions):
                        text = [{"type": "text", "text": f"{session} {round_}"}]
                        await ask(10 * (round_ + 1) + n, "session/prompt", {"sessionId": session, "prompt": text})
                    answered = set()
                    while len(answered) < len(sessions):
                        frame = await peer.next_frame(GUARD)
                        if frame.method == "session/update":
                            update = frame.get("params")["update"]
                            chunks[frame.get("params")["sessionId"]].append(update["content"]["text"])
                        else:
                            assert frame.get("result") == {"stopReason": "end_turn"}, frame.raw
                            answered.add(frame.get("id"))
                assert chunks == {s: [f"{s} ", "0", f"{s} ", "1"] for s in sessions}
            finally:
                await peer.close()
        # Nothing left: every stream's task (it held its own client) ended, the POSTs' client
        # closed, the connection deleted (the endpoint forgot it).
        assert peer._streams and all(task.done() for task in peer._streams.values())
        assert peer._http.is_closed and app.state.acp.connections == {}
        requests = [entry["request"].split()[0] for entry in peer.http_log]
        assert requests == [method for method, _ in log]
        assert requests == ["POST", "GET"] + ["POST"] * 3 + ["GET", "POST"] * 3 + ["POST"] * 3 + ["DELETE"]
        assert {e["http_version"] for e in peer.http_log} == {"HTTP/2"}
        assert [e["status"] for e in peer.http_log] == [200, 200] + [202] * 3 + [200, 202] * 3 + [202] * 4
        # Each request sent once the one before it was answered: it carries what was set so far.
        session_streams = [i for i, e in enumerate(peer.http_log)
                           if e["request"].startswith("GET stream ") and not e["request"].endswith(" connection")]
        assert len(session_streams) == 3 and log[0][1] == {}
        for i, (_, cookies) in enumerate(log[1:], start=1):
            opened = sum(j < i for j in session_streams)
            assert cookies == {"affinity": "a", **({"streams": str(opened)} if opened else {})}, log

    asyncio.run(asyncio.wait_for(body(), GUARD))


@pytest.mark.slow
def test_a_post_after_the_server_closed_the_idle_connection_goes_on_a_new_one() -> None:
    """The generated server closes an HTTP/2 connection with no request open after 5 s (its
    keep-alive); httpcore2 does not notice, and a POST sent on it after that
    failed (WriteError): the kit's peer and the generated client both ended there. Both let an
    idle connection go sooner; here each waits 5.5 s before its second POST, side by side."""
    from _acp_kit.remote_peer import RemotePeer
    from _acp_kit.wire import Transcript
    from acp_v1 import Client, models
    from acp_v1.remote import connect_to_remote_agent

    async def kit_peer(url: str) -> None:
        peer = RemotePeer(Transcript("idle"), url)
        try:
            await peer.start()
            await peer.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                             "params": {"protocolVersion": 1, "clientCapabilities": {}}})
            await peer.next_frame(GUARD)
            await asyncio.sleep(5.5)
            await peer.send({"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/", "mcpServers": []}})
            assert "sessionId" in (await peer.next_frame(GUARD)).get("result"), peer.http_log
        finally:
            await peer.close()

    async def generated_client(url: str) -> None:
        async with connect_to_remote_agent(Client(), url) as conn:
            await conn.initialize(protocol_version=1, client_capabilities=models.ClientCapabilities())
            await asyncio.sleep(5.5)
            await conn.session_new(cwd="/", mcp_servers=[])

    async def body() -> None:
        async with served(agent_app(EchoAgent, ServerOptions())) as url:
            await asyncio.gather(kit_peer(url), generated_client(url))

    asyncio.run(asyncio.wait_for(body(), GUARD))


class AnsweringNonJson:
    """The generated endpoint with a POST body that is not JSON answered another way: ``refused``
    as rc3 does (400, ``{"error": "Invalid JSON"}``: no JSON-RPC), or ``swallowed`` (202, and
    nothing on any stream: the message went in and nothing answers it)."""

    def __init__(self, app: Any, mode: str) -> None:
        self.app, self.state, self.mode = app, app.state, mode

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.app(scope, receive, send)
        body, more = b"", True
        while more:
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        try:
            json.loads(body)
        except ValueError:
            status, answer = (400, b'{"error":"Invalid JSON"}') if self.mode == "refused" else (202, b"")
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": answer})
            return
        replayed = False

        async def again() -> dict[str, Any]:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, again, send)


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "unanswered"), [("refused", False), ("swallowed", True)])
def test_a_line_http_refused_without_json_rpc_is_no_request_left_unanswered(mode: str, unanswered: bool) -> None:
    """The wire scenario's line that is not JSON, over Streamable HTTP: refused by HTTP with no
    JSON-RPC answer (rc3's 400) it never reached the agent's JSON-RPC layer, and RESPONSE-REQUIRED
    does not charge it; taken (202) and never answered, it does."""
    from _acp_kit.agent_kit import AgentKit
    from _acp_kit.agent_scenarios import AgentRunner, AgentTarget
    from _acp_kit.checks_agent_jsonrpc import unanswered_probe

    async def body() -> tuple[bool, list[dict[str, Any]]]:
        async with served(AnsweringNonJson(agent_app(EchoAgent, ServerOptions()), mode)) as url:
            runner = AgentRunner(AgentTarget(argv=(), url=url, timeout=5.0))
            run = await asyncio.to_thread(runner.run, "wire")
        kit = AgentKit(runner, None)  # type: ignore[arg-type]  (no schema check here)
        line = run.notes["parse_error_line"]
        return unanswered_probe(kit, "wire", line), run.transcript.notes["http"]

    judged, http = asyncio.run(asyncio.wait_for(body(), GUARD))
    assert judged is unanswered, http
    statuses = [(e["status"], e.get("refused", "")[:12]) for e in http if e["request"] == "POST response"]
    assert statuses[0] == ((400, '{"jsonrpc": ') if mode == "refused" else (202, "")), http


# -- a server that breaks the RFD's rules ------------------------------------------------------


class Misbehaving:
    """The generated endpoint with one of its answers changed on the way out (ASGI)."""

    def __init__(self, app: Any, fault: str) -> None:
        self.app = app
        self.state = app.state  # serve_app reads the endpoint from here
        self.fault = fault

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def changed(message: dict[str, Any]) -> None:
            kind = message["type"]
            if kind == "http.response.start" and scope.get("method") == "POST":
                if self.fault == "200-for-202" and message["status"] == 202:
                    message = {**message, "status": 200}
                if self.fault == "no-connection-id" and message["status"] == 200:
                    headers = [(k, v) for k, v in message.get("headers", [])
                               if k.lower() != b"acp-connection-id"]
                    message = {**message, "headers": headers}
            get = kind == "http.response.start" and scope.get("method") == "GET"
            if get and self.fault == "200-for-406" and message["status"] == 406:
                message = {**message, "status": 200}
            if kind == "websocket.accept" and self.fault == "no-connection-id":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() != b"acp-connection-id"]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, changed)


@pytest.mark.slow
@pytest.mark.parametrize(("fault", "failing"), [
    ("200-for-202", {"RFD-HTTP-POST-202", "RFD-HTTP-SESSION-STREAM"}),  # the prompt's POST too
    ("200-for-406", {"RFD-HTTP-ACCEPT-406"}),
    ("no-connection-id", {"RFD-HTTP-INITIALIZE-200", "RFD-WS-UPGRADE"}),
])
def test_a_server_that_breaks_an_rfd_rule_fails_that_rule(fault: str, failing: set[str]) -> None:
    async def body() -> dict[str, tuple[str, str]]:
        async with served(Misbehaving(agent_app(EchoAgent, ServerOptions()), fault)) as url:
            return await run_rules(url, 5.0, "hello")

    results = asyncio.run(asyncio.wait_for(body(), GUARD))
    failed = {rule_id for rule_id, (status, _) in results.items() if status == "fail"}
    assert failing <= failed, results
    for rule_id in failing:
        assert results[rule_id][1], rule_id  # the failure says what it saw
    if fault != "no-connection-id":  # without the header, later HTTP rules cannot even start
        assert failed == failing, results


# -- the official Python SDK 1.0.0rc3's remote echo agent (opt-in) ------------------------------

from test_remote_interop import PEER, rc3_python  # noqa: F401  (its venv fixture)

# What the kit finds in rc3's remote echo agent (tests/remote_rc3_peer.py, rc3's own ASGI app
# under hypercorn), over each profile: the failure's words that name the request. Measured by
# hand too (raw httpx2 / websockets against the same server):
# - INIT-AGENT-SPECIFY-CAPABILITIES (roster, SHOULD): initialize answers
#   {"protocolVersion":1,"agentInfo":{...}}: rc3 serializes with exclude_defaults
#   (acp/utils.py serialize_params), so an agent whose capabilities are all off, as this one,
#   sends no agentCapabilities at all, on either profile.
# - JSONRPC-RESPONSE-REQUIRED (roster, MUST; JSON-RPC 2.0 answers a parse error with -32700
#   and an invalid request with -32600, id null): over WebSocket a text frame that is not JSON
#   (and {"foo": "bar"}, and an empty batch []) gets nothing, while the next request is
#   answered; over HTTP {"foo": "bar"} is POSTed 202 and nothing ever comes on any stream,
#   while the next request's answer does. (A POST body that is not JSON is 400
#   {"error":"Invalid JSON"} and a batch 501: refused by HTTP, no request left unanswered.)
# - RFD-HTTP-UNKNOWN-SESSION-404 ("An unknown Acp-Session-Id for the given connection returns
#   404"): a second connection opens GET (SSE) with the first connection's Acp-Session-Id and
#   rc3 answers 200, on either profile's run (the HTTP rules run with both).
RC3_FINDINGS: dict[str, dict[str, str]] = {
    "ACP-V1-INIT-AGENT-SPECIFY-CAPABILITIES": dict.fromkeys(("ws", "http"), "no agentCapabilities"),
    "ACP-V1-JSONRPC-RESPONSE-REQUIRED": {
        "ws": "no response (expected error -32700) to a line that is not JSON",
        "http": "no response (expected error -32600) to JSON that is no request",
    },
    "RFD-HTTP-UNKNOWN-SESSION-404": dict.fromkeys(
        ("ws", "http"), "GET (SSE) with another connection's Acp-Session-Id: 200, expected 404"),
}
