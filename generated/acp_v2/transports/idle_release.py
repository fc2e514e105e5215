# Edit acpgen/shipped/runtime/transports/idle_release.py, not this file: acpgen generate writes it.
"""Giving memory back to the system when the server has gone idle.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/transports/``).

A busy server grows its heap; once its last connection has closed, Python has freed the
objects but the C allocator keeps the freed pages mapped, so the process's resident size
stays at its peak (``bench/bench_remote.py`` measures it). glibc gives free pages back only
when asked (``malloc_trim``); this asks once each time the server goes idle, after a
collection so that cycles are freed first. Elsewhere (musl, macOS, Windows) there is no
such call and nothing is done. Under ``PYTHONMALLOC=malloc`` every object lives in glibc's
heap, so the trim gives back nearly all of it; under Python's default small-object allocator
the trim reaches only the large blocks (docs/remote.md, "Memory").
"""

from __future__ import annotations

import ctypes
import functools
import gc
import sys
from collections.abc import Callable

__all__ = ["IdleRelease", "release_free_memory"]


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        # The symbols the interpreter is linked with: its C library's, without a search.
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def release_free_memory() -> bool:
    """Collect cycles, then hand the allocator's free pages back; True when it could."""
    gc.collect()
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


class IdleRelease:
    """Calls ``release`` once per busy-to-idle change: when ``observe`` sees no connection
    after having seen some, not on every idle tick (a collection is not free)."""

    def __init__(self, release: Callable[[], object] = release_free_memory) -> None:
        self._release = release
        self._busy = False

    def observe(self, connections: int) -> bool:
        """Note how many connections are open now; True when this call released memory."""
        if connections:
            self._busy = True
            return False
        if not self._busy:
            return False
        self._busy = False
        self._release()
        return True
