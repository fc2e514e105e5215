"""Readable logs under attack: one line per event, a bounded number of lines per minute.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

What a client does (goes away mid-body, resets a stream, sends garbage) is not the server's
fault, and a traceback for each is 40 lines: 200 clients dropping mid-request made 5,549
lines. Here each such event is one line, and each kind of event has at most ``burst`` lines
per ``interval`` seconds; the lines left out are counted, and the next line of that kind
says how many. :class:`OneLine` does the same to the records of a logger whose author logs
tracebacks (the HTTP server's error log, asyncio's "Unhandled exception in
client_connected_cb"): the traceback becomes its last frame's place and the exception's
one-line text, and the rate limit applies. Nothing here logs a header: the messages are
the exceptions' own texts, cut to 200 characters.
"""

from __future__ import annotations

import asyncio
import logging
import time
import traceback
from collections.abc import Callable
from typing import Any

__all__ = ["EventLog", "OneLine", "RateLimit", "describe", "exception_handler"]

BURST = 10  # lines per kind and interval
INTERVAL = 60.0  # seconds


class RateLimit:
    """At most ``burst`` events per kind in each ``interval`` seconds (a fixed window)."""

    def __init__(
        self,
        burst: int = BURST,
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._burst = burst
        self._interval = interval
        self._clock = clock
        self._windows: dict[str, tuple[float, int, int]] = {}  # kind -> start, said, left out

    def admit(self, kind: str) -> int | None:
        """None: leave this event out (counted); else how many were left out before it."""
        now = self._clock()
        start, said, left_out = self._windows.get(kind, (now, 0, 0))
        if now - start >= self._interval:
            start, said = now, 0
        if said >= self._burst:
            self._windows[kind] = (start, said, left_out + 1)
            return None
        self._windows[kind] = (start, said + 1, 0)
        if len(self._windows) > 256:  # kinds are few; never one entry per client
            self._windows = {kind: self._windows[kind]}
        return left_out


def describe(exc: BaseException) -> str:
    """One line for an exception: its type, its text (200 characters at most) and where it
    was raised (the innermost frame), enough to tell a client's doing from a bug."""
    text = " ".join(str(exc).split())[:200]
    where = ""
    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
    if frames:
        last = frames[-1]
        place = "/".join(last.filename.replace("\\", "/").split("/")[-2:])  # package/module.py
        where = f" at {place}:{last.lineno}"
    return f"{type(exc).__name__}{': ' + text if text else ''}{where}"


class OneLine(logging.Filter):
    """Turns each record's traceback into one line and rate-limits the records by kind (the
    message and the exception's type)."""

    def __init__(self, limit: RateLimit | None = None) -> None:
        super().__init__()
        self._limit = limit or RateLimit()

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        kind = f"{record.name}:{record.msg}:{type(exc).__name__ if exc else ''}"
        left_out = self._limit.admit(kind)
        if left_out is None:
            return False
        message = record.getMessage()
        if exc is not None:
            message = f"{message}: {describe(exc)}"
        if left_out:
            message = f"{message} ({left_out} more like it not logged)"
        record.msg, record.args = message, None
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


def exception_handler(
    logger: logging.Logger, previous: Callable[[Any, dict[str, Any]], object] | None
) -> Callable[[Any, dict[str, Any]], None]:
    """An asyncio loop exception handler that says an unhandled exception of a connection's
    callback (``client_connected_cb``: the HTTP server's per-socket task) in one
    rate-limited line on ``logger``, and hands every other one to ``previous`` (or the
    loop's default)."""
    limit = RateLimit()

    def handle(loop: Any, context: dict[str, Any]) -> None:
        message = str(context.get("message", ""))
        exc = context.get("exception")
        if isinstance(exc, asyncio.CancelledError) and "StreamReaderProtocol" in message:
            # Python 3.11's stream callback asks a cancelled per-socket task for its
            # exception (fixed in 3.12): a socket still open when the server stopped.
            logger.debug("a connection was cancelled at shutdown")
            return
        if "client_connected_cb" not in message or not isinstance(exc, BaseException):
            if previous is not None:
                previous(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        left_out = limit.admit(type(exc).__name__)
        if left_out is None:
            return
        more = f" ({left_out} more like it not logged)" if left_out else ""
        logger.warning("a client connection failed: %s%s", describe(exc), more)

    return handle


class EventLog:
    """The server's own one-line events (a client gone mid-body, a connection reclaimed),
    each kind at most ``burst`` times per ``interval`` at its level; the ones left out go to
    DEBUG instead, so that a DEBUG log still has every event, once."""

    def __init__(self, logger: logging.Logger, limit: RateLimit | None = None) -> None:
        self._logger = logger
        self._limit = limit or RateLimit()

    def say(self, message: str, *args: object, level: int = logging.INFO) -> None:
        """Log ``message % args`` (one line); ``message`` is the kind (a constant text)."""
        if not self._logger.isEnabledFor(level):
            return  # (DEBUG is below every level: then it is off too)
        left_out = self._limit.admit(message)
        if left_out is None:
            self._logger.debug(message, *args)
        elif left_out:
            self._logger.log(level, message + " (%d more like it, at DEBUG only)", *args, left_out)
        else:
            self._logger.log(level, message, *args)
