"""The remote server against hostile clients: each rule of issue 41 as an attack that must fail.

Every test runs a real server (hypercorn, the generated endpoint, on a free loopback port)
and attacks it from outside, as a client would: raw TCP (HTTP/1.1 written by hand), raw
HTTP/2 (the ``h2`` library, frame by frame), raw WebSocket frames, and httpx2/websockets for
what a well-behaved client sends. Nothing here reads the server's internals: what a test
asserts is what a client sees (statuses, bodies, close codes) and what an operator sees (the
server's log, its memory and descriptors). A timeout or grace under test is set small and
the test waits for what its expiry causes (an answer, a close, the server's log line), never
for a time.

The attacks, by rule (issue 41): a failed attach leaves no claim; no unbounded work before a
limit (compression, partial messages); fairness under a flood (a share per peer and per
principal, unused connections reclaimed early); a dropped Streamable HTTP connection ends
after a grace so its sessions resume; request bodies time out and count against the limits;
every request answered once even when its id cannot be echoed; one-line rate-limited logs;
``Host`` checked and a wrong path answered 404 with a hint. Then what held already and must
go on holding: Origin variants, scoping across connections and principals, limits, malformed
JSON-RPC, the bearer token, faults in the agent.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import importlib
import itertools
import json
import logging
import os
import re
import struct
import subprocess
import sys
import textwrap
import threading
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, ClassVar
from urllib.parse import urlsplit

import h2.config
import h2.connection
import h2.events
import httpx2
import pytest
import websockets
from conftest import generated_dir
from websockets.asyncio.client import connect as ws_connect

GENERATED = generated_dir()  # generated now into a temporary directory, importable

from acp_v1 import PROTOCOL_VERSION, Client, models
from acp_v1.examples.echo_agent import EchoAgent, RemoteEchoAgent
from acp_v1.remote import ServerOptions, agent_app, connect_to_remote_agent, serve_app

GUARD = 30.0  # seconds: no test waits longer for anything
STEP = 8.0  # seconds: what one expected event may take on a loaded machine
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": 1, "clientCapabilities": {}}}
NEW = {"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/", "mcpServers": []}}
JSON = {"Content-Type": "application/json"}
SSE = {"Accept": "text/event-stream"}
OTHER_PEER = "127.0.0.2"  # a second loopback address: another peer to the server


def run(body: Callable[[], Awaitable[None]], guard: float = GUARD) -> None:
    asyncio.run(asyncio.wait_for(body(), guard))


@contextlib.asynccontextmanager
async def serving(factory: Callable[[], Any] = EchoAgent, **options: Any) -> AsyncIterator[str]:
    """A server on a free loopback port, with these options; its http:// URL."""
    app = agent_app(factory, ServerOptions(**options))
    url: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(serve_app(app, port=0, ready=url.set_result, shutdown=stop.wait))
    try:
        await asyncio.wait({url, task}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            task.result()  # it failed to start: say why
        yield url.result()
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


def ws(url: str) -> str:
    return "ws" + url[4:]


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


def rpc(id_: Any, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params}


def prompt(text: str) -> list[Any]:
    return [models.ContentBlockText(text=text)]


class Recorder(Client):
    """Keeps every streamed text chunk."""

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.user_chunks: list[str] = []

    async def session_update(self, params: models.SessionNotification) -> None:
        update = params.update
        if isinstance(update, models.SessionUpdateAgentMessageChunk) and isinstance(
                update.content, models.ContentBlockText):
            self.chunks.append(update.content.text)
        if isinstance(update, models.SessionUpdateUserMessageChunk) and isinstance(
                update.content, models.ContentBlockText):
            self.user_chunks.append(update.content.text)


async def initialized(conn: Any) -> None:
    await conn.initialize(protocol_version=PROTOCOL_VERSION,
                          client_capabilities=models.ClientCapabilities())


class LogWatch(logging.Handler):
    """Every record the process logs while it is installed (the server runs in this process),
    and a wait for the first record whose message holds a text."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self._waits: list[tuple[str, asyncio.Future[logging.LogRecord]]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        message = record.getMessage()
        for text, future in self._waits:
            if not future.done() and text in message:
                future.set_result(record)

    def count(self, text: str) -> int:
        return sum(text in r.getMessage() for r in self.records)

    async def wait(self, text: str, count: int = 1) -> None:
        """Until ``count`` records hold ``text`` (within STEP seconds, else the test fails)."""
        while self.count(text) < count:
            future: asyncio.Future[logging.LogRecord] = asyncio.get_running_loop().create_future()
            self._waits.append((text, future))
            try:
                await asyncio.wait_for(future, STEP)
            finally:
                self._waits.remove((text, future))

    def lines(self, level: int = logging.INFO) -> list[str]:
        """Each record at ``level`` or above as the default handler would print it."""
        formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
        return [formatter.format(r) for r in self.records if r.levelno >= level]


@contextlib.contextmanager
def watching(level: int = logging.INFO) -> Any:
    """A :class:`LogWatch` on the root logger (every library's records reach it)."""
    watch = LogWatch()
    root = logging.getLogger()
    previous = root.level
    root.addHandler(watch)
    root.setLevel(level)
    try:
        yield watch
    finally:
        root.removeHandler(watch)
        root.setLevel(previous)


# -- raw clients: HTTP/1.1 by hand, HTTP/2 frame by frame, WebSocket frames --------------------


async def http1(url: str, head: str, body: bytes = b"",
                local: str | None = None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection with ``head`` (request line and headers, CRLF added) and ``body``
    written, nothing more: the rest of the request is the test's to send, or never."""
    host, port = address(url)
    reader, writer = await asyncio.open_connection(
        host, port, local_addr=(local, 0) if local else None)
    lines = head.strip().splitlines()
    writer.write(("\r\n".join(line.strip() for line in lines) + "\r\n\r\n").encode() + body)
    await writer.drain()
    return reader, writer


async def http1_status(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body (up to its Content-Length, or to the end) of a response."""
    line = await asyncio.wait_for(reader.readline(), STEP)
    assert line.startswith(b"HTTP/1."), line
    status = int(line.split()[1])
    headers: dict[str, str] = {}
    while (header := await asyncio.wait_for(reader.readline(), STEP)) not in (b"\r\n", b""):
        name, _, value = header.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), STEP)
    elif headers.get("transfer-encoding") == "chunked":
        body = b""
        while (size := int((await asyncio.wait_for(reader.readline(), STEP)).strip(), 16)):
            body += await reader.readexactly(size + 2)
            body = body[:-2]
    else:
        body = await asyncio.wait_for(reader.read(), STEP)
    return status, headers, body


class H2:
    """A client HTTP/2 connection driven frame by frame (prior knowledge, cleartext)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        self.reader, self.writer = reader, writer
        self.responses: dict[int, dict[str, Any]] = {}
        self.closed = asyncio.Event()
        self.conn.initiate_connection()
        self._flush()
        self._task = asyncio.ensure_future(self._read())

    @classmethod
    async def open(cls, url: str, local: str | None = None) -> H2:
        host, port = address(url)
        reader, writer = await asyncio.open_connection(
            host, port, local_addr=(local, 0) if local else None)
        return cls(reader, writer)

    def _flush(self) -> None:
        data = self.conn.data_to_send()
        if data and not self.writer.is_closing():
            self.writer.write(data)

    def _record(self, stream_id: int) -> dict[str, Any]:
        return self.responses.setdefault(
            stream_id, {"status": None, "headers": {}, "body": b"", "head": asyncio.Event(),
                        "data": asyncio.Event(), "done": asyncio.Event(), "reset": False})

    async def _read(self) -> None:
        try:
            while data := await self.reader.read(65536):
                for event in self.conn.receive_data(data):
                    stream_id = getattr(event, "stream_id", 0)
                    if isinstance(event, h2.events.ResponseReceived):
                        record = self._record(stream_id)
                        headers = {k.decode(): v.decode() for k, v in event.headers}
                        record["status"], record["headers"] = int(headers[":status"]), headers
                        record["head"].set()
                    elif isinstance(event, h2.events.DataReceived):
                        record = self._record(stream_id)
                        record["body"] += event.data
                        record["data"].set()
                        self.conn.acknowledge_received_data(event.flow_controlled_length,
                                                            stream_id)
                    elif isinstance(event, h2.events.StreamEnded):
                        self._record(stream_id)["done"].set()
                    elif isinstance(event, h2.events.StreamReset):
                        record = self._record(stream_id)
                        record["reset"] = True
                        record["done"].set()
                    elif isinstance(event, h2.events.ConnectionTerminated):
                        return
                self._flush()
        except (ConnectionError, h2.exceptions.ProtocolError):
            pass
        finally:
            self.closed.set()
            for record in self.responses.values():
                record["head"].set()
                record["done"].set()

    def request(self, method: str, url: str, headers: dict[str, str] | None = None,
                body: bytes | None = None, end: bool = True) -> int:
        """Send a request's headers, and ``body`` when given; END_STREAM when ``end``."""
        parts = urlsplit(url)
        stream_id = self.conn.get_next_available_stream_id()
        self._record(stream_id)
        fields = [(":method", method), (":scheme", "http"), (":authority", parts.netloc),
                  (":path", parts.path or "/"), *(headers or {}).items()]
        self.conn.send_headers(stream_id, fields, end_stream=end and body is None)
        if body is not None:
            self.conn.send_data(stream_id, body, end_stream=end)
        self._flush()
        return stream_id

    def send(self, stream_id: int, data: bytes, end: bool = False) -> None:
        self.conn.send_data(stream_id, data, end_stream=end)
        self._flush()

    def reset(self, stream_id: int) -> None:
        self.conn.reset_stream(stream_id)
        self._flush()

    async def head(self, stream_id: int) -> int:
        await asyncio.wait_for(self.responses[stream_id]["head"].wait(), STEP)
        status = self.responses[stream_id]["status"]
        assert status is not None, "the connection closed before the response"
        return int(status)

    async def response(self, stream_id: int) -> tuple[int, dict[str, str], bytes]:
        record = self.responses[stream_id]
        await asyncio.wait_for(record["done"].wait(), STEP)
        assert record["status"] is not None, "the connection closed before the response"
        return record["status"], record["headers"], record["body"]

    async def aclose(self) -> None:
        self._task.cancel()
        with contextlib.suppress(BaseException):
            await self._task
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()


def ws_frame(payload: bytes, opcode: int = 1, fin: bool = True, rsv1: bool = False) -> bytes:
    """One client frame (masked, with a zero key: the payload goes as it is)."""
    first = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
    size = len(payload)
    if size < 126:
        length = struct.pack("!B", 0x80 | size)
    elif size < 1 << 16:
        length = struct.pack("!BH", 0x80 | 126, size)
    else:
        length = struct.pack("!BQ", 0x80 | 127, size)
    return bytes([first]) + length + b"\x00\x00\x00\x00" + payload


async def ws_handshake(url: str, extensions: str | None = None, path: str | None = None,
                       ) -> tuple[int, dict[str, str], asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = address(url)
    offer = f"Sec-WebSocket-Extensions: {extensions}\n" if extensions else ""
    reader, writer = await http1(url, f"""
        GET {path or urlsplit(url).path} HTTP/1.1
        Host: {host}:{port}
        Upgrade: websocket
        Connection: Upgrade
        Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==
        Sec-WebSocket-Version: 13
        {offer}""")
    line = await asyncio.wait_for(reader.readline(), STEP)
    status = int(line.split()[1])
    headers: dict[str, str] = {}
    while (header := await asyncio.wait_for(reader.readline(), STEP)) not in (b"\r\n", b""):
        name, _, value = header.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, reader, writer


async def ws_close_code(reader: asyncio.StreamReader) -> int | None:
    """The code of the server's close frame (frames before it skipped); None: the socket
    ended without one."""
    while True:
        try:
            first, second = await asyncio.wait_for(reader.readexactly(2), STEP)
        except asyncio.IncompleteReadError:
            return None
        size = second & 0x7F
        if size == 126:
            size = struct.unpack("!H", await reader.readexactly(2))[0]
        elif size == 127:
            size = struct.unpack("!Q", await reader.readexactly(8))[0]
        payload = await reader.readexactly(size)
        if first & 0x0F == 8:
            return int(struct.unpack("!H", payload[:2])[0]) if len(payload) >= 2 else None


@functools.cache
def deflate_bomb() -> bytes:
    """200 MiB of zeros deflated (raw, as permessage-deflate sends it): about 199 KiB."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = bytes(1 << 20)
    data = b"".join(deflate.compress(chunk) for _ in range(200))
    return data + deflate.flush(zlib.Z_SYNC_FLUSH)[:-4]  # RFC 7692: the tail is left off


class NumberingAgent(RemoteEchoAgent):
    """An agent that numbers its sessions (``n-0``, ``n-1``: rc3's example does), so that an
    id a client asks for before it exists is the one the agent hands someone later."""

    def __init__(self, transcripts: dict[str, list[tuple[str, str]]],
                 numbers: itertools.count[int]) -> None:
        super().__init__(transcripts)
        self._numbers = numbers

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        session_id = f"n-{next(self._numbers)}"
        self._cancelled[session_id] = asyncio.Event()
        self._transcripts[session_id] = []  # type: ignore[index]
        return models.NewSessionResponse(session_id=session_id)


@contextlib.asynccontextmanager
async def sse(url: str, headers: dict[str, str]) -> AsyncIterator[asyncio.Queue[dict[str, Any]]]:
    """An SSE stream opened on a connection of its own (200 asserted): its messages, in a
    queue, as they come."""
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    opened: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def read() -> None:
        async with httpx2.AsyncClient(http2=True, http1=False) as http, \
                http.stream("GET", url, headers={**SSE, **headers}) as response:
            opened.set_result(response.status_code)
            async for event in httpx2.EventSource(response):
                queue.put_nowait(json.loads(event.data))

    task = asyncio.ensure_future(read())
    try:
        await asyncio.wait({opened, task}, timeout=STEP, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            task.result()
        assert opened.result() == 200
        yield queue
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task


async def next_message(queue: asyncio.Queue[dict[str, Any]]) -> dict[str, Any]:
    return await asyncio.wait_for(queue.get(), STEP)


async def flood(url: str, count: int) -> list[tuple[int, str | None]]:
    """``count`` initialize POSTs at once from this peer (HTTP/2, a new connection every 500:
    hypercorn ends one after 1,000 requests): each one's status and Retry-After."""
    results: list[tuple[int, str | None]] = []
    for start in range(0, count, 500):
        async with httpx2.AsyncClient(http2=True, http1=False) as http:
            async def one() -> tuple[int, str | None]:
                answer = await http.post(url, json=INIT, headers=JSON)
                return answer.status_code, answer.headers.get("retry-after")

            results += await asyncio.gather(*(one() for _ in range(min(500, count - start))))
    return results


# -- 1. a session id belongs to whoever created or took it; a failed attach claims nothing ------


@pytest.mark.parametrize("profile", ["http", "websocket"])
def test_a_failed_load_leaves_no_claim_on_an_id_the_agent_later_gives_someone_else(
        profile: str) -> None:
    numbers = itertools.count()
    transcripts: dict[str, list[tuple[str, str]]] = {}
    load = rpc(1, "session/load", sessionId="n-0", cwd="/", mcpServers=[])
    ask = rpc(2, "session/prompt", sessionId="n-0",
              prompt=[{"type": "text", "text": "not yours"}])

    async def body() -> None:
        async with serving(lambda: NumberingAgent(transcripts, numbers)) as url:
            owner = Recorder()
            if profile == "websocket":
                async with ws_connect(ws(url)) as squatter:
                    await squatter.send(json.dumps(INIT))
                    await squatter.recv()
                    await squatter.send(json.dumps(load))  # n-0 does not exist yet
                    failed = json.loads(await squatter.recv())
                    assert failed["id"] == 1 and failed["error"]["code"] == -32002
                    async with connect_to_remote_agent(owner, url) as conn:
                        await initialized(conn)
                        assert (await conn.session_new(cwd="/", mcp_servers=[])).session_id == "n-0"
                        await squatter.send(json.dumps(ask))
                        refused = json.loads(await squatter.recv())
                        assert refused["id"] == 2 and refused["error"]["code"] == -32002
                        done = await conn.session_prompt(session_id="n-0", prompt=prompt("mine"))
                        assert done.stop_reason == models.StopReason.END_TURN
                assert owner.chunks == ["mine"]  # the squatter's prompt never ran
                return
            async with httpx2.AsyncClient(http2=True, http1=False) as http:
                answer = await http.post(url, json=INIT, headers=JSON)
                conn_header = {"Acp-Connection-Id": answer.headers["acp-connection-id"]}
                async with sse(url, conn_header) as messages:
                    accepted = await http.post(url, json=load, headers={**JSON, **conn_header})
                    assert accepted.status_code == 202
                    failed = await next_message(messages)
                    assert failed["id"] == 1 and failed["error"]["code"] == -32002
                    async with connect_to_remote_agent(owner, url) as conn:
                        await initialized(conn)
                        assert (await conn.session_new(cwd="/", mcp_servers=[])).session_id == "n-0"
                        scoped = {**conn_header, "Acp-Session-Id": "n-0"}
                        assert (await http.get(url, headers={**SSE, **scoped})).status_code == 404
                        refused = await http.post(url, json=ask, headers={**JSON, **scoped})
                        assert refused.status_code == 404
                        done = await conn.session_prompt(session_id="n-0", prompt=prompt("mine"))
                        assert done.stop_reason == models.StopReason.END_TURN
                assert owner.chunks == ["mine"]

    run(body)


def test_a_detached_session_is_resumed_by_its_principal_only() -> None:
    """Holds already: after its connection ends, only the same principal's load resumes it."""
    transcripts: dict[str, list[tuple[str, str]]] = {}

    async def check(token: str | None) -> str | None:
        return token if token in ("alice", "bob") else None

    async def body() -> None:
        async with serving(lambda: RemoteEchoAgent(transcripts), token_check=check) as url:
            async with connect_to_remote_agent(Recorder(), ws(url), token="alice") as first:
                await initialized(first)
                session = (await first.session_new(cwd="/", mcp_servers=[])).session_id
                await first.session_prompt(session_id=session, prompt=prompt("alice's"))
            load = rpc(1, "session/load", sessionId=session, cwd="/", mcpServers=[])
            async with ws_connect(ws(url), additional_headers={"Authorization": "Bearer bob"}
                                  ) as bob:
                await bob.send(json.dumps(INIT))
                await bob.recv()
                await bob.send(json.dumps(load))
                refused = json.loads(await bob.recv())
                assert refused["id"] == 1 and refused["error"]["code"] == -32002
            alice = Recorder()
            async with connect_to_remote_agent(alice, url, token="alice") as again:
                await initialized(again)
                await again.session_load(session_id=session, cwd="/", mcp_servers=[])
            assert alice.user_chunks == ["alice's"]

    run(body)


# -- 2. bounded work before a limit applies ------------------------------------------------------


def test_permessage_deflate_is_not_negotiated_and_a_compressed_frame_is_refused_unread() -> None:
    async def body() -> None:
        async with serving() as url:
            async with ws_connect(ws(url), compression="deflate") as socket:  # offers it
                assert socket.response is not None
                assert "sec-websocket-extensions" not in socket.response.headers
                await socket.send(json.dumps(INIT))
                assert json.loads(await socket.recv())["id"] == 0
            # A client that compresses all the same: one frame of 199 KiB that would inflate
            # to 200 MiB. Without the extension, a frame with RSV1 is a protocol error.
            status, headers, reader, writer = await ws_handshake(
                url, "permessage-deflate; client_max_window_bits")
            assert status == 101 and "sec-websocket-extensions" not in headers
            writer.write(ws_frame(deflate_bomb(), rsv1=True))
            # Closed unread: a close frame saying 1002 (protocol error), or none (wsproto
            # leaves the socket closed without one after a frame it cannot parse).
            assert await ws_close_code(reader) in (1002, None)
            writer.close()
            async with connect_to_remote_agent(Recorder(), ws(url)) as conn:  # others served
                await initialized(conn)

    run(body)


async def _fragments(first: str, sent: asyncio.Event, more: asyncio.Event,
                     last: str) -> AsyncIterator[str]:
    yield first
    sent.set()
    await more.wait()
    yield last


def test_partial_messages_of_all_connections_share_one_budget_and_a_peer_holds_its_share() -> None:
    """A WebSocket message in fragments and a request body being read are charged to one
    budget (here 100 kB), of which one peer holds one largest message (here 70 kB) at most:
    past its share a peer's second fragment closes its socket (1009) while another peer's is
    read; past the total a body is refused (503, Retry-After); once a message is whole, its
    bytes are free again."""

    async def fragment(url: str, size: int, local: str | None = None) -> tuple[
            Any, asyncio.Future[None], asyncio.Event]:
        """A socket with the first ``size`` bytes of a message sent (and read: pinged)."""
        socket = await ws_connect(ws(url), local_addr=(local, 0) if local else None)
        sent, more = asyncio.Event(), asyncio.Event()
        head = '{"jsonrpc":"2.0","id":7,"method":"x","params":{"pad":"' + "a" * size
        sending = asyncio.ensure_future(socket.send(_fragments(head, sent, more, '"}}')))
        await asyncio.wait_for(sent.wait(), STEP)
        with contextlib.suppress(websockets.exceptions.ConnectionClosed):
            await asyncio.wait_for(await socket.ping(), STEP)  # the server has read it
        return socket, sending, more

    async def body() -> None:
        async with serving(max_partial_bytes=100_000, max_body_bytes=70_000,
                           max_frame_bytes=70_000) as url:
            holder, holding, finish = await fragment(url, 60_000)
            second, pushing, _ = await fragment(url, 20_000)  # the same peer: past its share
            with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                await asyncio.wait_for(second.recv(), STEP)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            pushing.cancel()
            other, other_sending, other_finish = await fragment(url, 30_000, OTHER_PEER)
            transport = httpx2.AsyncHTTPTransport(local_address=OTHER_PEER)
            async with httpx2.AsyncClient() as http, httpx2.AsyncClient(transport=transport
                                                                         ) as from_other:
                small = {**INIT, "params": {**INIT["params"], "_meta": {"pad": "c" * 20_000}}}  # type: ignore[dict-item]
                refused = await from_other.post(url, json=small, headers=JSON)  # past the total
                assert refused.status_code == 503 and refused.headers["retry-after"]
                finish.set()  # the first message is whole: read and answered, its bytes freed
                await asyncio.wait_for(holding, STEP)
                answer = json.loads(await asyncio.wait_for(holder.recv(), STEP))
                assert answer["id"] == 7 and "error" in answer
                padded = {**INIT, "params": {**INIT["params"], "_meta": {"pad": "c" * 60_000}}}  # type: ignore[dict-item]
                assert (await http.post(url, json=padded, headers=JSON)).status_code == 200
                other_finish.set()  # the other peer's message was read all along
                await asyncio.wait_for(other_sending, STEP)
                answer = json.loads(await asyncio.wait_for(other.recv(), STEP))
                assert answer["id"] == 7 and "error" in answer
            for socket in (holder, other):
                await socket.close()

    run(body)


# -- 3. fairness: a share per peer and per principal; unused slots reclaimed early --------------


@pytest.mark.slow  # 1,040 initialize requests: a few seconds
def test_a_flood_from_one_peer_is_refused_for_it_alone_and_others_are_served() -> None:
    """1,040 initialize POSTs from one peer used to take all 1,000 slots. Default options, but
    for the first-use grace: on a loaded machine the flood outlasts its 10 s, and the unused
    slots it reclaims would be the flood's again (that rule has its own test below)."""

    async def body() -> None:
        async with serving(first_use_grace=300.0) as url:
            results = await flood(url, 1040)
            async with httpx2.AsyncClient(http2=True, http1=False) as flooder:
                statuses = sorted({status for status, _ in results})
                assert statuses == [200, 429], statuses
                assert sum(status == 200 for status, _ in results) == 100  # its share
                assert all(after for status, after in results if status == 429)
                transport = httpx2.AsyncHTTPTransport(http2=True, http1=False,
                                                      local_address=OTHER_PEER)
                async with httpx2.AsyncClient(transport=transport) as good:
                    answer = await good.post(url, json=INIT, headers=JSON)
                    assert answer.status_code == 200
                async with ws_connect(ws(url), local_addr=(OTHER_PEER, 0)) as socket:
                    await socket.send(json.dumps(INIT))
                    assert json.loads(await socket.recv())["result"]["protocolVersion"] == 1
                assert (await flooder.post(url, json=INIT, headers=JSON)).status_code == 429

    run(body, 90)


def test_a_principal_past_its_share_is_refused_and_another_is_served() -> None:
    async def check(token: str | None) -> str | None:
        return token

    async def body() -> None:
        async with serving(token_check=check, max_connections_per_principal=2,
                           max_connections_per_peer=None) as url, \
                httpx2.AsyncClient() as http:
            mallory = {**JSON, "Authorization": "Bearer mallory"}
            for _ in range(2):
                assert (await http.post(url, json=INIT, headers=mallory)).status_code == 200
            refused = await http.post(url, json=INIT, headers=mallory)
            assert refused.status_code == 429 and refused.headers["retry-after"]
            with pytest.raises(websockets.exceptions.InvalidStatus) as socket_refused:
                await ws_connect(ws(url), additional_headers={"Authorization": "Bearer mallory"})
            assert socket_refused.value.response.status_code == 429
            alice = {**JSON, "Authorization": "Bearer alice"}
            assert (await http.post(url, json=INIT, headers=alice)).status_code == 200
            async with connect_to_remote_agent(Recorder(), ws(url), token="alice") as conn:
                await initialized(conn)

    run(body)


def test_connections_never_used_are_ended_after_the_first_use_grace_and_used_ones_stay() -> None:
    """The used connection shows it is used at once (a second message on the same HTTP/2
    connection, one round trip): the grace (2 s) leaves a loaded machine room for it."""

    async def body() -> None:
        with watching() as log:
            async with serving(first_use_grace=2.0, max_connections_per_peer=2) as url, \
                    httpx2.AsyncClient(http2=True, http1=False) as http:
                used = (await http.post(url, json=INIT, headers=JSON)).headers["acp-connection-id"]
                used_header = {"Acp-Connection-Id": used}
                second = {**NEW, "id": 9}  # a second message: it is used
                assert (await http.post(url, json=second, headers={**JSON, **used_header})
                        ).status_code == 202
                async with sse(url, used_header) as messages:
                    assert (await next_message(messages))["id"] == 9
                    assert (await http.post(url, json=INIT, headers=JSON)).status_code == 200
                    refused = await http.post(url, json=INIT, headers=JSON)
                    assert refused.status_code == 429  # the peer's two slots are held
                    await log.wait("not used within")  # the unused one's grace ran out
                    assert (await http.post(url, json=INIT, headers=JSON)).status_code == 200
                    # The used one's grace ran out before the unused one's: it is still served.
                    sent = await http.post(url, json=NEW, headers={**JSON, **used_header})
                    assert sent.status_code == 202
                    assert "sessionId" in (await next_message(messages))["result"]
                    assert (await http.delete(url, headers=used_header)).status_code == 202
                # Over WebSocket: a socket that sends nothing is closed once the grace is over.
                async with ws_connect(ws(url)) as socket:
                    with pytest.raises(websockets.exceptions.ConnectionClosed):
                        await asyncio.wait_for(socket.recv(), STEP)

    run(body)


# -- 4. a dropped Streamable HTTP connection ends after a grace: its sessions resume ------------


def test_an_http_connection_whose_streams_dropped_ends_after_the_grace_and_its_session_resumes(
) -> None:
    transcripts: dict[str, list[tuple[str, str]]] = {}

    async def body() -> None:
        with watching() as log:
            async with serving(lambda: RemoteEchoAgent(transcripts), stream_drop_grace=0.3) as url:
                async with httpx2.AsyncClient(http2=True, http1=False) as http:
                    answer = await http.post(url, json=INIT, headers=JSON)
                    conn = {"Acp-Connection-Id": answer.headers["acp-connection-id"]}
                    async with sse(url, conn) as messages:
                        assert (await http.post(url, json=NEW, headers={**JSON, **conn})
                                ).status_code == 202
                        session = (await next_message(messages))["result"]["sessionId"]
                        scoped = {**conn, "Acp-Session-Id": session}
                        async with sse(url, scoped) as updates:
                            ask = rpc(2, "session/prompt", sessionId=session,
                                      prompt=[{"type": "text", "text": "remember me"}])
                            assert (await http.post(url, json=ask, headers={**JSON, **scoped})
                                    ).status_code == 202
                            while "id" not in (await next_message(updates)):
                                pass
                    # Both streams' sockets are closed now (as a network drop would), no DELETE.
                await log.wait("streams dropped")
                later = Recorder()
                async with connect_to_remote_agent(later, url) as second:
                    await initialized(second)
                    await second.session_load(session_id=session, cwd="/", mcp_servers=[])
                assert later.user_chunks == ["remember me"]

    run(body)


# -- 5. request bodies: a read timeout, and half-sent requests count -----------------------------


def test_a_body_that_never_arrives_whole_is_answered_408() -> None:
    async def body() -> None:
        async with serving(body_timeout=0.3) as url:
            host, port = address(url)
            short, short_writer = await http1(url, f"""
                POST /acp HTTP/1.1
                Host: {host}:{port}
                Content-Type: application/json
                Content-Length: 1000""", b'{"jsonrpc":')  # promises 1000 bytes, sends 11
            endless, endless_writer = await http1(url, f"""
                POST /acp HTTP/1.1
                Host: {host}:{port}
                Content-Type: application/json
                Transfer-Encoding: chunked""", b'5\r\n{"jso\r\n')  # never its last chunk
            assert (await http1_status(short))[0] == 408
            assert (await http1_status(endless))[0] == 408
            for writer in (short_writer, endless_writer):
                writer.close()

    run(body)


def test_a_websocket_message_that_never_arrives_whole_closes_its_socket_after_the_body_timeout(
) -> None:
    """Its fragments hold the budget: the same deadline as a request body's."""

    async def body() -> None:
        async with serving(body_timeout=0.5) as url, ws_connect(ws(url)) as socket:
            await socket.send(json.dumps(INIT))
            await socket.recv()
            sent, never = asyncio.Event(), asyncio.Event()
            sending = asyncio.ensure_future(socket.send(_fragments('{"jsonrpc":', sent, never, "")))
            await asyncio.wait_for(sent.wait(), STEP)
            with pytest.raises(websockets.exceptions.ConnectionClosed):
                await asyncio.wait_for(socket.recv(), STEP)  # closed by the server
            sending.cancel()

    run(body)


def test_requests_still_being_read_count_against_the_peers_share() -> None:
    """The two half-sent requests hold their slots for the body timeout (2 s: room for a
    loaded machine to read the third request meanwhile), then are answered 408 and freed."""

    async def body() -> None:
        async with serving(body_timeout=2.0, max_connections_per_peer=2) as url:
            client = await H2.open(url)
            try:
                half = [client.request("POST", url, {"content-type": "application/json"},
                                       b'{"jsonrpc":', end=False) for _ in range(2)]
                whole = client.request("POST", url, {"content-type": "application/json"},
                                       json.dumps(INIT).encode())
                status, headers, _ = await client.response(whole)
                assert status == 429 and headers["retry-after"]
                other = await H2.open(url, local=OTHER_PEER)  # another peer is served
                try:
                    status, _, _ = await other.response(other.request(
                        "POST", url, {"content-type": "application/json"},
                        json.dumps(INIT).encode()))
                    assert status == 200
                finally:
                    await other.aclose()
                for stream_id in half:
                    assert (await client.response(stream_id))[0] == 408  # then freed
                again = client.request("POST", url, {"content-type": "application/json"},
                                       json.dumps(INIT).encode())
                assert (await client.response(again))[0] == 200
            finally:
                await client.aclose()

    run(body)


def test_a_refusal_sent_before_the_body_was_read_leaves_the_http2_connection_usable() -> None:
    """hypercorn forgets a stream once its response is complete, and a DATA frame arriving
    for it then raised KeyError in the connection's task (a traceback on stderr, and the
    TCP connection with every other stream on it gone): the ordinary race of a client whose
    body follows its headers. A refusal is complete only once the body has been read."""

    async def body() -> None:
        with watching() as log:
            async with serving() as url:
                client = await H2.open(url)
                try:
                    refused = client.request("POST", url, {"content-type": "text/plain"}, end=False)
                    assert await client.head(refused) == 415  # answered before the body came
                    await asyncio.wait_for(client.responses[refused]["data"].wait(), STEP)
                    assert b"application/json" in client.responses[refused]["body"]
                    client.send(refused, b"{}", end=True)  # the body, late
                    assert (await client.response(refused))[0] == 415
                    fine = client.request("POST", url, {"content-type": "application/json"},
                                          json.dumps(INIT).encode())
                    assert (await client.response(fine))[0] == 200
                finally:
                    await client.aclose()
        assert not [line for line in log.lines(logging.WARNING) if "KeyError" in line]

    run(body)


# -- 6. every request answered once, even when its id cannot be echoed --------------------------


class CountingAgent(EchoAgent):
    """Counts the session/new requests it runs."""

    created: ClassVar[list[str]] = []

    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        response = await super().session_new(params)
        CountingAgent.created.append(response.session_id)
        return response


@pytest.mark.parametrize("raw_id", ["1e400", "-1e400"])
def test_a_request_whose_id_cannot_be_echoed_is_answered_once_with_a_null_id_and_never_run(
        raw_id: str) -> None:
    unechoable = (f'{{"jsonrpc":"2.0","id":{raw_id},"method":"session/new",'
                  '"params":{"cwd":"/","mcpServers":[]}}')

    async def body() -> None:
        CountingAgent.created.clear()
        with watching(logging.DEBUG) as log:
            async with serving(CountingAgent) as url:
                async with ws_connect(ws(url)) as socket:
                    await socket.send(json.dumps(INIT))
                    await socket.recv()
                    await socket.send(unechoable)
                    answer = json.loads(await socket.recv())
                    assert answer["id"] is None and answer["error"]["code"] == -32600
                    await socket.send(json.dumps(NEW))
                    assert json.loads(await socket.recv())["id"] == 1  # the next one: its own
                async with httpx2.AsyncClient(http2=True, http1=False) as http:
                    opened = await http.post(url, json=INIT, headers=JSON)
                    conn = {**JSON, "Acp-Connection-Id": opened.headers["acp-connection-id"]}
                    refused = await http.post(url, content=unechoable.encode(), headers=conn)
                    assert refused.status_code == 400
                    assert refused.json()["id"] is None
                    assert refused.json()["error"]["code"] == -32600
            gc.collect()  # a task whose exception was never retrieved says so when collected
        assert len(CountingAgent.created) == 1
        logged = "\n".join(r.getMessage() for r in log.records)
        assert "never retrieved" not in logged and "UnencodableMessage" not in logged

    run(body)


# -- 7. one line per event, a bounded number of them ---------------------------------------------


@pytest.mark.slow  # 250 clients, one after another
def test_clients_that_drop_mid_body_make_a_bounded_number_of_one_line_log_records() -> None:
    async def body() -> None:
        with watching(logging.DEBUG) as log:
            async with serving(max_connections_per_peer=None) as url:  # no refusal: each is read
                host, port = address(url)
                for _ in range(200):
                    _, writer = await http1(url, f"""
                        POST /acp HTTP/1.1
                        Host: {host}:{port}
                        Content-Type: application/json
                        Content-Length: 1000""", b'{"jsonrpc":"2.0",')
                    writer.transport.abort()  # gone mid-body
                for _ in range(50):  # and over HTTP/2: the socket gone with a stream mid-body
                    client = await H2.open(url)
                    client.request("POST", url, {"content-type": "application/json"},
                                   b'{"jsonrpc":', end=False)
                    client.writer.transport.abort()
                    await client.aclose()
                await log.wait("went away mid-body", 250)
        lines = log.lines(logging.INFO)
        assert len(lines) <= 30, lines
        everything = log.lines(logging.DEBUG)
        assert not [line for line in everything if "Traceback" in line or "\n" in line]
        assert all(r.exc_info is None for r in log.records)

    run(body, 120)


# -- 8. Host is checked; a wrong path is 404 with a hint -----------------------------------------


def test_a_host_other_than_this_machine_is_refused_on_a_loopback_server() -> None:
    async def body() -> None:
        async with serving(allowed_hosts=frozenset({"agent.example"})) as url, \
                httpx2.AsyncClient() as http:
            _, port = address(url)
            for evil in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example",
                         "localhost.evil.example"):
                refused = await http.post(url, json=INIT, headers={**JSON, "Host": evil})
                assert refused.status_code == 421, evil
            for good in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}",
                         "LOCALHOST", "app.localhost", "agent.example"):
                assert (await http.post(url, json=INIT, headers={**JSON, "Host": good})
                        ).status_code == 200, good
            status, _, _, writer = await ws_handshake(url)
            assert status == 101
            writer.close()
            reader, writer = await http1(url, f"""
                GET /acp HTTP/1.1
                Host: rebound.example:{port}
                Upgrade: websocket
                Connection: Upgrade
                Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==
                Sec-WebSocket-Version: 13""")
            assert (await http1_status(reader))[0] == 421
            writer.close()

    run(body)


def test_a_wrong_path_is_answered_404_naming_the_endpoint() -> None:
    async def body() -> None:
        async with serving() as url, httpx2.AsyncClient() as http:
            root = url.removesuffix("/acp")
            for method in ("GET", "POST"):
                answer = await http.request(method, root + "/", json=INIT)
                assert answer.status_code == 404
                assert "/acp" in answer.text
            status, _, _, writer = await ws_handshake(url, path="/mcp")
            assert status == 404
            writer.close()

    run(body)


def test_peers_are_counted_by_address_an_ipv6_one_by_its_slash_64() -> None:
    """The rule the per-peer share counts by (one host is commonly given a whole /64, so an
    IPv6 peer's addresses share one share); unit-tested: loopback has one IPv6 address."""
    security = importlib.import_module(ServerOptions.__module__.rsplit(".", 1)[0] + ".security")
    key = security.peer_key
    assert key("2001:db8:1:2::5") == key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert key("2001:db8:1:3::5") != key("2001:db8:1:2::5")
    assert key("::ffff:192.0.2.7") == key("192.0.2.7") == "192.0.2.7"
    assert key("192.0.2.7") != key("192.0.2.8")
    assert key(None) is None and key("") is None  # no address (a Unix socket): no share
    assert security.host_name("[::1]:8765") == "::1"
    assert security.host_name("Example.ORG.:80") == "example.org"
    assert security.host_name("localhost") == "localhost"


# -- what held already, and must go on holding ---------------------------------------------------


def test_origin_variants_are_judged_by_their_host_only() -> None:
    async def body() -> None:
        async with serving() as url, httpx2.AsyncClient() as http:
            for evil in ("null", "http://evil.example", "http://localhost.evil.example",
                         "http://127.0.0.1.evil.example", "http://evil.example:80@localhost",
                         "file://", "http://[::ffff:7f00:1].evil.example", "not a url"):
                refused = await http.post(url, json=INIT, headers={**JSON, "Origin": evil})
                assert refused.status_code == 403, evil
            for good in ("http://localhost", "http://LOCALHOST:3000", "http://[::1]:9",
                         "https://127.0.0.1", "http://127.1.2.3:8", "http://app.localhost"):
                answer = await http.post(url, json=INIT, headers={**JSON, "Origin": good})
                assert answer.status_code == 200, good

    run(body)


def test_malformed_json_rpc_over_websocket_is_answered_and_the_socket_serves_on() -> None:
    async def body() -> None:
        async with serving() as url, ws_connect(ws(url)) as socket:
            await socket.send(json.dumps(INIT))
            await socket.recv()
            for frame, code in (("{nope", -32700), ("[" * 100_000, -32700), ("3", -32600),
                                ('{"jsonrpc":"2.0","id":true,"method":"x"}', -32600),
                                ('{"jsonrpc":"1.0","id":4,"method":"x"}', -32600)):
                await socket.send(frame)
                answer = json.loads(await asyncio.wait_for(socket.recv(), STEP))
                assert answer["error"]["code"] == code, frame
            await socket.send(b"\x00binary")  # ignored (RFD): no answer, nothing broken
            await socket.send(json.dumps(NEW))
            assert "sessionId" in json.loads(await asyncio.wait_for(socket.recv(), STEP))["result"]

    run(body)


def test_a_connection_id_of_another_principal_is_unknown_and_tokens_are_checked_on_upgrade(
) -> None:
    async def check(token: str | None) -> str | None:
        return token if token in ("alice", "bob") else None

    async def body() -> None:
        async with serving(token_check=check) as url, httpx2.AsyncClient() as http:
            for authorization in (None, "Bearer", "Basic alice", "Bearer carol", "bearer  bob x"):
                headers = {} if authorization is None else {"Authorization": authorization}
                assert (await http.post(url, json=INIT, headers={**JSON, **headers})
                        ).status_code == 401, authorization
                with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
                    await ws_connect(ws(url), additional_headers=headers)
                assert refused.value.response.status_code == 401
            alice = await http.post(url, json=INIT, headers={**JSON, "Authorization": "Bearer alice"})
            theirs = {**JSON, "Authorization": "Bearer bob",
                      "Acp-Connection-Id": alice.headers["acp-connection-id"]}
            assert (await http.post(url, json=NEW, headers=theirs)).status_code == 404
            assert (await http.get(url, headers={**SSE, **theirs})).status_code == 404
            assert (await http.delete(url, headers=theirs)).status_code == 404

    run(body)


def test_limits_on_bodies_frames_and_streams_hold() -> None:
    async def body() -> None:
        async with serving(max_body_bytes=4096, max_frame_bytes=4096,
                           max_streams_per_connection=1) as url, \
                httpx2.AsyncClient(http2=True, http1=False) as http:
            padded = {**INIT, "params": {"_meta": {"pad": "x" * 8192}}}
            assert (await http.post(url, json=padded, headers=JSON)).status_code == 413
            async with ws_connect(ws(url)) as socket:
                await socket.send(json.dumps(padded))
                with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                    await socket.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            conn = {"Acp-Connection-Id": (await http.post(url, json=INIT, headers=JSON)
                                          ).headers["acp-connection-id"]}
            async with sse(url, conn):
                assert (await http.get(url, headers={**SSE, **conn})).status_code == 429

    run(body)


class FaultyAgent(EchoAgent):
    async def session_new(self, params: models.NewSessionRequest) -> models.NewSessionResponse:
        raise RuntimeError("the agent's own bug")


def test_a_fault_in_the_agent_is_answered_as_an_internal_error_and_the_server_serves_on() -> None:
    async def body() -> None:
        async with serving(FaultyAgent) as url:
            async with ws_connect(ws(url)) as socket:
                await socket.send(json.dumps(INIT))
                await socket.recv()
                await socket.send(json.dumps(NEW))
                answer = json.loads(await asyncio.wait_for(socket.recv(), STEP))
                assert answer["id"] == 1 and answer["error"]["code"] == -32603
                await socket.send(json.dumps({**NEW, "id": 2}))
                assert json.loads(await asyncio.wait_for(socket.recv(), STEP))["id"] == 2
            async with connect_to_remote_agent(Recorder(), url) as conn:
                await initialized(conn)

    run(body)


# -- after the attacks: the server's memory and descriptors are back -----------------------------

SERVER = textwrap.dedent("""
    import asyncio, logging, sys
    from acp_v1.examples.echo_agent import EchoAgent
    from acp_v1.remote import ServerOptions, serve_agent

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(message)s")
    logging.getLogger("acp_v1").setLevel(logging.DEBUG)
    options = ServerOptions(first_use_grace=0.5, idle_timeout=2.0)
    asyncio.run(serve_agent(EchoAgent, port=0, options=options,
                            ready=lambda url: print("serving on", url, flush=True)))
""")


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as file:
        status = file.read()
    match = re.search(r"VmRSS:\s*(\d+) kB", status)
    assert match
    return int(match.group(1))


def _fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.mark.slow  # a server process, a flood and three 200 MiB bombs
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_after_the_bomb_and_the_flood_the_servers_memory_and_descriptors_are_back() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(GENERATED), *filter(None, [os.environ.get("PYTHONPATH")])])}
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env, text=True)
    idle_lines: asyncio.Queue[str] = asyncio.Queue()

    async def body() -> None:
        loop = asyncio.get_running_loop()
        assert server.stdout is not None and server.stderr is not None
        started: asyncio.Future[str] = loop.create_future()

        def follow() -> None:  # the server's output, line by line, to wait on what it says
            assert server.stdout is not None and server.stderr is not None
            loop.call_soon_threadsafe(started.set_result, server.stdout.readline())
            for text in server.stderr:
                loop.call_soon_threadsafe(idle_lines.put_nowait, text)

        # A thread of its own (a daemon): the loop's executor would wait for it at exit.
        threading.Thread(target=follow, daemon=True).start()
        url = (await asyncio.wait_for(started, 20)).split()[-1]

        markers = itertools.count(424242)

        async def settle() -> None:
            """Until the server is idle. It says so once per change from busy to idle that its
            reaper sees: first every line it logged before is read (a marker it logs now), then
            it is kept busy past a reaper tick (a socket that sends nothing, which the reaper
            ends as unused), then its line that the last connection has gone is waited for."""
            marker = next(markers)
            async with ws_connect(ws(url), local_addr=(OTHER_PEER, 0)) as probe:
                await probe.send(json.dumps(INIT))
                await probe.recv()
                await probe.send(json.dumps({"jsonrpc": "2.0", "id": marker, "result": {}}))
                while str(marker) not in await asyncio.wait_for(idle_lines.get(), 20):
                    pass
                async with ws_connect(ws(url), local_addr=(OTHER_PEER, 0)) as unused:
                    with contextlib.suppress(websockets.exceptions.ConnectionClosed):
                        await asyncio.wait_for(unused.recv(), 20)  # ended by the server
            while "memory handed back" not in await asyncio.wait_for(idle_lines.get(), 20):
                pass

        async def round_trip() -> None:
            async with connect_to_remote_agent(Recorder(), url) as conn:
                await initialized(conn)
            async with connect_to_remote_agent(Recorder(), ws(url)) as conn:
                await initialized(conn)

        fds = _fds(server.pid)  # listening, no connection yet
        await round_trip()  # warm: imports, caches
        await settle()
        rss = _rss_kib(server.pid)
        for _ in range(3):
            status, _, reader, writer = await ws_handshake(url, "permessage-deflate")
            assert status == 101
            writer.write(ws_frame(deflate_bomb(), rsv1=True))
            await ws_close_code(reader)
            writer.close()
        assert {status for status, _ in await flood(url, 1040)} == {200, 429}
        await settle()  # the flood's connections reclaimed (first_use_grace)
        await round_trip()  # and the server serves
        await settle()
        grown = _rss_kib(server.pid) - rss
        print(f"server RSS {rss} KiB after warming, {rss + grown} KiB after the attacks")
        assert grown < 20 * 1024, f"RSS grew {grown} KiB"
        # Another process's descriptors are seen only by reading its table: read until the
        # count is back (a socket its client closed goes within hypercorn's keep-alive, 5 s).
        deadline = loop.time() + 15
        while _fds(server.pid) > fds and loop.time() < deadline:
            await asyncio.sleep(0.1)
        assert _fds(server.pid) <= fds, sorted(
            os.readlink(f"/proc/{server.pid}/fd/{n}") for n in os.listdir(f"/proc/{server.pid}/fd"))

    try:
        run(body, 120)
    finally:
        server.terminate()
        server.wait(10)
