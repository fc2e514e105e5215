# Edit acpgen/shipped/runtime/rpc.py, not this file: acpgen generate writes it.
"""JSON-RPC 2.0 over newline-delimited JSON: the engine every ACP connection runs on.

Copied verbatim into every generated package by acpgen.

One :class:`Connection` per peer, over any asyncio ``StreamReader``/``StreamWriter`` pair
(stdio, a subprocess' pipes, a socket). It correlates responses with requests by id, runs
inbound requests concurrently, delivers notifications in the order they arrived, and never
lets one bad frame end the connection. What it guarantees:

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
import contextlib
import json
import logging
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
    read_frames,
    sniff_envelope,
)

__all__ = [
    # Re-exported from .errors, where they are defined.
    "AUTHENTICATION_REQUIRED",
    "CANCEL_REQUEST_METHOD",
    "DEFAULT_EOF_GRACE",
    "DEFAULT_MAX_FRAME_BYTES",
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
# After the peer's EOF, how long requests already received may take to be answered.
DEFAULT_EOF_GRACE = 5.0
_VERSION = "2.0"
_NO_ID = object()  # a message without an "id" member (a notification)


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
    # ACP-V1-JSONRPC-ID-TYPE: a string, a number or null (never a boolean).
    if isinstance(request_id, bool):
        return False
    return request_id is None or isinstance(request_id, (str, int, float))


class _Inbound:
    """One request of the peer's: its handler task."""

    __slots__ = ("batch", "context", "key", "request_id", "task")

    def __init__(
        self,
        request_id: Any,
        task: asyncio.Task[Any],
        context: RequestContext | None = None,
        batch: _Batch | None = None,
    ) -> None:
        self.key = _id_key(request_id)
        self.request_id = request_id
        self.task = task
        self.context = context
        self.batch = batch


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
    default the same) the longest this side writes: the peer's limit.
    """

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        dispatcher: Dispatcher,
        *,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        max_send_bytes: int | None = None,
        name: str = "acp",
        eof_grace: float = DEFAULT_EOF_GRACE,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._dispatcher = dispatcher
        self._max_frame_bytes = max_frame_bytes
        self._max_send_bytes = max_frame_bytes if max_send_bytes is None else max_send_bytes
        self._name = name
        self._eof_grace = eof_grace
        self._next_id = 0
        self._pending: dict[str, asyncio.Future[tuple[Any, int]]] = {}
        self._inbound: dict[str, list[_Inbound]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._write_lock = asyncio.Lock()
        self._notifications: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._notifications_received = 0
        self._notifications_done = 0
        self._delivery_waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._reader_task: asyncio.Task[None] | None = None
        self._notification_task: asyncio.Task[None] | None = None
        self._closed = asyncio.Event()
        self._writer_closed = False

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Start reading frames (idempotent)."""
        if self._reader_task is None:
            self._reader_task = asyncio.create_task(self._read_loop(), name=f"{self._name}.read")
            self._notification_task = asyncio.create_task(
                self._notification_loop(), name=f"{self._name}.notifications"
            )

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
            with contextlib.suppress(Exception):
                if self._writer.can_write_eof():
                    self._writer.write_eof()
            with contextlib.suppress(Exception):
                self._writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._writer.wait_closed(), 2.0)
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
        tasks = [r.task for records in self._inbound.values() for r in records]
        tasks.extend(self._tasks)
        tasks.extend(t for t in (self._reader_task, self._notification_task) if t is not None)
        return tasks

    def _shutdown(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionClosed("connection closed"))
        self._pending.clear()
        current = asyncio.current_task()
        for task in self._all_tasks():
            if task is not current and task is not self._reader_task:
                task.cancel()
        self._release_delivery_waiters(force=True)

    # -- sending -----------------------------------------------------------------------

    def _encode(self, message: Any) -> bytes:
        frame = encode_message(message)
        if len(frame) - 1 > self._max_send_bytes:
            raise MessageTooLarge(len(frame) - 1, self._max_send_bytes)
        return frame

    def _write_now(self, frame: bytes) -> bool:
        """Write ``frame`` if it goes straight into the pipe (the usual case: nothing queued,
        nobody waiting for room); False, having written nothing, when it must wait."""
        transport = self._writer.transport
        if self._write_lock.locked() or transport.is_closing() or self._closed.is_set():
            return False
        if transport.get_write_buffer_size():
            return False
        try:
            self._writer.write(frame)  # whole: write() never splits a frame among others
        except (ConnectionError, RuntimeError):
            return False
        if transport.get_write_buffer_size():  # part of it still queued: drained in a task
            self._spawn(self._write_response(b""))
        return True

    async def _write(self, frame: bytes) -> None:
        if self._closed.is_set():
            raise ConnectionClosed("connection closed")
        if frame and self._write_now(frame):
            return
        try:
            async with self._write_lock:
                if frame:
                    self._writer.write(frame)
                await self._writer.drain()
        except (ConnectionError, RuntimeError) as exc:
            raise ConnectionClosed(str(exc) or "connection lost") from exc

    async def send_message(self, message: Any) -> None:
        """Write one message as one frame; frames never interleave.

        Raises :class:`MessageTooLarge` or :class:`UnencodableMessage` before writing.
        """
        await self._write(self._encode(message))

    async def request(self, method: str, params: Any = None) -> Any:
        """Send a request and return its result; an error response raises :class:`RpcError`.

        Cancelling the awaiting task sends ``$/cancel_request`` for it.
        """
        _check_method_name(method)
        request_id = self._next_id
        self._next_id += 1
        message: dict[str, Any] = {
            "jsonrpc": _VERSION,
            "id": request_id,
            "method": method,
        }
        if params is not None:
            message["params"] = params
        frame = self._encode(message)  # refused here, before anything is pending or written
        key = _id_key(request_id)
        future: asyncio.Future[tuple[Any, int]] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            await self._write(frame)
            result, seen = await future
        except asyncio.CancelledError:
            if self._pending.pop(key, None) is not None and not self._closed.is_set():
                with contextlib.suppress(Exception):
                    await self.notify(CANCEL_REQUEST_METHOD, {"requestId": request_id})
            raise
        finally:
            self._pending.pop(key, None)
        await self._notifications_delivered(seen)
        return result

    async def notify(self, method: str, params: Any = None) -> None:
        """Send a notification (no id, no reply)."""
        _check_method_name(method)
        message: dict[str, Any] = {"jsonrpc": _VERSION, "method": method}
        if params is not None:
            message["params"] = params
        await self.send_message(message)

    async def _notifications_delivered(self, seen: int) -> None:
        """Wait until every notification that arrived before a response has been handled.

        A prompt's streamed updates arrive before its response; the caller must see them
        all before the call returns (ACP-V1-PROMPT-UPDATES-BEFORE-RESPONSE). Skipped inside
        a notification handler (it would wait for itself).
        """
        if asyncio.current_task() is self._notification_task:
            return
        if self._notifications_done >= seen or self._closed.is_set():
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._delivery_waiters.append((seen, waiter))
        await waiter

    def _release_delivery_waiters(self, force: bool = False) -> None:
        keep: list[tuple[int, asyncio.Future[None]]] = []
        for seen, waiter in self._delivery_waiters:
            if force or self._notifications_done >= seen:
                if not waiter.done():
                    waiter.set_result(None)
            else:
                keep.append((seen, waiter))
        self._delivery_waiters = keep

    # -- receiving ---------------------------------------------------------------------

    async def _read_loop(self) -> None:
        try:
            async for frame in read_frames(self._reader, self._max_frame_bytes):
                try:
                    if isinstance(frame, Oversized):
                        await self._refuse_oversized(frame)
                    else:
                        await self._handle_frame(frame)
                except ConnectionClosed:
                    raise
                except Exception:  # one bad frame must never end the connection
                    logger.exception("%s: failed to handle a frame", self._name)
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
        if self._notifications_done < self._notifications_received:
            self._spawn(self._notifications_delivered(self._notifications_received))
        while True:
            # Handlers, then the answers started as each of them finishes.
            work: list[asyncio.Future[Any]] = [t for t in self._all_tasks() if not t.done()]
            work = [t for t in work if t not in (self._reader_task, self._notification_task)]
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

    async def _handle_frame(self, frame: bytes) -> None:
        if not frame.strip():
            return  # blank lines carry no message
        try:
            message = decode_frame(frame)
        except (ValueError, RecursionError) as exc:
            # RecursionError: nesting deeper than the parser's stack (e.g. 10 MB of "[").
            await self._send_response(
                _error_response(None, ParseError(data={"reason": str(exc)[:200]}))
            )
            return
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
        echo_id = request_id if request_id is not _NO_ID and _valid_id(request_id) else None
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
        if request_id is not _NO_ID and not _valid_id(request_id):
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
        future = self._pending.get(_id_key(request_id)) if _valid_id(request_id) else None
        if future is None or future.done():
            if has_result or has_error:
                logger.warning("%s: dropped a response to unknown id %r", self._name, request_id)
                return True
            return False  # {"jsonrpc", "id"} alone, for no call of ours: an invalid request
        del self._pending[_id_key(request_id)]
        if has_result == has_error:
            future.set_exception(
                MalformedResponse("the response has neither or both of result and error")
            )
        elif has_error:
            future.set_exception(RpcError.from_json(message["error"]))
        else:
            future.set_result((message["result"], self._notifications_received))
        return True

    def _accept_notification(self, method: str, params: Any) -> None:
        if method == CANCEL_REQUEST_METHOD:
            # Acted on here, not queued: it must overtake the request it cancels.
            request_id = params.get("requestId") if isinstance(params, dict) else None
            if _valid_id(request_id):
                for record in self._inbound.get(_id_key(request_id), []):
                    if not record.task.done():
                        if record.context is not None:
                            record.context.cancel(CANCEL_REQUEST_METHOD)
                        record.task.cancel()
            return
        self._notifications_received += 1
        self._notifications.put_nowait((method, params))

    def _start_request(
        self, request_id: Any, method: str, params: Any, batch: _Batch | None = None
    ) -> None:
        session_id = params.get("sessionId") if isinstance(params, dict) else None
        context = RequestContext(
            method, request_id, session_id if isinstance(session_id, str) else None
        )
        handler = start_in_context(
            context,
            lambda: asyncio.ensure_future(self._dispatcher.handle_request(method, params)),
        )
        record = _Inbound(request_id, handler, context, batch)
        if batch is not None:
            batch.pending += 1
        # Duplicate ids in flight are each tracked (and each cancelled by a cancel for it).
        self._inbound.setdefault(record.key, []).append(record)
        # Answered once the handler is done, by a task started then: no task sits waiting
        # for each handler (a closed connection sends nothing, so starts none).
        handler.add_done_callback(lambda _: self._answer(record, method))

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
                    and not record.task.done()
                ):
                    context.cancel(reason)
                    marked += 1
        return marked

    def _answer(self, record: _Inbound, method: str) -> None:
        """Send the finished handler's one response (whatever became of it): written at once
        when the pipe takes it, else by a task that waits for room; a request of a batch hands
        it to the batch instead (a closed connection sends nothing)."""
        records = self._inbound.get(record.key, [])
        if record in records:
            records.remove(record)
        if not records:
            self._inbound.pop(record.key, None)
        if self._closed.is_set():
            if record.batch is not None:
                record.batch.add(None)  # nothing will be sent: the batch is not left waiting
            return
        response = self._outcome(record, method)
        if record.batch is not None:
            record.batch.add(response)
        elif response is not None:
            frame = self._response_frame(response)
            if not self._write_now(frame):
                self._spawn(self._write_response(frame))

    def _outcome(self, record: _Inbound, method: str) -> dict[str, Any] | None:
        """The response a finished handler's task owes (None: nothing is owed)."""
        task = record.task
        if task.cancelled():
            # Cancelled by $/cancel_request, possibly before it started, or by the handler
            # itself: the same -32800 either way (ACP-V1-CANCEL-INTERNAL-SHOULD).
            response = _error_response(record.request_id, RequestCancelledError())
        elif (exc := task.exception()) is None:
            response = {
                "jsonrpc": _VERSION,
                "id": record.request_id,
                "result": task.result(),
            }
        elif isinstance(exc, RpcError):
            response = _error_response(record.request_id, exc)
        elif isinstance(exc, ConnectionClosed):  # the peer went away mid-request: say why, once
            logger.info("%s: %s ended: %s", self._name, method, exc)
            return None
        else:
            logger.error("%s: %s failed", self._name, method, exc_info=exc)
            response = _error_response(
                record.request_id, InternalError(data={"details": str(exc)[:500]})
            )
        return response

    async def _notification_loop(self) -> None:
        while True:
            method, params = await self._notifications.get()
            try:
                await self._dispatcher.handle_notification(method, params)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("%s: notification %s failed", self._name, method)
            finally:
                self._notifications_done += 1
                self._release_delivery_waiters()

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
            return self._encode(response)
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


def _check_method_name(method: str) -> None:
    # ACP-V1-JSONRPC-RPC-PREFIX-RESERVED: "rpc." is JSON-RPC's own.
    if method.startswith("rpc."):
        raise ValueError(f"method names beginning with 'rpc.' are reserved: {method!r}")
