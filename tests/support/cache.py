"""acpgen's on-disk cache, placed for one test.

The command line decides where the cache lives from the environment (the edge,
``acpgen.cli.options.cache_root``); code called in-process is told with
``acpgen.disk_cache.use_cache``. A test that wants a cold or private cache sets both, so
that the commands it starts and the functions it calls agree.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from acpgen import disk_cache
from acpgen.cli.options import ENV_CACHE_DIR, ENV_NO_CACHE


def cache_at(monkeypatch: pytest.MonkeyPatch, root: Path | None) -> None:
    """The cache under ``root`` (None: off) for the rest of this test, in-process and in the
    acpgen commands it starts; monkeypatch restores both."""
    monkeypatch.setattr(disk_cache.WHERE, "root", root)
    if root is None:
        monkeypatch.setenv(ENV_NO_CACHE, "1")
    else:
        monkeypatch.delenv(ENV_NO_CACHE, raising=False)
        monkeypatch.setenv(ENV_CACHE_DIR, str(root))
