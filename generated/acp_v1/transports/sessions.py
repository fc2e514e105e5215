# Edit acpgen/shipped/runtime/transports/sessions.py, not this file: acpgen generate writes it.
"""Which connection holds which session: sessions outlive connections, never cross them.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

A session is attached to the connection that created (``session/new``) or resumed it. While
that connection lives, no other connection reaches it (its id is answered as unknown). When
the connection ends the session is detached, and for ``session_ttl`` seconds a new connection
of the same principal may resume it (``session/load``, or by opening its stream first, as the
RFD's resume flow does). The agent keeps the session's state; this only keeps the keys.

Asking is not taking: a ``session/load`` (``session/resume`` ...) is let through when the
session *may* be attached (:meth:`SessionRegistry.may_attach`: no state changes), and the
session is attached only when the agent's answer is a success (:meth:`attach`). A load that
fails (an id that does not exist yet, say) leaves no claim, so an id the agent creates later
for someone else is theirs.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass

__all__ = ["SessionRegistry"]


@dataclass
class _Holder:
    connection_id: str | None  # None: detached (its connection ended)
    principal: Hashable


class SessionRegistry:
    def __init__(self, ttl: float, capacity: int) -> None:
        self._ttl = ttl
        self._capacity = capacity
        self._holders: dict[str, _Holder] = {}
        self._by_connection: dict[str, set[str]] = {}
        self._detached: OrderedDict[str, float] = OrderedDict()  # oldest first

    def __len__(self) -> int:
        return len(self._holders)

    def attach(self, session_id: str, connection_id: str, principal: Hashable) -> bool:
        """Attach the session to the connection: True when it is new, already this
        connection's, or detached and of the same principal; False when another
        connection holds it or another principal left it."""
        self.expire()
        holder = self._holders.get(session_id)
        if holder is None:
            self._make_room()
            self._holders[session_id] = _Holder(connection_id, principal)
        elif holder.connection_id == connection_id:
            return True
        elif holder.connection_id is not None or holder.principal != principal:
            return False
        else:
            holder.connection_id = connection_id
            del self._detached[session_id]
        self._by_connection.setdefault(connection_id, set()).add(session_id)
        return True

    def may_attach(self, session_id: str, connection_id: str, principal: Hashable) -> bool:
        """Whether :meth:`attach` would succeed now, changing nothing: the session is unknown
        here (the agent decides), this connection's, or detached and of the same principal."""
        self.expire()
        holder = self._holders.get(session_id)
        if holder is None or holder.connection_id == connection_id:
            return True
        return holder.connection_id is None and holder.principal == principal

    def reachable(self, session_id: str, connection_id: str, principal: Hashable) -> bool:
        """Whether the connection may use the session now (its own, or one it may resume)."""
        self.expire()
        holder = self._holders.get(session_id)
        if holder is None:
            return False
        if holder.connection_id is None:
            return holder.principal == principal
        return holder.connection_id == connection_id

    def known(self, session_id: str) -> bool:
        self.expire()
        return session_id in self._holders

    def detach_all(self, connection_id: str) -> None:
        """The connection ended: its sessions wait to be resumed."""
        now = time.monotonic()
        for session_id in self._by_connection.pop(connection_id, ()):
            holder = self._holders.get(session_id)
            if holder is not None and holder.connection_id == connection_id:
                holder.connection_id = None
                self._detached[session_id] = now

    def expire(self) -> None:
        """Forget the detached sessions past ``ttl`` (also run by the endpoint's reaper, so
        that an idle server lets them go without waiting for the next request)."""
        horizon = time.monotonic() - self._ttl
        while self._detached:
            session_id, detached_at = next(iter(self._detached.items()))
            if detached_at >= horizon:
                return
            del self._detached[session_id]
            del self._holders[session_id]

    def _make_room(self) -> None:
        """At capacity, forget the oldest detached session (attached ones always stay)."""
        if len(self._holders) >= self._capacity and self._detached:
            session_id, _ = self._detached.popitem(last=False)
            del self._holders[session_id]
