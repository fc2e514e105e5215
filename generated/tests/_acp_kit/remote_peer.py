# Edit acpgen/shipped/conformance/remote_peer.py, not this file: acpgen generate writes it.
"""Talk to a remote agent (``ws://``, ``http://``) as the kit talks to a child process.

:class:`RemotePeer` is a :class:`~.process.Peer` whose frames travel over the RFD
"Streamable HTTP & WebSocket Transport" instead of pipes. It is a raw transport the kit
controls, not the generated SDK's client: every message it sends or receives lands in the
transcript as the bytes that travelled (one WebSocket text frame, one POST body, one SSE
event), so the wire checks judge the remote agent exactly as a local one, malformed lines
included. What HTTP itself answered (status, headers) is kept in ``transcript.notes["http"]``.

Over Streamable HTTP the POSTs share one HTTP/2 connection and each SSE stream has one of its
own, all of them sharing one cookie jar (the RFD: cookies are returned on every request, as
the server sets and changes them). httpcore2 hands a connection's read lock to its waiting
streams in turn: a quiet stream holding it blocks in a socket read while frames another
stream already received wait behind it, so several streams on one connection stall until
some byte arrives (the generated client's rule too, ``runtime/transports/http/client.py``).

Its libraries (websockets; httpx2 with HTTP/2) are the generated SDK's ``remote`` extra,
imported only when a URL is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping, Sequence
from typing import Any

from .process import MAX_FRAMES, MAX_LINE, Peer, PeerClosed, PeerError, PeerTimeout
from .wire import Frame, Transcript, decode_line

CONNECTION_HEADER = "Acp-Connection-Id"
SESSION_HEADER = "Acp-Session-Id"
# Methods naming a session the connection takes up: no Acp-Session-Id on their POST (the RFD's
# resume flow), but the session's stream is opened before them.
ATTACH_METHODS = frozenset({"session/load", "session/resume", "session/fork"})
SEND_TIMEOUT = 5.0  # seconds one POST or WebSocket send may take, as a pipe write may
# Seconds an idle HTTP/2 connection is kept for the next POST: less than the servers' own
# keep-alive (the generated server's 5 s, hypercorn's default). httpcore2 does not notice
# that the server closed an idle HTTP/2 connection: a POST sent on it fails (WriteError).
IDLE_CONNECTION = 1.0


def import_remote_libraries() -> tuple[Any, Any, tuple[type[BaseException], ...]]:
    """(httpx2, websockets.asyncio.client, what the network may raise), or PeerError naming
    the extra to install."""
    try:
        import httpx2
        from websockets.asyncio import client as ws_client
        from websockets.exceptions import WebSocketException
    except ImportError as exc:
        raise PeerError(
            f"a remote agent needs the SDK's remote extra ({exc.name} is missing): "
            "pip install 'yoursdk[remote]'"
        ) from None
    # OSError covers TimeoutError (an open that took too long).
    errors = (OSError, httpx2.HTTPError, httpx2.SSEError, WebSocketException)
    return httpx2, ws_client, errors


def http2_client(httpx2: Any, timeout: float, jar: Any = None) -> Any:
    """An HTTP/2 client (prior knowledge on ``http://``): one connection to the endpoint.
    ``jar``: the ``http.cookiejar.CookieJar`` it shares with the other clients of the same ACP
    connection (what one response sets, every later request carries)."""
    return httpx2.AsyncClient(
        http1=False,
        http2=True,
        cookies=jar,
        timeout=httpx2.Timeout(timeout, read=None),  # SSE streams are quiet for long
        limits=httpx2.Limits(keepalive_expiry=IDLE_CONNECTION),
    )


def websocket_url(url: str) -> str:
    """The WebSocket spelling of an endpoint URL (the same endpoint serves both profiles)."""
    scheme, sep, rest = url.partition("://")
    return {"http": "ws", "https": "wss"}.get(scheme.lower(), scheme) + sep + rest


def http_url(url: str) -> str:
    scheme, sep, rest = url.partition("://")
    return {"ws": "http", "wss": "https"}.get(scheme.lower(), scheme) + sep + rest


def session_of(frame: Frame) -> str | None:
    params = frame.get("params")
    value = params.get("sessionId") if isinstance(params, dict) else None
    return value if isinstance(value, str) else None


class RemotePeer(Peer):
    """An agent at a URL: WebSocket for ``ws(s)://``, Streamable HTTP/2 for ``http(s)://``."""

    def __init__(self, transcript: Transcript, url: str) -> None:
        super().__init__(transcript)
        self.url = url
        self.websocket = url.lower().startswith(("ws:", "wss:"))
        self._socket: Any = None
        self._http: Any = None  # the POSTs' (and DELETE's) client; each stream has its own
        self.connection_id: str | None = None
        self._streams: dict[str | None, asyncio.Task[None]] = {}
        self._opened: dict[str | None, asyncio.Future[int]] = {}
        self._asked_on: dict[str, str] = {}  # request id (as JSON text) -> session stream
        # What the streams carry while a POST is out, pushed once it is answered: a reply
        # can beat the POST's 202 to the client, and a scenario watches for answers (quiet())
        # only from when its send returns, as a pipe or a socket send returns at once.
        self._posting = 0
        self._held: list[Frame] | None = None
        self._errors: tuple[type[BaseException], ...] = (OSError,)

    @property
    def http_log(self) -> list[dict[str, Any]]:
        log: list[dict[str, Any]] = self.transcript.notes.setdefault("http", [])
        return log

    async def start(
        self,
        argv: Sequence[str] = (),
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.argv = [self.url]
        httpx2, ws_client, self._errors = import_remote_libraries()
        if not self.websocket:
            self._http = http2_client(httpx2, SEND_TIMEOUT)
            return
        try:
            self._socket = await ws_client.connect(
                self.url, max_size=MAX_LINE, open_timeout=SEND_TIMEOUT, compression=None
            )
        except self._errors as exc:  # refused, handshake failed, timed out
            raise PeerError(f"cannot open a WebSocket to {self.url}: {exc}") from None
        response = self._socket.response
        self.http_log.append(
            {
                "request": "GET websocket",
                "status": response.status_code,
                "headers": dict(response.headers),
            }
        )
        self.connection_id = response.headers.get(CONNECTION_HEADER)
        self._tasks = [asyncio.ensure_future(self._read_websocket())]

    async def _read_websocket(self) -> None:
        count = 0
        try:
            async for message in self._socket:
                if not isinstance(message, str):
                    continue  # binary frames are not ACP messages (the RFD: ignored)
                count += 1
                if count > MAX_FRAMES:
                    self._closed_reason = f"flooded: sent more than {MAX_FRAMES} frames"
                    break
                self._push(decode_line("in", message.encode("utf-8"), time.monotonic()))
            self._closed_reason = f"closed the WebSocket ({self._socket.close_code})"
        except self._errors as exc:  # the socket broke: the run sees the end, with why
            self._closed_reason = f"the WebSocket broke: {exc}"
        finally:
            await self._frames.put(None)

    async def send_raw(self, raw: bytes) -> Frame:
        frame = decode_line("out", raw, time.monotonic())
        self.transcript.frames.append(frame)
        try:
            if self.websocket:
                await self._send_websocket(raw)
            else:
                await self._post(frame, raw.rstrip(b"\n"))
        except TimeoutError:
            raise PeerTimeout(f"did not take a message for {SEND_TIMEOUT:g} s") from None
        return frame

    async def _send_websocket(self, raw: bytes) -> None:
        if self._socket is None:
            raise PeerClosed("not connected")
        body = raw.rstrip(b"\n")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        try:
            # A line that is not UTF-8 cannot be a text frame: it goes as a binary one.
            await asyncio.wait_for(
                self._socket.send(text if text is not None else body), SEND_TIMEOUT
            )
        except TimeoutError:
            raise
        except self._errors as exc:
            raise PeerClosed(self.describe_end(f"the WebSocket closed: {exc}")) from None

    async def _post(self, frame: Frame, body: bytes) -> None:
        headers = {"Content-Type": "application/json"}
        session = session_of(frame) if frame.method else self._asked_on.get(_id_key(frame))
        if self.connection_id is not None:
            headers[CONNECTION_HEADER] = self.connection_id
            if session is not None:
                await self._open_stream(session)
                if frame.method not in ATTACH_METHODS:
                    headers[SESSION_HEADER] = session
        self._posting += 1
        if self._held is None:
            self._held = []
        try:
            response = await asyncio.wait_for(
                self._http.post(self.url, content=body, headers=headers), SEND_TIMEOUT
            )
        except TimeoutError:
            raise
        except self._errors as exc:
            raise PeerClosed(f"POST to {self.url} failed: {exc!r}") from None
        finally:
            self._posting -= 1
            if not self._posting:
                asyncio.get_running_loop().call_soon(self._release_held)
        self._log("POST", frame, response)
        content = response.content
        answered = bool(content) and b'"jsonrpc"' in content
        if response.status_code >= 400 and not answered:
            # Refused by HTTP (a batch is 501, as the RFD says) with no JSON-RPC answer: the
            # message never reached the agent's JSON-RPC layer, so it is no request the agent
            # had to answer. It stays in notes["http"], with the status.
            self.transcript.frames.remove(frame)
            self.http_log[-1]["refused"] = frame.raw.decode("utf-8", "backslashreplace")[:200]
        opening = self.connection_id is None and response.status_code == 200
        if opening and response.headers.get(CONNECTION_HEADER):
            self.connection_id = response.headers[CONNECTION_HEADER]
            self._push(decode_line("in", content, time.monotonic()))
            await self._open_stream(None)
        elif answered:
            # A JSON-RPC answer in an error response's body (a parse error, say): it travelled.
            # Pushed on the loop's next turn, as a stream's frames arrive, so that it lands
            # after the point where the sender starts watching for answers (quiet()).
            self._receive(decode_line("in", content, time.monotonic()))

    def _receive(self, frame: Frame) -> None:
        if self._held is not None:
            self._held.append(frame)
        else:
            self._push(frame)

    def _release_held(self) -> None:
        if self._posting or self._held is None:
            return  # another POST went out meanwhile: its answer releases them
        held, self._held = self._held, None
        for frame in held:
            self._push(frame)

    def _log(self, verb: str, frame: Frame | None, response: Any) -> None:
        self.http_log.append(
            {
                "request": f"{verb} {frame.method or 'response'}" if frame else verb,
                "status": response.status_code,
                "headers": dict(response.headers),
                "http_version": response.http_version,
            }
        )

    async def _open_stream(self, session: str | None) -> None:
        if session in self._streams:
            return
        opened: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._opened[session] = opened
        self._streams[session] = asyncio.ensure_future(self._listen(session, opened))
        await asyncio.wait_for(asyncio.shield(opened), SEND_TIMEOUT)

    async def _listen(self, session: str | None, opened: asyncio.Future[int]) -> None:
        httpx2, _, _ = import_remote_libraries()
        assert self.connection_id is not None
        headers = {"Accept": "text/event-stream", CONNECTION_HEADER: self.connection_id}
        if session is not None:
            headers[SESSION_HEADER] = session
        # Its own connection (see the module's docstring), made here so that cancelling the
        # task closes it whenever that happens; the POSTs' cookie jar, shared.
        http = http2_client(httpx2, SEND_TIMEOUT, self._http.cookies.jar)
        try:
            async with http, http.stream("GET", self.url, headers=headers) as response:
                self._log(f"GET stream {session or 'connection'}", None, response)
                opened.set_result(response.status_code)
                if response.status_code != 200:
                    return
                async for event in httpx2.EventSource(response, max_event_size=MAX_LINE):
                    if event.data:
                        frame = decode_line("in", event.data.encode("utf-8"), time.monotonic())
                        if frame.is_request and session is not None:
                            self._asked_on[_id_key(frame)] = session
                        self._receive(frame)
        except self._errors as exc:  # the stream broke: a connection stream's end is the run's
            if not opened.done():
                opened.set_result(0)
            self._closed_reason = f"its SSE stream broke: {exc!r}"
        finally:
            if not opened.done():
                opened.set_result(0)
            if session is None:
                self._closed_reason = self._closed_reason or "closed its connection-scoped stream"
                self._release_held()  # what the stream carried goes before its end
                await self._frames.put(None)

    async def close(self) -> None:
        if self._socket is not None:
            with contextlib.suppress(*self._errors):
                await asyncio.wait_for(self._socket.close(), SEND_TIMEOUT)
        for task in self._streams.values():
            task.cancel()
        if self._streams:
            await asyncio.wait(self._streams.values(), timeout=SEND_TIMEOUT)
        if self._http is not None:
            if self.connection_id is not None:
                with contextlib.suppress(*self._errors):
                    response = await asyncio.wait_for(
                        self._http.delete(
                            self.url, headers={CONNECTION_HEADER: self.connection_id}
                        ),
                        SEND_TIMEOUT,
                    )
                    self._log("DELETE", None, response)
            with contextlib.suppress(*self._errors):
                await self._http.aclose()
        for task in self._tasks:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(task, timeout=SEND_TIMEOUT)
            task.cancel()


def _id_key(frame: Frame) -> str:
    return repr(frame.get("id"))
