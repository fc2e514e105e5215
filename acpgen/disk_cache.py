"""The on-disk cache: content-addressed entries in the user's cache folder, one folder a kind.

Every memo of a pure function goes here, keyed by the SHA-256 of everything that decides
its result, like ccache: black's output (``black``: source, black version, mode), jinja2's
compiled templates (``jinja-<version>``), the whole generated tree (``tree``,
:mod:`acpgen.output.memo`), the import proof (``proof``) and the metaschema pass
(``metaschema``). It lives outside the repository
(``~/.cache/acpgen`` unless told otherwise), so a commit cannot plant entries; each entry
carries the SHA-256 of its text and a damaged entry is ignored. Any cache error (read-only
home, full disk) silently falls back to computing the result.

Where it lives is decided once, at the edge: the command line reads ``$ACPGEN_CACHE_DIR``,
``$XDG_CACHE_HOME`` and ``$ACPGEN_NO_CACHE`` (:mod:`acpgen.cli.options`) and calls
:func:`use_cache`; this module reads no environment. A library caller that says nothing gets
the default folder.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

MAX_ENTRIES = 512  # ~10 generations of ~50 files; the least recently used are pruned


@dataclass
class Where:
    # The cache's root folder; None: caching is off. Default: the user's cache folder.
    root: Path | None


WHERE = Where(Path(os.path.expanduser("~")) / ".cache" / "acpgen")


def use_cache(root: Path | None) -> Path | None:
    """Keep the caches under ``root`` from now on (None: no cache); returns the previous root."""
    previous, WHERE.root = WHERE.root, root
    return previous


def cache_dir(kind: str = "black") -> Path | None:
    """The cache folder for one kind of memo (``black``, ``metaschema``), or None when off."""
    return None if WHERE.root is None else WHERE.root / kind


@functools.lru_cache(maxsize=8)
def installed_version(dist: str) -> str:
    """The installed version of a distribution, for cache keys.

    Read from the name of its ``<dist>-<version>.dist-info`` folder beside the package, which
    costs a directory listing; ``importlib.metadata`` (a tenth of a second to import) is the
    fallback when that is ambiguous."""
    spec = importlib.util.find_spec(dist)
    if spec is not None and spec.origin:
        site = Path(spec.origin).resolve().parent.parent
        found = [p.name for p in site.glob(f"{dist}-*.dist-info")]
        if len(found) == 1:
            return found[0][len(dist) + 1: -len(".dist-info")]
    from importlib.metadata import version

    return version(dist)


def key(source: str, formatter_id: str) -> str:
    return hashlib.sha256(f"{formatter_id}\n".encode() + source.encode("utf-8")).hexdigest()


def load(directory: Path | None, entry: str) -> str | None:
    if directory is None:
        return None
    try:
        blob = (directory / entry).read_bytes()
    except OSError:
        return None
    digest, _, text = blob.partition(b"\n")
    if hashlib.sha256(text).hexdigest().encode() != digest:
        return None  # torn or damaged entry: recompute
    try:
        os.utime(directory / entry)  # recently used: pruned last
    except OSError:
        pass
    return text.decode("utf-8")


def store(directory: Path | None, entry: str, text: str, limit: int = MAX_ENTRIES) -> None:
    if directory is None:
        return
    data = text.encode("utf-8")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
        with os.fdopen(fd, "wb") as handle:
            handle.write(hashlib.sha256(data).hexdigest().encode() + b"\n" + data)
        os.replace(tmp, directory / entry)  # readers see a whole entry or none
        _prune(directory, limit)
    except OSError:
        return


def _prune(directory: Path, limit: int) -> None:
    entries = [p for p in directory.iterdir() if not p.name.startswith(".")]
    if len(entries) <= limit:
        return
    entries.sort(key=lambda p: (p.stat().st_mtime, p.name))
    for old in entries[: len(entries) - limit]:
        old.unlink(missing_ok=True)
