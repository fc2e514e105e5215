"""JSON-RPC 2.0 over newline-delimited JSON: the engine every ACP connection runs on.

Copied verbatim into every generated package by acpgen.

One :class:`Connection` per peer, over any asyncio ``StreamReader``/``StreamWriter`` pair
(stdio, a subprocess' pipes, a socket) or any other :class:`~.transport.FrameTransport` (the
remote transports: HTTP and WebSocket). It correlates responses with requests by id, runs
inbound requests concurrently, delivers notifications in the order they arrived, and never
lets one bad frame end the connection. What it guarantees:

* **Order per session, concurrency across sessions**: notifications are delivered to the
  dispatcher in the order they arrived *per session* (the ``sessionId`` of their params;
  those without one form one connection-level lane), one at a time per session; different
  sessions' notifications, and every request, proceed independently. A response to one of
  our calls is returned only after the notifications of the call's session (its params'
  ``sessionId``, or the connection-level lane) that arrived before it have been handled
  (ACP-V1-PROMPT-UPDATES-BEFORE-RESPONSE).
* **Bounded queues, backpressure, nothing dropped**: a session holds at most
  ``max_queued_per_session`` notifications not yet handled (default
  :data:`DEFAULT_MAX_QUEUED_PER_SESSION`) and the connection at most ``max_queued_total``
  (:data:`DEFAULT_MAX_QUEUED_TOTAL`), whose frames together are at most
  ``max_queued_bytes`` long (:data:`DEFAULT_MAX_QUEUED_BYTES`); when any is reached, reading
  from the peer pauses until the handlers catch up (the peer's writes then block in its
  pipe). What a flooding peer can make a connection hold is therefore bounded: the queued
  notifications (``max_queued_bytes`` of frames, plus one frame), the frame being read
  (``max_frame_bytes``) and the stream's own buffer. The price: one session whose handler
  falls that far behind pauses the whole connection until it catches up; below the limits,
  the others run at full speed. A notification handler must therefore not wait for a
  response of the peer while its own session's queue can be full.

* **Exactly one response per request** (ACP-V1-JSONRPC-RESPONSE-REQUIRED,
  ACP-V1-CANCEL-REQUEST-MUST-RESPOND): a handler's result, its error, -32603 when it fails,
  or -32800 when ``$/cancel_request`` (or the handler itself) cancelled it, even before it
  started. A response that cannot be encoded, or is longer than the peer accepts, is
  replaced by a -32603 error for the same id.
* **Nothing of ours hangs**: a call fails with a typed error when its response is an error
  (:class:`RpcError`, the subclass for the code), unusable (:class:`MalformedResponse`), or
  when the connection closes (:class:`ConnectionClosed`). A message longer than the peer's
  limit raises :class:`MessageTooLarge` before anything is written.
* **Errors on the wire**: -32700 (null id) for a frame that is not UTF-8 JSON; -32600 for JSON
  that is not a request, notification or response, and for a line over the limit (with its
  id when the line's first bytes show one); notifications are never answered
  (ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION).
* **Batches as JSON-RPC 2.0 says**: every element of a JSON array is handled as if it had
  come alone; the responses to its requests (and the -32600 errors for elements that are no
  message) go back together as one array once all are ready, each with its own id; a batch
  of notifications only gets no reply at all (ACP-V1-JSONRPC-NO-REPLY-TO-NOTIFICATION,
  "including those within a batch"); an empty array gets one -32600 with a null id. ACP
  peers send single messages (the schema has no array message), so this is for peers that
  use JSON-RPC's batches, not something this engine sends.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import math
from typing import Any, Protocol, Self

from .cancellation import RequestContext, start_in_context
from .errors import (
    AUTHENTICATION_REQUIRED,
    CANCEL_REQUEST_METHOD,
    ERROR_MESSAGES,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    REQUEST_CANCELLED,
    RESOURCE_NOT_FOUND,
    ConnectionClosed,
    InternalError,
    InvalidRequestError,
    MalformedResponse,
    MessageTooLarge,
    ParseError,
    RequestCancelledError,
    RpcError,
)
from .framing import (
    DEFAULT_MAX_MESSAGE_BYTES,
    NOT_FOUND,
    Oversized,
    UnencodableMessage,
    decode_frame,
    encode_message,
    sniff_envelope,
)
from .transport import SENT_QUEUED, FrameTransport, Inbound, StreamTransport, routed

__all__ = [
    # Re-exported from .errors, where they are defined.
    "AUTHENTICATION_REQUIRED",
    "CANCEL_REQUEST_METHOD",
    "DEFAULT_EOF_GRACE",
    "DEFAULT_MAX_FRAME_BYTES",
    "DEFAULT_MAX_QUEUED_BYTES",
    "DEFAULT_MAX_QUEUED_PER_SESSION",
    "DEFAULT_MAX_QUEUED_TOTAL",
    "ERROR_MESSAGES",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "REQUEST_CANCELLED",
    "RESOURCE_NOT_FOUND",
    "Connection",
    "ConnectionClosed",
    "Dispatcher",
    "MalformedResponse",
    "MessageTooLarge",
    "RpcError",
    "UnencodableMessage",
]

logger = logging.getLogger(__name__)

DEFAULT_MAX_FRAME_BYTES = DEFAULT_MAX_MESSAGE_BYTES
# Notifications received and not yet handled, per session and per connection: past either,
# reading pauses (backpressure) until the handlers catch up. With the frame limit they bound
# what a flooding peer can make this process hold.
DEFAULT_MAX_QUEUED_PER_SESSION = 256
DEFAULT_MAX_QUEUED_TOTAL = 4096
DEFAULT_MAX_QUEUED_BYTES = 64 * 1024 * 1024
# After the peer's EOF, how long requests already received may take to be answered.
DEFAULT_EOF_GRACE = 5.0
_VERSION = "2.0"
_NO_ID = object()  # a message without an "id" member (a notification)
_CANCELLED = object()  # a request's outcome: cancelled (answered -32800)


_RESULT = object()  # a request's outcome: the handler's result (passed beside it)


class Dispatcher(Protocol):
    """What a connection calls for inbound traffic (the typed sides implement it)."""

    async def handle_request(self, method: str, params: Any) -> Any:
        """Return the JSON result, or raise :class:`RpcError`."""

    async def handle_notification(self, method: str, params: Any) -> None:
        """Handle a notification; errors are logged, never answered."""


def _id_key(request_id: Any) -> str:
    # "1" and 1 are different ids; JSON text keeps them apart (and True apart from 1).
    if type(request_id) is int:  # the usual id, and its JSON text without the encoder
        return str(request_id)
    return json.dumps(request_id)


def _valid_id(request_id: Any) -> bool:
    # ACP-V1-JSONRPC-ID-TYPE: a string, a number or null (never a boolean). A number JSON
    # cannot carry back (1e400 parses as infinity) is no id either: its answer could not be
    # encoded, so the request is refused (-32600, null id) rather than run and left unanswered.
    kind = type(request_id)
    if kind is int or kind is str:  # the usual ids, without the isinstance chain
        return True
    if isinstance(request_id, bool):
        return False
    if request_id is None or isinstance(request_id, (str, int)):
        return True
    return isinstance(request_id, float) and math.isfinite(request_id)


class _Inbound:
    """One request of the peer's: its handler task, which answers it (``Connection._serve``)."""

    __slots__ = ("batch", "context", "key", "method", "request_id", "started", "task")

    def __init__(
        self,
        request_id: Any,
        method: str,
        context: RequestContext | None = None,
        batch: _Batch | None = None,
    ) -> None:
        self.key = str(request_id) if type(request_id) is int else _id_key(request_id)
        self.request_id = request_id
        self.method = method
        self.task: asyncio.Task[Any] | None = None
        self.started = False  # whether the handler began (else a cancel answers for it)
        self.context = context
        self.batch = batch


class _Lane:
    """One session's notifications (or the connection-level ones): a FIFO handled by at most
    one task at a time, which exists only while the lane has work."""

    __slots__ = ("done", "key", "queue", "received", "task", "waiters")

    def __init__(self, key: str | None) -> None:
        self.key = key
        # (method, params, length of the frame it came in)
        self.queue: collections.deque[tuple[str, Any, int]] = collections.deque()
        self.received = 0  # notifications ever queued on this lane
        self.done = 0  # of those, handled (or failed)
        self.task: asyncio.Task[None] | None = None
        self.waiters: list[tuple[int, asyncio.Future[None]]] = []

    def release(self, force: bool = False) -> None:
        """Wake the calls waiting for this lane to reach their count."""
        if not self.waiters:
            return
        keep: list[tuple[int, asyncio.Future[None]]] = []
        for seen, waiter in self.waiters:
            if force or self.done >= seen:
                if not waiter.done():
                    waiter.set_result(None)
            else:
                keep.append((seen, waiter))
        self.waiters = keep


def _session_key(params: Any) -> str | None:
    """The lane a message belongs to: its params' ``sessionId`` (None: connection-level)."""
    if isinstance(params, dict):
        session_id = params.get("sessionId")
        if isinstance(session_id, str):
            return session_id
    return None


class _Batch:
    """The responses owed for one JSON-RPC batch, sent together once the last is ready."""

    __slots__ = ("complete", "pending", "responses")

    def __init__(self) -> None:
        self.responses: list[dict[str, Any]] = []
        self.pending = 0  # requests of the batch still running
        self.complete = asyncio.Event()

    def add(self, response: dict[str, Any] | None) -> None:
        if response is not None:
            self.responses.append(response)
        self.pending -= 1
        if self.pending == 0:
            self.complete.set()


class Connection:
    """A JSON-RPC 2.0 peer over newline-delimited JSON.

    ``dispatcher`` receives inbound requests and notifications. Call :meth:`start` (or use
    ``async with``) to begin reading; :meth:`request` and :meth:`notify` send.
    ``max_frame_bytes`` is the longest line accepted from the peer; ``max_send_bytes`` (by
    default the same) the longest this side writes: the peer's limit. The frames travel over
    ``reader``/``writer`` (newline-delimited), or over ``reader`` alone when it is a
    :class:`~.transport.FrameTransport` and ``writer`` is None.
    """

    def __init__(
        self,
        reader: asyncio.StreamReader | FrameTransport,
        writer: asyncio.StreamWriter | None,
        dispatcher: Dispatcher,
        *,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        max_send_bytes: int | None = None,
        name: str = "acp",
        eof_grace: float = DEFAULT_EOF_GRACE,
        max_queued_per_session: int = DEFAULT_MAX_QUEUED_PER_SESSION,
        max_queued_total: int = DEFAULT_MAX_QUEUED_TOTAL,
        max_queued_bytes: int = DEFAULT_MAX_QUEUED_BYTES,
    ) -> None:
        if min(max_queued_per_session, max_queued_total, max_queued_bytes) < 1:
            raise ValueError("the notification queue limits must be at least 1")
        if isinstance(reader, asyncio.StreamReader):
            if writer is None:
                raise TypeError("a StreamReader needs its StreamWriter")
            self._transport: FrameTransport = StreamTransport(reader, writer)
        else:
            self._transport = reader
        # A remote transport routes each frame by the record the engine fills as it encodes
        # it (transport.Route): it never decodes a frame to learn where it goes.
        self._routed = getattr(self._transport, "wants_routes", False) is True
        self._dispatcher = dispatcher
        self._max_frame_bytes = max_frame_bytes
        self._max_send_bytes = max_frame_bytes if max_send_bytes is None else max_send_bytes
        self._name = name
        self._eof_grace = eof_grace
        self._next_id = 0
        self._pending: dict[str, asyncio.Future[tuple[Any, _Lane | None, int]]] = {}
        # request key -> the call's session lane and method
        self._pending_calls: dict[str, tuple[str | None, str]] = {}
        self._inbound: dict[str, list[_Inbound]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._write_lock = asyncio.Lock()
        self._writing = 0  # writers holding or waiting for the lock (a frame must wait its turn)
        self._lanes: dict[str | None, _Lane] = {}
        self._max_queued_per_session = max_queued_per_session
        self._max_queued_total = max_queued_total
        self._queued = 0  # notifications queued on every lane, not yet handled
        self._max_queued_bytes = max_queued_bytes
        self._queued_bytes = 0  # the length of their frames
        self._frame_bytes = 0  # the length of the frame being accepted
        self._room: asyncio.Event | None = None  # set when a paused read may go on
        self._reader_task: asyncio.Task[None] | None = None
        self._closed = asyncio.Event()
        self._ended = False  # self._closed is set (read on the hot path: no method call)
        self._writer_closed = False

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Start reading frames (idempotent)."""
        if self._reader_task is None:
            if isinstance(self._transport, StreamTransport):
                self._transport.take_frames_now(self._take_now, self._max_frame_bytes)
            self._reader_task = asyncio.create_task(self._read_loop(), name=f"{self._name}.read")

    @property
    def queued_bytes(self) -> int:
        """The length of the frames of the notifications queued (at most ``max_queued_bytes``
        plus one frame)."""
        return self._queued_bytes

    @property
    def queued_notifications(self) -> int:
        """Notifications received and not yet handled, over every session (at most
        ``max_queued_total``; a session's at most ``max_queued_per_session``)."""
        return self._queued

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    async def wait_closed(self) -> None:
        """Wait until the peer closes its end (EOF) or :meth:`close` is called."""
        await self._closed.wait()

    async def close(self) -> None:
        """Close the writer, stop reading, fail pending calls, cancel handlers.

        Also after the peer's EOF: the writer is still ours to flush and close.
        """
        if not self._writer_closed:
            self._writer_closed = True
            await self._transport.close()
        current = asyncio.current_task()
        if self._reader_task is not None and self._reader_task is not current:
            self._reader_task.cancel()
        self._shutdown()
        # Let the cancelled tasks run their cleanup before the caller's loop ends.
        others = [t for t in self._all_tasks() if t is not current and not t.done()]
        if others:
            await asyncio.wait(others, timeout=2.0)

    async def __aenter__(self) -> Self:
        self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _all_tasks(self) -> list[asyncio.Task[Any]]:
        tasks = [r.task for rs in self._inbound.values() for r in rs if r.task is not None]
        tasks.extend(self._tasks)
        tasks.extend(lane.task for lane in self._lanes.values() if lane.task is not None)
        if self._reader_task is not None:
            tasks.append(self._reader_task)
        return tasks

    def _shutdown(self) -> None:
        if self._ended:
            return
        self._ended = True
        self._closed.set()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionClosed("connection closed"))
        self._pending.clear()
        current = asyncio.current_task()
        for task in self._all_tasks():
            if task is not current and task is not self._reader_task:
                task.cancel()
        for lane in self._lanes.values():
            lane.release(force=True)
        if self._room is not None:
            self._room.set()

    # -- sending -----------------------------------------------------------------------

    def _encode(self, message: Any) -> bytes:
        frame = encode_message(message)
        if len(frame) - 1 > self._max_send_bytes:
            raise MessageTooLarge(len(frame) - 1, self._max_send_bytes)
        return routed(frame, message) if self._routed else frame

    def _write_now(self, frame: bytes) -> bool:
        """Write ``frame`` if it goes straight into the pipe (the usual case: nothing queued,
        nobody waiting for room); False, having written nothing, when it must wait."""
        if self._writing or self._ended:
            return False
        sent = self._transport.send_nowait(frame)
        if not sent:
            return False
        if sent == SENT_QUEUED:  # part of it still queued: drained in a task
            self._spawn(self._write_response(b""))
        return True

    async def _write(self, frame: bytes) -> None:
        if self._ended:
            raise ConnectionClosed("connection closed")
        if frame and self._write_now(frame):
            return
        self._writing += 1
        try:
            async with self._write_lock:
                await self._transport.send(frame)
        except (ConnectionError, RuntimeError) as exc:
            raise ConnectionClosed(str(exc) or "connection lost") from exc
        finally:
            self._writing -= 1

    async def send_message(self, message: Any) -> None:
        """Write one message as one frame; frames never interleave.

        Raises :class:`MessageTooLarge` or :class:`UnencodableMessage` before writing.
        """
        frame = self._encode(message)
        if not self._write_now(frame):  # else it is in the pipe already
            await self._write(frame)

    async def request(self, method: str, params: Any = None) -> Any:
        """Send a request and return its result; an error response raises :class:`RpcError`.

        Cancelling the awaiting task sends ``$/cancel_request`` for it.
        """
        if method.startswith("rpc."):
            _reserved_method(method)
        request_id = self._next_id
        self._next_id += 1
        message: dict[str, Any] = {
            "jsonrpc": _VERSION,
            "id": request_id,
            "method": method,
        }
        if params is not None:
            message["params"] = params
        # Refused here, before anything is pending or written (_encode, inline).
        frame = encode_message(message)
        if len(frame) - 1 > self._max_send_bytes:
            raise MessageTooLarge(len(frame) - 1, self._max_send_bytes)
        if self._routed:
            frame = routed(frame, message)
        key = str(request_id)  # _id_key of an int
        future: asyncio.Future[tuple[Any, _Lane | None, int]]
        future = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        self._pending_calls[key] = (_session_key(params), method)
        try:
            if not self._write_now(frame):
                await self._write(frame)
            result, lane, seen = await future
        except asyncio.CancelledError:
            if self._pending.pop(key, None) is not None and not self._ended:
                with contextlib.suppress(Exception):
                    await self.notify(CANCEL_REQUEST_METHOD, {"requestId": request_id})
            raise
        finally:
            self._pending.pop(key, None)
            self._pending_calls.pop(key, None)
        if lane is not None and lane.done < seen:
            await self._notifications_delivered(lane, seen)
        return result

    async def notify(self, method: str, params: Any = None) -> None:
        """Send a notification (no id, no reply)."""
        if method.startswith("rpc."):
            _reserved_method(method)
        message: dict[str, Any] = {"jsonrpc": _VERSION, "method": method}
        if params is not None:
            message["params"] = params
        frame = encode_message(message)  # _encode, inline: once per notification sent
        if len(frame) - 1 > self._max_send_bytes:
            raise MessageTooLarge(len(frame) - 1, self._max_send_bytes)
        if self._routed:
            frame = routed(frame, message)
        if not self._write_now(frame):  # else it is in the pipe already
            await self._write(frame)

    async def _notifications_delivered(self, lane: _Lane, seen: int) -> None:
        """Wait until the notifications of ``lane`` that arrived before a response have
        been handled (``seen``: how many that lane had received then).

        A prompt's streamed updates arrive before its response; the caller must see them
        all before the call returns (ACP-V1-PROMPT-UPDATES-BEFORE-RESPONSE). Other sessions'
        notifications are not waited for. Skipped inside that lane's own handler (it would
        wait for itself).
        """
        if lane.done >= seen or self._ended:
            return
        if lane.task is not None and asyncio.current_task() is lane.task:
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        lane.waiters.append((seen, waiter))
        await waiter

    # -- receiving ---------------------------------------------------------------------

    async def _read_loop(self) -> None:
        try:
            async for frame in self._transport.frames(self._max_frame_bytes):
                if self._room is not None:  # filled by frames taken as they arrived
                    await self._room.wait()
                try:
                    if isinstance(frame, Oversized):
                        await self._refuse_oversized(frame)
                    elif isinstance(frame, Inbound):  # decoded once, by the transport's seam
                        self._frame_bytes = len(frame.frame)
                        await self._handle_message(frame.message)
                    else:
                        await self._handle_frame(frame)
                except ConnectionClosed:
                    raise
                except Exception:  # one bad frame must never end the connection
                    logger.exception("%s: failed to handle a frame", self._name)
                if self._room is not None:  # a queue is full: read on once there is room
                    await self._room.wait()
            await self._finish_received()
        except asyncio.CancelledError:
            pass
        except (ConnectionError, OSError) as exc:
            logger.debug("%s: connection ended: %s", self._name, exc)
        finally:
            self._shutdown()

    async def _finish_received(self) -> None:
        """At EOF: let what was already received finish and be answered, for a bounded time.

        A peer may write its last requests and close its end at once (``< requests.jsonl``);
        those requests still get their responses. A peer that went away for good costs at
        most ``eof_grace`` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._eof_grace
        while True:
            # Handlers (and the lanes' notification tasks), then the answers started as each
            # of them finishes.
            work: list[asyncio.Future[Any]] = [t for t in self._all_tasks() if not t.done()]
            work = [t for t in work if t is not self._reader_task]
            remaining = deadline - loop.time()
            if not work or remaining <= 0:
                return
            await asyncio.wait(work, timeout=remaining)

    async def _refuse_oversized(self, frame: Oversized) -> None:
        request_id, has_method = sniff_envelope(frame.prefix)
        logger.warning("%s: refused a message over %d bytes", self._name, frame.limit)
        reason = {"reason": f"message exceeds {frame.limit} bytes"}
        if request_id is NOT_FOUND:
            if not has_method:  # a request whose id we cannot see: answered with a null id
                await self._send_response(_error_response(None, InvalidRequestError(data=reason)))
            return  # a notification is never answered
        if not _valid_id(request_id):
            request_id = None
        if has_method:
            await self._send_response(_error_response(request_id, InvalidRequestError(data=reason)))
            return
        # An oversized response to one of our calls: that call fails, nothing is sent.
        future = self._pending.pop(_id_key(request_id), None)
        if future is not None and not future.done():
            future.set_exception(MalformedResponse(f"response exceeds {frame.limit} bytes", reason))

    def _take_now(self, frame: bytes) -> bool:
        """Accept ``frame`` in the callback that received it (``StreamTransport``), as
        :meth:`_handle_frame` would; False leaves it to the read loop: a frame that is not
        one JSON object, one that is answered with an error, or any while reading is paused
        or the connection closed."""
        if self._room is not None or self._ended:
            return False
        try:
            message = decode_frame(frame)
        except (ValueError, RecursionError):
            return False  # the read loop answers it (-32700)
        if type(message) is not dict or message.get("jsonrpc") != _VERSION:
            return False
        # A well-formed request, notification or response (then _accept answers no error):
        # the common case, checked cheaply.
        method = message.get("method")
        if type(method) is str:
            params = message.get("params")
            if params is not None and type(params) is not dict and type(params) is not list:
                return False
            request_id = message.get("id")
            kind = type(request_id)
            if not (request_id is None or kind is int or kind is str or _valid_id(request_id)):
                return False
        elif method is not None or "method" in message:
            return False  # a method that is not a string: the read loop answers it
        elif "result" not in message and "error" not in message:
            return False  # neither request nor response
        self._frame_bytes = len(frame)
        try:
            error = self._accept(message)
        except Exception:  # one bad frame must never end the connection
            logger.exception("%s: failed to handle a frame", self._name)
            return True
        if error is not None:  # not expected after the test above; answered all the same
            self._spawn(self._send_response(error))
        return True

    async def _handle_frame(self, frame: bytes) -> None:
        if not frame.strip():
            return  # blank lines carry no message
        self._frame_bytes = len(frame)  # what its notifications count against the queue bound
        try:
            message = decode_frame(frame)
        except (ValueError, RecursionError) as exc:
            # RecursionError: nesting deeper than the parser's stack (e.g. 10 MB of "[").
            await self._send_response(
                _error_response(None, ParseError(data={"reason": str(exc)[:200]}))
            )
            return
        await self._handle_message(message)

    async def _handle_message(self, message: Any) -> None:
        if isinstance(message, list):
            await self._accept_batch(message)
            return
        error = self._accept(message)
        if error is not None:
            await self._send_response(error)

    async def _accept_batch(self, messages: list[Any]) -> None:
        if not messages:
            reason = {"reason": "an empty batch"}
            await self._send_response(_error_response(None, InvalidRequestError(data=reason)))
            return
        batch = _Batch()
        for message in messages:
            error = self._accept(message, batch)
            if error is not None:
                batch.responses.append(error)
        if not batch.pending:
            batch.complete.set()
        # Spawned: the batch's requests may take long, the read loop must go on meanwhile.
        self._spawn(self._send_batch(batch))

    async def _send_batch(self, batch: _Batch) -> None:
        """The batch's responses as one array, or none at all when there are none."""
        await batch.complete.wait()
        if not batch.responses:
            return  # notifications (and responses) only: nothing is sent, not even []
        try:
            frame = self._encode(batch.responses)
        except (MessageTooLarge, UnencodableMessage):
            # Too long (or unencodable) together: each goes alone, with its own fallback.
            for response in batch.responses:
                await self._send_response(response)
            return
        try:
            await self._write(frame)
        except ConnectionClosed:
            logger.debug("%s: peer gone, batch response dropped", self._name)

    def _accept(self, message: Any, batch: _Batch | None = None) -> dict[str, Any] | None:
        """Route one message; return an error response to send now, or None."""
        if not isinstance(message, dict):
            return _error_response(None, InvalidRequestError(data={"reason": "not an object"}))
        request_id = message.get("id", _NO_ID)
        kind = type(request_id)
        valid = kind is int or kind is str or (request_id is not _NO_ID and _valid_id(request_id))
        echo_id = request_id if valid else None
        if message.get("jsonrpc") != _VERSION:
            return _error_response(
                echo_id, InvalidRequestError(data={"reason": 'jsonrpc must be "2.0"'})
            )
        if "method" not in message:
            if self._accept_response(message):
                return None
            return _error_response(echo_id, InvalidRequestError(data={"reason": "no method"}))
        method = message["method"]
        if not isinstance(method, str):
            return _error_response(
                echo_id, InvalidRequestError(data={"reason": "method must be a string"})
            )
        if request_id is not _NO_ID and not valid:
            return _error_response(None, InvalidRequestError(data={"reason": "invalid id"}))
        params = message.get("params")
        # "params": null is read as omitted: other SDKs send it for a request without params.
        if params is not None and not isinstance(params, (dict, list)):
            if request_id is _NO_ID:
                return None  # a notification is never answered, even when malformed
            return _error_response(
                request_id,
                InvalidRequestError(data={"reason": "params must be structured"}),
            )
        if request_id is _NO_ID:
            self._accept_notification(method, params)
        else:
            self._start_request(request_id, method, params, batch)
        return None

    def _accept_response(self, message: dict[str, Any]) -> bool:
        """Settle the call a response answers; False when it is no response to a call of ours."""
        request_id = message.get("id")
        has_result, has_error = "result" in message, "error" in message
        if type(request_id) is int:  # ours are: _id_key's text, inline
            key: str | None = str(request_id)
        else:
            key = _id_key(request_id) if _valid_id(request_id) else None
        future = None if key is None else self._pending.get(key)
        if key is None or future is None or future.done():
            if has_result or has_error:
                logger.warning("%s: dropped a response to unknown id %r", self._name, request_id)
                return True
            return False  # {"jsonrpc", "id"} alone, for no call of ours: an invalid request
        del self._pending[key]
        lane_key, method = self._pending_calls.get(key, (None, ""))
        if has_result == has_error:
            future.set_exception(
                MalformedResponse("the response has neither or both of result and error")
            )
        elif has_error:
            error = RpcError.from_json(message["error"])
            error.peer_call = method  # so a handler that lets it escape answers -32603
            future.set_exception(error)
        else:
            # The call's session lane, and how many notifications it had by now: the call
            # returns once those are handled (the lane object, not its key: an idle lane is
            # forgotten and a new one starts counting from zero).
            lane = self._lanes.get(lane_key)
            future.set_result((message["result"], lane, 0 if lane is None else lane.received))
        return True

    def _accept_notification(self, method: str, params: Any) -> None:
        if method == CANCEL_REQUEST_METHOD:
            # Acted on here, not queued: it must overtake the request it cancels.
            request_id = params.get("requestId") if isinstance(params, dict) else None
            if _valid_id(request_id):
                for record in list(self._inbound.get(_id_key(request_id), [])):
                    if record.task is not None and not record.task.done():
                        if record.context is not None:
                            record.context.cancel(CANCEL_REQUEST_METHOD)
                        record.task.cancel()
                        if not record.started:  # its handler will never run: answered here
                            self._answer(record, _CANCELLED)
            return
        key = None  # _session_key, inline: the lane is the params' sessionId
        if type(params) is dict:
            session_id = params.get("sessionId")
            if type(session_id) is str:
                key = session_id
        lane = self._lanes.get(key)
        if lane is None:
            lane = self._lanes[key] = _Lane(key)
        size = self._frame_bytes
        lane.queue.append((method, params, size))
        lane.received += 1
        self._queued += 1
        self._queued_bytes += size
        if lane.task is None:
            lane.task = asyncio.get_running_loop().create_task(self._drain_lane(lane))
        if self._room is None and (
            len(lane.queue) >= self._max_queued_per_session
            or self._queued >= self._max_queued_total
            or self._queued_bytes >= self._max_queued_bytes
        ):
            self._room = asyncio.Event()  # the read loop waits for it before the next frame

    def _start_request(
        self, request_id: Any, method: str, params: Any, batch: _Batch | None = None
    ) -> None:
        session_id = params.get("sessionId") if isinstance(params, dict) else None
        context = RequestContext(
            method, request_id, session_id if isinstance(session_id, str) else None
        )
        record = _Inbound(request_id, method, context, batch)
        record.task = start_in_context(context, self._serve(record, params))
        if batch is not None:
            batch.pending += 1
        # Duplicate ids in flight are each tracked (and each cancelled by a cancel for it).
        self._inbound.setdefault(record.key, []).append(record)

    async def _serve(self, record: _Inbound, params: Any) -> None:
        """Run the handler and answer, in the handler's own task: no callback and no task
        per request beyond it (a closed connection sends nothing)."""
        record.started = True
        try:
            result = await self._dispatcher.handle_request(record.method, params)
        except asyncio.CancelledError:
            # By $/cancel_request or by the handler itself: the same -32800 either way
            # (ACP-V1-CANCEL-INTERNAL-SHOULD).
            self._answer(record, _CANCELLED)
            raise
        except Exception as exc:  # noqa: BLE001  # every failure is answered (_outcome)
            self._answer(record, exc)
        else:
            self._answer(record, _RESULT, result)

    def cancel_session(self, session_id: str, reason: str) -> int:
        """Mark every in-flight request of the peer's that carries ``sessionId`` ==
        ``session_id`` cancelled (``cancellation.py``), without cancelling its task; how many."""
        marked = 0
        for records in self._inbound.values():
            for record in records:
                context = record.context
                if (
                    context is not None
                    and context.session_id == session_id
                    and record.task is not None
                    and not record.task.done()
                ):
                    context.cancel(reason)
                    marked += 1
        return marked

    def _answer(self, record: _Inbound, outcome: Any, result: Any = None) -> None:
        """Send the request's one response for ``outcome`` (``_RESULT`` with the handler's
        ``result``, the exception it raised, or ``_CANCELLED``): written at once when the pipe
        takes it, else by a task that waits for room; a request of a batch hands it to the batch
        instead (a closed connection sends nothing)."""
        records = self._inbound.get(record.key, [])
        if record not in records:
            return  # answered already
        records.remove(record)
        if not records:
            self._inbound.pop(record.key, None)
        if self._ended:
            if record.batch is not None:
                record.batch.add(None)  # nothing will be sent: the batch is not left waiting
            return
        if outcome is _RESULT:  # the usual outcome
            response: dict[str, Any] | None = {
                "jsonrpc": _VERSION,
                "id": record.request_id,
                "result": result,
            }
        else:
            response = self._outcome(record, outcome)
        if record.batch is not None:
            record.batch.add(response)
        elif response is not None:
            frame = self._response_frame(response)
            if not self._write_now(frame):
                self._spawn(self._write_response(frame))

    def _outcome(self, record: _Inbound, exc: Any) -> dict[str, Any] | None:
        """The response a finished handler owes (None: nothing is owed)."""
        method = record.method
        if exc is _CANCELLED:
            response = _error_response(record.request_id, RequestCancelledError())
        elif isinstance(exc, RpcError) and exc.peer_call is None:
            response = _error_response(record.request_id, exc)  # the handler's own answer
        elif isinstance(exc, RpcError):
            # The peer's answer to a call the handler made, left unhandled: this request
            # failed, and says why; the peer's code is not ours to answer with.
            logger.warning("%s: %s failed: %s answered %s", self._name, method, exc.peer_call, exc)
            what = f"{exc.peer_call} was answered {exc.code} ({exc.message})"
            response = _error_response(
                record.request_id,
                InternalError(
                    f"Internal error: {method} failed: {what}"[:500],
                    {"call": exc.peer_call, "code": exc.code, "message": exc.message[:200]},
                ),
            )
        elif isinstance(exc, ConnectionClosed):  # the peer went away mid-request: say why, once
            logger.info("%s: %s ended: %s", self._name, method, exc)
            return None
        else:
            logger.error("%s: %s failed", self._name, method, exc_info=exc)
            response = _error_response(
                record.request_id, InternalError(data={"details": str(exc)[:500]})
            )
        return response

    async def _drain_lane(self, lane: _Lane) -> None:
        """Handle ``lane``'s notifications in order, one at a time, until it is empty."""
        handle = self._dispatcher.handle_notification
        queue = lane.queue
        try:
            while queue:
                method, params, size = queue[0]
                try:
                    await handle(method, params)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    logger.exception("%s: notification %s failed", self._name, method)
                finally:
                    queue.popleft()
                    self._queued -= 1
                    self._queued_bytes -= size
                    lane.done += 1
                    if lane.waiters:
                        lane.release()
                    if self._room is not None and self._has_room():
                        self._room.set()
                        self._room = None
        finally:
            lane.task = None
            if not queue and self._lanes.get(lane.key) is lane:
                # An idle lane is forgotten: a peer opening sessions without end costs nothing.
                # Its waiters, if any, hold counts it has reached; they were released above.
                del self._lanes[lane.key]

    def _has_room(self) -> bool:
        if self._queued >= self._max_queued_total or self._queued_bytes >= self._max_queued_bytes:
            return False
        limit = self._max_queued_per_session
        return all(len(lane.queue) < limit for lane in self._lanes.values())

    # -- helpers -----------------------------------------------------------------------

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_response(self, response: dict[str, Any]) -> None:
        """Send a response; one that cannot go as it is goes as a -32603 for the same id."""
        await self._write_response(self._response_frame(response))

    def _response_frame(self, response: dict[str, Any]) -> bytes:
        try:
            frame = encode_message(response)  # _encode, inline
            if len(frame) - 1 > self._max_send_bytes:
                raise MessageTooLarge(len(frame) - 1, self._max_send_bytes)
            return routed(frame, response) if self._routed else frame
        except (MessageTooLarge, UnencodableMessage) as exc:
            logger.error(
                "%s: response to id %r not sendable: %s",
                self._name,
                response.get("id"),
                exc,
            )
            fallback = InternalError(data={"details": str(exc)[:500]})
            return self._encode(_error_response(response.get("id"), fallback))

    async def _write_response(self, frame: bytes) -> None:
        try:
            await self._write(frame)
        except ConnectionClosed:
            logger.debug("%s: peer gone, response dropped", self._name)


def _error_response(request_id: Any, error: RpcError) -> dict[str, Any]:
    return {"jsonrpc": _VERSION, "id": request_id, "error": error.to_json()}


def _reserved_method(method: str) -> None:
    # ACP-V1-JSONRPC-RPC-PREFIX-RESERVED: "rpc." is JSON-RPC's own (the callers test the
    # prefix inline: this runs only to refuse).
    raise ValueError(f"method names beginning with 'rpc.' are reserved: {method!r}")
