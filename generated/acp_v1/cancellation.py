# Edit acpgen/shipped/runtime/cancellation.py, not this file: acpgen generate writes it.
"""Per-request cancellation, as a request handler sees it.

Copied verbatim into every generated package by acpgen.

Every handler of a peer's request runs with a :class:`RequestContext`, which
:func:`current_request` returns (``None`` outside a request handler). It is cancelled in the
two ways ACP has:

* ``$/cancel_request`` for the request: the context is marked (``reason`` "$/cancel_request")
  and the handler's task is cancelled, so ``asyncio.CancelledError`` arrives at its next
  ``await``; whatever it does, the answer is -32800 (request cancelled). Catch the error only
  to clean up, and re-raise it.
* ``session/cancel`` for the session (an agent's in-flight requests carrying that
  ``sessionId``: its ``session/prompt``): the context is marked (``reason`` "session/cancel")
  and the task is *not* cancelled: the protocol wants the prompt answered normally, with the
  stop reason ``cancelled``, after the agent stopped its work. Check ``is_cancelled`` between
  steps, or ``await wait_cancelled()`` beside the work (``asyncio.wait`` on both).

Nothing is allocated for waiting until a handler asks to wait.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Coroutine
from typing import Any

__all__ = ["RequestContext", "current_request"]


class RequestContext:
    """The peer's request a handler is answering, and whether it was cancelled."""

    __slots__ = ("_event", "method", "reason", "request_id", "session_id")

    def __init__(self, method: str, request_id: Any, session_id: str | None) -> None:
        self.method = method
        self.request_id = request_id
        self.session_id = session_id  # the params' sessionId, when they carry one
        self.reason: str | None = None  # "$/cancel_request" or "session/cancel" once cancelled
        self._event: asyncio.Event | None = None

    @property
    def is_cancelled(self) -> bool:
        return self.reason is not None

    def cancel(self, reason: str) -> None:
        """Mark the request cancelled (the first reason is kept); wakes ``wait_cancelled``."""
        if self.reason is None:
            self.reason = reason
        if self._event is not None:
            self._event.set()

    async def wait_cancelled(self) -> str:
        """Wait until the request is cancelled; the reason."""
        if self.reason is None:
            if self._event is None:
                self._event = asyncio.Event()
            await self._event.wait()
        assert self.reason is not None
        return self.reason


_CURRENT: contextvars.ContextVar[RequestContext | None] = contextvars.ContextVar(
    "acp_current_request", default=None
)


def current_request() -> RequestContext | None:
    """The request the running handler answers (None outside a request handler)."""
    return _CURRENT.get()


def start_in_context(
    context: RequestContext, handler: Coroutine[Any, Any, Any]
) -> asyncio.Task[Any]:
    """Start ``handler`` in a task of its own with ``context`` current: the task copies the
    current context when it is created, so it sees ``context`` for its lifetime."""
    token = _CURRENT.set(context)
    try:
        return asyncio.get_running_loop().create_task(handler)
    finally:
        _CURRENT.reset(token)
