# Edit acpgen/shipped/runtime/transports/ledger.py, not this file: acpgen generate writes it.
"""Shares of the server's capacity: connection slots per peer and per principal, and one
budget of bytes for the partial messages of all connections.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

A global limit alone lets one client take all of it (a flood of ``initialize`` POSTs took the
1,000 connection slots, and everyone else got 503). A :class:`SlotLedger` gives each key (a
peer address, a principal) at most its share; a :class:`ByteBudget` bounds the bytes held
for messages still arriving (request bodies being read, WebSocket messages in fragments),
whatever the number of connections holding them. Both are plain counters: taking is
checked and counted at once (nothing awaits in between), giving back is idempotent per
taker only by the caller's discipline (each ``take`` that returned True is matched by
exactly one ``give``; :class:`Slot` and :class:`Charge` do the matching).
"""

from __future__ import annotations

import time
from collections.abc import Hashable

__all__ = ["ByteBudget", "Charge", "Slot", "SlotLedger"]


class SlotLedger:
    """At most ``share`` slots held at once per key (None: no share, only counting)."""

    def __init__(self, share: int | None) -> None:
        self._share = share
        self._held: dict[Hashable, int] = {}

    def held(self, key: Hashable) -> int:
        return self._held.get(key, 0)

    def take(self, key: Hashable | None) -> Slot | None:
        """A slot for ``key``, or None when its share is all held. A None key (no peer
        address, the anonymous principal) always gets one and is not counted."""
        if key is None or self._share is None:
            return Slot(self, None)
        held = self._held.get(key, 0)
        if held >= self._share:
            return None
        self._held[key] = held + 1
        return Slot(self, key)

    def _give(self, key: Hashable) -> None:
        left = self._held.get(key, 0) - 1
        if left > 0:
            self._held[key] = left
        else:
            self._held.pop(key, None)  # an emptied key is forgotten: no entry per past peer

    def __len__(self) -> int:
        """How many keys hold a slot now."""
        return len(self._held)


class Slot:
    """One slot taken from a :class:`SlotLedger`; :meth:`release` gives it back once."""

    __slots__ = ("_key", "_ledger")

    def __init__(self, ledger: SlotLedger, key: Hashable | None) -> None:
        self._ledger: SlotLedger | None = ledger if key is not None else None
        self._key = key

    def release(self) -> None:
        if self._ledger is not None:
            self._ledger._give(self._key)
            self._ledger = None


class ByteBudget:
    """``total`` bytes shared by every partial message, of which one key (a peer) holds
    ``share`` at most (None: no share): one peer's sockets cannot spend the whole budget
    and leave everyone else's bodies refused. :meth:`charge` opens an account."""

    def __init__(self, total: int, share: int | None = None) -> None:
        self.total = total
        self.share = share
        self.used = 0
        self._by_key: dict[Hashable, int] = {}

    def charge(self, key: Hashable | None = None) -> Charge:
        """An account for one partial message of ``key`` (None: counted in the total only)."""
        return Charge(self, key)

    def held(self, key: Hashable) -> int:
        return self._by_key.get(key, 0)

    def _take(self, key: Hashable | None, count: int) -> bool:
        if self.used + count > self.total:
            return False
        if key is not None and self.share is not None:
            if self._by_key.get(key, 0) + count > self.share:
                return False
            self._by_key[key] = self._by_key.get(key, 0) + count
        self.used += count
        return True

    def _give(self, key: Hashable | None, count: int) -> None:
        self.used -= count
        if key is not None and key in self._by_key:
            left = self._by_key[key] - count
            if left > 0:
                self._by_key[key] = left
            else:
                del self._by_key[key]  # no entry per past peer


class Charge:
    """The bytes one partial message holds of a :class:`ByteBudget`: :meth:`add` as they
    arrive (False, adding nothing, when the budget or its key's share has no room for them),
    :meth:`clear` once the message is whole or abandoned (idempotent). ``since``: when the
    message now held began (``time.monotonic()``; None while nothing is held), for a
    deadline on messages that never end."""

    __slots__ = ("_budget", "_key", "held", "since")

    def __init__(self, budget: ByteBudget, key: Hashable | None = None) -> None:
        self._budget = budget
        self._key = key
        self.held = 0
        self.since: float | None = None

    def add(self, count: int) -> bool:
        if not self._budget._take(self._key, count):
            return False
        if not self.held:
            self.since = time.monotonic()
        self.held += count
        return True

    def clear(self) -> None:
        self._budget._give(self._key, self.held)
        self.held = 0
        self.since = None
