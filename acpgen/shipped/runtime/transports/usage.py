"""Whether a connection is in use: when an unused one, or one whose streams dropped, ends.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

Two rules free a connection's slot long before the idle limit (``idle_timeout``):

* **Not used.** A connection that has not shown it is used ``first_use_grace`` seconds after
  it opened is ended: over Streamable HTTP one that opened no stream and sent no message
  after its ``initialize`` (a flood of ``initialize`` POSTs held 1,000 slots for 300 s this
  way), over WebSocket one that sent no message at all.
* **Streams dropped.** A Streamable HTTP connection has no socket of its own: its client is
  there while one of its SSE streams is open. Once its last stream has closed (the network
  dropped, the client went away without a DELETE), it ends when no stream is opened again
  and no message comes within ``stream_drop_grace`` seconds; its sessions are then
  detached, and a new connection of the same principal resumes them (``session/load``),
  as a WebSocket's are when its socket drops.

The clock is the caller's (``time.monotonic()``); the endpoint's reaper asks each tick.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .options import ServerOptions

__all__ = ["NOT_USED", "STREAMS_DROPPED", "Usage"]

NOT_USED = "ending a connection not used within first_use_grace"
STREAMS_DROPPED = "ending an HTTP connection whose streams dropped (stream_drop_grace)"


@dataclass
class Usage:
    """What a connection has done, as far as these rules need."""

    opened_at: float
    websocket: bool = False
    messages: int = 0  # client messages received (initialize is one)
    listened: bool = False  # an SSE stream was opened once (HTTP)
    listening: int = 0  # SSE streams open now (HTTP)
    quiet_since: float | None = field(default=None)  # no stream open since then (HTTP)

    def message(self, now: float) -> None:
        self.messages += 1
        if self.quiet_since is not None:
            self.quiet_since = now  # a message shows the client is there: the grace restarts

    def stream_opened(self) -> None:
        self.listened = True
        self.listening += 1
        self.quiet_since = None

    def stream_closed(self, now: float) -> None:
        self.listening = max(0, self.listening - 1)
        if not self.listening:
            self.quiet_since = now

    def reclaim(self, now: float, options: ServerOptions) -> str | None:
        """Why the connection is to end now (:data:`NOT_USED`, :data:`STREAMS_DROPPED`), or
        None while it is in use."""
        used = self.messages > 0 if self.websocket else self.listened or self.messages > 1
        if not used and now - self.opened_at >= options.first_use_grace:
            return NOT_USED
        quiet = self.quiet_since
        if not self.websocket and quiet is not None and now - quiet >= options.stream_drop_grace:
            return STREAMS_DROPPED
        return None
