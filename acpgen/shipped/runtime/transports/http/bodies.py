"""Request bodies read within the limits, and refusals that leave the HTTP/2 connection whole.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

A body is read under four bounds at once: its size (``max_body_bytes``, 413, also on its
``Content-Length``), its time (``body_timeout`` from the first read: 408, for a
``Content-Length`` promising more than comes, or a chunked body that never ends), the bytes
all bodies being read hold together (the endpoint's :class:`~.ledger.ByteBudget`,
``max_partial_bytes``, of which one peer holds one largest message at most: 503), and the
number of bodies one peer may have in reading at once (a :class:`~.ledger.SlotLedger` with
the per-peer share: 429): a request still being sent holds the server's memory and a task,
so it counts.

A refusal made before the body has been read whole is sent at once but completed only when
the client has sent the rest (discarded, for ``body_timeout`` at most). hypercorn (0.18)
forgets an HTTP/2 stream once its response is complete, and a DATA frame arriving for it
afterwards raised ``KeyError`` in the connection's task: a traceback on stderr and the TCP
connection, with every other request on it, gone. Any client whose body follows its
headers on the wire hits that race when it is refused early.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Hashable
from typing import Any

from ..endpoint import RETRY_AFTER, refusal
from ..extra import missing_extra
from ..ledger import ByteBudget, SlotLedger
from ..options import ServerOptions
from ..quietlog import EventLog

try:
    from starlette.requests import Request
    from starlette.responses import Response
except ImportError as exc:
    raise missing_extra(exc) from exc

__all__ = ["BodyReader", "after_body"]


class _AfterBody(Response):
    """``response``, completed once the request's body has been read to its end (discarded)
    or ``timeout`` seconds have passed, or the client has gone."""

    def __init__(self, response: Response, timeout: float) -> None:
        self._inner = response
        self._timeout = timeout
        self.status_code = response.status_code
        self.background = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        inner = self._inner
        await send(
            {
                "type": "http.response.start",
                "status": inner.status_code,
                "headers": inner.raw_headers,
            }
        )
        await send({"type": "http.response.body", "body": inner.body, "more_body": True})
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self._timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request" or not message.get("more_body", False):
                        break
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def after_body(response: Response, options: ServerOptions) -> Response:
    """``response`` for a request whose body has not been read to its end (see the module)."""
    return _AfterBody(response, options.body_timeout)


_DONE = "acp.body_done"  # set in the request's scope once nothing more of its body will come


class BodyReader:
    """Reads request bodies within the endpoint's limits (see the module)."""

    def __init__(
        self, options: ServerOptions, budget: ByteBudget, reads: SlotLedger, events: EventLog
    ) -> None:
        self._options = options
        self._budget = budget
        self._reads = reads
        self._events = events

    @staticmethod
    def done(request: Request) -> bool:
        """Whether nothing more of the request's body will come (read to its end, timed out,
        or its client gone): a refusal then needs no :func:`after_body`."""
        return bool(request.scope.get(_DONE))

    async def read(self, request: Request, peer: Hashable | None) -> bytes | Response:
        """The whole body, or the response refusing it (to send through :func:`after_body`
        unless :meth:`done`)."""
        options = self._options
        limit = options.max_body_bytes
        slot = self._reads.take(peer)
        if slot is None:
            self._events.say("refused a request: its peer has too many bodies in reading")
            return refusal(429, "too many requests from this address at once", RETRY_AFTER)
        charge = self._budget.charge(peer)
        try:
            declared = request.headers.get("content-length")
            if declared is not None and declared.isdigit() and int(declared) > limit:
                return refusal(413, f"body over {limit} bytes")
            body = bytearray()
            async with asyncio.timeout(options.body_timeout):
                while True:
                    message = await request.receive()
                    if message["type"] != "http.request":  # http.disconnect
                        request.scope[_DONE] = True
                        self._events.say("a client went away mid-body")
                        return Response(status_code=400)  # nobody is left to read it
                    chunk: bytes = message.get("body", b"")
                    if not message.get("more_body", False):
                        request.scope[_DONE] = True
                    if chunk:
                        if not charge.add(len(chunk)):
                            self._events.say("refused a body: the partial-message budget is spent")
                            return refusal(503, "the server is busy", RETRY_AFTER)
                        if len(body) + len(chunk) > limit:
                            return refusal(413, f"body over {limit} bytes")
                        body += chunk
                    if request.scope.get(_DONE):
                        return bytes(body)
        except TimeoutError:
            request.scope[_DONE] = True  # what may still come is not waited for
            self._events.say("a request body did not arrive within body_timeout")
            return refusal(408, f"the body did not arrive within {options.body_timeout:g} s")
        finally:
            charge.clear()
            slot.release()
