# Edit acpgen/shipped/runtime/transports/hypercorn_guard.py, not this file: acpgen generate writes it.
"""What the endpoint needs of hypercorn (0.18) beyond its options: bounded work on a WebSocket
before the message limit applies, and no send on a stream whose client has gone.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

Two things happen in the HTTP server, on a WebSocket, before the application sees a message:

* **Compression.** hypercorn (0.18) accepts permessage-deflate whenever a client offers it,
  and its WebSocket library (wsproto) inflates each frame with no bound before hypercorn
  compares the message with its size limit: one 199 KiB compressed frame became 200 MiB of
  memory, which the process kept. ACP messages are small JSON and a WebSocket is one
  connection's; the server does not compress. The offer is ignored (the handshake answers
  without the extension, which RFC 7692 allows), and a compressed frame is then a protocol
  error that closes the socket (1002) unread.
* **Fragments.** A message arriving in fragments is held by hypercorn until its last one;
  each socket's message may be ``max_frame_bytes`` long, so a thousand sockets held 16 GiB.
  Its bytes are charged to the endpoint's :class:`~.ledger.ByteBudget` as they arrive
  (``max_partial_bytes`` across every connection, one largest message per peer) and given
  back when the message is whole or the socket closes; a fragment over the budget closes
  that socket with 1009.

And one on HTTP: once an HTTP/2 connection has closed, a response the application still
sends on one of its streams waits forever for a flow-control window that no task will ever
open (hypercorn's sender has ended): a client gone mid-request left its request's task, and
what it holds, until the server stopped. Such a send is dropped (nobody could read it).

All of it reaches into hypercorn's stream object for one request (the ASGI ``send``
callable hypercorn hands the application is a method of it): :func:`guard` is applied by
``serve_app`` to each request before the application sees it. When the server is not
hypercorn 0.18's (the endpoint mounted under another ASGI server), nothing is changed:
that server's own limits apply (the ``websockets`` library's server, under uvicorn,
inflates within its ``max_size``).
"""

from __future__ import annotations

from typing import Any

from .ledger import ByteBudget, Charge
from .security import peer_key

__all__ = ["guard"]

try:
    from hypercorn.protocol.http_stream import HTTPStream
    from hypercorn.protocol.ws_stream import FrameTooLargeError, WebsocketBuffer, WSStream
except ImportError:  # another hypercorn than 0.18's layout: nothing is changed (see above)
    _HYPERCORN = False
else:
    _HYPERCORN = True


if _HYPERCORN:

    class _BudgetedBuffer(WebsocketBuffer):
        """hypercorn's message buffer, its bytes charged to the endpoint's budget."""

        def __init__(self, max_length: int, charge: Charge) -> None:
            super().__init__(max_length)
            self.charge = charge

        def extend(self, event: Any) -> None:
            if not self.charge.add(len(event.data)):
                self.charge.clear()
                raise FrameTooLargeError()  # hypercorn closes the socket with 1009
            super().extend(event)

        def clear(self) -> None:
            super().clear()
            self.charge.clear()


def guard(scope: Any, send: Any, budget: ByteBudget) -> tuple[Any, Charge | None]:
    """The ``send`` to hand the application for this request, and the charge of a WebSocket's
    fragments (to clear when it ends; None for HTTP or when ``send`` is not hypercorn's)."""
    stream = getattr(send, "__self__", None)
    if not _HYPERCORN:
        return send, None
    if isinstance(stream, HTTPStream):
        return _unless_closed(stream, send), None
    if not isinstance(stream, WSStream) or scope.get("type") != "websocket":
        return send, None
    handshake = getattr(stream, "handshake", None)
    buffer = getattr(stream, "buffer", None)
    if handshake is None or not isinstance(buffer, WebsocketBuffer) or buffer.value is not None:
        return send, None
    handshake.extensions = None  # the client's offer, as if it had made none
    client = scope.get("client")
    charge = budget.charge(peer_key(str(client[0]) if client else None))
    stream.buffer = _BudgetedBuffer(buffer.max_length, charge)
    return send, charge


def _unless_closed(stream: Any, send: Any) -> Any:
    async def guarded_send(message: Any) -> None:
        if message is not None and stream.closed:
            return  # the client is gone (hypercorn: the stream closed): nobody can read it
        await send(message)

    return guarded_send
