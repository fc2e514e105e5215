"""Stage 6, output: format emitted Python with black (pinned; its version is in MANIFEST.json).

black is imported on first use (a third of a second): a run whose files are all in black's
layout already, or answered from a cache, never imports it.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from acpgen import disk_cache
from acpgen.errors import AcpgenError
from acpgen.output.work_stats import STATS

if TYPE_CHECKING:
    import black

LINE_LENGTH = 100
TARGET_VERSION = "PY311"


@functools.lru_cache(maxsize=1)
def _mode() -> black.Mode:
    import black

    return black.Mode(line_length=LINE_LENGTH, target_versions={black.TargetVersion[TARGET_VERSION]})


def formatter_id() -> str:
    """Everything that decides black's output: its version, and this module's code, which
    holds the mode (so an edit here can never be answered from a stale cache). Computed
    without importing black."""
    wrapper = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    return f"black {disk_cache.installed_version('black')} format.py {wrapper}"


def format_memoised(relpath: str, source: str) -> str:
    """:func:`format_python` through the black cache (:mod:`acpgen.disk_cache`)."""
    directory = disk_cache.cache_dir()
    if directory is None:
        return format_python(relpath, source)
    entry = disk_cache.key(source, formatter_id())
    hit = disk_cache.load(directory, entry)
    if hit is not None:
        return hit
    text = format_python(relpath, source)
    disk_cache.store(directory, entry, text)
    return text


def format_python(relpath: str, source: str) -> str:
    import black

    STATS.black_runs.append(relpath)
    try:
        # fast=True skips black's AST-equivalence re-parse: we own the input, and
        # `acpgen check` plus the test suite import every generated module anyway.
        return black.format_file_contents(source, fast=True, mode=_mode())
    except black.NothingChanged:
        return source
    except Exception as exc:  # noqa: BLE001 - black raises several unrelated types for bad input
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise AcpgenError(relpath, f"formatter (black) rejected the emitted code: {first}") from None


def format_tree(files: dict[str, str]) -> dict[str, str]:
    return {p: format_python(p, s) if p.endswith(".py") else s for p, s in files.items()}
