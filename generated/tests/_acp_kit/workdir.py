# Edit acpgen/shipped/conformance/workdir.py, not this file: acpgen generate writes it.
"""The kit's scratch directory: made when the caller passes none, removed when the kit is done.

A matrix run makes a runner per violation, each with a directory of per-run directories (logs,
scripts, files the peer wrote): left behind, they pile up in the temporary directory. A runner
removes only what it made itself, never a directory its caller passed in.
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections.abc import Callable
from typing import Self


class KitWorkdir:
    """Owns ``self.workdir``: the caller's directory, or one made here with ``prefix``.

    ``close()`` (also on leaving a ``with`` block) removes the directory (once, whatever is in
    it) when the kit made it, nothing when the caller gave it. A directory never released
    explicitly goes when the owner is collected, or at interpreter exit."""

    def __init__(self, given: str | None, prefix: str) -> None:
        self._remove: Callable[[], object] | None = None
        if given:
            self.workdir = given
            return
        self.workdir = tempfile.mkdtemp(prefix=prefix)
        self._remove = weakref.finalize(self, shutil.rmtree, self.workdir, ignore_errors=True)

    def close(self) -> None:
        if self._remove is not None:
            self._remove()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
