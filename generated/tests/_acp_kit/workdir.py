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


def kit_workdir(owner: object, given: str | None, prefix: str) -> tuple[str, Callable[[], None]]:
    """The directory to work in and the call that releases it: removes it (once, whatever is
    in it) when the kit made it here, nothing when the caller gave it. A directory never
    released explicitly goes when ``owner`` is collected, or at interpreter exit."""
    if given:
        return given, lambda: None
    path = tempfile.mkdtemp(prefix=prefix)
    remove = weakref.finalize(owner, shutil.rmtree, path, ignore_errors=True)
    return path, remove
