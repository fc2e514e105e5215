"""The RFD's transport rules, checked on a remote agent: a requirement group of its own.

The rules come from the RFD "Streamable HTTP & WebSocket Transport" (Active since July 2026),
each quoted. They are kept apart from the roster's requirements (which say what travels, not
how): their IDs start ``RFD-HTTP-`` (the Streamable HTTP profile) or ``RFD-WS-`` (the
WebSocket profile), and the report lists them in a section of their own.

Each rule opens what it needs on the endpoint (HTTP/2 clients the kit controls: one for the
requests, one per SSE stream, sharing their cookies, as the kit's peer does; a raw WebSocket)
and looks at status codes, headers, content types and which stream carries what.
Every wait is bounded by the kit's timeout. A server that speaks only WebSocket (the RFD allows
it) skips the ``RFD-HTTP-`` rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Self

from .outcome import CheckFailed, CheckNoted, CheckSkipped
from .remote_peer import (
    CONNECTION_HEADER,
    SESSION_HEADER,
    http2_client,
    http_url,
    import_remote_libraries,
    websocket_url,
)
from .scripted_client import ClientBehaviour
from .wire import decode_line

JSON = {"Content-Type": "application/json"}
SSE = {"Accept": "text/event-stream"}
KIT_INFO = {"name": "acpgen-conformance-kit", "version": "1.0.0"}
NO_SUCH = "acpgen-kit-no-such-id"


@dataclass(frozen=True)
class Rule:
    id: str
    quote: str  # the RFD's words, verbatim (tests/test_remote_kit.py holds them to its text)
    check: Callable[[Probe], Awaitable[None]]


def _request(req_id: int, method: str, params: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": req_id, "method": method, "params": params}).encode()


INITIALIZE = _request(
    1,
    "initialize",
    {"protocolVersion": 1, "clientCapabilities": {}, "clientInfo": KIT_INFO},
)


class Stream:
    """One SSE stream read in the background: its status, headers and JSON events."""

    def __init__(self) -> None:
        self.status_code = 0
        self.headers: dict[str, str] = {}
        self.events: asyncio.Queue[Any] = asyncio.Queue()
        self.ended = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def next_event(self, timeout: float, what: str) -> Any:
        try:
            return await asyncio.wait_for(self.events.get(), timeout)
        except TimeoutError:
            raise CheckFailed(f"no {what} on the stream within {timeout:g} s") from None

    async def until_response(
        self, req_id: int, timeout: float, answer: Answer | None = None
    ) -> tuple[list[Any], Any]:
        """(what came before, the response to ``req_id``); each request the agent makes on
        the way is handed to ``answer`` (a turn that asks for permission waits on it)."""
        before: list[Any] = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            event = await self.next_event(max(deadline - loop.time(), 0.0), f"answer to {req_id}")
            if isinstance(event, dict) and event.get("id") == req_id and "method" not in event:
                return before, event
            before.append(event)
            if answer is not None and is_request(event):
                await answer(event)


Answer = Callable[[dict[str, Any]], Awaitable[None]]


def is_request(event: Any) -> bool:
    return isinstance(event, dict) and isinstance(event.get("method"), str) and "id" in event


def answer_for(request: dict[str, Any]) -> dict[str, Any]:
    """The kit's answer to a request of the agent, as its stdio client gives it: permission
    with the default decision (the first allow option, else the first option), anything else
    -32601 (the probe advertises no client capability)."""
    behaviour = ClientBehaviour()
    frame = decode_line("in", json.dumps(request).encode(), 0.0)
    return behaviour.answer(frame) or {}


class Probe:
    """The endpoint, and what the rules open on it."""

    def __init__(
        self,
        url: str,
        timeout: float,
        prompt: str,
        permission_prompt: str | None = None,
        slow_prompt: str | None = None,
    ) -> None:
        self.http_url = http_url(url)
        self.ws_url = websocket_url(url)
        self.timeout = timeout
        self.prompt = prompt
        self.permission_prompt = permission_prompt
        self.slow_prompt = slow_prompt
        self.httpx2, self.ws_client, self.errors = import_remote_libraries()
        self.client: Any = None
        self.streams: list[Stream] = []
        self.http_refusal: str | None = None  # why the HTTP rules are skipped

    async def __aenter__(self) -> Self:
        self.streams = []
        self.client = http2_client(self.httpx2, self.timeout)
        return self

    async def __aexit__(self, *exc: object) -> None:
        for stream in self.streams:
            if stream.task is not None:
                stream.task.cancel()
        tasks = [s.task for s in self.streams if s.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=self.timeout)
        await self.client.aclose()

    async def request(self, method: str, headers: dict[str, str], body: bytes = b"") -> Any:
        try:
            return await asyncio.wait_for(
                self.client.request(method, self.http_url, headers=headers, content=body),
                self.timeout,
            )
        except TimeoutError:
            raise CheckFailed(f"{method} got no answer within {self.timeout:g} s") from None
        except self.httpx2.HTTPError as exc:
            raise CheckFailed(f"{method} failed: {type(exc).__name__}: {exc}") from None

    async def initialize(self) -> tuple[Any, str]:
        """A new HTTP connection: (the initialize response, its Acp-Connection-Id)."""
        if self.http_refusal is not None:
            raise CheckSkipped(self.http_refusal)
        try:
            response = await asyncio.wait_for(
                self.client.post(self.http_url, headers=JSON, content=INITIALIZE), self.timeout
            )
        except (TimeoutError, self.httpx2.HTTPError) as exc:
            self.http_refusal = f"the endpoint does not speak Streamable HTTP/2 ({exc!r})"
            raise CheckSkipped(self.http_refusal) from None
        if response.status_code in (404, 405):
            self.http_refusal = (
                f"POST initialize is {response.status_code}: the server speaks WebSocket only "
                "(the RFD allows it)"
            )
            raise CheckSkipped(self.http_refusal)
        return response, response.headers.get(CONNECTION_HEADER, "")

    async def connection(self) -> str:
        response, connection_id = await self.initialize()
        if response.status_code != 200 or not connection_id:
            raise CheckSkipped(
                f"no HTTP connection to check with (initialize: {response.status_code}, "
                f"{CONNECTION_HEADER}: {connection_id or 'none'})"
            )
        return connection_id

    async def open_stream(self, connection_id: str, session_id: str | None = None) -> Stream:
        headers = {**SSE, CONNECTION_HEADER: connection_id}
        if session_id is not None:
            headers[SESSION_HEADER] = session_id
        stream = Stream()
        opened = asyncio.get_running_loop().create_future()
        stream.task = asyncio.ensure_future(self._read(stream, headers, opened))
        self.streams.append(stream)
        try:
            await asyncio.wait_for(asyncio.shield(opened), self.timeout)
        except TimeoutError:
            raise CheckFailed(f"GET (SSE) got no answer within {self.timeout:g} s") from None
        return stream

    async def _read(self, stream: Stream, headers: dict[str, str], opened: Any) -> None:
        # A connection of its own (remote_peer's docstring says why), the requests' cookies.
        client = http2_client(self.httpx2, self.timeout, self.client.cookies.jar)
        try:
            async with client, client.stream("GET", self.http_url, headers=headers) as response:
                stream.status_code = response.status_code
                stream.headers = {k.lower(): v for k, v in response.headers.items()}
                opened.set_result(None)
                if response.status_code != 200:
                    return
                async for event in self.httpx2.EventSource(response):
                    if event.data:
                        with contextlib.suppress(ValueError):
                            await stream.events.put(json.loads(event.data))
        except self.errors:  # the stream broke: the rules see it ended, as when it ends
            stream.ended.set()
        finally:
            if not opened.done():
                opened.set_result(None)
            stream.ended.set()

    async def new_session(self, connection_id: str, stream: Stream) -> str:
        body = _request(2, "session/new", {"cwd": "/", "mcpServers": []})
        response = await self.request("POST", {**JSON, CONNECTION_HEADER: connection_id}, body)
        if response.status_code not in (200, 202):
            raise CheckSkipped(f"session/new was refused ({response.status_code})")
        _, answer = await stream.until_response(2, self.timeout)
        session_id = (answer.get("result") or {}).get("sessionId")
        if not isinstance(session_id, str):
            raise CheckSkipped(f"session/new gave no session: {answer}")
        return session_id

    async def session(self) -> tuple[str, Stream, str]:
        """(connection id, its connection-scoped stream, a new session id)."""
        connection_id = await self.connection()
        stream = await self.open_stream(connection_id)
        if stream.status_code != 200:
            raise CheckSkipped(f"the connection-scoped stream was refused ({stream.status_code})")
        return connection_id, stream, await self.new_session(connection_id, stream)

    def prompt_body(self, req_id: int, session_id: str, prompt: str | None = None) -> bytes:
        text = self.prompt if prompt is None else prompt
        params = {"sessionId": session_id, "prompt": [{"type": "text", "text": text}]}
        return _request(req_id, "session/prompt", params)

    @contextlib.asynccontextmanager
    async def websocket(self) -> AsyncIterator[Any]:
        try:
            socket = await self.ws_client.connect(
                self.ws_url, open_timeout=self.timeout, compression=None
            )
        except self.errors as exc:
            raise CheckFailed(f"the WebSocket upgrade failed: {exc}") from None
        try:
            yield socket
        finally:
            with contextlib.suppress(*self.errors):
                await asyncio.wait_for(socket.close(), self.timeout)


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def status_is(response: Any, expected: int, what: str) -> None:
    expect(
        response.status_code == expected,
        f"{what}: {response.status_code}, expected {expected}",
    )


# -- the rules --------------------------------------------------------------------------------


async def initialize_200(probe: Probe) -> None:
    response, connection_id = await probe.initialize()
    status_is(response, 200, "POST initialize")
    expect(bool(connection_id), f"POST initialize: no {CONNECTION_HEADER} header")
    kind = response.headers.get("content-type", "").split(";")[0].strip()
    expect(kind == "application/json", f"POST initialize: Content-Type {kind!r}")
    try:
        body = json.loads(response.content)
    except ValueError:
        raise CheckFailed(f"POST initialize: the body is not JSON: {response.content[:80]!r}")
    expect(
        isinstance(body, dict) and body.get("id") == 1 and "result" in body,
        f"POST initialize: the body is not the answer to it: {response.content[:160]!r}",
    )


async def http2(probe: Probe) -> None:
    response, _ = await probe.initialize()
    expect(response.http_version == "HTTP/2", f"answered over {response.http_version}")


async def post_202(probe: Probe) -> None:
    connection_id = await probe.connection()
    stream = await probe.open_stream(connection_id)
    body = _request(2, "session/new", {"cwd": "/", "mcpServers": []})
    response = await probe.request("POST", {**JSON, CONNECTION_HEADER: connection_id}, body)
    status_is(response, 202, "POST session/new")
    expect(not response.content, f"POST session/new: a 202 with a body: {response.content[:80]!r}")
    del stream


async def connection_stream(probe: Probe) -> None:
    connection_id = await probe.connection()
    stream = await probe.open_stream(connection_id)
    status_is(stream, 200, "GET (connection-scoped stream)")
    kind = stream.headers.get("content-type", "").split(";")[0].strip()
    expect(kind == "text/event-stream", f"GET (connection-scoped stream): Content-Type {kind!r}")
    await probe.new_session(connection_id, stream)  # its answer came on this stream


async def session_stream(probe: Probe) -> None:
    """Each turn's updates, the agent's requests (answered as on stdio: permission with the
    kit's default decision) and the turn's answer on the session-scoped stream; with a slow
    prompt, a turn cancelled while it ran (session/cancel POSTed on the session) too."""
    connection_id, stream, session_id = await probe.session()
    scoped = await probe.open_stream(connection_id, session_id)
    status_is(scoped, 200, "GET (session-scoped stream)")
    headers = {**JSON, CONNECTION_HEADER: connection_id, SESSION_HEADER: session_id}
    asked: list[str] = []

    async def answer(request: dict[str, Any]) -> None:
        reply = answer_for(request)
        response = await probe.request("POST", headers, json.dumps(reply).encode())
        status_is(response, 202, f"POST of the answer to {request.get('method')}")
        asked.append(
            f"{request.get('method')} (answered {json.dumps(reply.get('result', reply.get('error')))})"
        )

    prompts = [probe.prompt]
    if probe.permission_prompt and probe.permission_prompt not in prompts:
        prompts.append(probe.permission_prompt)
    seen = []
    for req_id, prompt in enumerate(prompts, start=3):
        response = await probe.request(
            "POST", headers, probe.prompt_body(req_id, session_id, prompt)
        )
        status_is(response, 202, "POST session/prompt")
        before, done = await scoped.until_response(req_id, probe.timeout * 6, answer)
        updates = [e for e in before if isinstance(e, dict) and e.get("method") == "session/update"]
        expect(
            bool(updates) or bool(asked),
            f"the updates of the turn {prompt!r} did not come on the session-scoped stream",
        )
        expect("result" in done, f"session/prompt {prompt!r}: {done}")
        seen.append(f"{prompt!r}: {len(updates)} updates and its answer")
    if probe.slow_prompt:
        seen.append(await _cancelled_turn(probe, scoped, headers, session_id, answer))
    expect(stream.events.empty(), "a message of the session came on the connection-scoped stream")
    if asked:
        seen.append("the agent's requests " + ", ".join(asked))
    raise CheckNoted("on the session-scoped stream: " + "; ".join(seen))


async def _cancelled_turn(
    probe: Probe, scoped: Stream, headers: dict[str, str], session_id: str, answer: Answer
) -> str:
    """The slow prompt, cancelled once the turn showed it runs (its first message on the
    session stream): the cancel POSTed with the session's headers (202), the turn's answer on
    the session stream."""
    req_id = 90
    prompt = probe.slow_prompt or ""
    response = await probe.request("POST", headers, probe.prompt_body(req_id, session_id, prompt))
    status_is(response, 202, "POST session/prompt (the slow prompt)")
    first = await scoped.next_event(probe.timeout, f"message of the turn {prompt!r}")
    if is_request(first):
        await answer(first)
    cancel = {"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": session_id}}
    response = await probe.request("POST", headers, json.dumps(cancel).encode())
    status_is(response, 202, "POST session/cancel")
    if isinstance(first, dict) and first.get("id") == req_id and "method" not in first:
        return f"{prompt!r} ended before its cancel: {first}"
    _before, done = await scoped.until_response(req_id, probe.timeout * 6, answer)
    expect("result" in done or "error" in done, f"the cancelled turn's answer: {done}")
    return f"{prompt!r} cancelled while it ran, its answer {json.dumps(done.get('result', done.get('error')))}"


async def content_type_415(probe: Probe) -> None:
    response = await probe.request("POST", {"Content-Type": "text/plain"}, INITIALIZE)
    if probe.http_refusal is None and response.status_code in (404, 405):
        raise CheckSkipped("the server speaks WebSocket only (the RFD allows it)")
    status_is(response, 415, "POST with Content-Type text/plain")


async def accept_406(probe: Probe) -> None:
    connection_id = await probe.connection()
    headers = {"Accept": "application/json", CONNECTION_HEADER: connection_id}
    status_is(await probe.request("GET", headers), 406, "GET without text/event-stream")


async def missing_connection_400(probe: Probe) -> None:
    await probe.connection()
    body = _request(2, "session/new", {"cwd": "/", "mcpServers": []})
    status_is(await probe.request("POST", JSON, body), 400, "POST session/new without the header")
    status_is(await probe.request("GET", SSE), 400, "GET (SSE) without the header")
    status_is(await probe.request("DELETE", {}), 400, "DELETE without the header")


async def unknown_connection_404(probe: Probe) -> None:
    await probe.connection()
    unknown = {CONNECTION_HEADER: NO_SUCH}
    body = _request(2, "session/new", {"cwd": "/", "mcpServers": []})
    status_is(await probe.request("POST", {**JSON, **unknown}, body), 404, "POST, unknown id")
    status_is(await probe.request("GET", {**SSE, **unknown}), 404, "GET (SSE), unknown id")


async def missing_session_400(probe: Probe) -> None:
    connection_id, _stream, session_id = await probe.session()
    headers = {**JSON, CONNECTION_HEADER: connection_id}
    response = await probe.request("POST", headers, probe.prompt_body(3, session_id))
    status_is(response, 400, f"POST session/prompt without {SESSION_HEADER}")


async def unknown_session_404(probe: Probe) -> None:
    connection_id, _stream, session_id = await probe.session()
    made_up = await probe.open_stream(connection_id, NO_SUCH)
    status_is(made_up, 404, "GET (SSE) with an unknown Acp-Session-Id")
    # Another connection's session is unknown to this one (the session/connection scoping);
    # the other connection is another client's, on an HTTP/2 connection of its own.
    async with Probe(probe.http_url, probe.timeout, probe.prompt) as other:
        other_id, _other_stream, _ = await other.session()
        foreign = await other.open_stream(other_id, session_id)
        status_is(foreign, 404, "GET (SSE) with another connection's Acp-Session-Id")
        headers = {**JSON, CONNECTION_HEADER: other_id, SESSION_HEADER: session_id}
        response = await other.request("POST", headers, other.prompt_body(4, session_id))
        status_is(response, 404, "POST session/prompt with another connection's Acp-Session-Id")


async def batch_501(probe: Probe) -> None:
    connection_id = await probe.connection()
    body = b"[" + _request(2, "session/new", {"cwd": "/", "mcpServers": []}) + b"]"
    response = await probe.request("POST", {**JSON, CONNECTION_HEADER: connection_id}, body)
    status_is(response, 501, "POST of a batch")


async def delete_202(probe: Probe) -> None:
    connection_id = await probe.connection()
    stream = await probe.open_stream(connection_id)
    response = await probe.request("DELETE", {CONNECTION_HEADER: connection_id})
    status_is(response, 202, "DELETE")
    try:
        await asyncio.wait_for(stream.ended.wait(), probe.timeout)
    except TimeoutError:
        raise CheckFailed(f"the GET stream stayed open {probe.timeout:g} s after DELETE") from None
    body = _request(2, "session/new", {"cwd": "/", "mcpServers": []})
    after = await probe.request("POST", {**JSON, CONNECTION_HEADER: connection_id}, body)
    status_is(after, 404, "POST on the deleted connection")


async def websocket_upgrade(probe: Probe) -> None:
    async with probe.websocket() as socket:
        response = socket.response
        expect(response.status_code == 101, f"the upgrade answered {response.status_code}")
        expect(
            bool(response.headers.get(CONNECTION_HEADER)),
            f"no {CONNECTION_HEADER} header on the upgrade response",
        )


async def websocket_text_frames(probe: Probe) -> None:
    async with probe.websocket() as socket:
        await socket.send(INITIALIZE)  # bytes: a binary frame, which the server ignores
        await socket.send(INITIALIZE.decode())
        try:
            answer = await asyncio.wait_for(socket.recv(), probe.timeout)
        except TimeoutError:
            raise CheckFailed(f"initialize got no answer within {probe.timeout:g} s") from None
        except probe.errors as exc:
            raise CheckFailed(f"the socket closed after a binary frame: {exc}") from None
        expect(isinstance(answer, str), "initialize was answered in a binary frame")
        message = json.loads(answer)
        expect(message.get("id") == 1 and "result" in message, f"the first answer: {answer[:160]}")
        with contextlib.suppress(TimeoutError):
            extra = await asyncio.wait_for(socket.recv(), 0.3)
            raise CheckFailed(f"the binary frame was answered: {str(extra)[:160]}")


RULES: tuple[Rule, ...] = (
    Rule(
        "RFD-HTTP-INITIALIZE-200",
        "The `initialize` request is special: it returns `200 OK` with a JSON response body "
        "containing capabilities and the `Acp-Connection-Id`. The `Acp-Connection-Id` is also "
        "included in the response header.",
        initialize_200,
    ),
    Rule("RFD-HTTP-HTTP2", "HTTP/2 is **REQUIRED** for Streamable HTTP transport.", http2),
    Rule(
        "RFD-HTTP-POST-202",
        "Most POST requests return `202 Accepted` immediately with an empty body.",
        post_202,
    ),
    Rule(
        "RFD-HTTP-CONNECTION-STREAM",
        "The **connection-scoped stream** (scoped to `Acp-Connection-Id`) carries "
        "connection-level messages: responses to `session/new` and `session/load`",
        connection_stream,
    ),
    Rule(
        "RFD-HTTP-SESSION-STREAM",
        "The **session-scoped stream** (scoped to `Acp-Connection-Id` + `Acp-Session-Id`) "
        "carries all messages for a single session: session update notifications, "
        "server-to-client requests like `request_permission`, and responses to session-scoped "
        "POSTs like `session/prompt` and `session/cancel`.",
        session_stream,
    ),
    Rule(
        "RFD-HTTP-CONTENT-TYPE-415",
        "POST `Content-Type` **MUST** be `application/json` (415 otherwise).",
        content_type_415,
    ),
    Rule(
        "RFD-HTTP-ACCEPT-406",
        "GET `Accept` **MUST** include `text/event-stream` (406 otherwise).",
        accept_406,
    ),
    Rule(
        "RFD-HTTP-MISSING-CONNECTION-400",
        "No Acp-Connection-Id? → 400 Bad Request",
        missing_connection_400,
    ),
    Rule(
        "RFD-HTTP-UNKNOWN-CONNECTION-404",
        "Unknown Acp-Connection-Id? → 404 Not Found",
        unknown_connection_404,
    ),
    Rule(
        "RFD-HTTP-MISSING-SESSION-400",
        "POST requests for session-scoped operations **MUST** include both `Acp-Connection-Id` "
        "and `Acp-Session-Id` headers.",
        missing_session_400,
    ),
    Rule(
        "RFD-HTTP-UNKNOWN-SESSION-404",
        "An unknown `Acp-Session-Id` for the given connection returns 404.",
        unknown_session_404,
    ),
    Rule("RFD-HTTP-BATCH-501", "Batch JSON-RPC requests return 501.", batch_501),
    Rule(
        "RFD-HTTP-DELETE-202",
        "Has Acp-Connection-Id? → Terminate connection and all associated sessions, return 202",
        delete_202,
    ),
    Rule(
        "RFD-WS-UPGRADE",
        "A new connection is created on upgrade. The `Acp-Connection-Id` is returned in the "
        "upgrade response headers.",
        websocket_upgrade,
    ),
    Rule(
        "RFD-WS-TEXT-FRAMES",
        "All messages are WebSocket text frames containing JSON-RPC. Binary frames are ignored.",
        websocket_text_frames,
    ),
)


async def run_rules(
    url: str,
    timeout: float,
    prompt: str,
    permission_prompt: str | None = None,
    slow_prompt: str | None = None,
) -> dict[str, tuple[str, str]]:
    """Each rule's (status, message): ``pass`` (its message a note on what it saw, or empty),
    ``fail`` or ``skipped``."""
    results: dict[str, tuple[str, str]] = {}
    probe = Probe(url, timeout, prompt, permission_prompt, slow_prompt)
    for rule in RULES:
        async with probe:
            try:
                await rule.check(probe)
            except CheckSkipped as exc:
                results[rule.id] = ("skipped", str(exc))
            except CheckFailed as exc:
                results[rule.id] = ("fail", str(exc))
            except CheckNoted as exc:
                results[rule.id] = ("pass", str(exc))
            else:
                results[rule.id] = ("pass", "")
    return results
